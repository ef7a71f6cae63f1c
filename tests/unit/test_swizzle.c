/* test_swizzle.c - the swizzle core against hand-derived values, a second
 * bit-by-bit implementation over the whole small parameter space, its algebraic
 * properties, every rejected combination, the grid / tile / bank maps, and the
 * inspector and slot rule cell by cell against an oracle of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/swizzle.h"
#include "check.h"

/* The oracle: CuTe's definition read bit by bit, sharing no code with the
 * mask-and-shift formula.  For i in 0..B-1, the source bit M + max(0,S) + i is
 * XORed into the target bit M - min(0,S) + i. */
static uint32_t brute_apply(int b, int m, int s, uint32_t o)
{
    uint32_t out = o;
    for (int i = 0; i < b; i++) {
        int src = m + (s > 0 ? s : 0) + i;
        int dst = m - (s < 0 ? s : 0) + i;
        out ^= ((o >> src) & 1u) << dst;
    }
    return out;
}

/* The validity rule of the issue, written independently of swz_init:
 * B >= 0, M >= 0, |S| >= B (so S == 0 only with B == 0), every touched bit
 * below 31 (M + |S| + B <= 31), with field ranges b <= 15, m <= 30, |s| <= 30
 * (the sum rule already implies b <= 15; m = 31 and |s| = 31 would make a unit
 * or a row of 2^31 bytes, outside the offset space). */
static int valid_rule(int b, int m, int s)
{
    int as = s < 0 ? -s : s;
    return b >= 0 && m >= 0 && m <= 30 && as <= 30 && as >= b && m + as + b <= 31;
}

static void hand_derived_apply_table(void)
{
    /* Each row derived by hand from yyy_msk/zzz_msk and apply(o) = o ^ shiftr(o & yyy, S). */
    static const struct {
        int b, m, s;
        uint32_t in, out;
        const char *why;
    } cases[] = {
        /* <3,4,3>: yyy = 7<<7 = 0x380, zzz = 7<<4 = 0x70 */
        {3, 4, 3, 0, 0, "no YYY bits"},
        {3, 4, 3, 127, 127, "row 0 of a 128B-row tile is untouched"},
        {3, 4, 3, 128, 144, "row 1 col 0: yyy=1 -> zzz ^= 1 -> +16"},
        {3, 4, 3, 144, 128, "involution of the previous"},
        {3, 4, 3, 1023, 911, "1023 & 0x380 = 0x380, >>3 = 0x70; 1023 ^ 112 = 911 "
                             "(seed 002 prints 399: it dropped bits 8-9 midway)"},
        {3, 4, 3, 1008, 896, "0b1111110000 ^ 0b0001110000"},
        {3, 4, 3, 1024 + 128 + 5, 1024 + 144 + 5, "bits above and below pass through"},
        /* <2,4,3>: yyy = 3<<7 = 0x180, zzz = 3<<4 = 0x30 */
        {2, 4, 3, 512, 512, "bit 9 is outside YYY when B = 2"},
        {2, 4, 3, 384, 432, "yyy = 3 -> zzz ^= 3 -> 384 ^ 48"},
        /* <1,4,3>: yyy = 1<<7, zzz = 1<<4 */
        {1, 4, 3, 159, 143, "128..159 map to their counterparts 16 lower/higher"},
        /* <2,5,2> (128B atom, 32B unit): yyy = 3<<7 = 384, zzz = 3<<5 = 96 */
        {2, 5, 2, 128, 160, "yyy=1 -> +32"},
        {2, 5, 2, 416, 448, "0b110100000 ^ 0b001100000"},
        /* <2,4,-3>: yyy = 3<<4 = 48, zzz = 3<<7 = 384, shift left by 3 */
        {2, 4, -3, 16, 144, "low bits XOR into high bits: 16 ^ 128"},
        {2, 4, -3, 48, 432, "48 ^ 384"},
        {2, 4, -3, 128, 128, "no YYY bits set"},
        /* <1,0,1>: yyy = 2, zzz = 1 */
        {1, 0, 1, 2, 3, "bit 1 into bit 0"},
        {1, 0, 1, 1, 1, "bit 0 alone is untouched"},
        /* B = 0 is the identity whatever M and S */
        {0, 4, 3, 12345, 12345, "identity"},
        {0, 0, 0, 7, 7, "identity"},
        /* the top of the offset space */
        {3, 4, 24, 0x7FFFFFFFu, 0x7FFFFF8Fu, "yyy bits 28..30 -> zzz bits 4..6 all flip"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct swz z;
        struct sz_error err;
        int rc = swz_init(&z, cases[i].b, cases[i].m, cases[i].s, &err);
        CHECK(rc == 0, "Swizzle<%d,%d,%d> rejected: %s", cases[i].b, cases[i].m,
              cases[i].s, err.message);
        if (rc == 0)
            CHECK(swz_apply(&z, cases[i].in) == cases[i].out,
                  "Swizzle<%d,%d,%d>(%u) = %u, want %u (%s)", cases[i].b, cases[i].m,
                  cases[i].s, cases[i].in, swz_apply(&z, cases[i].in), cases[i].out,
                  cases[i].why);
    }
    struct swz z;
    swz_init(&z, 3, 4, 3, NULL);
    CHECK(z.yyy_msk == 0x380 && z.zzz_msk == 0x70, "masks %x %x", z.yyy_msk, z.zzz_msk);
    swz_init(&z, 2, 4, -3, NULL);
    CHECK(z.yyy_msk == 0x30 && z.zzz_msk == 0x180, "masks %x %x", z.yyy_msk, z.zzz_msk);
    CHECK(swz_period_bits(&z) == 9, "period bits %d", swz_period_bits(&z));
}

/* Exhaustive: B 0..5, M 0..6, S -8..8, every offset below 2^(M+|S|+B+1) (the
 * whole period twice over) plus offsets near the top of the space. */
static void test_sweep(void)
{
    int failures = 0;
    long combos = 0, offsets = 0;
    for (int b = 0; b <= 5; b++)
        for (int m = 0; m <= 6; m++)
            for (int s = -8; s <= 8; s++) {
                struct swz z;
                struct sz_error err;
                int rc = swz_init(&z, b, m, s, &err);
                CHECK_QUIET(failures, (rc == 0) == valid_rule(b, m, s),
                            "Swizzle<%d,%d,%d> validity %d", b, m, s, rc);
                if (rc != 0)
                    continue;
                combos++;
                int as = s < 0 ? -s : s;
                uint32_t span = 1u << (m + as + b + 1);
                for (uint32_t o = 0; o < span; o++) {
                    uint32_t got = swz_apply(&z, o);
                    CHECK_QUIET(failures, got == brute_apply(b, m, s, o),
                                "Swizzle<%d,%d,%d>(%u) = %u, oracle %u", b, m, s, o,
                                got, brute_apply(b, m, s, o));
                    CHECK_QUIET(failures, swz_apply(&z, got) == o,
                                "not an involution at %u", o);
                }
                for (uint32_t k = 0; k < 4096; k++) {
                    uint32_t o = SZ_OFFSET_LIMIT - 1 - k * 524287u % (SZ_OFFSET_LIMIT / 2);
                    CHECK_QUIET(failures, swz_apply(&z, o) == brute_apply(b, m, s, o),
                                "high offset %u", o);
                    CHECK_QUIET(failures, swz_apply(&z, o) < SZ_OFFSET_LIMIT,
                                "left the offset space at %u", o);
                }
                offsets += span + 4096;
            }
    CHECK(failures == 0, "%d sweep failures", failures);
    /* 6*7*17 = 714 triples; the valid ones counted by the independent rule. */
    long want = 0;
    for (int b = 0; b <= 5; b++)
        for (int m = 0; m <= 6; m++)
            for (int s = -8; s <= 8; s++)
                want += valid_rule(b, m, s);
    CHECK(combos == want && combos > 300, "swept %ld valid swizzles, rule says %ld",
          combos, want);
    printf("sweep: %ld swizzles, %ld offsets against the bit-by-bit oracle\n",
           combos, offsets);
}

/* Bijection per period: apply permutes every aligned block of 2^period bytes. */
static void test_bijection(void)
{
    int failures = 0;
    for (int b = 0; b <= 4; b++)
        for (int m = 0; m <= 4; m++)
            for (int s = -6; s <= 6; s++) {
                struct swz z;
                if (swz_init(&z, b, m, s, NULL) < 0)
                    continue;
                uint32_t period = 1u << swz_period_bits(&z);
                for (uint32_t base = 0; base < 4 * period; base += period) {
                    unsigned char *seen = calloc(period, 1);
                    for (uint32_t o = base; o < base + period; o++) {
                        uint32_t p = swz_apply(&z, o);
                        CHECK_QUIET(failures, p >= base && p < base + period,
                                    "Swizzle<%d,%d,%d> moved %u out of its block", b, m,
                                    s, o);
                        if (p >= base && p < base + period)
                            seen[p - base]++;
                    }
                    for (uint32_t i = 0; i < period; i++)
                        CHECK_QUIET(failures, seen[i] == 1, "slot %u hit %d times",
                                    base + i, seen[i]);
                    free(seen);
                }
            }
    CHECK(failures == 0, "%d bijection failures", failures);
}

/* Every rejected combination around the boundaries, and the field it names. */
static void test_rejects(void)
{
    int failures = 0, rejected = 0;
    for (int b = -2; b <= 17; b++)
        for (int m = -2; m <= 32; m++)
            for (int s = -33; s <= 33; s++) {
                struct swz z;
                struct sz_error err = {0};
                int rc = swz_init(&z, b, m, s, &err);
                CHECK_QUIET(failures, (rc == 0) == valid_rule(b, m, s),
                            "Swizzle<%d,%d,%d>: rc %d, rule %d", b, m, s, rc,
                            valid_rule(b, m, s));
                if (rc != 0) {
                    rejected++;
                    CHECK_QUIET(failures, err.code == SZ_INVALID_ARGUMENT &&
                                (strcmp(err.field, "b") == 0 || strcmp(err.field, "m") == 0 ||
                                 strcmp(err.field, "s") == 0) && err.message[0],
                                "Swizzle<%d,%d,%d> error without a field", b, m, s);
                }
            }
    CHECK(failures == 0 && rejected > 1000, "%d failures, %d rejected", failures, rejected);
    struct swz z;
    struct sz_error err;
    CHECK(swz_init(&z, 3, 4, 1, &err) < 0 && strcmp(err.field, "s") == 0,
          "|S| < B names s: %s", err.field);
    CHECK(swz_init(&z, 1, 4, 0, &err) < 0 && strcmp(err.field, "s") == 0,
          "S = 0 with B > 0 names s");
    CHECK(swz_init(&z, 7, 10, 15, &err) < 0 && strcmp(err.field, "m") == 0,
          "bit 31 touched names m: %s", err.message);
    CHECK(swz_init(&z, -1, 4, 3, &err) < 0 && strcmp(err.field, "b") == 0, "b < 0");
    CHECK(strstr(err.message, "0..15") != NULL, "message states the range: %s",
          err.message);
}

static void test_geometry(void)
{
    struct swz z;
    struct swz_geom g;
    struct sz_error err;
    swz_init(&z, 3, 4, 3, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 0, 0, &err) == 0, "%s", err.message);
    CHECK(g.rows == 8 && g.cols == 8 && g.cells == 64 && g.unit_bytes == 16 && g.tile == 8,
          "default grid %ux%u", g.rows, g.cols);
    CHECK(swz_unit_banks(&g) == 4 && swz_units_per_bank(&g) == 1, "16B unit on 4B banks");

    uint32_t log_of[64], phys_of[64], bank_of[64];
    swz_grid_maps(&z, &g, log_of, phys_of, bank_of);
    /* Row 1 of <3,4,3>: physical slot c holds logical column c ^ 1. */
    for (uint32_t c = 0; c < 8; c++)
        CHECK(log_of[8 + c] == 8 + (c ^ 1), "row 1 slot %u holds %u", c, log_of[8 + c]);
    /* Column 0 down the tile: logical col 0 sits in slot r, banks 4r..4r+3. */
    for (uint32_t r = 0; r < 8; r++)
        CHECK(phys_of[8 * r] == 8 * r + r && bank_of[phys_of[8 * r]] == 4 * r,
              "col 0 row %u -> slot %u bank %u", r, phys_of[8 * r], bank_of[phys_of[8 * r]]);
    for (uint32_t p = 0; p < 64; p++)
        CHECK(phys_of[log_of[p]] == p, "maps not inverse at %u", p);

    /* Narrow banks and fractions: 2-byte units on 8-byte banks share a bank 4 ways. */
    swz_init(&z, 1, 1, 2, NULL);
    CHECK(swz_geom_init(&g, &z, 8, 16, 4, 0, &err) == 0, "%s", err.message);
    CHECK(swz_unit_banks(&g) == 1 && swz_units_per_bank(&g) == 4, "2B unit on 8B bank");
    CHECK(swz_bank_of(200, 8, 16) == 9 && swz_bank_of(127, 4, 32) == 31 &&
          swz_bank_of(128, 4, 32) == 0 && swz_bank_of(5, 1, 1) == 0, "bank_of");
    /* A unit wider than the bank row touches every bank once. */
    swz_init(&z, 0, 8, 0, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 2, 0, &err) == 0, "%s", err.message);
    CHECK(swz_unit_banks(&g) == 32, "256B unit spans all 32 banks");

    /* match_bank_row: 32B units on the 128B bank row give 4 columns. */
    swz_init(&z, 2, 5, 2, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 8, 1, &err) == 0 && g.cols == 4, "match cols %u",
          g.cols);
    swz_init(&z, 3, 4, 4, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 16, 1, &err) == 0 && g.cols == 8 && g.rows == 16,
          "S=4 matched to an 8-unit row");
    uint32_t l2[128], p2[128];
    swz_grid_maps(&z, &g, l2, p2, NULL);
    for (uint32_t p = 0; p < 128; p++)
        CHECK(p2[l2[p]] == p, "matched grid not a bijection at %u", p);

    /* Rejections name their field. */
    swz_init(&z, 3, 4, 3, NULL);
    CHECK(swz_geom_init(&g, &z, 3, 32, 8, 0, &err) < 0 && !strcmp(err.field, "bank_bytes"),
          "3-byte banks");
    CHECK(swz_geom_init(&g, &z, 64, 32, 8, 0, &err) < 0 && !strcmp(err.field, "bank_bytes"),
          "64-byte banks");
    CHECK(swz_geom_init(&g, &z, 4, 256, 8, 0, &err) < 0 && !strcmp(err.field, "banks"),
          "256 banks");
    CHECK(swz_geom_init(&g, &z, 4, 0, 8, 0, &err) < 0 && !strcmp(err.field, "banks"),
          "0 banks");
    CHECK(swz_geom_init(&g, &z, 4, 32, SWZ_MAX_CELLS / 8 + 1, 0, &err) < 0 &&
          !strcmp(err.field, "rows"), "too many cells");
    CHECK(swz_geom_init(&g, &z, 4, 32, SWZ_MAX_CELLS / 8, 0, &err) == 0,
          "exactly 2^20 cells is allowed: %s", err.message);
    swz_init(&z, 2, 4, -3, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 6, 0, &err) < 0 && !strcmp(err.field, "rows") &&
          strstr(err.message, "multiple of 4"), "negative S needs whole tiles: %s",
          err.message);
    CHECK(swz_geom_init(&g, &z, 4, 32, 8, 0, &err) == 0, "8 rows ok: %s", err.message);
    swz_init(&z, 0, 8, 0, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 4, 1, 1, &err) < 0 && !strcmp(err.field, "match_bank_row"),
          "unit wider than the bank row");
    swz_init(&z, 0, 20, 10, NULL);
    CHECK(swz_geom_init(&g, &z, 4, 32, 4, 0, &err) < 0 && !strcmp(err.field, "rows"),
          "2^31 bytes: %s", err.message);
}

static void test_tile(void)
{
    struct swz z;
    uint32_t log_of[64], phys_of[64];
    swz_init(&z, 3, 4, 3, NULL);
    swz_tile_maps(&z, log_of, phys_of);
    for (uint32_t r = 0; r < 8; r++)
        for (uint32_t c = 0; c < 8; c++)
            CHECK(log_of[r * 8 + c] == r * 8 + (c ^ r), "<3,4,3> tile (%u,%u)", r, c);
    /* Negative S permutes rows within a column: row' = row ^ col. */
    swz_init(&z, 2, 4, -3, NULL);
    swz_tile_maps(&z, log_of, phys_of);
    for (uint32_t r = 0; r < 4; r++)
        for (uint32_t c = 0; c < 4; c++)
            CHECK(phys_of[r * 4 + c] == ((r ^ c) * 4 + c), "<2,4,-3> tile (%u,%u) -> %u", r,
                  c, phys_of[r * 4 + c]);
    swz_init(&z, 0, 4, 3, NULL);
    swz_tile_maps(&z, log_of, phys_of);
    CHECK(log_of[0] == 0 && phys_of[0] == 0, "B = 0 tile is one unit");
}

/* ---- the inspector, against an oracle that shares no code with the core ----
 *
 * CuTe, swizzle.hpp: Swizzle<BBits, MBase, SShift> has
 *   yyy_msk = ((1 << BBits) - 1) << (MBase + max(0, SShift))
 *   zzz_msk = ((1 << BBits) - 1) << (MBase - min(0, SShift))
 *   apply(offset) = offset ^ shiftr(offset & yyy_msk, SShift)   // ZZZ ^= YYY
 * Read bit by bit: for i in 0..B-1, bit M + max(0,S) + i of the offset is
 * XORed into bit M - min(0,S) + i.  The oracle holds an address as an array of
 * bits, flips them one at a time, and reads rows, columns, tiles and banks off
 * the result with plain division, as a person with the definition would. */

struct oracle_cell {
    uint32_t lrow, lcol, prow, pcol, paddr;
    uint32_t yyy, zzz, zzz_sw;
    uint32_t nbanks, bank[128];
};

static uint32_t bits_value(const unsigned char *bit, int lo, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = 2 * v + bit[lo + i];
    return v;
}

static void oracle_cell(int b, int m, int s, uint32_t cols, uint32_t bank_bytes,
                        uint32_t banks, uint32_t row, uint32_t col, struct oracle_cell *o)
{
    unsigned char lbit[32] = {0}, pbit[32];
    uint32_t unit = 1u << m, laddr = (row * cols + col) * unit;
    for (int i = 0; i < 32; i++)
        lbit[i] = (unsigned char)(laddr >> i & 1);
    memcpy(pbit, lbit, sizeof pbit);
    int ysrc = m + (s > 0 ? s : 0), zdst = m - (s < 0 ? s : 0);
    for (int i = 0; i < b; i++)
        pbit[zdst + i] ^= lbit[ysrc + i];
    o->paddr = bits_value(pbit, 0, 31);
    o->lrow = row, o->lcol = col;
    o->prow = o->paddr / unit / cols;
    o->pcol = o->paddr / unit % cols;
    o->yyy = bits_value(lbit, ysrc, b);
    o->zzz = bits_value(lbit, zdst, b);
    o->zzz_sw = bits_value(pbit, zdst, b);
    /* banks: walk the unit's bytes bank word by bank word, keep each new bank */
    o->nbanks = 0;
    for (uint32_t w = o->paddr / bank_bytes; w <= (o->paddr + unit - 1) / bank_bytes; w++) {
        uint32_t bk = w % banks, seen = 0;
        for (uint32_t k = 0; k < o->nbanks; k++)
            seen |= o->bank[k] == bk;
        if (!seen)
            o->bank[o->nbanks++] = bk;
        if (o->nbanks == banks)
            break;
    }
}

/* The slot rule by looking at every cell of the grid (CONTRACT.md sec. 3). */
static const char *oracle_rule(int b, int m, int s, uint32_t rows, uint32_t cols)
{
    if (b == 0)
        return "identity";
    uint32_t t = 1u << b;
    int col_xor_row = 1, row_xor_col = 1;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            struct oracle_cell o;
            oracle_cell(b, m, s, cols, 4, 32, r, c, &o);
            if (!(o.prow == r && o.pcol / t == c / t && o.pcol % t == ((c % t) ^ (r % t))))
                col_xor_row = 0;
            if (!(o.pcol == c && o.prow / t == r / t && o.prow % t == ((r % t) ^ (c % t))))
                row_xor_col = 0;
        }
    return col_xor_row ? "col_xor_row" : row_xor_col ? "row_xor_col" : "general";
}

/* The contract's examples (CONTRACT.md sec. 3, issue 13), by hand. */
static void test_inspect_examples(void)
{
    static const struct {
        int b, m, s, match;
        uint32_t rows, row, col;
        uint32_t prow, pcol, slot;
        const char *rule, *why;
    } cases[] = {
        {3, 4, 3, 0, 8, 1, 2, 1, 3, 3, "col_xor_row",
         "addr 144 -> 176: row 1, col 2 ^ 1 = 3 (the api table's case)"},
        {2, 4, -3, 0, 4, 1, 2, 3, 2, 2, "row_xor_col",
         "addr 160: bits 4-5 = 2 shifted to bits 7-8 -> 160 ^ 256 = 416 = unit 26, "
         "row 3 col 2; the old col ^ row_mod said 3"},
        {3, 4, -3, 0, 8, 5, 6, 3, 6, 6, "row_xor_col", "row 5 ^ col 6 = 3, col stays"},
        {3, 2, 3, 1, 8, 1, 8, 1, 13, 5, "general",
         "32 cols of 4 B: addr 160 = bits 7 and 5, YYY (bits 5-7) = 5 mixes col bit 3 "
         "and row bit 0; ZZZ (bits 2-4) ^= 5: 180 = unit 45, col 13, slot 13 % 8"},
        {0, 4, 3, 0, 1, 0, 5, 0, 5, 0, "identity", "B = 0 moves nothing; a tile is 1 unit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct swz z;
        struct swz_geom g;
        struct swz_cell c;
        struct sz_error err;
        swz_init(&z, cases[i].b, cases[i].m, cases[i].s, NULL);
        int rc = swz_geom_init(&g, &z, 4, 32, cases[i].rows, cases[i].match, &err);
        CHECK(rc == 0, "case %zu: %s", i, err.message);
        if (rc < 0)
            continue;
        swz_inspect(&z, &g, cases[i].row, cases[i].col, &c);
        CHECK(c.physical.row == cases[i].prow && c.physical.col == cases[i].pcol &&
              c.slot == cases[i].slot, "case %zu: physical (%u,%u) slot %u: %s", i,
              c.physical.row, c.physical.col, c.slot, cases[i].why);
        CHECK(strcmp(swz_slot_rule_name(swz_slot_rule(&z, &g)), cases[i].rule) == 0,
              "case %zu: rule %s, want %s", i, swz_slot_rule_name(swz_slot_rule(&z, &g)),
              cases[i].rule);
    }
}

/* Every cell of every grid in the sweep: B 0..4, M 0..5, S -6..6, three bank
 * geometries, match_bank_row 0/1, rows 1, 2 and 3 times the least the swizzle
 * allows (grids up to 2^11 cells). */
static void test_inspect_sweep(void)
{
    static const uint32_t geoms[][2] = {{4, 32}, {1, 8}, {32, 4}};
    int failures = 0;
    long grids = 0, cells = 0;
    for (int b = 0; b <= 4; b++)
        for (int m = 0; m <= 5; m++)
            for (int s = -6; s <= 6; s++)
                for (size_t gi = 0; gi < 3; gi++)
                    for (int match = 0; match <= 1; match++)
                        for (uint32_t k = 1; k <= 3; k++) {
        struct swz z;
        if (swz_init(&z, b, m, s, NULL) < 0)
            continue;
        uint32_t bank_bytes = geoms[gi][0], banks = geoms[gi][1];
        uint32_t unit = 1u << m, bank_row = bank_bytes * banks, as = (uint32_t)abs(s);
        if (match && unit > bank_row)
            continue;
        uint32_t cols = match ? bank_row / unit : 1u << as;
        /* the swizzle permutes blocks of 2^(M+|S|+B) bytes (2^M for B = 0) */
        uint64_t period = (uint64_t)1 << (b ? m + (int)as + b : m), row_bytes = cols * unit;
        uint32_t rows = k * (uint32_t)(period > row_bytes ? period / row_bytes : 1);
        if ((uint64_t)rows * cols > 2048)
            continue;
        struct swz_geom g;
        struct sz_error err;
        if (swz_geom_init(&g, &z, bank_bytes, banks, rows, match, &err) < 0) {
            CHECK_QUIET(failures, 0, "<%d,%d,%d> %ux%u refused: %s", b, m, s, rows, cols,
                        err.message);
            continue;
        }
        grids++;
        uint32_t t = 1u << b;
        /* the grid counts the page shows */
        CHECK_QUIET(failures, g.row_bytes == cols * unit && g.bytes == rows * cols * unit &&
                    g.bank_row_bytes == bank_row && g.tile_bytes == (uint64_t)t * t * unit,
                    "<%d,%d,%d>: sizes", b, m, s);
        uint32_t whole = 0, trows = 0, brows = 0, per_row = 0, rows_per = 0;
        for (uint32_t c = 0; c + t <= cols; c += t)
            whole++;
        for (uint32_t r = 0; r < rows; r++)
            trows += r % t == 0;
        for (uint32_t byte = 0; byte < g.bytes; byte += bank_row < unit ? bank_row : unit)
            brows += byte % bank_row == 0;
        for (uint32_t l = 0; unit <= bank_row && l * unit < bank_row; l++)
            per_row++;
        for (uint32_t byte = 0; unit > bank_row && byte < unit; byte += bank_row)
            rows_per++;
        CHECK_QUIET(failures, g.tiles_per_row == (whole ? whole : 1) && g.tile_rows == trows &&
                    g.bank_rows == brows && g.units_per_bank_row == per_row &&
                    g.bank_rows_per_unit == rows_per,
                    "<%d,%d,%d> %ux%u: tiles %u/%u (%u/%u) bank rows %u/%u/%u (%u/%u/%u)",
                    b, m, s, rows, cols, g.tiles_per_row, g.tile_rows, whole, trows,
                    g.bank_rows, g.units_per_bank_row, g.bank_rows_per_unit, brows,
                    per_row, rows_per);
        int ysrc = m + (s > 0 ? s : 0), zdst = m - (s < 0 ? s : 0);
        CHECK_QUIET(failures, z.yyy_lo == ysrc && z.zzz_lo == zdst &&
                    (b == 0 || (z.yyy_msk >> ysrc & 1 && z.zzz_msk >> zdst & 1)),
                    "<%d,%d,%d>: field positions %d %d", b, m, s, z.yyy_lo, z.zzz_lo);
        /* the bits shown: every touched bit and every address bit of the grid */
        int top = b ? (ysrc > zdst ? ysrc : zdst) + b : m, need = 1;
        while (need < 31 && (g.bytes - 1) >> need)
            need++;
        if (top > need)
            need = top;
        CHECK_QUIET(failures, swz_addr_bits(&z, &g) == need, "<%d,%d,%d> %ux%u: %d bits, want %d",
                    b, m, s, rows, cols, swz_addr_bits(&z, &g), need);
        const char *rule = oracle_rule(b, m, s, rows, cols);
        CHECK_QUIET(failures, strcmp(swz_slot_rule_name(swz_slot_rule(&z, &g)), rule) == 0,
                    "<%d,%d,%d> %ux%u match %d: rule %s, oracle %s", b, m, s, rows, cols, match,
                    swz_slot_rule_name(swz_slot_rule(&z, &g)), rule);
        for (uint32_t r = 0; r < rows; r++)
            for (uint32_t c = 0; c < cols; c++) {
                struct swz_cell got;
                struct oracle_cell o;
                swz_inspect(&z, &g, r, c, &got);
                oracle_cell(b, m, s, cols, bank_bytes, banks, r, c, &o);
                cells++;
                int ok = got.logical.row == r && got.logical.col == c &&
                         got.logical.unit == r * cols + c &&
                         got.logical.addr == (r * cols + c) * unit &&
                         got.physical.addr == o.paddr && got.physical.row == o.prow &&
                         got.physical.col == o.pcol &&
                         got.physical.unit == o.prow * cols + o.pcol &&
                         got.tile_row == r / t && got.tile_col == c / t &&
                         got.row_in_tile == r % t && got.col_in_tile == c % t &&
                         got.row_mod == r % t && got.phys_row_in_tile == o.prow % t &&
                         got.phys_col_in_tile == o.pcol % t && got.slot == o.pcol % t &&
                         got.yyy == o.yyy && got.zzz == o.zzz && got.zzz_swizzled == o.zzz_sw &&
                         got.nbanks == o.nbanks && got.bits == need;
                for (uint32_t i = 0; ok && i < o.nbanks; i++)
                    ok = got.bank[i] == o.bank[i];
                CHECK_QUIET(failures, ok,
                            "<%d,%d,%d> %ux%u match %d banks %ux%u cell (%u,%u): core "
                            "(%u,%u) slot %u yyy %u zzz %u->%u banks %u from %u; oracle "
                            "(%u,%u) yyy %u zzz %u->%u banks %u from %u",
                            b, m, s, rows, cols, match, banks, bank_bytes, r, c,
                            got.physical.row, got.physical.col, got.slot, got.yyy, got.zzz,
                            got.zzz_swizzled, got.nbanks, got.bank[0], o.prow, o.pcol, o.yyy,
                            o.zzz, o.zzz_sw, o.nbanks, o.bank[0]);
            }
    }
    CHECK(failures == 0, "%d inspector sweep failures", failures);
    CHECK(grids > 1000, "only %ld grids swept", grids);
    printf("inspector sweep: %ld grids, %ld cells against the bit-by-bit oracle\n", grids,
           cells);
}

/* swz_inspect_byte against a byte walk: every byte of every unit of small
 * grids, on the plain map (the logical address) and the swizzled one (the
 * oracle's physical address), its bank word read off the address by division;
 * each (bank, bank row) the unit touches must come back as that byte range,
 * placed on both maps, the first bank row when none is named, and every other
 * bank is refused. */
static void test_inspect_byte_sweep(void)
{
    static const uint32_t geoms[][2] = {{4, 32}, {1, 8}, {32, 4}, {8, 16}};
    int failures = 0;
    long words = 0;
    for (int b = 0; b <= 3; b++)
        for (int m = 0; m <= 6; m++)
            for (int s = -4; s <= 4; s++)
                for (size_t gi = 0; gi < 4; gi++)
                    for (int match = 0; match <= 1; match++) {
        struct swz z;
        struct swz_geom g;
        uint32_t bb = geoms[gi][0], nb = geoms[gi][1], unit = 1u << m;
        if (swz_init(&z, b, m, s, NULL) < 0 || swz_geom_init(&g, &z, bb, nb, 0, match, NULL) < 0 ||
            g.cells > 512)
            continue;
        for (uint32_t r = 0; r < g.rows; r++)
            for (uint32_t c = 0; c < g.cols; c++)
                for (int plain = 0; plain <= 1; plain++) {
                struct swz_cell cell;
                struct oracle_cell o;
                swz_inspect(&z, &g, r, c, &cell);
                oracle_cell(b, m, s, g.cols, bb, nb, r, c, &o);
                uint32_t laddr = (r * g.cols + c) * unit, base = plain ? laddr : o.paddr;
                /* lo/hi byte of each (bank, bank row) the unit's bytes fall in */
                uint32_t lo[128][8], hi[128][8], first_row[128];
                int hit[128][8] = {{0}};
                for (uint32_t k = 0; k < nb; k++)
                    first_row[k] = UINT32_MAX;
                uint32_t row0 = base / (bb * nb);
                for (uint32_t x = base; x < base + unit; x++) {
                    uint32_t k = x / bb % nb, br = x / (bb * nb) - row0;
                    if (!hit[k][br]++)
                        lo[k][br] = x;
                    hi[k][br] = x + 1;
                    if (first_row[k] == UINT32_MAX)
                        first_row[k] = br;
                }
                for (uint32_t k = 0; k < nb; k++) {
                    struct swz_byte got;
                    struct sz_error err;
                    if (first_row[k] == UINT32_MAX) {
                        CHECK_QUIET(failures, swz_inspect_byte(&g, &cell, k, -1, plain, 0, &got, &err) < 0 &&
                                    strcmp(err.field, "bank") == 0,
                                    "<%d,%d,%d> cell (%u,%u): bank %u holds none of it", b, m, s, r, c, k);
                        continue;
                    }
                    for (uint32_t br = 0; br < 8; br++) {
                        if (!hit[k][br])
                            continue;
                        words++;
                        uint32_t e = 1u << ((k + br) % 4), n = hi[k][br] - lo[k][br];   /* 1..8-byte elements in turn */
                        uint32_t off = lo[k][br] - base, pl = laddr + off, ph = o.paddr + off;
                        uint32_t in_row = c * unit + off;   /* byte in the logical row */
                        int rc = swz_inspect_byte(&g, &cell, k, (long)(row0 + br), plain, e, &got, &err);
                        const struct swz_byte_place *at = plain ? &got.plain : &got.swizzled;
                        CHECK_QUIET(failures, rc == 0 && at->bank == k && at->bank_row == row0 + br &&
                                    got.unit_lo == off && got.unit_hi == off + n &&
                                    got.phys_lo == ph && got.logical_lo == pl &&
                                    got.plain.bank == pl / bb % nb && got.plain.bank_row == pl / (bb * nb) &&
                                    got.plain.word_lo == pl % bb && got.plain.word_hi == pl % bb + n &&
                                    got.swizzled.bank == ph / bb % nb && got.swizzled.bank_row == ph / (bb * nb) &&
                                    got.swizzled.word_lo == ph % bb && got.swizzled.word_hi == ph % bb + n &&
                                    got.elem_first == in_row / e && got.elem_last == (in_row + n - 1) / e &&
                                    got.elem_byte_lo == in_row % e,
                                    "<%d,%d,%d> %ux%u cell (%u,%u) plain %d bank %u row %u: got unit [%u,%u) want [%u,%u)",
                                    b, m, s, nb, bb, r, c, plain, k, row0 + br, got.unit_lo, got.unit_hi,
                                    off, off + n);
                        uint32_t wk, wr;   /* the same word named by each of its bytes */
                        for (uint32_t x = off; x < off + n; x++) {
                            swz_unit_byte_word(&g, &cell, x, plain, &wk, &wr);
                            CHECK_QUIET(failures, wk == k && wr == row0 + br,
                                        "<%d,%d,%d> cell (%u,%u) byte %u: word (%u,%u), want (%u,%u)",
                                        b, m, s, r, c, x, wk, wr, k, row0 + br);
                        }
                        if (br == first_row[k]) {
                            rc = swz_inspect_byte(&g, &cell, k, -1, plain, 0, &got, &err);
                            at = plain ? &got.plain : &got.swizzled;
                            CHECK_QUIET(failures, rc == 0 && at->bank_row == row0 + br && got.unit_lo == off,
                                        "<%d,%d,%d> cell (%u,%u) bank %u: first row %u, want %u",
                                        b, m, s, r, c, k, at->bank_row, row0 + br);
                        }
                    }
                    /* a bank row the unit does not reach */
                    CHECK_QUIET(failures, swz_inspect_byte(&g, &cell, k, (long)row0 + 8, plain, 0, &got, &err) < 0 &&
                                strcmp(err.field, "bank_row") == 0,
                                "<%d,%d,%d> cell (%u,%u) bank %u: row %u refused", b, m, s, r, c, k, row0 + 8);
                }
            }
    }
    CHECK(failures == 0, "%d bank-cell sweep failures", failures);
    CHECK(words > 10000, "only %ld bank words checked", words);
    printf("bank-cell sweep: %ld bank words on both maps against a byte walk\n", words);
}

/* The windowed maps a streamed answer is written from equal the whole maps,
 * element for element, over every valid swizzle with B <= 5 on its default
 * grid and windows of an odd width (so that windows straddle rows and tiles). */
static void test_ranges(void)
{
    static uint32_t full[5][1u << 12], part[5][1u << 12];
    int failures = 0, grids = 0;
    for (int b = 0; b <= 5; b++)
        for (int m = 0; m <= 4; m++)
            for (int s = -8; s <= 8; s++) {
                struct swz z;
                struct swz_geom g;
                if (swz_init(&z, b, m, s, NULL) < 0 ||
                    swz_geom_init(&g, &z, 4, 32, 0, 0, NULL) < 0 || g.cells > (1u << 12))
                    continue;
                grids++;
                uint32_t tc = 1u << (2 * b);
                swz_grid_maps(&z, &g, full[0], full[1], full[2]);
                swz_tile_maps(&z, full[3], full[4]);
                for (uint32_t from = 0; from < g.cells; from += 7) {
                    uint32_t n = g.cells - from < 7 ? g.cells - from : 7;
                    swz_grid_range(&z, &g, from, n, part[0] + from, part[1] + from,
                                   part[2] + from);
                }
                for (uint32_t from = 0; from < tc; from += 5)
                    swz_tile_range(&z, from, tc - from < 5 ? tc - from : 5, part[3] + from,
                                   part[4] + from);
                for (int k = 0; k < 5; k++)
                    for (uint32_t i = 0; i < (k < 3 ? g.cells : tc); i++)
                        CHECK_QUIET(failures, full[k][i] == part[k][i],
                                    "<%d,%d,%d> map %d [%u]: %u != %u", b, m, s, k, i,
                                    part[k][i], full[k][i]);
            }
    CHECK(failures == 0 && grids > 50, "%d range failures over %d grids", failures, grids);
}

/* The element form against its definition, every small swizzle: element i
 * of 2^k bytes sits where the byte swizzle puts byte i << k, so the form on
 * element indices must map i to apply(i << k) >> k; and there is no form
 * exactly when a unit splits an element (M < k). */
static void test_on_elements(void)
{
    int checked = 0;
    for (int b = 0; b <= 3; b++)
        for (int m = 0; m <= 6; m++)
            for (int s = -6; s <= 6; s++) {
                struct swz z, e;
                if (swz_init(&z, b, m, s, NULL) < 0)
                    continue;
                for (int k = 0; k <= 3; k++) {
                    struct sz_error err;
                    int rc = swz_on_elements(&z, k, &e, &err);
                    CHECK((rc == 0) == (m >= k), "<%d,%d,%d> k=%d: rc %d", b, m, s, k, rc);
                    if (rc < 0) {
                        CHECK(strcmp(err.field, "m") == 0, "<%d,%d,%d> k=%d: field %s", b, m, s,
                              k, err.field);
                        continue;
                    }
                    uint32_t period = 1u << swz_period_bits(&z), bad = 0;
                    for (uint32_t i = 0; i < period >> k; i++)
                        bad += swz_apply(&e, i) != swz_apply(&z, i << k) >> k;
                    CHECK(bad == 0, "<%d,%d,%d> k=%d: %u elements moved elsewhere", b, m, s, k,
                          bad);
                    checked++;
                }
            }
    printf("on_elements: %d forms against the byte swizzle\n", checked);
}

/* tests/data/slot_rules.json is what the page's node tests read for the rule
 * names (slotrule.js's RULES): it must list the server's names, in order, and
 * no more (the name past the last is "?"). */
static void the_slot_rules_fixture_is_the_servers_names(void)
{
    FILE *f = fopen("tests/data/slot_rules.json", "rb");
    char text[512] = "";
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    CHECK(n > 0, "tests/data/slot_rules.json not read (run from the repository root)");
    char want[256] = "{\"slot_rules\": [";
    int r = 0;
    for (; strcmp(swz_slot_rule_name((enum swz_slot_rule)r), "?") != 0; r++) {
        size_t len = strlen(want);
        snprintf(want + len, sizeof want - len, "%s\"%s\"", r ? ", " : "",
                 swz_slot_rule_name((enum swz_slot_rule)r));
    }
    strcat(want, "]}\n");
    CHECK(r == 4 && strcmp(text, want) == 0, "tests/data/slot_rules.json is not the server's "
          "names: want %s", want);
}

int main(void)
{
    hand_derived_apply_table();
    test_sweep();
    test_bijection();
    test_rejects();
    test_geometry();
    test_tile();
    test_ranges();
    test_on_elements();
    test_inspect_examples();
    test_inspect_sweep();
    test_inspect_byte_sweep();
    the_slot_rules_fixture_is_the_servers_names();
    return check_summary("test_swizzle");
}
