/* instr.h - THE instruction schema: one warp-wide shared-memory instruction
 * (op, width, matrices, .trans, bank geometry, 32 lane offsets), its defaults,
 * its validity and what a GPU can run.  Server, model, tool (cuda/) and tests
 * share it, so a body the API accepts is a body the tool accepts.
 * Pure core: no I/O, no allocation, no JSON (api_read.c reads it from JSON). */
#ifndef SZ_INSTR_H
#define SZ_INSTR_H

#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define INSTR_LANES 32
#define INSTR_INACTIVE UINT32_MAX   /* offset of a lane that does not take part */
#define INSTR_MAX_BANKS 128
#define INSTR_OFFSET_LIMIT 0x80000000u  /* offsets are byte offsets in [0, 2^31) */

/* Every CUDA GPU that has ldmatrix has at most 228 KiB of shared memory per
 * block (sm_90: 227 KiB usable + 1 KiB reserved); the tool checks this much
 * before it looks for a device, and the device's own limit after. */
#define INSTR_SMEM_HARD_LIMIT (228u * 1024u)

/* The measurement tool shifts accesses 1..7 of each iteration of a matrix
 * pattern by 128..896 bytes (cuda/probe.cu, LDSM1), so a matrix pattern must
 * leave this much shared memory free behind it on the device. */
#define INSTR_MATRIX_SPARE (128u * 7u)

enum instr_op { INSTR_LD, INSTR_ST, INSTR_LDMATRIX, INSTR_STMATRIX, INSTR_NOPS };

struct instr {
    enum instr_op op;
    uint32_t bytes;                 /* ld/st: 1, 2, 4, 8 or 16; matrix ops: 16 (one row) */
    uint32_t matrices;              /* ldmatrix/stmatrix: 1, 2 or 4 (.x1/.x2/.x4); else 1 */
    int trans;                      /* .trans: matrix ops only; moves registers, not addresses */
    uint32_t bank_bytes, banks;     /* 4 and 32 on every NVIDIA GPU since Kepler */
    uint32_t offsets[INSTR_LANES];  /* byte offsets, or INSTR_INACTIVE */
};

/* The wire name ("ld", "st", "ldmatrix", "stmatrix"); "?" out of range. */
const char *instr_op_name(enum instr_op op);

/* Look `name` up; fails on "op" naming the allowed values. */
int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err);

/* ldmatrix and stmatrix: warp-wide (.sync.aligned), 16-byte rows, .xN, .trans. */
int instr_is_matrix(enum instr_op op);

/* Reset `in` to the defaults of `op`: bytes 4 (16 for matrix ops), matrices 1
 * (4 for matrix ops), no .trans, 32 banks of 4 bytes, every lane inactive. */
void instr_defaults(struct instr *in, enum instr_op op);

/* Bytes one lane moves: `bytes` for ld/st, 16 for a matrix row. */
uint32_t instr_lane_bytes(const struct instr *in);

/* Lanes whose addresses the instruction uses: 8 x matrices for the matrix ops
 * (PTX ISA, ldmatrix: lane t gives row t%8 of matrix t/8), else all 32. */
uint32_t instr_used_lanes(const struct instr *in);

/* The instruction's shape, offsets aside: op, width and matrices of the op
 * (matrix ops: bytes 16; ld/st: matrices 1, no .trans) and bank geometry
 * (bank_bytes 1..32, banks 1..128, powers of two).  Names the field. */
int instr_check_shape(const struct instr *in, struct sz_error *err);

/* Everything the model needs to hold: op, width and matrices of the op (matrix
 * ops: bytes 16; ld/st: matrices 1, no .trans), bank geometry (bank_bytes
 * 1..32, banks 1..128, powers of two), every active offset below 2^31 and
 * aligned to its access, matrix ops' lanes 0..8N-1 all active.  Names the
 * field ("bytes", "offsets[7]", ...). */
int instr_check(const struct instr *in, struct sz_error *err);

/* What a GPU can run: the device's shared memory per block (0 = unknown: use
 * INSTR_SMEM_HARD_LIMIT) and compute capability as major*10+minor (0 = unknown). */
struct instr_gpu {
    uint32_t smem_bytes;
    int cc;
};

/* instr_check, plus what running it on `gpu` needs: 32 banks of 4 bytes, at
 * least one active lane, every access inside the shared memory (less
 * INSTR_MATRIX_SPARE for matrix ops), ldmatrix on cc >= 7.5 and stmatrix on
 * cc >= 9.0.  `gpu` may be NULL (nothing known of the device).  Names the field. */
int instr_check_gpu(const struct instr *in, const struct instr_gpu *gpu,
                    struct sz_error *err);

/* Bytes of shared memory the instruction touches: the highest end of an
 * active lane's access, rounded up to 16; at least 16. */
uint32_t instr_smem_bytes(const struct instr *in);

#ifdef __cplusplus
}
#endif

#endif
