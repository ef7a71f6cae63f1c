/* test_layout.c - layout.c, layout_text.c and rosetta.c: CuTe text against what
 * CuTe itself prints (tests/data/cute_layouts.json, provenance inside), every
 * form against an evaluator written here from the definitions (sharing no code
 * with the parser) over sweeps of shapes and strides, element/byte
 * equivalence, text errors and their columns, equivalents and validators,
 * and /api/layout through the handler. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/rosetta.h"
#include "layout/wgmma.h"
#include "model/presets.h"
#include "check.h"
#include "read_json.h"
#include "client.h"
#include "jtest.h"

static uint32_t rng = 12345;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

static uint32_t out[1 << 20], ref[1 << 20], srt[1 << 20], tmp[1 << 20];

/* ---- CuTe's own prints ---------------------------------------------------- */

static void test_cute_prints(void)
{
    char *txt = client_slurp("tests/data/cute_layouts.json");
    CHECK(txt != NULL, "tests/data/cute_layouts.json is readable");
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int n = 0;
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next, n++) {
        const char *name = cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring;
        const char *text = cJSON_GetObjectItemCaseSensitive(c, "text")->valuestring;
        int bits = cJSON_GetObjectItemCaseSensitive(c, "element_bits")->valueint;
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(c, "byte_offsets");
        struct lay l;
        struct sz_error err = {0};
        int rc = lay_parse(text, bits, NULL, 0, &l, &err);
        CHECK(rc == 0, "%s: %s parses (%s: %s)", name, text, err.field, err.message);
        if (rc < 0)
            continue;
        CHECK(l.size == (uint32_t)cJSON_GetArraySize(vals), "%s: size %u", name, l.size);
        lay_eval(&l, out);
        int bad = 0, i = 0;
        for (const cJSON *v = vals->child; v && (uint32_t)i < l.size; v = v->next, i++)
            CHECK_QUIET(bad, out[i] == (uint32_t)v->valueint, "%s: index %d: %u, CuTe %d", name,
                        i, out[i], v->valueint);
        CHECK(bad == 0, "%s: every byte offset as CuTe prints it", name);
        /* the element-bits field must agree with smem_ptr[Nb] */
        if (strstr(text, "smem_ptr[16b]")) {
            CHECK(lay_parse(text, 32, NULL, 0, &l, &err) < 0 &&
                      strcmp(err.field, "element_bits") == 0,
                  "%s: element_bits 32 against smem_ptr[16b] is refused", name);
        }
    }
    CHECK(n >= 20, "the CuTe data holds %d cases", n);
    cJSON_Delete(root);
    free(txt);
}

/* ---- the CuTe oracle: colexicographic decomposition, bit-by-bit swizzle ------ */

struct tree {       /* a generated layout: up to 3 modes of up to 3 leaves */
    int rank, nl[3], stat[3][3];
    uint32_t s[3][3], d[3][3];
    int bare;       /* rank 1 written without parentheses */
};

static uint32_t oracle_swz(uint32_t x, int b, int m, int s)
{
    uint32_t y = x;
    int src0 = m + (s > 0 ? s : 0);
    for (int k = 0; k < b; k++) {
        int src = src0 + k, dst = src - s;
        y ^= ((x >> src) & 1u) << dst;
    }
    return y;
}

static uint32_t oracle_cute(const struct tree *t, uint32_t i)
{
    uint32_t e = 0;
    for (int m = 0; m < t->rank; m++) {
        uint32_t ms = 1;
        for (int k = 0; k < t->nl[m]; k++)
            ms *= t->s[m][k];
        uint32_t mi = i % ms;
        i /= ms;
        for (int k = 0; k < t->nl[m]; k++) {
            e += (mi % t->s[m][k]) * t->d[m][k];
            mi /= t->s[m][k];
        }
    }
    return e;
}

static void put_side(char *p, size_t cap, const struct tree *t, int stride)
{
    size_t n = 0;
    int paren = !t->bare;
    if (paren)
        n += (size_t)snprintf(p + n, cap - n, "(");
    for (int m = 0; m < t->rank; m++) {
        int inner = t->nl[m] > 1;
        n += (size_t)snprintf(p + n, cap - n, "%s%s", m ? "," : "", inner ? "(" : "");
        for (int k = 0; k < t->nl[m]; k++)
            n += (size_t)snprintf(p + n, cap - n, "%s%s%u", k ? ", " : "",
                                  t->stat[m][k] ? "_" : "", stride ? t->d[m][k] : t->s[m][k]);
        n += (size_t)snprintf(p + n, cap - n, "%s", inner ? ")" : "");
    }
    if (paren)
        snprintf(p + n, cap - n, ")");
}

/* The README promises element_bits "16, or what the text says": a CuTe text
 * whose smem_ptr says 32 bits, with no element_bits in the request, is a
 * 32-bit layout (it was refused as "is 16 but ... says 32 bits"). */
static void test_cute_smem_ptr_bits_stand_when_the_request_is_silent(void)
{
    static const char *const texts[] = {
        "Sw<2,2,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)",
        "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)",
        "Sw<1,3,3> o smem_ptr[64b](unset) o (_4,_16):(_16,_1)",
    };
    static const int bits[] = {32, 8, 64};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        struct lay l, want;
        struct sz_error err = {0};
        int rc = lay_parse(texts[k], 0, NULL, 0, &l, &err);
        CHECK(rc == 0 && l.element_bits == bits[k], "%s with no element_bits: %d-bit (%s: %s)",
              texts[k], bits[k], err.field, err.message);
        if (rc < 0 || lay_parse(texts[k], bits[k], NULL, 0, &want, &err) < 0)
            continue;
        static uint32_t a[4096], b[4096];
        lay_eval(&l, a);
        lay_eval(&want, b);
        CHECK(l.size == want.size && memcmp(a, b, l.size * sizeof a[0]) == 0,
              "%s: the same offsets as with element_bits %d", texts[k], bits[k]);
    }
    /* a text that does not say keeps 16 */
    struct lay l;
    struct sz_error err = {0};
    CHECK(lay_parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 0, NULL, 0, &l, &err) == 0 &&
              l.element_bits == 16,
          "Sw<3,3,3> o _0 o ... with no element_bits: 16-bit");
}

/* The form table's contract (layout.h): every row named, labelled and
 * parsing; one default row (no opener), last, since it takes any text; wire
 * names unique; each row's own text parses to that row. */
static void test_form_table_rows_are_complete_and_the_default_is_last(void)
{
    int n;
    const struct lay_form *const *f = lay_forms(&n);
    int ok = n >= 4, defaults = 0;
    for (int i = 0; i < n; i++) {
        ok &= f[i]->name && f[i]->label && f[i]->parse != NULL;
        defaults += f[i]->opener == NULL;
        for (int j = 0; j < i; j++)
            ok &= strcmp(f[i]->name, f[j]->name) != 0;
    }
    CHECK(ok && defaults == 1 && f[n - 1]->opener == NULL,
          "%d rows, each with name, label and parse; one default row, last", n);
    static const struct { const char *text; int rank; const struct lay_form *row; } own[] = {
        {"(_8,_8):(_8,_1)", 0, &lay_form_cute},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 2,
         &lay_form_triton_swizzled},
        {"#triton_gpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>", 2,
         &lay_form_triton_nvmma},
        {"#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64}>", 2, &lay_form_triton_nvmma},
        {"tma:CU_TENSOR_MAP_SWIZZLE_64B", 2, &lay_form_tma},
        {"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], "
         "[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 16>", 2, &lay_form_triton_linear},
        {"#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [32, 64]}>", 2,
         &lay_form_triton_padded},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>", 2,
         &lay_form_triton_rotating},
    };
    static const uint32_t shape[2] = {32, 64};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
        struct lay l;
        struct sz_error err = {0};
        int rc = lay_parse(own[k].text, 16, own[k].rank ? shape : NULL, own[k].rank, &l, &err);
        CHECK(rc == 0 && l.form == own[k].row, "%s is the %s row (%s)", own[k].text,
              own[k].row->name, err.message);
    }
}

static void test_cute_sweep(void)
{
    int bad = 0, cases = 0;
    for (int it = 0; it < 3000; it++) {
        struct tree t = {0};
        t.rank = 1 + (int)rnd(3);
        t.bare = t.rank == 1 && rnd(2);
        uint32_t size = 1;
        for (int m = 0; m < t.rank; m++) {
            t.nl[m] = t.bare ? 1 : 1 + (int)rnd(3);
            for (int k = 0; k < t.nl[m]; k++) {
                t.s[m][k] = size > 4096 ? 1 + rnd(2) : 1 + rnd(8);   /* at most 2^20 */
                size *= t.s[m][k];
                t.d[m][k] = rnd(5) == 0 ? 0 : rnd(200);
                t.stat[m][k] = (int)rnd(2);
            }
        }
        static const int bits_of[] = {8, 16, 32, 64};
        int bits = bits_of[rnd(4)], ebl = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
        int b = (int)rnd(4), m = (int)rnd(5), s = b + (int)rnd(3);
        if (b == 0)
            s = (int)rnd(4);
        if (b && rnd(4) == 0)
            s = -s;
        int dom = (int)rnd(3);      /* 0 none, 1 elements, 2 bytes */
        if (b == 0 && s == 0)
            s = 1;
        if (dom == 2 && m < ebl)
            m = ebl;
        char sh[256], st[256], text[600];
        put_side(sh, sizeof sh, &t, 0);
        put_side(st, sizeof st, &t, 1);
        if (dom == 0)
            snprintf(text, sizeof text, "%s:%s", sh, st);
        else if (dom == 1)
            snprintf(text, sizeof text, "%s<%d,%d,%d> o %s%s:%s", rnd(2) ? "Sw" : "Swizzle", b, m,
                     s, rnd(2) ? "_0 o " : "", sh, st);
        else
            snprintf(text, sizeof text, "Sw<%d,%d,%d> o smem_ptr[%db](unset) o %s:%s", b, m, s,
                     bits, sh, st);
        struct lay l;
        struct sz_error err = {0};
        if (lay_parse(text, bits, NULL, 0, &l, &err) < 0) {
            CHECK_QUIET(bad, 0, "%s does not parse: %s", text, err.message);
            continue;
        }
        lay_eval(&l, out);
        uint32_t eb = (uint32_t)bits / 8;
        for (uint32_t i = 0; i < l.size; i++) {
            uint32_t e = oracle_cute(&t, i), want;
            want = dom == 0 ? e * eb : dom == 1 ? oracle_swz(e, b, m, s) * eb
                                                 : oracle_swz(e * eb, b, m, s);
            CHECK_QUIET(bad, out[i] == want, "%s index %u: %u, oracle %u", text, i, out[i], want);
            if (out[i] != want)
                break;
        }
        /* element/byte equivalence: the same swizzle written on the other unit */
        if (dom == 1 && b > 0) {
            char t2[600];
            snprintf(t2, sizeof t2, "Sw<%d,%d,%d> o smem_ptr[%db](unset) o %s:%s", b, m + ebl, s,
                     bits, sh, st);
            struct lay l2;
            if (lay_parse(t2, bits, NULL, 0, &l2, &err) == 0) {
                lay_eval(&l2, ref);
                CHECK_QUIET(bad, memcmp(out, ref, l.size * 4) == 0, "%s == %s", text, t2);
                struct swz zb, ze;
                int ok;
                lay_swizzles(&l, &zb, &ze, &ok);
                CHECK_QUIET(bad, ok && zb.m == m + ebl && ze.m == m && zb.b == b && ze.s == s,
                            "%s: swizzle in bytes and elements", text);
            }
        }
        cases++;
    }
    CHECK(bad == 0, "3000 generated CuTe layouts against the oracle (%d evaluated)", cases);
}

/* ---- Triton and TMA oracles, from the definitions ------------------------------ */

/* Triton LinearLayoutConversions.cpp: swizzled_shared bases (row r, column
 * vec*((r/perPhase)%maxPhase) % numCols), columns identity, outer dims dense. */
static uint32_t oracle_swizzled(uint32_t r, uint32_t c, uint32_t cols, uint32_t vec,
                                uint32_t pp, uint32_t mp)
{
    return r * cols + (c ^ ((vec * ((r / pp) % mp)) % cols));
}

/* NVMMA (getCoreMatrixLinearLayout): 8-row core of tileCols = 8*sw/bits
 * elements, vec = 16 bytes, perPhase = 128/sw, maxPhase = sw/16; every row of
 * the (collapsed) tile, then the next column block. */
static uint32_t oracle_nvmma(uint32_t r, uint32_t c, uint32_t rows, int sw, int bits)
{
    uint32_t tc = (uint32_t)(8 * sw / bits), vec = (uint32_t)(128 / bits);
    uint32_t pp = (uint32_t)(128 / sw), mp = (uint32_t)(sw / 16);
    uint32_t cc = c % tc;
    return (c / tc) * rows * tc + r * tc + (cc ^ ((vec * ((r / pp) % mp)) % tc));
}

static void test_triton_sweep(void)
{
    int bad = 0, n = 0;
    for (int it = 0; it < 1500; it++) {
        int rank = 2 + (int)(rnd(4) == 0);
        uint32_t shape[3] = {1u << rnd(8), 1u << rnd(8), 1u << rnd(3)};
        uint32_t vec = 1u << rnd(4), pp = 1u << rnd(3), mp = 1u << rnd(4);
        int o0 = (int)rnd(2), order[3] = {o0, 1 - o0, 2};
        if (rank == 3) {    /* the batch dim is order[2] */
            int p = (int)rnd(3);
            int dims[3] = {0, 1, 2}, k = 0;
            order[2] = p;
            for (int d = 0; d < 3; d++)
                if (d != p)
                    dims[k++] = d;
            order[0] = dims[o0], order[1] = dims[1 - o0];
        }
        char text[200];
        snprintf(text, sizeof text,
                 "#ttg.swizzled_shared<{vec = %u, perPhase = %u, maxPhase = %u, order = [%d, %d%s%s]}>",
                 vec, pp, mp, order[0], order[1], rank == 3 ? ", " : "",
                 rank == 3 ? (order[2] == 0 ? "0" : order[2] == 1 ? "1" : "2") : "");
        struct lay l;
        struct sz_error err = {0};
        if (lay_parse(text, 16, shape, rank, &l, &err) < 0) {
            CHECK_QUIET(bad, 0, "%s on [%u,%u] refused: %s", text, shape[0], shape[1], err.message);
            continue;
        }
        lay_eval(&l, out);
        uint32_t cols = shape[order[0]], tile = cols * shape[order[1]];
        for (uint32_t i = 0; i < l.size; i++) {
            uint32_t c[3];
            lay_coords(&l, i, c);
            uint32_t e = oracle_swizzled(c[order[1]], c[order[0]], cols, vec, pp, mp) +
                         (rank == 3 ? c[order[2]] * tile : 0);
            CHECK_QUIET(bad, out[i] == e * 2, "%s [%u,%u] index %u: %u, oracle %u", text,
                        shape[0], shape[1], i, out[i], e * 2);
            if (out[i] != e * 2)
                break;
        }
        n++;
    }
    CHECK(bad == 0, "swizzled_shared against Triton's definition (%d layouts)", n);
    bad = 0, n = 0;
    static const int sws[] = {0, 32, 64, 128}, bitss[] = {8, 16, 32};
    for (int it = 0; it < 600; it++) {
        int sw = sws[rnd(4)], bits = bitss[rnd(3)], tr = (int)rnd(2), rank = tr ? 2 : 2 + (int)rnd(2);
        uint32_t shape[3] = {1u << (3 + rnd(5)), 1u << (3 + rnd(5)), 1u << (3 + rnd(4))};
        char text[200];
        snprintf(text, sizeof text, "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, "
                 "elementBitWidth = %d}>", sw, tr ? "true" : "false", bits);
        int cdim = tr ? 0 : rank - 1;
        uint32_t tc = (uint32_t)(8 * (sw ? sw : 16) / bits);
        struct lay l;
        struct sz_error err = {0};
        int rc = lay_parse(text, 0, shape, rank, &l, &err);
        if (sw && shape[cdim] < tc) {
            CHECK_QUIET(bad, rc < 0, "%s: contiguous dim %u below %u is refused", text, shape[cdim], tc);
            continue;
        }
        if (rc < 0) {
            CHECK_QUIET(bad, 0, "%s refused: %s", text, err.message);
            continue;
        }
        lay_eval(&l, out);
        uint32_t eb = (uint32_t)bits / 8, rows = l.size / shape[cdim];
        for (uint32_t i = 0; i < l.size; i++) {
            uint32_t c[3];
            lay_coords(&l, i, c);
            uint32_t r = tr ? c[1] : (rank == 3 ? c[0] * shape[1] + c[1] : c[0]);
            uint32_t e = sw ? oracle_nvmma(r, c[cdim], rows, sw, bits)
                            : (rank == 3 ? (c[0] * shape[1] + c[1]) * shape[2] + c[2]
                                         : c[0] * shape[1] + c[1]);
            CHECK_QUIET(bad, out[i] == e * eb, "%s [%u,%u,%u] index %u: %u, oracle %u", text,
                        shape[0], shape[1], shape[2], i, out[i], e * eb);
            if (out[i] != e * eb)
                break;
        }
        n++;
    }
    CHECK(bad == 0, "nvmma_shared against Triton's definition (%d layouts)", n);
    bad = 0, n = 0;
    static const char *const modes[] = {"NONE", "32B", "64B", "128B"};
    for (int it = 0; it < 400; it++) {
        int k = (int)rnd(4), bits = bitss[rnd(3)], rank = 1 + (int)rnd(3);
        uint32_t shape[3] = {1 + rnd(130), 1 + rnd(70), 1 + rnd(5)};
        char text[64];
        snprintf(text, sizeof text, "tma:CU_TENSOR_MAP_SWIZZLE_%s", modes[k]);
        struct lay l;
        struct sz_error err = {0};
        if (lay_parse(text, bits, shape, rank, &l, &err) < 0) {
            CHECK_QUIET(bad, 0, "%s refused: %s", text, err.message);
            continue;
        }
        lay_eval(&l, out);
        uint32_t eb = (uint32_t)bits / 8;
        for (uint32_t i = 0; i < l.size; i++) {
            /* rows narrower than the swizzle span padded to it (measured: the
             * copy engine does, tests/data/tma_placement_*), then the 16-byte
             * chunk bits XOR the 128-byte row bits */
            uint32_t span = k ? 16u << k : 0, inner = shape[0] * eb;
            uint32_t pitch = span && inner < span ? span : inner;
            uint32_t d = i % shape[0] * eb + i / shape[0] * pitch;
            uint32_t want = d ^ (((d >> 7) & ((1u << k) - 1)) << 4);
            CHECK_QUIET(bad, out[i] == want, "%s index %u: %u, oracle %u", text, i, out[i], want);
            if (out[i] != want)
                break;
        }
        n++;
    }
    CHECK(bad == 0, "TMA boxes against the padded-box-then-address-swizzle model (%d boxes)", n);
}

/* ---- errors ------------------------------------------------------------------ */

static const struct {
    const char *text;
    int bits, rank;
    uint32_t shape[3];
    const char *field;
    int column;         /* 0: no column expected */
} bad_cases[] = {
    {"(_64,_64):(_64,_1", 16, 0, {0}, "layout", 18},
    {"(_64,_64) (_64,_1)", 16, 0, {0}, "layout", 11},
    {"(_64,_64):(_64,(_1,_2))", 16, 0, {0}, "layout", 16},
    {"(_64,x):(_64,_1)", 16, 0, {0}, "layout", 6},
    /* rank 4 is CuTe's (SM100 staged smem, test_cute.c); rank 5 is past LAY_MAX_RANK */
    {"(_2,_2,_2,_2,_2):(_1,_2,_4,_8,_16)", 16, 0, {0}, "layout", 14},
    {"Sw<3,4,2> o _0 o (_8,_8):(_8,_1)", 16, 0, {0}, "layout", 1},
    {"Sw<3,4,3> (_8,_8):(_8,_1)", 16, 0, {0}, "layout", 11},
    {"Sw<3,0,3> o smem_ptr[16b](unset) o (_8,_8):(_8,_1)", 16, 0, {0}, "layout", 1},
    {"(_8,_8):(_8,_1@0)", 16, 0, {0}, "layout", 15},
    {"(_8,_8):(-8,_1)", 16, 0, {0}, "layout", 10},
    {"(_8,_8):(_8,_1) extra", 16, 0, {0}, "layout", 17},
    {"(_1024,_2048):(_1,_1024)", 16, 0, {0}, "layout", 0},
    {"(_8,_8):(_8,_1)", 12, 0, {0}, "element_bits", 0},
    {"(_8,_8):(_8,_1)", 16, 2, {8, 8}, "shape", 0},
    {"(_2,_2):(_1073741824,_1)", 16, 0, {0}, "layout", 0},
    {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 16, 0, {0},
     "shape", 0},
    {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 16, 2,
     {48, 64}, "shape", 0},
    {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0, 2]}>", 16, 2,
     {64, 64}, "shape", 0},
    {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhas = 8, order = [1, 0]}>", 16, 2,
     {64, 64}, "layout", 46},
    {"#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false}>", 16, 2, {64, 64},
     "layout", 41},
    {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
     32, 2, {64, 64}, "element_bits", 0},
    {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
     16, 2, {64, 32}, "shape", 0},
    {"#ttg.foo<{}>", 16, 2, {8, 8}, "layout", 6},
    {"tma:CU_TENSOR_MAP_SWIZZLE_256B", 16, 2, {64, 8}, "layout", 5},
    {"tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, 2, {2048, 1024}, "shape", 0},
    {"tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, 0, {0}, "shape", 0},
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        struct lay l;
        struct sz_error err = {0};
        int rc = lay_parse(bad_cases[i].text, bad_cases[i].bits, bad_cases[i].shape,
                           bad_cases[i].rank, &l, &err);
        int col = 0;
        const char *at = strstr(err.message, "column ");
        if (at)
            sscanf(at, "column %d", &col);
        CHECK(rc < 0 && strcmp(err.field, bad_cases[i].field) == 0 &&
                  (bad_cases[i].column == 0 || col == bad_cases[i].column),
              "\"%s\": want %s at column %d, got rc %d %s \"%s\"", bad_cases[i].text,
              bad_cases[i].field, bad_cases[i].column, rc, err.field, err.message);
    }
}

/* Issue 37: an error inside pasted text carries its position (err.line,
 * err.column: 1-based, the column in characters from the line's start), here
 * on the second or third line of a multi-line text, for every layout form. */
static void test_error_positions(void)
{
    static const struct {
        const char *text;
        int bits, rank;
        uint32_t shape[2];
        int line, column;
    } cases[] = {
        {"Sw<3,4,3> o _0 o\n  (_8,_64):(_64,@_1)", 16, 0, {0}, 2, 17},
        {"#ttg.swizzled_shared<{vec = 8,\n  perPhase = 1,\n  maxPhase = x, order = [1, 0]}>",
         16, 2, {64, 64}, 3, 14},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128,\n  transposed = maybe}>", 16, 2,
         {64, 64}, 2, 16},
        {"tma:\nCU_TENSOR_MAP_SWIZZLE_256B", 16, 2, {64, 8}, 2, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lay l;
        struct sz_error err = {0};
        int rc = lay_parse(cases[i].text, cases[i].bits, cases[i].rank ? cases[i].shape : NULL,
                           cases[i].rank, &l, &err);
        CHECK(rc < 0 && strcmp(err.field, "layout") == 0 && err.line == cases[i].line &&
                  err.column == cases[i].column,
              "\"%s\": want at line %d, column %d, got rc %d at %d:%d %s \"%s\"", cases[i].text,
              cases[i].line, cases[i].column, rc, err.line, err.column, err.field, err.message);
    }
    /* an error about no place in the text carries none */
    struct lay l;
    struct sz_error err = {0};
    uint32_t shape[2] = {2048, 1024};
    CHECK(lay_parse("tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, shape, 2, &l, &err) < 0 &&
              err.line == 0 && err.column == 0,
          "a shape error has no position: %d:%d %s", err.line, err.column, err.message);
}

/* Issue 39 item 7: the texts users paste that no form's opener named.  A
 * Triton memdesc type (as a TTGIR op prints it) is read for its shape,
 * element type and encoding, and gives the encoding's own offsets; with its
 * encoding an alias (as TTGIR prints it) the error says to paste the alias's
 * line; a bare CU_TENSOR_MAP_SWIZZLE_* is the TMA row's; and every text
 * error says which form it was read as. */
/* Triton 3.0/3.1's dialect on the layout route (issues 37 and 39): a
 * `!tt.memdesc<..., #triton_gpu.shared<{...}>>` and the bare encoding are
 * read by the attribute reader /api/ttgir uses, and give the offsets of the
 * encodings 3.3 renamed them to: without a leading offset the swizzled
 * layout, with one (perPhase 1, maxPhase 8) the 128-byte nvmma layout.  The
 * layout route read both as CuTe ("expected an integer") before. */
static void test_triton_old_dialect(void)
{
    static const uint32_t shape[2] = {64, 64};
    static const char *const pairs[][2] = {
        {"!tt.memdesc<64x64xf16, #triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, "
         "order = [1, 0], hasLeadingOffset = false}>>",
         "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"},
        {"#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], "
         "hasLeadingOffset = false}>",
         "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"},
        {"!tt.memdesc<64x64xf16, #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, "
         "order = [1, 0], hasLeadingOffset = true}>, #triton_gpu.shared_memory, mutable>",
         "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"},
    };
    static uint32_t a[4096], b[4096];
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        struct lay o, n;
        struct sz_error err = {0}, err2 = {0};
        int bare = pairs[k][0][0] == '#';
        int rc = lay_parse(pairs[k][0], 16, bare ? shape : NULL, bare ? 2 : 0, &o, &err);
        int rc2 = lay_parse(pairs[k][1], 16, shape, 2, &n, &err2);
        if (rc == 0)
            lay_eval(&o, a);
        if (rc2 == 0)
            lay_eval(&n, b);
        CHECK(rc == 0 && rc2 == 0 && o.form == &lay_form_triton_shared && o.rank == 2 &&
                  o.shape[0] == 64 && o.shape[1] == 64 && memcmp(a, b, sizeof a) == 0,
              "3.0/3.1 text %zu: read by the TTGIR route's reader, the offsets of its 3.3 name "
              "(%s %s)", k, err.message, err2.message);
    }
}

static void test_forms_named_in_errors(void)
{
    static const uint32_t shape[2] = {64, 64};
    static const char nvmma[] = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                "elementBitWidth = 16}>";
    char memdesc[256];
    snprintf(memdesc, sizeof memdesc, "!ttg.memdesc<64x64xf16, %s, #smem, mutable>", nvmma);
    static uint32_t a[4096];
    struct lay l, m;
    struct sz_error err = {0};
    int ok = lay_parse(nvmma, 16, shape, 2, &l, &err) == 0;
    if (ok)
        lay_eval(&l, a);
    int rc = lay_parse(memdesc, 0, NULL, 0, &m, &err);
    if (rc == 0)
        lay_eval(&m, out);
    CHECK(ok && rc == 0 && m.form == &lay_form_triton_nvmma && m.rank == 2 && m.shape[0] == 64 &&
              m.shape[1] == 64 && m.element_bits == 16 && memcmp(a, out, sizeof a) == 0,
          "a memdesc with its encoding inline: the encoding's row, 64x64 f16, its offsets (%s)",
          err.message);
    static const struct {
        const char *text;
        int bits, rank;
        const char *field, *has;
        int column;
    } named[] = {
        {"!ttg.memdesc<64x64xf16, #shared, #smem, mutable>", 16, 0, "layout",
         "read as Triton memdesc: at column 25: its encoding #shared is an alias", 25},
        {"!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8}>, #smem>", 16, 2, "shape",
         "Triton memdesc text carries its own shape", 0},
        {"!ttg.memdesc<64x64xf32, #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, "
         "order = [1, 0]}>, #smem>", 16, 0, "element_bits", "memdesc's element type is 32", 0},
        {"CU_TENSOR_MAP_SWIZZLE_128B", 16, 0, "shape", "is required for Triton and TMA", 0},
        /* the opener alone (libFuzzer, fuzz_layout: the encoding was looked for past the
         * text's end) */
        {"!ttg.memdesc<", 16, 0, "layout", "read as Triton memdesc: line 1, column 14: expected "
         "dims", 14},
        {"(_8,_64):(_64", 16, 0, "layout", "read as CuTe (no tma:, #ttg. or !ttg.memdesc opener): at column 14", 14},
        {"tma:CU_TENSOR_MAP_SWIZZLE_256B", 16, 2, "layout", "read as TMA: at column 5", 5},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 7}>", 16, 2, "layout",
         "read as Triton nvmma_shared:", 0},
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        err = (struct sz_error){0};
        rc = lay_parse(named[k].text, named[k].bits, named[k].rank ? shape : NULL, named[k].rank,
                       &l, &err);
        CHECK(rc < 0 && strcmp(err.field, named[k].field) == 0 &&
                  strstr(err.message, named[k].has) != NULL &&
                  (named[k].column == 0 || err.column == named[k].column),
              "\"%s\": %s saying '%s' (column %d): %s \"%s\" at %d", named[k].text,
              named[k].field, named[k].has, named[k].column, err.field, err.message, err.column);
    }
    /* the bare mode is the tma: text's layout */
    err = (struct sz_error){0};
    ok = lay_parse("tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, shape, 2, &l, &err) == 0;
    if (ok)
        lay_eval(&l, a);
    rc = lay_parse("CU_TENSOR_MAP_SWIZZLE_128B", 16, shape, 2, &m, &err);
    if (rc == 0)
        lay_eval(&m, out);
    CHECK(ok && rc == 0 && m.form == &lay_form_tma && memcmp(a, out, sizeof a) == 0,
          "a bare CU_TENSOR_MAP_SWIZZLE_128B is the TMA row, as tma:... (%s)", err.message);
}

/* ---- collisions, equivalents, validators ------------------------------------------- */

static int parse_eval(const char *text, int bits, const uint32_t *shape, int rank, struct lay *l)
{
    struct sz_error err = {0};
    if (lay_parse(text, bits, shape, rank, l, &err) < 0) {
        fprintf(stderr, "%s: %s\n", text, err.message);
        return -1;
    }
    lay_eval(l, out);
    lay_sort(out, l->size, srt, tmp);
    return 0;
}

static void test_rosetta(void)
{
    struct lay l;
    uint32_t dup;
    CHECK(parse_eval("(_8,_4):(_1,_0)", 32, NULL, 0, &l) == 0 &&
              lay_collisions(srt, l.size, &dup) == 24 && dup == 0,
          "a broadcast stride shares 24 of 32 addresses");
    CHECK(parse_eval("(_32,_32):(_33,_1)", 32, NULL, 0, &l) == 0 &&
              lay_collisions(srt, l.size, &dup) == 0 && lay_has_offset(srt, l.size, 33 * 4) &&
              !lay_has_offset(srt, l.size, 32 * 4),
          "the padded stride-33 tile is one-to-one and skips its pad word");
    struct ros_equiv q;
    struct ros_flags f;
    /* GMMA::Layout_K_SW128_Atom<half_t> tiled to 64x64, as CuTe prints it */
    const char *k128 = "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))";
    CHECK(parse_eval(k128, 16, NULL, 0, &l) == 0, "K_SW128 64x64 parses");
    ros_equivalents(&l, out, 1, &q);
    CHECK(q.tma == 128 && q.gmma == 1 && q.umma == 2 && q.alignment == 1024 &&
              q.bytes.b == 3 && q.bytes.m == 4 && q.elems.m == 3 && q.cute && q.cb == 3 &&
              q.cm == 4 && q.cs == 3 && q.nvmma && q.nvmma_bytes == 128 && !q.nvmma_transposed &&
              q.triton && q.vec == 8 && q.max_phase == 8 && q.order[0] == 1,
          "K_SW128: TMA 128B, GMMA B128, UMMA SWIZZLE_128B, 1024 B, Sw<3,3,3> on fp16, "
          "nvmma 128B, swizzled_shared vec 8 maxPhase 8 order [1,0]");
    ros_validate(&l, out, &q, 128, NULL, 0, &f, ref);
    CHECK(f.n == 1 && strcmp(f.flag[0].code, "base_misaligned") == 0 && f.moved > 0 &&
              f.cells[0].index == 0 && f.cells[0].expected == 0 && f.cells[0].actual == 16,
          "a base 128 bytes off: element (0,0) lands at byte 16 (Swizzle<3,4,3>(128) = 144)");
    ros_validate(&l, out, &q, 2048, NULL, 0, &f, NULL);
    CHECK(f.n == 0, "a 1024-aligned base raises nothing");
    /* the same layout from Triton and TMA */
    uint32_t s64[2] = {64, 64}, s_mn[2] = {64, 64};
    CHECK(parse_eval("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                     "elementBitWidth = 16}>", 16, s64, 2, &l) == 0 &&
              memcmp(out, (uint32_t[]){0}, 0) == 0, "nvmma 128B 64x64 parses");
    memcpy(ref, out, 4096 * 4);
    CHECK(parse_eval(k128, 16, NULL, 0, &l) == 0 && memcmp(out, ref, 4096 * 4) == 0,
          "CuTe's K_SW128 64x64 and Triton's nvmma_shared 128B are the same bytes");
    CHECK(parse_eval("tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, s_mn, 2, &l) == 0, "TMA box parses");
    int same = 1;
    for (uint32_t m = 0; m < 64; m++)
        for (uint32_t k = 0; k < 64; k++)
            same &= out[k + 64 * m] == ref[m + 64 * k];
    CHECK(same, "a 128B TMA box [64 inner, 64] holds (m, k) where K_SW128 says");
    /* Triton's default shared encoding for a 128x64 fp16 dot operand */
    uint32_t s128[2] = {128, 64};
    CHECK(parse_eval("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                     16, s128, 2, &l) == 0, "swizzled_shared parses");
    ros_equivalents(&l, out, 1, &q);
    CHECK(q.nvmma && q.nvmma_bytes == 128 && q.tma == 128 && q.alignment == 1024,
          "vec 8 / perPhase 1 / maxPhase 8 on 64 fp16 columns is the 128B mode");
    /* a TMA box wider than its swizzle */
    uint32_t wide[2] = {128, 32};
    CHECK(parse_eval("tma:CU_TENSOR_MAP_SWIZZLE_128B", 16, wide, 2, &l) == 0, "wide box parses");
    ros_equivalents(&l, out, 1, &q);
    ros_validate(&l, out, &q, 0, NULL, 0, &f, NULL);
    CHECK(f.n >= 1 && strcmp(f.flag[0].code, "box_exceeds_span") == 0,
          "a 256-byte inner extent under 128B swizzle is flagged");
    /* descriptors: sm90 B128 at 1024, LBO 16, SBO 1024 (CuTe GmmaDescriptor fields) */
    struct ros_desc d;
    struct sz_error err = {0};
    uint64_t dv = (1ull << 62) | (64ull << 32) | (1ull << 16) | (1024u >> 4);
    CHECK(ros_desc_decode(dv, 0, &d, &err) == 0 && d.start == 1024 && d.lbo == 16 &&
              d.sbo == 1024 && d.swizzle_bytes == 128 && d.layout_type == 1,
          "sm90 descriptor decodes");
    CHECK(parse_eval(k128, 16, NULL, 0, &l) == 0, "K_SW128 again");
    ros_equivalents(&l, out, 1, &q);
    ros_validate(&l, out, &q, 0, &d, 0, &f, NULL);
    CHECK(f.n == 0, "B128 descriptor with SBO 1024 agrees with K_SW128 (%d flags: %s)", f.n,
          f.n ? f.flag[0].message : "");
    dv = (2ull << 62) | (32ull << 32) | (1ull << 16);
    CHECK(ros_desc_decode(dv, 0, &d, &err) == 0 && d.swizzle_bytes == 64, "B64 decodes");
    ros_validate(&l, out, &q, 0, &d, 0, &f, NULL);
    CHECK(f.n == 2 && strcmp(f.flag[0].code, "descriptor_mode_mismatch") == 0 &&
              strcmp(f.flag[1].code, "descriptor_sbo") == 0,
          "a B64 descriptor on a 128B layout: mode and SBO flagged");
    /* sm100: version 1 at bit 46, SWIZZLE_128B = 2 at bits 61-63 */
    dv = (2ull << 61) | (1ull << 46) | (64ull << 32);
    CHECK(ros_desc_decode(dv, 1, &d, &err) == 0 && d.swizzle_bytes == 128, "sm100 decodes");
    CHECK(ros_desc_decode(dv & ~(1ull << 46), 1, &d, &err) < 0 &&
              strcmp(err.field, "descriptor") == 0, "sm100 without version 1 is refused");
    CHECK(ros_desc_decode((3ull << 61) | (1ull << 46), 1, &d, &err) < 0,
          "UMMA layout_type 3 is reserved");
}

/* ---- wgmma: the measured read rule and the misread of a mismatched descriptor ------- */

/* one wgmma_reads_<device>.json: every row against the rule */
static int wgmma_file(const char *name, const char *path, const cJSON *j, void *ctx)
{
    (void)path;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(j, "patterns");
    int n = 0, bad = 0, types[4] = {0};
    const cJSON *p;
    cJSON_ArrayForEach(p, rows) {
        const char *k = cJSON_GetObjectItemCaseSensitive(p, "kernel")->valuestring;
        const char *nn = strstr(k, "_n");
        uint32_t nb = nn ? (uint32_t)strtoul(nn + 2, NULL, 10) : 64;
        uint32_t a = strstr(k, "areg") ? 0 : 64 * 32;
        double w = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        double c = cJSON_GetObjectItemCaseSensitive(p, "conflicts")->valuedouble;
        double ar = cJSON_GetObjectItemCaseSensitive(p, "arbitration")->valuedouble;
        int lt = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p, "b"),
                                                  "layout_type")->valueint;
        if (lt >= 0 && lt < 4)
            types[lt]++;
        if (w != (double)wgmma_wavefronts(a + nb * 32) || c != 0 || ar != 0) {
            bad++;
            if (bad < 4)
                CHECK(0, "%s %s: %.2f wavefronts, rule %u, conflicts %.1f", name,
                      cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring, w,
                      wgmma_wavefronts(a + nb * 32), c);
        }
        n++;
    }
    CHECK(n >= 200 && bad == 0 && types[0] && types[1] && types[2] && types[3],
          "%s: %d of %d rows read (A + B bytes) / 128 wavefronts, 0 conflicts, every "
          "layout type present", name, n - bad, n);
    (*(int *)ctx)++;
    return 0;
}

/* Every measured row (tests/data/wgmma_reads_*.json) against wgmma_wavefronts:
 * operand bytes = A (64 rows x 32 bytes of K, none when A is in registers) +
 * B (N x 32); the kernel name carries N and "areg".  The conflict and
 * arbitration columns are 0 in every row: the answer's constant 0 rests on that. */
static void test_wgmma_rule_reproduces_every_row(void)
{
    int files = 0;
    data_each("wgmma_reads_", wgmma_file, &files);
    CHECK(files >= 2, "wgmma_reads_*.json: %d files (an H100 and an H200)", files);
}

static void test_wgmma_misread(void)
{
    /* K_SW128 64x64 fp16 (m fastest: index m + 64 k) read through a B64
     * descriptor: (m=4, k=0) is stored at 512 ^ (4 << 4) = 576; its dense
     * offset is 512, which the 64B swizzle (bits 7-8 into 4-5: 0 at 512) leaves
     * at 512, where the layout keeps (m=4, k=32): index 4 + 64 * 32 */
    const char *k128 = "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))";
    struct lay l;
    struct ros_equiv q;
    struct ros_desc d;
    struct wgmma_misread m;
    struct sz_error err = {0};
    CHECK(parse_eval(k128, 16, NULL, 0, &l) == 0, "K_SW128 parses");
    ros_equivalents(&l, out, 1, &q);
    CHECK(ros_desc_decode((2ull << 62) | (32ull << 32) | (1ull << 16), 0, &d, &err) == 0,
          "B64 decodes");
    wgmma_misread(&l, out, &q, 0, &d, &m);
    int found = 0;
    for (int i = 0; i < m.ncells; i++)
        if (m.cell[i].index == 4)
            found = m.cell[i].expected == 576 && m.cell[i].read == 512 &&
                    m.cell[i].read_index == 4 + 64 * 32;
    /* row r's 16-byte chunk is XORed by r & 7 (128B) and back by r & 3 (64B):
     * rows 4-7 of every 8-row group (half the tile, 2048 elements) move */
    CHECK(m.applies && m.wrong == 2048 && m.ncells == WGMMA_MAX_CELLS && found,
          "B64 descriptor on a 128B tile: %u of 4096 elements read elsewhere, (4,0) reads (4,32)",
          m.wrong);
    CHECK(ros_desc_decode((1ull << 62) | (64ull << 32) | (1ull << 16), 0, &d, &err) == 0,
          "B128 decodes");
    wgmma_misread(&l, out, &q, 0, &d, &m);
    CHECK(!m.applies && m.wrong == 0, "a B128 descriptor on a 128B tile reads what it should");
    CHECK(wgmma_wavefronts(2048 + 64 * 32) == 32 && wgmma_wavefronts(1) == 1,
          "m64n64k16 f16 reads 4 KB in 32 wavefronts");
}

/* ---- the route ---------------------------------------------------------------------- */

/* POST /api/measure/tma without a GPU (no tool configured here): a body the
 * probe can run is 503 gpu_unavailable; what it cannot is a 400 first */
static void test_measure_tma_route(void)
{
    static const struct { const char *body; int status; const char *code, *field; } cases[] = {
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_64B\",\"element_bits\":16,\"shape\":[16,8]}",
         503, "gpu_unavailable", ""},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_NONE\",\"element_bits\":8,\"shape\":[32,4,2]}",
         503, "gpu_unavailable", ""},
        {"{\"layout\":\"(_8,_8):(_8,_1)\"}", 400, "invalid_argument", "layout"},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_64B\",\"element_bits\":16,\"shape\":[256,8]}",
         400, "invalid_argument", "shape"},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_64B\",\"shape\":[16,8,8]}", 400,
         "invalid_argument", "shape"},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_64B\",\"shape\":[16,8],\"base\":0}", 400,
         "invalid_argument", "base"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct api_response r = client_api_call("POST", "/api/measure/tma", NULL,
                                                "application/json", cases[i].body, 0);
        cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(e, "code");
        const cJSON *fl = cJSON_GetObjectItemCaseSensitive(e, "field");
        CHECK(r.status == cases[i].status && cJSON_IsString(code) &&
                  strcmp(code->valuestring, cases[i].code) == 0 && cJSON_IsString(fl) &&
                  strcmp(fl->valuestring, cases[i].field) == 0,
              "/api/measure/tma %s: want %d %s on '%s', got %d %s", cases[i].body,
              cases[i].status, cases[i].code, cases[i].field, r.status, r.body ? r.body : "");
        cJSON_Delete(j);
        free(r.body);
    }
}

static void test_api(void)
{
    struct api_response r = client_api_call(
        "POST", "/api/layout", NULL, "application/json",
        "{\"layout\":\"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)\",\"element_bits\":16}", 0);
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
    const cJSON *eq = cJSON_GetObjectItemCaseSensitive(j, "equivalents");
    const cJSON *banks = cJSON_GetObjectItemCaseSensitive(j, "banks");
    const cJSON *chunks = cJSON_GetObjectItemCaseSensitive(j, "chunks");
    const cJSON *nb = cJSON_GetObjectItemCaseSensitive(j, "num_banks");
    const cJSON *nc = cJSON_GetObjectItemCaseSensitive(j, "num_chunks");
    /* the page colours by these counts and keeps no copy: byte 144 is bank
     * 36 % 32 = 4, chunk 9 % 8 = 1 */
    CHECK(cJSON_IsNumber(nb) && nb->valueint == 32 && cJSON_IsNumber(nc) && nc->valueint == 8 &&
              cJSON_GetArrayItem(banks, 1)->valueint == 4 &&
              cJSON_GetArrayItem(chunks, 1)->valueint == 1,
          "/api/layout: num_banks 32, num_chunks 8, and byte 144's bank 4 and chunk 1");
    CHECK(r.status == 200 && cJSON_GetArraySize(offs) == 512 &&
              cJSON_GetArrayItem(offs, 1)->valueint == 144 &&
              strcmp(cJSON_GetObjectItemCaseSensitive(eq, "tma")->valuestring,
                     "CU_TENSOR_MAP_SWIZZLE_128B") == 0,
          "/api/layout: Sw<3,3,3> fp16 row 1 col 0 at byte 144, TMA 128B: %d %.200s", r.status,
          r.body ? r.body : "");
    cJSON_Delete(j);
    free(r.body);
    /* the descriptor answer: the wgmma cost of the tile and a B64 descriptor's misread */
    r = client_api_call("POST", "/api/layout", NULL, "application/json",
                        "{\"layout\":\"Sw<3,3,3> o _0 o (_64,_64):(_64,_1)\",\"element_bits\":16,"
                        "\"descriptor\":\"0x8000002000010000\"}", 0);
    j = r.body ? cJSON_Parse(r.body) : NULL;
    const cJSON *wg = cJSON_GetObjectItemCaseSensitive(j, "wgmma");
    const cJSON *mr = cJSON_GetObjectItemCaseSensitive(wg, "misread");
    CHECK(r.status == 200 &&
              cJSON_GetObjectItemCaseSensitive(wg, "tile_wavefronts")->valueint == 64 &&
              cJSON_GetObjectItemCaseSensitive(wg, "conflicts")->valueint == 0 &&
              strstr(cJSON_GetObjectItemCaseSensitive(wg, "data")->valuestring,
                     "wgmma_reads_h100") != NULL &&
              cJSON_GetObjectItemCaseSensitive(mr, "wrong")->valueint == 2048 &&
              cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(mr, "cells")) == 8,
          "/api/layout with a B64 descriptor on a 128B tile: 8 KB in 64 wavefronts, 2048 "
          "misread: %.300s", r.body ? r.body : "");
    cJSON_Delete(j);
    free(r.body);
    /* CuTe's Sw<2,5,2> on bytes (Sw<2,4,2> on fp16) is the 128B_ATOM_32B TMA
     * mode, which the driver refuses on sm_90: named, with that status */
    r = client_api_call("POST", "/api/layout", NULL, "application/json",
                        "{\"layout\":\"Sw<2,4,2> o _0 o (_16,_64):(_64,_1)\",\"element_bits\":16}",
                        0);
    j = r.body ? cJSON_Parse(r.body) : NULL;
    eq = cJSON_GetObjectItemCaseSensitive(j, "equivalents");
    const cJSON *tn = cJSON_GetObjectItemCaseSensitive(eq, "tma");
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(eq, "tma_status");
    CHECK(r.status == 200 && cJSON_IsString(tn) &&
              strcmp(tn->valuestring, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B") == 0 &&
              cJSON_IsString(ts) && strstr(ts->valuestring, "refuses it on sm_90") != NULL,
          "/api/layout: Sw<2,5,2> on bytes names 128B_ATOM_32B and its sm_90 status: %.400s",
          r.body ? r.body : "");
    cJSON_Delete(j);
    free(r.body);
    static const struct { const char *body; int status; const char *field; } errs[] = {
        {"{\"layout\":\"(_8,_8):(_8\"}", 400, "layout"},
        {"{\"layout\":\"(_8,_8):(_8,_1)\",\"element_bits\":7}", 400, "element_bits"},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_128B\",\"shape\":[64,0]}", 400, "shape"},
        {"{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_128B\",\"shape\":[1024,2048]}", 413, "shape"},
        {"{\"layout\":\"(_8,_8):(_8,_1)\",\"descriptor\":\"0xzz\"}", 400, "descriptor"},
        {"{\"layout\":\"(_8,_8):(_8,_1)\",\"descriptor\":12}", 400, "descriptor"},
        {"{\"layout\":\"(_8,_8):(_8,_1)\",\"base\":-1}", 400, "base"},
        {"{\"layout\":\"(_8,_8):(_8,_1)\",\"extra\":1}", 400, "extra"},
        {"{\"layout\":5}", 400, "layout"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        r = client_api_call("POST", "/api/layout", NULL, "application/json", errs[i].body, 0);
        j = r.body ? cJSON_Parse(r.body) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
        const cJSON *fl = cJSON_GetObjectItemCaseSensitive(e, "field");
        CHECK(r.status == errs[i].status && cJSON_IsString(fl) &&
                  strcmp(fl->valuestring, errs[i].field) == 0,
              "%s: want %d on %s, got %d %s", errs[i].body, errs[i].status, errs[i].field,
              r.status, r.body ? r.body : "");
        cJSON_Delete(j);
        free(r.body);
    }
}

/* The hardware-mode names have one table (presets.c): every name it holds
 * comes back from the look-ups that rosetta.c and the descriptor decoder
 * use, every classic TMA mode parses as the tma: form with its span, and the
 * GMMA / UMMA layout types the descriptors carry (CuTe mma_sm90_desc.hpp,
 * mma_sm100_desc.hpp) decode to the row's bytes; the reserved UMMA types to none. */
static void test_hardware_names_are_the_preset_table(void)
{
    int bad = 0;
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        if (p->tma_span >= 0) {
            char text[80];
            uint32_t shape[2] = {64, 8};
            struct lay l;
            struct sz_error err = {0};
            snprintf(text, sizeof text, "tma:%s", p->tma);
            CHECK_QUIET(bad, strcmp(ros_tma_name(p->tma_span), p->tma) == 0 &&
                             lay_parse(text, 16, shape, 2, &l, &err) == 0 &&
                             l.a.tma.swizzle_bytes == p->tma_span,
                        "%s: named and parsed back (%s)", p->tma, err.message);
        }
        if (p->gmma >= 0) {
            struct ros_desc d;
            struct sz_error err = {0};
            CHECK_QUIET(bad, strcmp(ros_gmma_name(p->gmma), p->gmma_name) == 0 &&
                             ros_desc_decode((uint64_t)p->gmma << 62, 0, &d, &err) == 0 &&
                             d.swizzle_bytes == p->row_bytes,
                        "GMMA %s: named, decoded to %d bytes", p->gmma_name, p->row_bytes);
        }
        if (p->umma >= 0) {
            struct ros_desc d;
            struct sz_error err = {0};
            CHECK_QUIET(bad, strcmp(ros_umma_name(p->umma), p->umma_name) == 0 &&
                             ros_desc_decode((uint64_t)p->umma << 61 | 1ull << 46, 1, &d,
                                             &err) == 0 && d.swizzle_bytes == p->row_bytes,
                        "UMMA %s: named, decoded to %d bytes", p->umma_name, p->row_bytes);
        }
    }
    for (int t = 3; t < 8; t += 2) {
        struct ros_desc d;
        struct sz_error err = {0};
        CHECK_QUIET(bad, ros_umma_name(t) == NULL &&
                         ros_desc_decode((uint64_t)t << 61 | 1ull << 46, 1, &d, &err) < 0,
                    "UMMA layout_type %d is reserved", t);
    }
    CHECK(bad == 0 && ros_gmma_name(4) == NULL && ros_tma_name(16) == NULL,
          "every hardware-mode name of presets.c reads back through rosetta.c and the tma: form");
}

int main(void)
{
    test_cute_prints();
    test_form_table_rows_are_complete_and_the_default_is_last();
    test_cute_smem_ptr_bits_stand_when_the_request_is_silent();
    test_cute_sweep();
    test_triton_sweep();
    test_errors();
    test_triton_old_dialect();
    test_forms_named_in_errors();
    test_error_positions();
    test_rosetta();
    test_hardware_names_are_the_preset_table();
    test_wgmma_rule_reproduces_every_row();
    test_wgmma_misread();
    test_api();
    test_measure_tma_route();
    return check_summary("test_layout");
}
