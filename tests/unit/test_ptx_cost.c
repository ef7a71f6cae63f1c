/* test_ptx_cost.c - the interpreter's costing on known patterns, each against
 * acc_cost (the model /api/conflicts uses) on offsets written out here: the
 * 32x32 transpose (column read 32 wavefronts a warp, padded 1), merged loads
 * (16, 8, 4 bytes by proven alignment), atom.add 1 unused (POPC.INC) and used,
 * a float atomicAdd's CAS loop, predication, ldmatrix.x4.  Pure: no server. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/access.h"
#include "ptx_check.h"
#include "check.h"

#define HEAD ".version 9.0\n.target sm_90a\n.address_size 64\n" \
             ".visible .entry k(.param .u64 out)\n{\n" \
             "\t.reg .pred %p<4>;\n\t.reg .f32 %f<8>;\n\t.reg .b32 %r<20>;\n" \
             "\t.reg .b64 %rd<8>;\n\t.shared .align 16 .b8 s[8192];\n" \
             "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n" \
             "\tmov.u32 %r5, s;\n"

/* acc_cost of one warp access: op, bytes, and lane t's offset base + t * stride. */
static struct acc_result model(enum instr_op op, uint32_t bytes, uint32_t base, uint32_t stride)
{
    struct instr in;
    struct acc_result r;
    instr_defaults(&in, op);
    in.bytes = bytes;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        in.offsets[t] = base + t * stride;
    acc_cost(&in, &r);
    return r;
}

/* HEAD, then `body` with its %u filled by `arg`, run on (bx, by). */
static int run_body(struct ptx_check *c, const char *body, uint32_t arg, uint32_t bx, uint32_t by)
{
    char text[2048];
    size_t k = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    /* the body's one conversion is its %u (the rest are %-registers) */
    for (const char *q = body; *q && k + 12 < sizeof text; q++)
        if (q[0] == '%' && q[1] == 'u') {
            k += (size_t)snprintf(text + k, sizeof text - k, "%u", arg);
            q++;
        } else {
            text[k++] = *q;
        }
    text[k] = '\0';
    int rc = ptx_check_run(c, text, bx, by, 1, NULL, 0);
    CHECK(rc == 0, "%s", c->err.message);
    return rc;
}

/* The 32x32 transpose: tile[y][x] = ..., then read tile[x][y] with rows of
 * `row` bytes (128: naive, 132: padded). */
static void transpose(uint32_t row, uint32_t per_warp)
{
    struct ptx_check c;
    run_body(&c, "\tmad.lo.u32 %r6, %r2, %u, %r5;\n"
                 "\tshl.b32 %r7, %r1, 2;\n"
                 "\tadd.u32 %r8, %r6, %r7;\n"
                 "\tst.shared.f32 [%r8], %f1;\n"
                 "\tbar.sync 0;\n"
                 "\tmad.lo.u32 %r9, %r1, %u, %r5;\n"
                 "\tshl.b32 %r10, %r2, 2;\n"
                 "\tadd.u32 %r11, %r9, %r10;\n"
                 "\tld.shared.f32 %f2, [%r11];\n"
                 "\tret;\n}\n", row, 32, 32);
    const struct ptx_site *ld = ptx_check_site(&c, PK_LD, 0), *st = ptx_check_site(&c, PK_ST, 0);
    struct acc_result col = model(INSTR_LD, 4, 0, row), rowr = model(INSTR_ST, 4, 0, 4);
    CHECK(col.source_wavefronts == per_warp, "the model's column read: %u", col.source_wavefronts);
    CHECK(ld && ld->count.executions == 32 && ld->count.wavefronts == 32ull * per_warp &&
          ld->count.ideal == 32, "row %u: column read %llu wavefronts", row,
          ld ? (unsigned long long)ld->count.wavefronts : 0ull);
    CHECK(st && st->count.wavefronts == 32ull * rowr.source_wavefronts, "row store");
    CHECK(c.r.totals[PK_LD].wavefronts == 32ull * per_warp && c.r.totals[PK_ST].executions == 32,
          "totals");
    CHECK(c.r.nlines == 2 && c.r.lines[0].kind == PK_LD &&
          c.r.lines[0].excess == 32ull * (per_warp - 1), "lines sorted by excess");
    ptx_check_free(&c);
}

/* Four scalar loads at +0..+12 of base + t * (1 << shift), in the order
 * +4, +0, +12, +8: one 16-byte load when ptxas can prove 16-byte alignment
 * (shift >= 4), two 8-byte loads with 8 (shift 3), four loads with less.
 * `bytes` is the width each costed access has; the sum of the model's
 * wavefronts over those accesses is what the launch must total. */
static void merged_loads(unsigned shift, uint32_t bytes)
{
    struct ptx_check c;
    run_body(&c, "\tshl.b32 %r6, %r1, %u;\n"
                 "\tadd.u32 %r7, %r5, %r6;\n"
                 "\tld.shared.f32 %f2, [%r7+4];\n"
                 "\tld.shared.f32 %f1, [%r7];\n"
                 "\tld.shared.f32 %f4, [%r7+12];\n"
                 "\tld.shared.f32 %f3, [%r7+8];\n"
                 "\tret;\n}\n", shift, 32, 1);
    uint64_t w = 0, n = 16 / bytes;
    for (uint32_t k = 0; k < n; k++)
        w += model(INSTR_LD, bytes, bytes * k, 1u << shift).source_wavefronts;
    CHECK(c.r.totals[PK_LD].executions == n && c.r.totals[PK_LD].wavefronts == w,
          "shift %u: %llu executions, %llu wavefronts; want %llu of %u bytes, %llu", shift,
          (unsigned long long)c.r.totals[PK_LD].executions,
          (unsigned long long)c.r.totals[PK_LD].wavefronts, (unsigned long long)n, bytes,
          (unsigned long long)w);
    CHECK(ptx_check_note(&c, "merged into one 64/128-bit access", 0) == (bytes > 4),
          "shift %u: the rule stated where it applies", shift);
    ptx_check_free(&c);
}

/* atom.shared.add.u32 of 1 on one word from all 32 lanes: unused, the merge
 * of ATOMS.POPC.INC (1 wavefront); used, ATOMS.ADD as the model costs it. */
static void atomics_by_their_result(void)
{
    const char *unused = HEAD "\tatom.shared.add.u32 %r6, [s+64], 1;\n\tret;\n}\n";
    const char *used = HEAD "\tatom.shared.add.u32 %r6, [s+64], 1;\n"
                       "\tst.global.u32 [%rd1], %r6;\n\tret;\n}\n";
    struct instr in;
    struct acc_result red, atom;
    instr_defaults(&in, INSTR_RED);
    in.value_kind = INSTR_VALUE_CONST;
    in.value = 1;
    in.guard = INSTR_GUARD_NONE;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        in.offsets[t] = 64;
    acc_cost(&in, &red);
    in.op = INSTR_ATOM;
    acc_cost(&in, &atom);
    CHECK(red.source_wavefronts == 1 && atom.source_wavefronts > 1, "the model: %u vs %u",
          red.source_wavefronts, atom.source_wavefronts);
    struct ptx_check c;
    CHECK(ptx_check_run(&c, unused, 32, 1, 1, NULL, 0) == 0 &&
          c.r.totals[PK_ATOM].executions == 1 &&
          c.r.totals[PK_ATOM].wavefronts == red.source_wavefronts &&
          ptx_check_note(&c, "ATOMS.POPC.INC", 0), "unused: %llu",
          (unsigned long long)c.r.totals[PK_ATOM].wavefronts);
    ptx_check_free(&c);
    CHECK(ptx_check_run(&c, used, 32, 1, 1, NULL, 0) == 0 &&
          c.r.totals[PK_ATOM].wavefronts == atom.source_wavefronts &&
          !ptx_check_note(&c, "ATOMS.POPC.INC", -1), "used: %llu",
          (unsigned long long)c.r.totals[PK_ATOM].wavefronts);
    ptx_check_free(&c);
}

/* A float add on shared memory from lane pairs on one word: a load, then
 * compare-and-swap rounds, one lane of each pair per round: 2 rounds. */
static void float_atomic_is_a_cas_loop(void)
{
    struct ptx_check c;
    run_body(&c,
             "\tshr.u32 %r6, %r1, 1;\n"
             "\tshl.b32 %r7, %r6, 2;\n"
             "\tadd.u32 %r8, %r5, %r7;\n"
             "\tatom.shared.add.f32 %f1, [%r8], 0f3F800000;\n"
             "\tst.global.f32 [%rd1], %f1;\n"
             "\tld.shared.f32 %f2, [s];\n"
             "\tst.global.f32 [%rd1+4], %f2;\n"
             "\tret;\n}\n", 0, 32, 1);
    /* each trip re-reads its word: 2 loads, then the plain read of s[0] */
    CHECK(c.r.totals[PK_ATOM].executions == 2 && c.r.totals[PK_LD].executions == 2 + 1,
          "CAS rounds %llu, loads %llu", (unsigned long long)c.r.totals[PK_ATOM].executions,
          (unsigned long long)c.r.totals[PK_LD].executions);
    CHECK(ptx_check_note(&c, "compare-and-swap loop", 0), "the rule is stated");
    /* word 0 got 1.0 from lanes 0 and 1: the float add itself ran */
    float f;
    memcpy(&f, &c.out[1], 4);
    CHECK(f == 2.0f, "s[0] = %g", f);
    ptx_check_free(&c);
}

/* A guarded branch over one store: warp 1 skips it whole.  Where the branch
 * joins more code, ptxas predicates the store, and the Source page counts it
 * executed by warp 1 with no lane on (smsp__sass_inst_executed does not);
 * where it jumps to the end, ptxas makes an @P EXIT and warp 1 never runs it. */
static void a_predicated_short_branch(void)
{
    static const struct {
        const char *after;      /* what follows the label */
        uint64_t source_executions;
        int rule;
    } cases[] = {
        {"\tbar.sync 0;\n\tret;\n}\n", 2, 1},
        {"\tret;\n}\n", 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[512];
        snprintf(body, sizeof body, "\tsetp.ge.u32 %%p1, %%r1, 32;\n"
                 "\t@%%p1 bra SKIP;\n"
                 "\tshl.b32 %%r6, %%r1, 2;\n"
                 "\tadd.u32 %%r7, %%r5, %%r6;\n"
                 "\tst.shared.u32 [%%r7], %%r1;\n"
                 "SKIP:\n%s", cases[i].after);
        struct ptx_check c;
        run_body(&c, body, 0, 64, 1);
        const struct ptx_count *st = &c.r.totals[PK_ST];
        CHECK(st->executions == 1 && st->source_executions == cases[i].source_executions &&
              st->wavefronts == 1 && st->ideal == 1, "case %zu: executions %llu / %llu", i,
              (unsigned long long)st->executions, (unsigned long long)st->source_executions);
        CHECK(ptx_check_note(&c, "if-converted by ptxas", 0) == cases[i].rule, "case %zu: rule", i);
        ptx_check_free(&c);
    }
}

/* ldmatrix.x4 with lane t's row at s + t * 128: 8 rows of a matrix in one bank group. */
static void ldmatrix_on_128_byte_rows(void)
{
    struct instr in;
    struct acc_result m;
    instr_defaults(&in, INSTR_LDMATRIX);
    in.matrices = 4;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        in.offsets[t] = t * 128;
    acc_cost(&in, &m);
    struct ptx_check c;
    run_body(&c,
             "\tshl.b32 %r6, %r1, 7;\n"
             "\tadd.u32 %r7, %r5, %r6;\n"
             "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r8, %r9, %r10, %r11}, [%r7];\n"
             "\tret;\n}\n", 0, 64, 1);
    CHECK(c.r.totals[PK_LDSM].executions == 2 &&
          c.r.totals[PK_LDSM].wavefronts == 2ull * m.source_wavefronts &&
          m.source_wavefronts == 32, "ldsm %llu (model %u)",
          (unsigned long long)c.r.totals[PK_LDSM].wavefronts, m.source_wavefronts);
    const struct ptx_site *s = ptx_check_site(&c, PK_LDSM, 0);
    CHECK(s && s->has_worst && s->worst.offsets[31] == 31 * 128 && s->worst_wavefronts == 32,
          "worst access kept");
    ptx_check_free(&c);
}

int main(void)
{
    transpose(128, 32);
    transpose(132, 1);
    merged_loads(4, 16);
    merged_loads(3, 8);
    merged_loads(2, 4);
    atomics_by_their_result();
    float_atomic_is_a_cas_loop();
    a_predicated_short_branch();
    ldmatrix_on_128_byte_rows();
    return check_summary("test_ptx_cost");
}
