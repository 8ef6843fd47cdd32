#include <stdio.h>
#include "cmdgpu/cmdgpu.h"
int main(void) { printf("cmdgpu %s\n", cg_version()); return 0; }
