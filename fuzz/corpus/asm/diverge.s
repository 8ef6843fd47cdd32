.org end ^ 1
end:
