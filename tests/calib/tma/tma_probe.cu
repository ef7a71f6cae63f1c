// tma_probe.cu: where the copy engine puts each 16-byte piece of a box, issue 23
// part 2.  For each stdin line "swizzle elem_bytes inner_elems rows depth" it
// encodes a tensor map and copies the box at (0,0,0) into 1024-byte-aligned
// shared memory filled with a poison, through the measurement tool's own probe
// (cuda/tma.cu: global tensor 512 B x 512 rows x 4 planes, every 16-byte chunk
// tagged with its own index), and prints where each chunk of the box landed:
//   swz elem inner rows depth : enc=<CUresult> n=<chunks written> | p0 p1 ...
// p_i: the 16-byte slot (shared byte offset / 16) of the box's i-th chunk in
// box order (plane, row, chunk); -1 = not found.  "swizzle" is the raw
// CUtensorMapSwizzle value (the 128B_ATOM_* modes included).  It models nothing.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o tma_probe tma_probe.cu ../../../cuda/tma.cu
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

#include "../../../cuda/tma.h"

int main()
{
    static tma_result r;
    int swz, elem, inner, rows, depth;
    while (scanf("%d %d %d %d %d", &swz, &elem, &inner, &rows, &depth) == 5) {
        tma_request q;
        memset(&q, 0, sizeof q);
        q.swizzle_enum = swz;
        q.elem_bytes = elem;
        q.rank = depth > 1 ? 3 : 2;
        q.box[0] = (uint32_t)inner, q.box[1] = (uint32_t)rows, q.box[2] = (uint32_t)depth;
        printf("%d %d %d %d %d :", swz, elem, inner, rows, depth);
        if ((size_t)inner * elem * rows * depth > TMA_WINDOW / 2) {
            printf(" enc=? skipped\n");     // never asked: configs.txt stays within the window
            fflush(stdout);
            continue;
        }
        cudaError_t e = tma_place(&q, 10.0, &r);
        if (e != cudaSuccess) { printf(" launch=%s\n", cudaGetErrorString(e)); fflush(stdout); return 6; }
        printf(" enc=%d", r.encode);
        if (r.encode != 0) { printf(" skipped\n"); fflush(stdout); continue; }
        printf(" n=%d |", r.written);
        for (int i = 0; i < r.nchunks; i++) printf(" %d", r.slots[i]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
