/* nv family: the kernel's software object (class 0x906e, "nvsw"), which
 * Mesa's nvc0 binds on subchannel 7 and whose methods the kernel takes, as
 * nouveau's does (Linux nvkm/engine/sw/chan.c nvkm_sw_chan_mthd): SET_OBJECT
 * (0x0000) and the non-stall event (0x0500) are handled; any other is
 * logged as the kernel logs a PBDMA DEVICE error, and the channel goes on
 * (gk104_fifo's pbdma interrupt: the DEVICE bit is not one that kills the
 * channel). The kernel interface (kernel.c) and the replay of a session it
 * recorded (scene.c, config nv.nvsw) both answer through it. */
#include "nv/scene.h"

bool nv_nvsw_method(FILE *log, const char *prefix, int channel, unsigned subch, uint32_t m,
                    uint32_t v)
{
    if (m == 0x0000 || m == 0x0500)
        return true;
    if (log)
        fprintf(log, "%sPBDMA0: 00800000 [DEVICE] ch %d subc %u mthd %04x data %08x (a software "
                "method the kernel does not take)\n", prefix, channel, subch, m, v);
    return true;
}
