/* PLACEHOLDER replaced by the memory-model implementation. */
#include "internal.h"
void cg__vas_teardown(cg_device *dev) { (void)dev; }
void cg__mem_teardown(cg_device *dev) { (void)dev; }
