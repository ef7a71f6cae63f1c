/* instr.h - THE instruction schema: one warp-wide shared-memory instruction
 * (op, width, matrices, .trans, atomic func and type, bank geometry, 32 lane
 * offsets), its defaults, its validity and what a GPU can run.  Server,
 * model, tool (cuda/) and tests share it, so a body the API accepts is a
 * body the tool accepts.  Pure core: no I/O, no allocation, no JSON
 * (api_read.c reads it from JSON). */
#ifndef SZ_INSTR_H
#define SZ_INSTR_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define INSTR_LANES 32
#define INSTR_INACTIVE UINT32_MAX   /* offset of a lane that does not take part */

/* Every CUDA GPU that has ldmatrix has at most 228 KiB of shared memory per
 * block (sm_90: 227 KiB usable + 1 KiB reserved); the tool checks this much
 * before it looks for a device, and the device's own limit after. */
#define INSTR_SMEM_HARD_LIMIT (228u * 1024u)

/* The measurement tool shifts accesses 1..7 of each iteration of a matrix
 * pattern by 128..896 bytes (cuda/probe.cu, LDSM1), so a matrix pattern must
 * leave this much shared memory free behind it on the device. */
#define INSTR_MATRIX_SPARE (128u * 7u)

/* The measurement tool issues the 8 atomics of an iteration 256 bytes apart
 * (cuda/probe.cu: two bank rows, so the same banks and the same address
 * equalities, but no dependence between them): 7 x 256 bytes stay free. */
#define INSTR_ATOMIC_SPARE (256u * 7u)

enum instr_op { INSTR_LD, INSTR_ST, INSTR_LDMATRIX, INSTR_STMATRIX, INSTR_ATOM, INSTR_RED,
                INSTR_NOPS };

/* atom.shared / red.shared: the operation and the operand type (PTX ISA). */
enum instr_func { INSTR_ADD, INSTR_MIN, INSTR_MAX, INSTR_INC, INSTR_DEC, INSTR_AND, INSTR_OR,
                  INSTR_XOR, INSTR_EXCH, INSTR_CAS, INSTR_NFUNCS };
enum instr_type { INSTR_U32, INSTR_S32, INSTR_B32, INSTR_F32, INSTR_U64, INSTR_S64, INSTR_B64,
                  INSTR_F64, INSTR_F16X2, INSTR_BF16X2, INSTR_NTYPES };

struct instr {
    enum instr_op op;
    uint32_t bytes;                 /* ld/st: 1, 2, 4, 8 or 16; matrix ops: 16 (one row) */
    uint32_t matrices;              /* ldmatrix/stmatrix: 1, 2 or 4 (.x1/.x2/.x4); else 1 */
    int trans;                      /* .trans: matrix ops only; moves registers, not addresses */
    uint32_t bank_bytes, banks;     /* 4 and 32 on every NVIDIA GPU since Kepler */
    uint32_t offsets[INSTR_LANES];  /* byte offsets, or INSTR_INACTIVE */
    enum instr_func func;           /* atom/red: the operation; else INSTR_ADD, unused */
    enum instr_type type;           /* atom/red: the operand type (bytes follows it) */
};

/* The wire name ("ld", "st", "ldmatrix", "stmatrix", "atom", "red"); "?" out
 * of range.  Likewise the func ("add", ...) and type ("u32", ...) names. */
const char *instr_op_name(enum instr_op op);
const char *instr_func_name(enum instr_func f);
const char *instr_type_name(enum instr_type t);

/* Look `name` up; fails on "op" ("func", "type") naming the allowed values. */
int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err);
int instr_func_parse(const char *name, enum instr_func *f, struct sz_error *err);
int instr_type_parse(const char *name, enum instr_type *t, struct sz_error *err);

/* ldmatrix and stmatrix: warp-wide (.sync.aligned), 16-byte rows, .xN, .trans. */
int instr_is_matrix(enum instr_op op);

/* atom.shared and red.shared: one func on one type per lane, any lanes. */
int instr_is_atomic(enum instr_op op);

/* Bytes of one operand of `t`: 8 for the 64-bit types, else 4. */
uint32_t instr_type_bytes(enum instr_type t);

/* Whether ptxas accepts `op`.shared.`func`.`type` for sm_90 (PTX ISA, checked
 * form by form: tests/calib/atomics/ptxas_sm90.json).  0 for non-atomic ops. */
int instr_form_allowed(enum instr_op op, enum instr_func f, enum instr_type t);

/* Whether sm_90 runs the form as one native ATOMS instruction (else ptxas
 * emits a load and a compare-and-swap retry loop, ATOMS.CAST.SPIN; the SASS
 * column of tests/data/atomics_*.json).  0 for forms not allowed. */
int instr_form_native(enum instr_op op, enum instr_func f, enum instr_type t);

/* The PTX form of an atomic, "atom.add.u32" (the line format's op token),
 * into buf (cap >= 24); the op name for other ops. */
const char *instr_form_name(const struct instr *in, char *buf, size_t cap);

/* Read "atom.add.u32", "red.min.s32", or a bare op name into `in` (through
 * instr_defaults): the func and type of an atomic default to add and u32, and
 * bytes follows the type.  Fails on "op", "func" or "type". */
int instr_form_parse(const char *name, struct instr *in, struct sz_error *err);

/* Reset `in` to the defaults of `op`: bytes 4 (16 for matrix ops), matrices 1
 * (4 for matrix ops), no .trans, func add and type u32 (atomics), 32 banks of
 * 4 bytes, every lane inactive. */
void instr_defaults(struct instr *in, enum instr_op op);

/* Bytes one lane moves: `bytes` for ld/st, 16 for a matrix row. */
uint32_t instr_lane_bytes(const struct instr *in);

/* Lanes whose addresses the instruction uses: 8 x matrices for the matrix ops
 * (PTX ISA, ldmatrix: lane t gives row t%8 of matrix t/8), else all 32. */
uint32_t instr_used_lanes(const struct instr *in);

/* The instruction's shape, offsets aside: op, width and matrices of the op
 * (matrix ops: bytes 16; ld/st: matrices 1, no .trans; atomics: a form
 * instr_form_allowed accepts, bytes = instr_type_bytes, matrices 1, no
 * .trans) and bank geometry (bank_bytes 1..32, banks 1..128, powers of two).
 * Names the field ("func" or "type" for a form PTX lacks, saying which are
 * allowed). */
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
 * INSTR_MATRIX_SPARE for matrix ops, INSTR_ATOMIC_SPARE for atomics),
 * ldmatrix on cc >= 7.5, stmatrix and bf16x2 atomics on cc >= 9.0.  `gpu`
 * may be NULL (nothing known of the device).  Names the field. */
int instr_check_gpu(const struct instr *in, const struct instr_gpu *gpu,
                    struct sz_error *err);

/* Bytes of shared memory the instruction touches: the highest end of an
 * active lane's access, rounded up to 16; at least 16. */
uint32_t instr_smem_bytes(const struct instr *in);

#ifdef __cplusplus
}
#endif

#endif
