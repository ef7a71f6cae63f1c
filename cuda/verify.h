/* verify.h: the layout round trip on the GPU. Writes a tile of distinct
 * values into shared memory through each preset swizzle and reads it back
 * through the same swizzle, with the one address formula of
 * server/model/swizzle.h; the host then checks the physical image against the
 * same formula and that no address was written twice (a bijection). */
#ifndef SZ_VERIFY_H
#define SZ_VERIFY_H

#include <cuda_runtime.h>

enum { VERIFY_PRESETS = 5 };

struct verify_result {
    int ok;                               /* no mismatch anywhere */
    int count;                            /* swizzles checked */
    char names[VERIFY_PRESETS][24];       /* "Swizzle<3,4,3>" */
    long elements;                        /* elements written and read, all swizzles */
    long mismatches;                      /* all kinds, all swizzles */
    long per[VERIFY_PRESETS];             /* mismatches per swizzle */
};

/* Runs the check on the current device. cudaSuccess and *r filled, or the
 * CUDA error (cudaErrorLaunchTimeout after timeout_s) with nothing else. */
cudaError_t verify_presets(struct verify_result *r, double timeout_s);

#endif
