/* test_ptx_exec.c - the interpreter on small hand-written kernels whose
 * results are known: a divergent if/else and where it reconverges, a loop
 * whose trip count differs between lanes, bar.sync between warps, an address
 * stored to shared memory and read back, shfl and vote, and what it does at
 * its bounds (a global access outside its buffer, the budget, an opcode it
 * lacks).  Pure: no server. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptx_check.h"
#include "check.h"

#define HEAD ".version 9.0\n.target sm_90a\n.address_size 64\n" \
             ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n" \
             "\t.reg .pred %p<4>;\n\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<8>;\n" \
             "\t.shared .align 16 .b8 s[4096];\n" \
             "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
/* out[%r1] = %r19, and the entry's end */
#define STORE_OUT "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n" \
                  "\tst.global.u32 [%rd3], %r19;\n\tret;\n}\n"

/* Run `text` on one block of `threads` and check out[t] == want(t) for every t. */
static int run_expect(struct ptx_check *c, const char *text, uint32_t threads,
                      uint32_t (*want)(uint32_t), const char *what)
{
    int rc = ptx_check_run(c, text, threads, 1, 1, NULL, 0);
    CHECK(rc == 0, "%s: %s", what, c->err.message);
    int bad = 0;
    for (uint32_t t = 0; t < threads && rc == 0; t++)
        CHECK_QUIET(bad, c->out[t] == want(t), "%s: out[%u] = %u, want %u", what, t, c->out[t],
                    want(t));
    CHECK(rc == 0 && bad == 0, "%s", what);
    return rc;
}

static uint32_t want_divergent(uint32_t t) { return t & 1 ? 3 * t : t + 100; }

static uint32_t want_loop(uint32_t t)
{
    uint32_t trips = t % 5 + 1;
    return trips * (trips - 1) / 2 * 1000 + trips;
}

static uint32_t want_barrier(uint32_t t) { return (t + 32) % 64 + 1; }
static uint32_t want_round_trip(uint32_t t) { return (t ^ 1) * 128; }

static uint32_t want_shfl(uint32_t t)
{
    uint32_t ballot = 0, down = t + 4 <= 31 ? t + 4 : t, ok = t + 4 <= 31;
    for (uint32_t u = 0; u < 32; u += 3)
        ballot |= 1u << u;
    return ((((t ^ 1) * 7) ^ 21) + ballot) + down * 3 + ok;
}

static void divergent_branches_reconverge(void)
{
    const char *text = HEAD
        "\tshl.b32 %r4, %r1, 2;\n"
        "\tmov.u32 %r5, s;\n"
        "\tadd.u32 %r6, %r5, %r4;\n"
        "\tand.b32 %r2, %r1, 1;\n"
        "\tsetp.eq.u32 %p1, %r2, 1;\n"
        "\t@%p1 bra ODD;\n"
        "\tadd.u32 %r19, %r1, 100;\n"
        "\tbra.uni JOIN;\n"
        "ODD:\n"
        "\tmul.lo.u32 %r19, %r1, 3;\n"
        "JOIN:\n"
        "\tst.shared.u32 [%r6], %r19;\n"
        STORE_OUT;
    struct ptx_check c;
    run_expect(&c, text, 64, want_divergent, "if/else");
    /* both paths meet at JOIN: one warp-level store per warp, not one per path */
    const struct ptx_site *st = ptx_check_site(&c, PK_ST, 0);
    CHECK(st && st->count.executions == 2 && st->count.wavefronts == 2,
          "store executions %llu", st ? (unsigned long long)st->count.executions : 0ull);
    CHECK(ptx_cost_exact(&c.r), "exact");
    ptx_check_free(&c);
}

static void a_loop_with_lane_varying_trips(void)
{
    const char *text = HEAD
        "\trem.u32 %r2, %r1, 5;\n"
        "\tmov.u32 %r3, 0;\n"
        "\tmov.u32 %r4, 0;\n"
        "\tmov.u32 %r5, s;\n"
        "\tshl.b32 %r6, %r1, 2;\n"
        "\tadd.u32 %r7, %r5, %r6;\n"
        "LOOP:\n"
        "\tld.shared.u32 %r8, [%r7];\n"
        "\tadd.u32 %r4, %r4, %r3;\n"
        "\tadd.u32 %r8, %r8, 1;\n"
        "\tst.shared.u32 [%r7], %r8;\n"
        "\tadd.u32 %r3, %r3, 1;\n"
        "\tsetp.le.u32 %p1, %r3, %r2;\n"
        "\t@%p1 bra LOOP;\n"
        "\tld.shared.u32 %r9, [%r7];\n"
        "\tmad.lo.u32 %r19, %r4, 1000, %r9;\n"
        STORE_OUT;
    struct ptx_check c;
    run_expect(&c, text, 32, want_loop, "loop");
    /* the warp runs the body as long as its longest lane: 5 times */
    const struct ptx_site *ld = ptx_check_site(&c, PK_LD, 0), *after = ptx_check_site(&c, PK_LD, 1);
    CHECK(ld && ld->count.executions == 5, "loop load executions");
    CHECK(after && after->count.executions == 1, "after the loop: once");
    CHECK(ptx_check_note(&c, "trip count differs", 1) && !ptx_cost_exact(&c.r), "unsure");
    ptx_check_free(&c);
}

static void bar_sync_waits_for_every_warp(void)
{
    const char *text = HEAD
        "\tmov.u32 %r5, s;\n"
        "\tshl.b32 %r6, %r1, 2;\n"
        "\tadd.u32 %r7, %r5, %r6;\n"
        "\tadd.u32 %r8, %r1, 1;\n"
        "\tst.shared.u32 [%r7], %r8;\n"
        "\tbar.sync 0;\n"
        "\tadd.u32 %r9, %r1, 32;\n"
        "\tand.b32 %r9, %r9, 63;\n"
        "\tshl.b32 %r10, %r9, 2;\n"
        "\tadd.u32 %r11, %r5, %r10;\n"
        "\tld.shared.u32 %r19, [%r11];\n"
        STORE_OUT;
    struct ptx_check c;
    run_expect(&c, text, 64, want_barrier, "barrier");
    ptx_check_free(&c);
}

static void an_address_read_back_from_shared(void)
{
    /* ptrs[t] = &tile[t][0] (rows of 128 bytes); after the barrier lane t
     * stores through ptrs[t ^ 1]: 32 rows, one bank, 32 wavefronts, which
     * only a right round trip gives (zeros would all be one word) */
    const char *text = ".version 9.0\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<8>;\n"
        "\t.shared .align 4 .b8 ptrs[128];\n"
        "\t.shared .align 4 .b8 tile[4096];\n"
        "\tld.param.u64 %rd1, [out];\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmov.u32 %r2, tile;\n"
        "\tshl.b32 %r3, %r1, 7;\n"
        "\tadd.u32 %r4, %r2, %r3;\n"
        "\tmov.u32 %r5, ptrs;\n"
        "\tshl.b32 %r6, %r1, 2;\n"
        "\tadd.u32 %r7, %r5, %r6;\n"
        "\tst.shared.u32 [%r7], %r4;\n"
        "\tbar.sync 0;\n"
        "\txor.b32 %r8, %r1, 1;\n"
        "\tshl.b32 %r9, %r8, 2;\n"
        "\tadd.u32 %r10, %r5, %r9;\n"
        "\tld.shared.u32 %r11, [%r10];\n"
        "\tst.shared.u32 [%r11], %r1;\n"
        "\tsub.u32 %r19, %r11, %r2;\n"
        STORE_OUT;
    struct ptx_check c;
    run_expect(&c, text, 32, want_round_trip, "round trip");
    /* the pointer store is 1 wavefront; the store through the pointers 32 */
    CHECK(c.r.totals[PK_ST].wavefronts == 1 + 32 && c.r.totals[PK_ST].ideal == 1 + 1,
          "through the loaded address: %llu", (unsigned long long)c.r.totals[PK_ST].wavefronts);
    ptx_check_free(&c);
}

static void shfl_and_vote(void)
{
    const char *text = HEAD
        "\tmul.lo.u32 %r2, %r1, 7;\n"
        "\tshfl.sync.bfly.b32 %r3|%p1, %r2, 1, 31, -1;\n"
        "\tshfl.sync.idx.b32 %r4, %r2, 3, 31, -1;\n"
        "\tshfl.sync.down.b32 %r5|%p2, %r1, 4, 31, -1;\n"
        "\trem.u32 %r6, %r1, 3;\n"
        "\tsetp.eq.u32 %p3, %r6, 0;\n"
        "\tvote.sync.ballot.b32 %r7, %p3, -1;\n"
        "\tselp.u32 %r8, 1, 0, %p2;\n"
        "\txor.b32 %r19, %r3, %r4;\n"
        "\tadd.u32 %r19, %r19, %r7;\n"
        "\tmad.lo.u32 %r19, %r5, 3, %r19;\n"
        "\tadd.u32 %r19, %r19, %r8;\n"
        STORE_OUT;
    struct ptx_check c;
    run_expect(&c, text, 32, want_shfl, "shfl and vote");
    ptx_check_free(&c);
}

static void bounds(void)
{
    struct ptx_check c;
    /* a global store past the 64 KiB buffer: an error naming the PTX line */
    const char *oob = HEAD
        "\tadd.s64 %rd3, %rd1, 65536;\n"
        "\tst.global.u32 [%rd3], %r1;\n"
        "\tret;\n}\n";
    CHECK(ptx_check_run(&c, oob, 32, 1, 1, NULL, 0) < 0 && c.err.code == SZ_INVALID_ARGUMENT &&
          c.err.line == 13 && strstr(c.err.message, "outside every buffer"),
          "oob: %d %s", c.err.line, c.err.message);
    ptx_check_free(&c);
    /* a loop that never ends stops at the budget, marked partial */
    const char *spin = HEAD "SPIN:\n\tbra.uni SPIN;\n}\n";
    CHECK(ptx_check_run(&c, spin, 64, 1, 4, NULL, 10000) == 0 && c.r.partial &&
          strstr(c.r.stopped, "budget") && !ptx_cost_exact(&c.r) && c.r.lane_insns == 10000,
          "budget: %s", c.r.stopped);
    ptx_check_free(&c);
    /* 1025 threads */
    CHECK(ptx_check_run(&c, spin, 1025, 1, 1, NULL, 0) < 0 && !strcmp(c.err.field, "block"),
          "threads");
    ptx_check_free(&c);
    /* a misaligned shared access faults */
    const char *mis = HEAD "\tst.shared.u32 [s+2], %r1;\n\tret;\n}\n";
    CHECK(ptx_check_run(&c, mis, 32, 1, 1, NULL, 0) < 0 && strstr(c.err.message, "misaligned"),
          "misaligned: %s", c.err.message);
    ptx_check_free(&c);
}

/* dp4a, which the interpreter lacks: its result unused, the analysis goes
 * on, says so and stays exact; its result as a shared address, not exact. */
static void an_opcode_it_lacks(void)
{
    static const struct {
        const char *text, *note;
        int exact;
    } cases[] = {
        {HEAD "\tdp4a.u32.u32 %r2, %r1, %r1, 0;\n\tshl.b32 %r3, %r1, 2;\n"
              "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n", "dp4a.u32.u32 is not modelled", 1},
        {HEAD "\tdp4a.u32.u32 %r2, %r1, %r1, 0;\n\tand.b32 %r3, %r2, 1020;\n"
              "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n",
         "shared-memory address depends on an instruction", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ptx_check c;
        CHECK(ptx_check_run(&c, cases[i].text, 32, 1, 1, NULL, 0) == 0 &&
              ptx_check_note(&c, cases[i].note, !cases[i].exact) &&
              ptx_cost_exact(&c.r) == cases[i].exact, "case %zu: %s", i, c.err.message);
        ptx_check_free(&c);
    }
}

int main(void)
{
    divergent_branches_reconverge();
    a_loop_with_lane_varying_trips();
    bar_sync_waits_for_every_warp();
    an_address_read_back_from_shared();
    shfl_and_vote();
    bounds();
    an_opcode_it_lacks();
    return check_summary("test_ptx_exec");
}
