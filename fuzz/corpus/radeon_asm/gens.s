.gen evergreen
MODE_CONTROL 1
SET_RESOURCE 0x30000, 1, 2
DRAW_INDIRECT 0
.gen r500
packet0.one 0x1500, 1
packet1 0x1510, 0x1520, 3, 4
