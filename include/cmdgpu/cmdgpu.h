/* cmdgpu: umbrella header. */
#ifndef CMDGPU_H
#define CMDGPU_H
#include "common.h"
#include "fault.h"
#include "device.h"
#include "mem.h"
#include "trace.h"
#include "image.h"
#include "asm.h"
#include "nv.h"
#include "nv_macro.h"
#include "nv3d.h"
#include "check.h"
#include "nv_check.h"
#include "nv_sass.h"
#include "radeon.h"
#include "radeon_check.h"
#include "vc4.h"
#include "vc4_check.h"
#include "vc4_qpu.h"
#include "capture.h"
#include "capfile.h"
#endif
