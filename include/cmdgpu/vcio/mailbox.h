/* `#include "mailbox.h"` for programs written against the Pi userland's
 * hello_fft mailbox.h: the same declarations, from libcmdgpu-vcio. */
#ifndef CMDGPU_VCIO_MAILBOX_H
#define CMDGPU_VCIO_MAILBOX_H
#include "../vcio.h"
#endif
