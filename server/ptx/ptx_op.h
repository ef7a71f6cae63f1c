/* ptx_op.h - a PTX opcode with its dot-modifiers ("mul.wide.s32",
 * "ld.shared.v4.f32", "setp.lt.and.s32") decoded into fields the executor
 * switches on: the operation, its types, state space, vector width, compare,
 * mode and flags.  Pure: no I/O, no allocation; knows no operand. */
#ifndef SZ_PTX_OP_H
#define SZ_PTX_OP_H

#include <stddef.h>
#include <stdint.h>

enum ptx_type {
    PT_NONE, PT_B8, PT_B16, PT_B32, PT_B64, PT_B128, PT_U8, PT_U16, PT_U32, PT_U64,
    PT_S8, PT_S16, PT_S32, PT_S64, PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_F32, PT_F64,
    PT_PRED, PT_TF32, PT_NTYPES
};

/* Where a symbol lives. */
enum ptx_space { PSP_NONE, PSP_REG, PSP_SHARED, PSP_GLOBAL, PSP_LOCAL, PSP_PARAM, PSP_CONST,
                 PSP_GENERIC };

/* The operations the executor knows; OP_UNSUPPORTED keeps its text. */
enum ptx_opk {
    OP_UNSUPPORTED, OP_NOP, OP_MOV, OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_MUL24, OP_MAD24,
    OP_DIV, OP_REM, OP_ABS, OP_NEG, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR, OP_NOT,
    OP_CNOT, OP_SHL, OP_SHR, OP_BFE, OP_BFI, OP_PRMT, OP_POPC, OP_CLZ, OP_BREV, OP_SAD,
    OP_SETP, OP_SELP, OP_SLCT, OP_CVT, OP_CVTA, OP_FMA, OP_RCP, OP_SQRT, OP_RSQRT,
    OP_EX2, OP_LG2, OP_SIN, OP_COS, OP_COPYSIGN, OP_TESTP, OP_LD, OP_LDU, OP_ST,
    OP_ATOM, OP_RED, OP_BRA, OP_BAR, OP_RET, OP_EXIT, OP_SHFL, OP_VOTE, OP_ACTIVEMASK,
    OP_LDMATRIX, OP_STMATRIX, OP_CP_ASYNC, OP_MATCH, OP_ISSPACEP, OP_TRAP, OP_NOPS
};

enum ptx_cmp { PC_NONE, PC_EQ, PC_NE, PC_LT, PC_LE, PC_GT, PC_GE, PC_LO, PC_LS, PC_HI,
               PC_HS, PC_EQU, PC_NEU, PC_LTU, PC_LEU, PC_GTU, PC_GEU, PC_NUM, PC_NAN };
enum ptx_bop { PB_NONE, PB_AND, PB_OR, PB_XOR };

/* Modes (ptx_opcode.mode), per operation. */
enum { PM_LO = 0, PM_HI, PM_WIDE };                    /* mul, mad */
enum { PM_IDX = 0, PM_UP, PM_DOWN, PM_BFLY };          /* shfl */
enum { PM_ALL = 0, PM_ANY, PM_UNI, PM_BALLOT };        /* vote */
enum { PM_SYNC = 0, PM_ARRIVE, PM_RED };               /* bar */
enum { PM_COPY = 0, PM_COMMIT, PM_WAIT };              /* cp.async: the copy, or a fence */

/* Flags (ptx_opcode.flags). */
enum {
    PF_TRANS = 1u << 0,     /* ldmatrix/stmatrix .trans */
    PF_TO = 1u << 1,        /* cvta.to */
    PF_CG = 1u << 2,        /* cp.async.cg */
    PF_CC = 1u << 3,        /* add.cc / addc: carry (not modelled: unsupported) */
    PF_SAT = 1u << 4,       /* .sat */
    PF_APPROX = 1u << 5,
    PF_UNI = 1u << 6,       /* bra.uni */
    PF_FLOAT_ROUND_INT = 1u << 7, /* cvt .rni/.rzi/.rmi/.rpi: round a float to an integral float */
    PF_SHIFT_CLAMP = 1u << 8,     /* shf .clamp (unused) */
    PF_NORET = 1u << 9      /* atom whose result ptx_rules found unused */
};

struct ptx_opcode {
    uint8_t op;             /* enum ptx_opk */
    uint8_t type;           /* the (destination) type */
    uint8_t type2;          /* the second type: cvt's source, setp none */
    uint8_t space;          /* enum ptx_space (ptx_parse.h); PSP_GENERIC when not given */
    uint8_t vec;            /* .v2/.v4/.v8: 2/4/8; else 1 */
    uint8_t cmp;            /* enum ptx_cmp */
    uint8_t bop;            /* enum ptx_bop: setp's .and/.or/.xor */
    uint8_t mode;           /* PM_* per operation; atom/red: enum instr_func;
                             * ldmatrix/stmatrix: matrices (1, 2, 4); cvt: rounding kind */
    uint16_t flags;         /* PF_* */
    uint16_t name_len;      /* the opcode text (for messages) */
    uint32_t name_off;      /* ... at this offset of the module's text */
};

/* Decode opcode text s[0..n) into *oc (name_off/len left to the caller).
 * An opcode this file does not know gets OP_UNSUPPORTED: not an error (the
 * executor decides whether it matters).  Returns 0, or -1 when s is empty. */
int ptx_op_decode(const char *s, size_t n, struct ptx_opcode *oc);

/* Bits of a type (8..128; 1 for pred, 0 for none), whether it is signed, float. */
unsigned ptx_op_bits(enum ptx_type t);
int ptx_op_signed(enum ptx_type t);
int ptx_op_float(enum ptx_type t);
/* A type's PTX name without the dot ("u64", "f32"); "" for none. */
const char *ptx_op_type_name(enum ptx_type t);

/* A type by its name without the dot ("u32"); PT_NONE when none. */
enum ptx_type ptx_op_type(const char *s, size_t n);

/* The name of an operation ("ld", ...). */
const char *ptx_op_name(enum ptx_opk op);

#endif
