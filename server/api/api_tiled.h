/* api_tiled.h - /api/layout/access for a thread layout of several warp
 * instructions (a CuTe tiled copy's print, thread_cute.c): every instruction
 * of the tile costed on the pasted layout, and the one the request picks.
 * api_tensor.c calls it; it reads requests with api_read.c and costs with
 * access.c. */
#ifndef SZ_API_TILED_H
#define SZ_API_TILED_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/error.h"
#include "model/instr.h"
#include "layout/layout.h"
#include "layout/thread.h"

/* The instruction of `root` (op, bytes, matrices, trans, banks: the print's
 * atom fixes what it says), every warp instruction of th (THR_TV) placed at
 * `origin` on layout l (offsets `off`), each costed into `tiled` as the JSON
 * member `,"tiled":{...}`; the one of index `instruction` (default 0) into
 * *in (offsets set, instr_check passed) and its lane coordinates into c.
 * Errors name "thread", "instruction", "op", "bytes" or "origin". */
int api_tiled_instr(const cJSON *root, const struct lay *l, const uint32_t *off, struct thr *th,
                    const int64_t *origin, struct instr *in, int64_t c[][LAY_MAX_RANK],
                    struct buf *tiled, struct sz_error *err);

#endif
