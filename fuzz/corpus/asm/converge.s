op end
.zero 254
end:
op end
