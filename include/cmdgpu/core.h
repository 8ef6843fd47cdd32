/* cmdgpu: the core's headers without any family's (what src/core and
 * family-neutral code include; cmdgpu.h adds the families). */
#ifndef CMDGPU_CORE_H
#define CMDGPU_CORE_H
#include "common.h"
#include "fault.h"
#include "device.h"
#include "mem.h"
#include "trace.h"
#include "image.h"
#include "asm.h"
#include "check.h"
#include "capture.h"
#include "capfile.h"
#include "scene.h"
#include "family.h"
#endif
