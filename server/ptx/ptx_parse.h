/* ptx_parse.h - a PTX module as text becomes entries of pre-decoded
 * instructions: .param lists, .shared/.local variables, registers numbered
 * per entry (%r<100> ranges, inline-asm scopes), labels resolved to
 * instruction indices, .loc source lines (inlined_at kept), .file names.
 * Pure: no I/O, no execution; allocation only for the module it returns. */
#ifndef SZ_PTX_PARSE_H
#define SZ_PTX_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "ptx_op.h"

/* Bounds on what one text may declare (past one: too_large, field "ptx"). */
#define PTX_MAX_TEXT (16u << 20)
#define PTX_MAX_INSNS (1u << 20)        /* per entry */
#define PTX_MAX_REGS (1u << 16)         /* per entry, every class together */
#define PTX_MAX_VAR_BYTES (1u << 30)    /* one variable */

/* One operand, decoded.  Vectors keep their n registers in the entry's
 * operand array right after the PO_VEC operand. */
enum ptx_opnd_kind {
    PO_NONE, PO_REG, PO_IMM, PO_SPECIAL, PO_ADDR, PO_SYM, PO_VEC, PO_LABEL, PO_SINK
};

enum ptx_special {
    PS_TID_X, PS_TID_Y, PS_TID_Z, PS_NTID_X, PS_NTID_Y, PS_NTID_Z,
    PS_CTAID_X, PS_CTAID_Y, PS_CTAID_Z, PS_NCTAID_X, PS_NCTAID_Y, PS_NCTAID_Z,
    PS_LANEID, PS_WARPID, PS_NWARPID, PS_SMID, PS_NSMID, PS_GRIDID,
    PS_LANEMASK_EQ, PS_LANEMASK_LT, PS_LANEMASK_LE, PS_LANEMASK_GT, PS_LANEMASK_GE,
    PS_CLOCK, PS_CLOCK64, PS_GLOBALTIMER, PS_DYNSMEM, PS_TOTALSMEM, PS_NSPECIALS
};

struct ptx_operand {
    uint8_t kind;           /* enum ptx_opnd_kind */
    uint8_t neg;            /* !%p (a predicate source) */
    uint8_t n;              /* PO_VEC: registers that follow */
    uint8_t fimm;           /* PO_IMM written as a decimal float (imm holds a double) */
    int32_t reg;            /* PO_REG, PO_ADDR base (-1: none), PO_SPECIAL id, PO_LABEL index */
    int32_t sym;            /* PO_SYM, PO_ADDR: a symbol of the entry (-1: none) */
    int64_t imm;            /* PO_IMM value, PO_ADDR / PO_SYM byte offset */
};

struct ptx_var {
    char *name;
    uint8_t space;          /* PSP_SHARED, PSP_LOCAL, PSP_PARAM, PSP_GLOBAL, PSP_CONST */
    uint8_t is_extern;      /* extern .shared name[] (dynamic shared memory) */
    uint8_t type;           /* enum ptx_type of its elements */
    uint32_t align;         /* bytes */
    uint64_t size;          /* bytes (0 for extern) */
    uint64_t offset;        /* .param: in the parameter buffer; .shared: ptx_rules places it */
    int decl_order;         /* order of declaration in the module text */
    int line;               /* the PTX line it was declared on */
};

/* A source position: .file index and line, and the outermost call site when
 * the line was inlined (at_file 0: not inlined). */
struct ptx_loc {
    int file, line, at_file, at_line;
};

/* ptx_insn.rule bits, which ptx_rules sets */
enum {
    PTX_R_NORET = 1u << 0,      /* atom whose result no instruction reads: a red */
    PTX_R_CONST = 1u << 1,      /* atomic operand constant (ptx_insn.cval) */
    PTX_R_PREDICATED = 1u << 2, /* a forward branch over a short region ptxas predicates */
    PTX_R_MERGED = 1u << 3,     /* a member of a merge group (ptx_insn.group) */
    PTX_R_CP_FIRST = 1u << 4,   /* the first cp.async of a straight-line run */
    PTX_R_CAS = 1u << 5         /* a shared atomic ptxas makes a compare-and-swap loop */
};

/* One instruction, pre-decoded (ptx_op.h holds the opcode's fields). */
struct ptx_insn {
    struct ptx_opcode oc;
    int32_t pred;           /* guard predicate register, -1: none */
    uint8_t pred_neg;       /* @!%p */
    uint8_t nops;           /* operands (a vector counts one) */
    uint32_t ops;           /* index of the first operand in entry->opnds */
    int32_t loc;            /* index into entry->locs, -1: no .loc yet */
    int text_line;          /* the PTX line */
    int text_col;           /* its column */
    uint32_t rule;          /* PTX_R_* bits ptx_rules set */
    int32_t group;          /* ptx_rules: merged vector access; the leader's index, -1: none */
    uint8_t group_bytes;    /* on the leader: the merged access's bytes (8 or 16) */
    int32_t group_off;      /* on the leader: the lowest offset of the group */
    int32_t target_end;     /* a predicated branch (PTX_R_PREDICATED): the region's end */
    int64_t cval;           /* an atomic's operand when ptx_rules found it constant */
};

struct ptx_reg_class {
    uint8_t type;           /* enum ptx_type */
};

struct ptx_entry {
    char *name;
    int line;
    struct ptx_var *params;
    int nparams;
    uint64_t param_bytes;
    struct ptx_var *vars;   /* .shared / .local declared in the body, and module-level
                             * .shared/.global it refers to (copied), in order */
    int nvars;
    uint8_t *reg_type;      /* per register: enum ptx_type of its class */
    int nregs;
    struct ptx_insn *insns;
    uint32_t ninsns;
    struct ptx_operand *opnds;
    uint32_t nopnds;
    struct ptx_loc *locs;
    int nlocs;
    uint32_t reqntid[3];    /* .reqntid / .maxntid, 0 if not given */
    uint32_t maxntid[3];
    uint64_t shared_static; /* ptx_rules: static shared bytes after placement */
    uint32_t dyn_align;     /* ptx_rules: alignment of the dynamic shared memory base */
    const char *text;       /* the module's copy of the text (opcode names) */
};

struct ptx_module {
    struct ptx_entry *entries;
    int nentries;
    char **files;           /* .file N "path": files[N], NULL where not declared */
    int nfiles;
    struct ptx_var *globals;/* module-level variables (all spaces) */
    int nglobals;
    int version_major, version_minor;
    char target[32];
    char *text;             /* a copy of the text (opcode names in messages) */
    size_t textlen;
};

/* Parse text[0..len) into *m (which the caller then frees with
 * ptx_module_free, also after a failure).  Errors: invalid_argument on field
 * "ptx" with the line and column (err->line, err->column) and what was
 * expected; too_large past a PTX_MAX_* bound. */
int ptx_parse(const char *text, size_t len, struct ptx_module *m, struct sz_error *err);

/* Free what ptx_parse allocated and zero *m; safe on a zeroed module. */
void ptx_module_free(struct ptx_module *m);

/* The entry named `name` (the mangled name; the function's own name, as CUDA
 * source calls it, where one entry alone has it; NULL/"" for the only entry),
 * into *out.  Fails on "kernel" listing the entries when none or several match. */
int ptx_parse_entry(struct ptx_module *m, const char *name, struct ptx_entry **out,
                    struct sz_error *err);

/* The name of .file `file` ("?" when not declared). */
const char *ptx_parse_file(const struct ptx_module *m, int file);

#endif
