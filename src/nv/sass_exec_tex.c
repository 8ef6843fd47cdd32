/* Maxwell warp interpreter: texture instructions. */
#include "sass_exec_internal.h"

int nv_xtex(xctx *c)
{
    return nv_xunsupported(c);
}
