/* test_ptx_parse.c - ptx_parse on hand-written modules: parameters and their
 * offsets, shared variables (extern, .align, dimensions), register ranges and
 * inline-asm scopes, labels, predicates, opcodes with their modifiers, every
 * operand form, .loc with inlined_at, .file; and a table of bad texts, each
 * with the line and column the error must point at; mangled entry names read
 * back into their C++ parameter types, and an entry picked by its own name.
 * Pure: no server. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx_demangle.h"
#include "ptx/ptx_parse.h"
#include "check.h"

static const char *const module_text =
    "//\n"
    ".version 9.0\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry k(\n"
    "\t.param .u64 k_param_0,\n"
    "\t.param .u32 k_param_1,\n"
    "\t.param .align 8 .b8 k_param_2[24]\n"
    ")\n"
    ".maxntid 256, 1, 1\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<10>;\n"
    "\t.reg .b64 %rd<4>;\n"
    "\t.shared .align 4 .b8 tile[32][33];\n"
    "\t.loc 1 7 5\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.lt.and.s32 %p1, %r1, -7, !%p2;\n"
    "\t@!%p1 bra $L__BB0_2;\n"
    "\tld.shared.v4.f32 {%r2, %r3, %r4, _}, [%r1+8];\n"
    "\tmov.f32 %r5, 0f3F800000;\n"
    "\tmov.b64 %rd2, 0d3FF0000000000000;\n"
    "\tmov.u32 %r6, tile;\n"
    "\tst.shared.u32 [tile+132], 0x1F;\n"
    "$L__BB0_2:\n"
    "\t.loc 2 112 3, function_name $L__info_string0, inlined_at 1 9 5\n"
    "\tld.global.nc.u32 %r7, [%rd1+-4];\n"
    "\t{\n"
    "\t.reg .u32 a;\n"
    "\tshl.b32 a, %r1, 2;\n"
    "\t}\n"
    "\tshfl.sync.bfly.b32 %r8|%p2, %r7, 1, 31, -1;\n"
    "\tret;\n"
    "}\n"
    "\t.file\t1 \"/tmp/k.cu\"\n"
    "\t.file\t2 \"/usr/include/x.hpp\"\n"
    "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,0\n\t}\n";

static void parses_a_module(void)
{
    struct ptx_module m;
    struct sz_error err;
    memset(&err, 0, sizeof err);
    int rc = ptx_parse(module_text, strlen(module_text), &m, &err);
    CHECK(rc == 0, "%s", err.message);
    if (rc < 0) {
        ptx_module_free(&m);
        return;
    }
    CHECK(m.nentries == 1 && strcmp(m.entries[0].name, "k") == 0, "entries %d", m.nentries);
    CHECK(m.version_major == 9 && m.version_minor == 0, "version");
    CHECK(strcmp(m.target, "sm_90a") == 0, "target %s", m.target);
    CHECK(strcmp(ptx_parse_file(&m, 1), "/tmp/k.cu") == 0 &&
          strcmp(ptx_parse_file(&m, 2), "/usr/include/x.hpp") == 0 &&
          strcmp(ptx_parse_file(&m, 3), "?") == 0, "files");
    struct ptx_entry *e = &m.entries[0];
    /* parameters: u64 at 0, u32 at 8, the 8-aligned 24-byte struct at 16 */
    CHECK(e->nparams == 3, "nparams %d", e->nparams);
    CHECK(e->params[0].offset == 0 && e->params[0].size == 8 && e->params[0].type == PT_U64, "p0");
    CHECK(e->params[1].offset == 8 && e->params[1].size == 4, "p1");
    CHECK(e->params[2].offset == 16 && e->params[2].size == 24 && e->params[2].align == 8, "p2");
    CHECK(e->param_bytes == 40, "param bytes %llu", (unsigned long long)e->param_bytes);
    CHECK(e->maxntid[0] == 256 && e->maxntid[1] == 1, "maxntid");
    /* %p<3> + %r<10> + %rd<4> + the scope's a */
    CHECK(e->nregs == 3 + 10 + 4 + 1, "nregs %d", e->nregs);
    int tile = -1, dyn = -1;
    for (int i = 0; i < e->nvars; i++) {
        if (!strcmp(e->vars[i].name, "tile"))
            tile = i;
        if (!strcmp(e->vars[i].name, "dyn"))
            dyn = i;
    }
    CHECK(tile >= 0 && e->vars[tile].size == 32 * 33 && e->vars[tile].align == 4 &&
          e->vars[tile].space == PSP_SHARED && !e->vars[tile].is_extern, "tile");
    /* the module's extern .shared is copied into the entry that names it? no:
     * this entry never names dyn, so it stays the module's */
    CHECK(dyn < 0, "dyn not referenced");
    CHECK(m.nglobals == 1 && m.globals[0].is_extern && m.globals[0].align == 16, "extern dyn");
    CHECK(e->ninsns == 13, "ninsns %u", e->ninsns);
    const struct ptx_insn *in = e->insns;
    /* setp.lt.and.s32 %p1, %r1, -7, !%p2 */
    const struct ptx_insn *sp = &in[2];
    CHECK(sp->oc.op == OP_SETP && sp->oc.cmp == PC_LT && sp->oc.bop == PB_AND &&
          sp->oc.type == PT_S32, "setp fields");
    const struct ptx_operand *o = &e->opnds[sp->ops];
    CHECK(o[0].kind == PO_REG && o[0].reg == 1 && o[2].kind == PO_IMM && o[2].imm == -7 &&
          o[3].kind == PO_REG && o[3].neg == 1 && o[3].reg == 2, "setp operands");
    /* @!%p1 bra $L__BB0_2 -> instruction 9, the ld.global after the label */
    CHECK(in[3].oc.op == OP_BRA && in[3].pred == 1 && in[3].pred_neg == 1, "guard");
    CHECK(e->opnds[in[3].ops].kind == PO_LABEL && e->opnds[in[3].ops].reg == 9, "label -> %d",
          e->opnds[in[3].ops].reg);
    /* ld.shared.v4.f32 {%r2, %r3, %r4, _}, [%r1+8]: %rN is register 3 + N */
    const struct ptx_insn *ld = &in[4];
    CHECK(ld->oc.op == OP_LD && ld->oc.space == PSP_SHARED && ld->oc.vec == 4 &&
          ld->oc.type == PT_F32, "ld fields");
    o = &e->opnds[ld->ops];
    CHECK(o[0].kind == PO_VEC && o[0].n == 4 && o[1].reg == 3 + 2 && o[4].kind == PO_SINK,
          "vector operand");
    CHECK(o[5].kind == PO_ADDR && o[5].reg == 3 + 1 && o[5].imm == 8 && o[5].sym < 0, "address");
    CHECK(e->opnds[in[5].ops + 1].imm == 0x3F800000, "0f immediate");
    CHECK((uint64_t)e->opnds[in[6].ops + 1].imm == 0x3FF0000000000000ull, "0d immediate");
    CHECK(e->opnds[in[7].ops + 1].kind == PO_SYM && e->opnds[in[7].ops + 1].sym == tile, "sym");
    /* st.shared.u32 [tile+132], 0x1F */
    o = &e->opnds[in[8].ops];
    CHECK(in[8].oc.op == OP_ST && o[0].kind == PO_ADDR && o[0].sym == tile && o[0].reg < 0 &&
          o[0].imm == 132 && o[1].kind == PO_IMM && o[1].imm == 0x1f, "[sym+off]");
    CHECK(in[9].oc.op == OP_LD && in[9].oc.space == PSP_GLOBAL &&
          e->opnds[in[9].ops + 1].imm == -4, "[%%rd1+-4]: %lld",
          (long long)e->opnds[in[9].ops + 1].imm);
    /* .loc: insn 9 is at 2:112 inlined at 1:9; insn 0 at 1:7 */
    CHECK(e->locs[in[0].loc].file == 1 && e->locs[in[0].loc].line == 7 &&
          e->locs[in[0].loc].at_file == 0, "loc 1:7");
    CHECK(e->locs[in[9].loc].file == 2 && e->locs[in[9].loc].line == 112 &&
          e->locs[in[9].loc].at_file == 1 && e->locs[in[9].loc].at_line == 9, "inlined loc");
    /* the scope's "a" is register 17 */
    CHECK(in[10].oc.op == OP_SHL && e->opnds[in[10].ops].reg == 17, "scoped register");
    /* shfl.sync.bfly.b32 %r8|%p2: a two-register destination */
    o = &e->opnds[in[11].ops];
    CHECK(in[11].oc.op == OP_SHFL && in[11].oc.mode == PM_BFLY && o[0].kind == PO_VEC &&
          o[0].n == 2 && o[1].reg == 3 + 8 && o[2].reg == 2, "shfl d|p");
    CHECK(in[12].oc.op == OP_RET, "ret");
    ptx_module_free(&m);
}

static void opcodes_decode(void)
{
    static const struct {
        const char *text;
        int op, type, type2, space, vec, mode, flags;
    } cases[] = {
        {"mul.wide.s32", OP_MUL, PT_S32, 0, PSP_GENERIC, 1, PM_WIDE, 0},
        {"mad.hi.u32", OP_MAD, PT_U32, 0, PSP_GENERIC, 1, PM_HI, 0},
        {"cvt.rn.f32.s32", OP_CVT, PT_F32, PT_S32, PSP_GENERIC, 1, 'n', 0},
        {"cvta.to.shared.u64", OP_CVTA, PT_U64, 0, PSP_SHARED, 1, 0, PF_TO},
        {"ld.global.nc.L1::no_allocate.v2.f32", OP_LD, PT_F32, 0, PSP_GLOBAL, 2, 0, 0},
        {"st.shared::cta.b64", OP_ST, PT_B64, 0, PSP_SHARED, 1, 0, 0},
        {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", OP_LDMATRIX, PT_B16, 0, PSP_SHARED, 1, 4,
         PF_TRANS},
        {"stmatrix.sync.aligned.x2.m8n8.shared.b16", OP_STMATRIX, PT_B16, 0, PSP_SHARED, 1, 2, 0},
        {"cp.async.cg.shared.global", OP_CP_ASYNC, 0, 0, PSP_SHARED, 1, PM_COPY, PF_CG},
        {"cp.async.wait_group", OP_CP_ASYNC, 0, 0, PSP_GENERIC, 1, PM_WAIT, 0},
        {"atom.shared.add.f32", OP_ATOM, PT_F32, 0, PSP_SHARED, 1, 0 /* INSTR_ADD */, 0},
        {"red.shared.xor.b32", OP_RED, PT_B32, 0, PSP_SHARED, 1, 7 /* INSTR_XOR */, 0},
        {"barrier.sync.aligned", OP_BAR, 0, 0, PSP_GENERIC, 1, PM_SYNC, 0},
        {"bar.warp.sync", OP_NOP, 0, 0, PSP_GENERIC, 1, 0, 0},
        {"vote.sync.ballot.b32", OP_VOTE, PT_B32, 0, PSP_GENERIC, 1, PM_BALLOT, 0},
        {"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", OP_UNSUPPORTED, 0, 0, PSP_GENERIC,
         1, 0, 0},
        {"ld.shared::cluster.u32", OP_UNSUPPORTED, PT_U32, 0, PSP_GENERIC, 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ptx_opcode oc;
        int rc = ptx_op_decode(cases[i].text, strlen(cases[i].text), &oc);
        CHECK(rc == 0 && oc.op == cases[i].op, "%s: op %d", cases[i].text, oc.op);
        if (cases[i].op == OP_UNSUPPORTED)
            continue;
        CHECK(oc.type == cases[i].type && oc.type2 == cases[i].type2 &&
              oc.space == cases[i].space && oc.vec == cases[i].vec && oc.mode == cases[i].mode &&
              oc.flags == cases[i].flags, "%s: type %d/%d space %d vec %d mode %d flags %d",
              cases[i].text, oc.type, oc.type2, oc.space, oc.vec, oc.mode, oc.flags);
    }
}

#define ENTRY(body) ".version 9.0\n.target sm_90a\n.visible .entry k()\n{\n" body "}\n"

static void bad_texts_point_at_their_line_and_column(void)
{
    static const struct {
        const char *text;
        int code, line, column;
        const char *says;
    } cases[] = {
        {ENTRY("\tmov.u32 %r1, 5;\n"), SZ_INVALID_ARGUMENT, 5, 10, "register %r1 is not declared"},
        {ENTRY("\t.reg .b32 %r<2>;\n\tmov.u32 %r2, 5;\n"), SZ_INVALID_ARGUMENT, 6, 10,
         "not declared"},
        {ENTRY("\tbra $L__nowhere;\n"), SZ_INVALID_ARGUMENT, 5, 6, "no label"},
        {ENTRY("\t.reg .b32 %r<2>;\n\tmov.f32 %r1, 0f3F80;\n"), SZ_INVALID_ARGUMENT, 6, 15,
         "hex float"},
        {ENTRY("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 5\n\tret;\n"), SZ_INVALID_ARGUMENT, 7, 2,
         "expected ','"},
        {ENTRY("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.w;\n"), SZ_INVALID_ARGUMENT, 6, 15,
         "special register"},
        {ENTRY("L1:\nL1:\n\tret;\n"), SZ_INVALID_ARGUMENT, 6, 1, "label defined twice"},
        {ENTRY("\t.reg .b32 %r<70000>;\n"), SZ_TOO_LARGE, 5, 12, "65536 registers"},
        {ENTRY("\t.reg .b32 %r<0>;\n"), SZ_INVALID_ARGUMENT, 5, 12, "at least one register"},
        {ENTRY("\t# ret;\n"), SZ_INVALID_ARGUMENT, 5, 2, "unexpected character"},
        {ENTRY("\tld.shared.u32 %r1, [nosuch];\n\t.reg .b32 %r<2>;\n"), SZ_INVALID_ARGUMENT, 5, 16,
         "not declared"},
        {".version 9.0\n.target sm_90a\n/* never closed\n", SZ_INVALID_ARGUMENT, 3, 1, "never closed"},
        {".version 9.0\n.target sm_90a\n", SZ_INVALID_ARGUMENT, 0, 0, "no .entry"},
        {".version 9.0\n.bogus 1\n", SZ_INVALID_ARGUMENT, 2, 1, "expected a directive"},
        /* libFuzzer, /api/ptx: (int)9.01e300 was undefined behaviour */
        {".version 9.01e300;\n", SZ_INVALID_ARGUMENT, 1, 10, "below 100"},
        {".visible .entry k(\n\t.param .u64 p,\n)\n{\n\tret;\n}\n", SZ_INVALID_ARGUMENT, 3, 1,
         "'.param'"},
        {ENTRY("\t.shared .align 3 .b8 s[4];\n"), SZ_INVALID_ARGUMENT, 5, 17, "power of two"},
        {ENTRY("\t{\n\t.reg .b32 a;\n\t}\n\tmov.u32 a, 1;\n"), SZ_INVALID_ARGUMENT, 8, 10,
         "unknown name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ptx_module m;
        struct sz_error err;
        memset(&err, 0, sizeof err);
        int rc = ptx_parse(cases[i].text, strlen(cases[i].text), &m, &err);
        CHECK(rc < 0, "case %zu parsed", i);
        CHECK((int)err.code == cases[i].code && strcmp(err.field, "ptx") == 0,
              "case %zu: code %s field %s", i, sz_code_name(err.code), err.field);
        CHECK(err.line == cases[i].line && err.column == cases[i].column,
              "case %zu: at %d:%d, expected %d:%d (%s)", i, err.line, err.column, cases[i].line,
              cases[i].column, err.message);
        CHECK(strstr(err.message, cases[i].says) != NULL, "case %zu: message %s", i, err.message);
        ptx_module_free(&m);
    }
}

static void bounds_and_entries(void)
{
    struct ptx_module m;
    struct sz_error err;
    /* the length alone decides: the text is not read past its bound */
    int rc = ptx_parse("x", (size_t)PTX_MAX_TEXT + 1, &m, &err);
    CHECK(rc < 0 && err.code == SZ_TOO_LARGE && !strcmp(err.field, "ptx"), "too large");
    ptx_module_free(&m);
    const char *two = ".version 9.0\n.target sm_90a\n.visible .entry a()\n{\n\tret;\n}\n"
                      ".visible .entry b()\n{\n\tret;\n}\n.entry c();\n";
    rc = ptx_parse(two, strlen(two), &m, &err);
    CHECK(rc == 0 && m.nentries == 2, "two entries and a prototype: %d (%s)", m.nentries,
          err.message);
    struct ptx_entry *e = NULL;
    CHECK(ptx_parse_entry(&m, NULL, &e, &err) < 0 && !strcmp(err.field, "kernel") &&
          strstr(err.message, "a, b"), "several: %s", err.message);
    CHECK(ptx_parse_entry(&m, "b", &e, &err) == 0 && e == &m.entries[1], "by name");
    CHECK(ptx_parse_entry(&m, "zz", &e, &err) < 0 && strstr(err.message, "no entry"), "none");
    ptx_module_free(&m);
}

/* A mangled entry's parameter types against the corpus kernels' own
 * declarations (the corpus's .cu files, compiled by nvcc 13.0: the
 * names are their PTX entries) and the ABI's substitution rules: S_ is the
 * first class or qualified type, S0_ the second (the Itanium C++ ABI,
 * "Compression"); forms the reader lacks are refusals, never a guess. */
static void demangles_entries(void)
{
    static const struct { const char *mangled, *name, *types; } cases[] = {
        {"_Z15transpose_naivePfPKfi", "transpose_naive", "float *|const float *|int"},
        {"_Z11sgemm_tiledPKfS0_Pfiii", "sgemm_tiled",
         "const float *|const float *|float *|int|int|int"},
        {"_Z17cp_async_pipelinePfPK6float4PKfi", "cp_async_pipeline",
         "float *|const float4 *|const float *|int"},
        {"_Z10hist_constPji", "hist_const", "unsigned int *|int"},
        {"_Z8bytes_u8Ph", "bytes_u8", "unsigned char *"},
        {"_Z11doubles_f64Pd", "doubles_f64", "double *"},
        {"_Z13stmatrix_feedP5uint4", "stmatrix_feed", "uint4 *"},
        {"_Z7pred_k4Pff", "pred_k4", "float *|float"},
        {"_Z1kPKcS_", "k", "const char *|const char"},          /* S_ = const char */
        {"_Z1kPfS_", "k", "float *|float *"},
        {"_Z1kPN2ns3FooES1_", "k", "ns::Foo *|ns::Foo *"},     /* ns, ns::Foo, ns::Foo * */
        {"_ZN2ns1kEPNS_3FooES1_", "k", "ns::Foo *|ns::Foo *"},
        {"_Z1kRKfPVi", "k", "const float &|volatile int *"},
        {"_Z1kPKfS0_", "k", "const float *|const float *"},
        {"_Z1kv", "k", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[8][PTX_DEMANGLE_TYPE], name[64], got[512] = "";
        int n = -1;
        int rc = ptx_demangle_params(cases[i].mangled, t, 8, &n);
        for (int k = 0; rc == 0 && k < n; k++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? "|" : "", t[k]);
        CHECK(rc == 0 && !strcmp(got, cases[i].types), "%s: [%s], want [%s]", cases[i].mangled,
              got, cases[i].types);
        CHECK(ptx_demangle_name(cases[i].mangled, name, sizeof name) == 0 &&
              !strcmp(name, cases[i].name), "%s is %s", cases[i].mangled, cases[i].name);
    }
    static const char *const refused[] = {
        "inline_ptx",               /* extern "C": not mangled */
        "_Z1kILi4EEvPf",            /* a template's arguments */
        "_Z1kT_",                   /* a template parameter */
        "_Z1kPFviE",                /* a function pointer */
        "_Z1kS_",                   /* a substitution with nothing before it */
        "_Z99k",                    /* a name longer than the text */
        "_Z1k",                     /* no parameters at all */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char t[8][PTX_DEMANGLE_TYPE];
        int n;
        CHECK(ptx_demangle_params(refused[i], t, 8, &n) < 0, "%s refused", refused[i]);
    }
    char t[2][PTX_DEMANGLE_TYPE];
    int n;
    CHECK(ptx_demangle_params("_Z1kiii", t, 2, &n) < 0, "more parameters than room: refused");

    /* An entry by its function's own name, where one entry alone has it. */
    static const char two[] = ".version 9.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry _Z1kPf(.param .u64 a)\n{\n\tret;\n}\n"
        ".visible .entry _Z1kPi(.param .u64 a)\n{\n\tret;\n}\n"
        ".visible .entry _Z3onePf(.param .u64 a)\n{\n\tret;\n}\n";
    struct ptx_module m;
    struct ptx_entry *e = NULL;
    struct sz_error err;
    CHECK(ptx_parse(two, sizeof two - 1, &m, &err) == 0, "three entries parse: %s", err.message);
    CHECK(ptx_parse_entry(&m, "one", &e, &err) == 0 && e && !strcmp(e->name, "_Z3onePf"),
          "\"one\" is _Z3onePf");
    CHECK(ptx_parse_entry(&m, "k", &e, &err) < 0 && strstr(err.message, "overloads") &&
          !strcmp(err.field, "kernel"), "\"k\" names two overloads: refused, saying so: %s",
          err.message);
    CHECK(ptx_parse_entry(&m, "_Z1kPi", &e, &err) == 0 && !strcmp(e->name, "_Z1kPi"),
          "the mangled name still picks one");
    ptx_module_free(&m);
}

int main(void)
{
    parses_a_module();
    opcodes_decode();
    bad_texts_point_at_their_line_and_column();
    bounds_and_entries();
    demangles_entries();
    return check_summary("test_ptx_parse");
}
