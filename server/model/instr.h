/* instr.h - THE instruction schema: the instruction kinds (instr_kinds[], one
 * row per kind, which every layer reads) and one warp-wide shared-memory
 * instruction (op, width, matrices, .trans, atomic func and type, banks, 32
 * lane offsets): defaults, validity, what a GPU can run.  Server, model, tool
 * and tests share it: a body the API accepts is one the tool accepts.  Pure
 * core: no I/O, no allocation, no JSON (api_read.c, instr_json.c do that). */
#ifndef SZ_INSTR_H
#define SZ_INSTR_H

#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"
#include "base/error.h"

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
 * leave this much shared memory free behind it on the device (the matrix
 * rows' smem_spare; probe.cu checks it against its own shift). */
#define INSTR_MATRIX_SPARE (128u * 7u)

/* The measurement tool issues the 8 atomics of an iteration 256 bytes apart
 * (cuda/probe.cu: two bank rows, so the same banks and the same address
 * equalities, but no dependence between them): 7 x 256 bytes stay free (the
 * atomic rows' smem_spare). */
#define INSTR_ATOMIC_SPARE (256u * 7u)

/* The measurement tool issues the 8 cp.async of an iteration with shared
 * offsets 4 KiB apart and global sources 64 KiB apart (cuda/kernels.cu, the
 * method of tests/calib/cp_async/cp_probe.cu, which measured
 * tests/data/cp_async_*: the same banks, lines and equalities, other lines of
 * memory); its global source holds INSTR_COPY_GLOBAL_LIMIT bytes of offsets. */
#define INSTR_COPY_SPARE (4096u * 7u)
#define INSTR_COPY_SHIFT_GLOBAL 65536u
#define INSTR_COPY_GLOBAL_LIMIT (16u << 20)

/* The instruction kinds, in the order of instr_kinds[] (instr.c).  Adding one:
 * README, "Adding an instruction kind". */
enum instr_op { INSTR_LD, INSTR_ST, INSTR_LDMATRIX, INSTR_STMATRIX, INSTR_ATOM, INSTR_RED,
                INSTR_CP_ASYNC, INSTR_NOPS };

/* What a kind does (instr_kind.flags). */
enum instr_flag {
    INSTR_F_LOAD = 1u << 0,     /* moves shared memory into registers, writes none:
                                 * lanes on one word broadcast, vector lanes pair
                                 * (access.c, rules 2-3), ncu's hardware counter
                                 * equals the wavefronts */
    INSTR_F_STORE = 1u << 1,    /* writes shared memory and reads none of it: st,
                                 * stmatrix from registers, cp.async from global
                                 * (the page's write side lists them) */
    INSTR_F_MATRIX = 1u << 2,   /* warp-wide 8x16-byte rows (.sync.aligned), .xN, .trans */
    INSTR_F_ATOMIC = 1u << 3,   /* read-modify-write (neither load nor store):
                                 * func and type, no broadcast (atomic.c) */
    INSTR_F_ASYNC = 1u << 4     /* completes after it issues: cp.async (issue 23; TMA not
                                 * a kind yet) */
};

/* The request fields a kind takes besides op and offsets (instr_kind.operands):
 * the page's form shows an input for each, the API refuses the others ("warps"
 * only on the routes that cost a launch: /api/conflicts and /api/measure). */
enum instr_operand {
    INSTR_O_BYTES = 1u << 0,    /* "bytes": one of the kind's widths */
    INSTR_O_MATRICES = 1u << 1, /* "matrices": .x1/.x2/.x4 */
    INSTR_O_TRANS = 1u << 2,    /* "trans": .trans */
    INSTR_O_FUNC = 1u << 3,     /* "func": the atomic operation */
    INSTR_O_TYPE = 1u << 4,     /* "type": the operand type (bytes follows it) */
    INSTR_O_VALUE = 1u << 5,    /* "value": the atomic's operand as ptxas sees it */
    INSTR_O_GUARD = 1u << 6,    /* "guard": a branch around each atomic or none */
    INSTR_O_CACHE = 1u << 7,    /* "cache": cp.async .ca or .cg */
    INSTR_O_GLOBAL = 1u << 8,   /* "global_offsets": cp.async's global side */
    INSTR_O_WARPS = 1u << 9     /* "warps": the tool's launch, 1..32 (atomics' cycles, A14) */
};
#define INSTR_NOPERANDS 10

/* Nsight Compute's metrics for a kind (NULL: none exists, or none was ever
 * measured, so none is named).  Every name is one a file of tests/data
 * measured (test_access checks it). */
struct instr_ncu {
    const char *source;     /* the Source page's wavefronts, per SASS instruction
                             * (smsp__sass_l1tex_..._op_*): source_wavefronts */
    const char *wavefronts; /* the hardware counter (l1tex__..._op_*): wavefronts */
    const char *conflicts;  /* the hardware bank-conflict counter */
    const char *executed;   /* instructions executed, the divisor (NULL: ncu has
                             * none; the tool divides by the launched count) */
    const char *sass_executed;  /* the Source page's own execution count
                             * (smsp__sass_inst_executed_op_*: warps with a lane on;
                             * the tool's --ptx counter pass reads these) */
};

/* One instruction kind: everything the layers need to know of it. */
struct instr_kind {
    const char *name;       /* wire name: "ld" */
    const char *ptx;        /* the PTX instruction: "ld.shared" */
    const char *label;      /* what people read: "ld (load)" */
    const char *short_name; /* the tool's table column: "ld", "ldsm" */
    const char *sass;       /* its SASS opcode as the Source page prints it, before the
                             * first '.': "LDS", "LDSM" (atom and red: "ATOMS") */
    unsigned flags;         /* enum instr_flag */
    unsigned operands;      /* enum instr_operand */
    uint32_t widths;        /* bit w: w bytes per lane allowed (w = 1..16) */
    uint32_t default_bytes;
    uint32_t matrices;      /* bit n: .xn allowed; 0: not a matrix kind (matrices 1) */
    uint32_t default_matrices;
    int min_cc;             /* lowest compute capability, major*10+minor; 0: any */
    uint32_t smem_spare;    /* shared memory the tool's shifted copies need behind
                             * a pattern (INSTR_*_SPARE) */
    struct instr_ncu ncu;
};

/* The row of `op`; NULL out of range.  instr_kinds[op] for a valid op. */
extern const struct instr_kind instr_kinds[INSTR_NOPS];
const struct instr_kind *instr_kind(enum instr_op op);

/* The wire name of an operand bit ("bytes", ...); "?" for anything else. */
const char *instr_operand_name(unsigned operand);

/* The wire names of the kinds with any bit of `flags` in their flags or any
 * of `operands` in their operands (both 0: every kind), for a sentence:
 * sep "/" gives "ldmatrix/stmatrix"; sep NULL gives "atom and red" (", "
 * and " and " before the last); `quoted` puts each in double quotes.  Into
 * buf (cut at cap); returns buf. */
const char *instr_kind_names(unsigned flags, unsigned operands, int quoted, const char *sep,
                             char *buf, size_t cap);

/* atom.shared / red.shared: the operation and the operand type (PTX ISA). */
enum instr_func { INSTR_ADD, INSTR_MIN, INSTR_MAX, INSTR_INC, INSTR_DEC, INSTR_AND, INSTR_OR,
                  INSTR_XOR, INSTR_EXCH, INSTR_CAS, INSTR_NFUNCS };
enum instr_type { INSTR_U32, INSTR_S32, INSTR_B32, INSTR_F32, INSTR_U64, INSTR_S64, INSTR_B64,
                  INSTR_F64, INSTR_F16X2, INSTR_BF16X2, INSTR_NTYPES };

/* An atomic's operand as ptxas sees it (issue 23): a register that differs by
 * lane (the default), one value for the whole warp, or a constant it can read
 * (an immediate, or a literal in C++).  It picks the SASS: a red.add of the
 * constant 1 is ATOMS.POPC.INC, which merges lanes (atomic_form.h). */
enum instr_value { INSTR_VALUE_LANE, INSTR_VALUE_UNIFORM, INSTR_VALUE_CONST };

/* Whether ptxas branches around each atomic: "each" (setp + @p, or an if
 * around every atomic: BSSY + BRA per ATOMS; the default, and how the tool and
 * the issue-17 sweeps measured), "none" (no branch: unconditional, every lane
 * on; the tool's other kernel) or "once" (one `if` around several atomics:
 * tests/calib/atomic_forms' *_if forms; modelled, not a kernel of the tool). */
enum instr_guard { INSTR_GUARD_EACH, INSTR_GUARD_NONE, INSTR_GUARD_ONCE };

struct instr {
    enum instr_op op;
    uint32_t bytes;                 /* ld/st: 1, 2, 4, 8 or 16; matrix ops: 16 (one row) */
    uint32_t matrices;              /* ldmatrix/stmatrix: 1, 2 or 4 (.x1/.x2/.x4); else 1 */
    int trans;                      /* .trans: matrix ops only; moves registers, not addresses */
    uint32_t bank_bytes, banks;     /* 4 and 32 on every NVIDIA GPU since Kepler */
    uint32_t offsets[INSTR_LANES];  /* byte offsets, or INSTR_INACTIVE */
    enum instr_func func;           /* atom/red: the operation; else INSTR_ADD, unused */
    enum instr_type type;           /* atom/red: the operand type (bytes follows it) */
    enum instr_value value_kind;    /* atom/red: the operand's kind (default lane) */
    int64_t value;                  /* INSTR_VALUE_CONST: the constant, -2^31 .. 2^32-1 */
    enum instr_guard guard;         /* atom/red: a branch around each atomic or none */
    int cg;                         /* cp.async: .cg (L2 only, 16 bytes); 0 = .ca */
    uint32_t global_offsets[INSTR_LANES];  /* cp.async: each lane's global byte offset
                                     * (default t * bytes: contiguous); 0 for other ops */
};

/* The wire name ("ld", "st", "ldmatrix", "stmatrix", "atom", "red", "cp.async"); "?" out
 * of range.  Likewise the func ("add", ...) and type ("u32", ...) names. */
const char *instr_op_name(enum instr_op op);
const char *instr_func_name(enum instr_func f);
const char *instr_type_name(enum instr_type t);

/* Look `name` up; fails on "op" ("func", "type") naming the allowed values. */
int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err);
int instr_func_parse(const char *name, enum instr_func *f, struct sz_error *err);
int instr_type_parse(const char *name, enum instr_type *t, struct sz_error *err);

/* The kind's flags: INSTR_F_MATRIX (ldmatrix, stmatrix: warp-wide
 * .sync.aligned, 16-byte rows, .xN, .trans), INSTR_F_ATOMIC (atom, red: one
 * func on one type per lane, any lanes), INSTR_F_LOAD; 0 out of range. */
int instr_is_matrix(enum instr_op op);
/* cp.async (LDGSTS, INSTR_F_ASYNC): global -> shared, 4, 8 or 16 bytes (.cg: 16 only). */
int instr_is_copy(enum instr_op op);
int instr_is_atomic(enum instr_op op);
int instr_is_load(enum instr_op op);

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
 * 4 bytes, every lane inactive; cp.async: 16 bytes, .ca, global offsets
 * contiguous (lane t at t * 16). */
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

/* The atomic forms the measurement tool also compiles with a warp-uniform or
 * an immediate operand (1, 2, -1), not only the lane's value: add.u32/s32,
 * inc.u32 and dec.u32, the forms tests/data/atomic_forms_*.json measured with
 * them.  A macro, so that it is a constant expression in cuda/kernels.cu (which
 * instantiates those kernels) as well as instr_check_gpu's test. */
#define INSTR_TOOL_VALUES(fn, ty) \
    (((fn) == INSTR_ADD && ((ty) == INSTR_U32 || (ty) == INSTR_S32)) || \
     (((fn) == INSTR_INC || (fn) == INSTR_DEC) && (ty) == INSTR_U32))

/* instr_check, plus what running it on `gpu` needs: 32 banks of 4 bytes, at
 * least one active lane, every access inside the shared memory (less
 * the kind's smem_spare), the kind's min_cc (ldmatrix 7.5, stmatrix 9.0),
 * bf16x2 atomics on cc >= 9.0, cp.async sources below
 * INSTR_COPY_GLOBAL_LIMIT (the tool's buffer), an atomic's guard "none" on
 * all 32 lanes and its "uniform" or constant value (1, 2, -1) only for
 * add.u32/s32, inc.u32 and dec.u32 (the tool's kernels).  `gpu`
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
