/* test_triton.c - Triton's TTGIR encodings: every expectation transcribed
 * from Triton's LinearLayoutConversionsTest (tests/data/triton_ll_cases.json,
 * provenance inside) reproduced base for base by triton_dist.c, through
 * aliases and inline; the algebra's corner cases (supremum order, growth and
 * shrinking); bad text with its line and column; the routes through the
 * handler; and issue 39's team-written texts (tests/data/ttgir/team_*.mlir):
 * the ldmatrix Triton emits, per warp and per CTA, lit files and pass dumps by
 * part, Triton 3.0/3.1's dialect, buffers by SSA value, convert_layout. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "triton/triton_access.h"
#include "triton/triton_dist.h"
#include "triton/triton_shared.h"
#include "layout/thread.h"
#include "triton/triton_ll.h"
#include "triton/ttgir_attr.h"
#include "triton/ttgir_dump.h"
#include "base/buf.h"
#include "check.h"
#include "client.h"
#include "utf8_check.h"

static struct ta_space space;
#define parser (*ta_space_init(&space))

/* POST body to path through the handler: the answer (malloc'd), its status. */
static char *post(const char *path, const char *body, int *status)
{
    struct api_response r = client_api_call("POST", path, NULL, "application/json", body, 0);
    *status = r.status;
    return r.body;
}

static int read_shape(const cJSON *a, int64_t *shape)
{
    int r = 0;
    for (const cJSON *x = a ? a->child : NULL; x && r < TLL_MAX_RANK; x = x->next)
        shape[r++] = (int64_t)x->valuedouble;
    return r;
}

/* Do the bases of l equal the expected JSON {register, lane, warp, block}? */
static int same_bases(const struct td_layout *l, const cJSON *want, char *why, size_t nwhy)
{
    static const char *const names[TLL_NIN] = {"register", "lane", "warp", "block"};
    for (int in = 0; in < TLL_NIN; in++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(want, names[in]);
        if (cJSON_GetArraySize(a) != l->n[in]) {
            snprintf(why, nwhy, "%s: %d bases, expected %d", names[in], l->n[in],
                     cJSON_GetArraySize(a));
            return 0;
        }
        int i = 0;
        for (const cJSON *b = a->child; b; b = b->next, i++) {
            int d = 0;
            for (const cJSON *c = b->child; c; c = c->next, d++)
                if (d >= l->rank || l->b[in][i][d] != (int32_t)c->valuedouble) {
                    snprintf(why, nwhy, "%s[%d] dim %d: got %d, expected %d", names[in], i, d,
                             d < l->rank ? l->b[in][i][d] : -1, (int)c->valuedouble);
                    return 0;
                }
            if (d != l->rank) {
                snprintf(why, nwhy, "%s[%d] has %d coordinates, rank %d", names[in], i, d,
                         l->rank);
                return 0;
            }
        }
    }
    return 1;
}

static int same_layouts(const struct td_layout *a, const struct td_layout *b)
{
    if (a->rank != b->rank || memcmp(a->n, b->n, sizeof a->n))
        return 0;
    for (int in = 0; in < TLL_NIN; in++)
        for (int i = 0; i < a->n[in]; i++)
            for (int d = 0; d < a->rank; d++)
                if (a->b[in][i][d] != b->b[in][i][d])
                    return 0;
    return 1;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_triton_cases(void)
{
    char *txt = client_slurp("tests/data/triton_ll_cases.json");
    CHECK(txt != NULL, "tests/data/triton_ll_cases.json is readable");
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int n = 0, expected = 0, reproduced = 0, equals = 0, shared_n = 0, shared_ok = 0;
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next, n++) {
        const char *name = str(c, "test");
        int64_t shape[TLL_MAX_RANK];
        int rank = read_shape(cJSON_GetObjectItemCaseSensitive(c, "shape"), shape);
        struct td_layout l, li;
        struct sz_error err = {0};
        if (cJSON_GetObjectItemCaseSensitive(c, "expected_shared"))
            goto shared_case;
        int rc = triton_dist_layout(&parser, str(c, "layout"), str(c, "aliases"), shape, rank,
                                    &l, &err);
        CHECK(rc == 0, "%s: %s: %s", name, err.field, err.message);
        if (rc < 0)
            continue;
        rc = triton_dist_layout(&parser, str(c, "layout_inline"), NULL, shape, rank, &li, &err);
        CHECK(rc == 0 && same_layouts(&l, &li), "%s: inline text gives the same layout (%s)",
              name, err.message);
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "expected");
        if (want) {
            char why[160] = "";
            int ok = same_bases(&l, want, why, sizeof why);
            expected++;
            reproduced += ok;
            CHECK(ok, "%s (%s on %d-D shape): %s", name, str(c, "layout"), rank, why);
        }
    shared_case:;
        const cJSON *ws = cJSON_GetObjectItemCaseSensitive(c, "expected_shared");
        if (ws) {
            /* a shared encoding: its offset bases, base for base */
            const cJSON *off = cJSON_GetObjectItemCaseSensitive(ws, "offset");
            const char *m = strstr(str(c, "layout"), "elementBitWidth = ");
            int bits = m ? atoi(m + 18) : 16, node, k = 0, ok;
            struct tsh_layout sh;
            ok = ta_init(&parser, str(c, "layout"), "layout", NULL, NULL, &err) == 0 &&
                 ta_parse(&parser, 0, 0, 0, 1, &node, &err) == 0 &&
                 triton_shared_build(&parser, node, shape, rank, bits, &sh, &err) == 0 &&
                 sh.n == cJSON_GetArraySize(off) &&
                 cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ws, "block")) == 0;
            for (const cJSON *b = off ? off->child : NULL; ok && b; b = b->next, k++) {
                int d = 0;
                for (const cJSON *x = b->child; ok && x; x = x->next, d++)
                    ok = sh.b[k][d] == x->valueint;
            }
            shared_n++;
            shared_ok += ok;
            CHECK(ok, "%s (%s): offset basis %d differs or %s", name, str(c, "layout"), k,
                  err.message);
            continue;
        }
        const cJSON *eq = cJSON_GetObjectItemCaseSensitive(c, "equals");
        if (eq) {
            struct td_layout o;
            int64_t s2[TLL_MAX_RANK];
            int r2 = read_shape(cJSON_GetObjectItemCaseSensitive(eq, "shape"), s2);
            rc = triton_dist_layout(&parser, str(eq, "layout"), str(eq, "aliases"), s2, r2, &o,
                                    &err);
            equals++;
            CHECK(rc == 0 && same_layouts(&l, &o), "%s: equals %s on the same shape (%s)", name,
                  str(eq, "layout"), err.message);
        }
    }
    CHECK(n == 168 && expected == 148 && equals == 24 && shared_n == 18,
          "the transcription holds 168 cases: 148 distributed with bases, 24 equalities, 18 "
          "shared: %d %d %d %d", n, expected, equals, shared_n);
    printf("triton_ll_cases: %d of %d distributed expectations reproduced exactly, %d "
           "equalities, %d of %d shared expectations\n", reproduced, expected, equals, shared_ok,
           shared_n);
    cJSON_Delete(root);
    free(txt);
}

/* The three linear texts of one layout: #ttg.linear, Gluon's
 * DistributedLinearLayout print and LinearLayout::toString. */
static void put_list(char *out, size_t n, const cJSON *bases)
{
    size_t k = strlen(out);
    snprintf(out + k, n - k, "[");
    int first = 1;
    for (const cJSON *b = bases ? bases->child : NULL; b; b = b->next, first = 0) {
        char *t = cJSON_PrintUnformatted(b);
        k = strlen(out);
        snprintf(out + k, n - k, "%s%s", first ? "" : ", ", t);
        free(t);
    }
    k = strlen(out);
    snprintf(out + k, n - k, "]");
}

static void linear_texts(const cJSON *want, const int64_t *shape, int rank, char *ttg,
                         char *gluon, char *ts, size_t n)
{
    static const char *const names[4] = {"register", "lane", "warp", "block"};
    static const char *const gnames[4] = {"reg_bases", "lane_bases", "warp_bases", "block_bases"};
    snprintf(ttg, n, "#ttg.linear<{");
    snprintf(gluon, n, "DistributedLinearLayout(");
    snprintf(ts, n, "\n");
    for (int in = 0; in < 4; in++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(want, names[in]);
        snprintf(ttg + strlen(ttg), n - strlen(ttg), "%s%s = ", in ? ", " : "", names[in]);
        put_list(ttg, n, a);
        snprintf(gluon + strlen(gluon), n - strlen(gluon), "%s=", gnames[in]);
        put_list(gluon, n, a);
        snprintf(gluon + strlen(gluon), n - strlen(gluon), ", ");
        if (cJSON_GetArraySize(a) == 0)
            snprintf(ts + strlen(ts), n - strlen(ts), " - %s is a size 1 dimension\n", names[in]);
        int i = 0;
        for (const cJSON *b = a ? a->child : NULL; b; b = b->next, i++) {
            snprintf(ts + strlen(ts), n - strlen(ts), "%s%s=%d -> (", i ? "   " : " - ",
                     names[in], 1 << i);
            for (const cJSON *x = b->child; x; x = x->next)
                snprintf(ts + strlen(ts), n - strlen(ts), "%d%s", x->valueint,
                         x->next ? ", " : "");
            snprintf(ts + strlen(ts), n - strlen(ts), ")\n");
        }
    }
    snprintf(ttg + strlen(ttg), n - strlen(ttg), "}>");
    snprintf(gluon + strlen(gluon), n - strlen(gluon), "shape=[");
    snprintf(ts + strlen(ts), n - strlen(ts), "where out dims are: [");
    for (int d = 0; d < rank; d++) {
        snprintf(gluon + strlen(gluon), n - strlen(gluon), "%s%lld", d ? ", " : "",
                 (long long)shape[d]);
        snprintf(ts + strlen(ts), n - strlen(ts), "%sdim%d (size %lld)", d ? ", " : "", d,
                 (long long)shape[d]);
    }
    snprintf(gluon + strlen(gluon), n - strlen(gluon), "])");
    snprintf(ts + strlen(ts), n - strlen(ts), "]");
}

/* Every transcribed layout written back as each linear text and read on its
 * own shape is itself (Triton's linear encodings round-trip); on twice the
 * shape the three texts agree. */
static void test_linear_texts(void)
{
    char *txt = client_slurp("tests/data/triton_ll_cases.json");
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    int n = 0, ok_all = 0;
    for (const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "cases")->child; c;
         c = c->next) {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(c, "expected");
        if (!want)
            continue;
        int64_t shape[TLL_MAX_RANK], big[TLL_MAX_RANK];
        int rank = read_shape(cJSON_GetObjectItemCaseSensitive(c, "shape"), shape);
        if (rank > 3)
            continue;
        static char ttg[8192], gl[8192], ts[8192];
        linear_texts(want, shape, rank, ttg, gl, ts, sizeof ttg);
        const char *texts[3] = {ttg, gl, ts};
        struct td_layout l[3];
        struct sz_error err = {0};
        char why[160] = "";
        int ok = 1;
        for (int k = 0; k < 3 && ok; k++)
            ok = triton_dist_layout(&parser, texts[k], NULL, shape, rank, &l[k], &err) == 0 &&
                 same_bases(&l[k], want, why, sizeof why);
        for (int d = 0; d < rank; d++)
            big[d] = shape[d] * 2;
        for (int k = 0; k < 3 && ok; k++)
            ok = triton_dist_layout(&parser, texts[k], NULL, big, rank, &l[k], &err) == 0;
        ok = ok && same_layouts(&l[0], &l[1]) && same_layouts(&l[0], &l[2]);
        n++;
        ok_all += ok;
        CHECK(ok, "%s as linear texts: %s %s", str(c, "test"), err.message, why);
    }
    CHECK(n == 147 && ok_all == n, "all %d rank 1-3 layouts round-trip through the three "
          "linear texts", n);
    cJSON_Delete(root);
    free(txt);
}

/* ---- the algebra's corners -------------------------------------------------- */

static void test_algebra(void)
{
    struct tll a, b;
    /* supremum: [dim0, dim1] * [dim1, dim0] keeps dim0 first (x's on a tie) */
    tll_identity(&a, 2, TLL_REGISTER, 0);
    tll_mul_id(&a, 2, TLL_REGISTER, 1);
    tll_identity(&b, 4, TLL_WARP, 1);
    tll_mul_id(&b, 4, TLL_WARP, 0);
    tll_mul(&a, &b);
    CHECK(a.nout == 2 && a.out[0] == 0 && a.out[1] == 1 && a.lg[0] == 3 && a.lg[1] == 3 &&
              a.b[TLL_WARP][0][1] == 2 && a.b[TLL_WARP][2][0] == 2,
          "product: orders merged, outer bases shifted past the inner size");
    /* identity1D(0) is empty; zeros add a dim of size 1 */
    tll_identity(&b, 0, TLL_LANE, 1);
    CHECK(b.nout == 0 && b.n[TLL_LANE] == 0, "identity1D(0) is the empty layout");
    tll_zeros(&b, 8, TLL_LANE, 1);
    CHECK(b.nout == 1 && b.n[TLL_LANE] == 3 && b.lg[1] == 0, "zeros1D(8): 3 zero bases, size 1");
    /* not_larger: registers made zero are dropped only without broadcast */
    int64_t shape[2] = {2, 2};
    tll_identity(&a, 8, TLL_REGISTER, 0);
    b = a;
    tll_not_larger(&a, shape, 1);
    tll_not_larger(&b, shape, 0);
    CHECK(a.n[TLL_REGISTER] == 3 && a.b[TLL_REGISTER][1][0] == 0 && b.n[TLL_REGISTER] == 1,
          "not_larger keeps zeroed registers (broadcast) or drops them: %d %d",
          a.n[TLL_REGISTER], b.n[TLL_REGISTER]);
    /* overflow is flagged, never written past */
    tll_identity(&a, (int64_t)1 << 30, TLL_REGISTER, 0);
    tll_mul_id(&a, 4, TLL_REGISTER, 0);
    CHECK(a.over, "2^32 elements along one dim is flagged");
}

/* ---- bad text: line and column ---------------------------------------------- */

static void test_errors(void)
{
    static const struct {
        const char *layout, *aliases;
        int64_t shape[3];
        int rank;
        const char *field, *needle;
    } cases[] = {
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0]", NULL, {64, 64}, 2, "layout", "line 1, column 100: expected ',' or '}' after the value of 'order'"},
        {"#blocked", "#mma = #ttg.nvidia_mma<{}>", {64, 64}, 2, "layout",
         "line 1, column 1: unknown alias #blocked"},
        {"#a", "#a = #b\n#b = #a", {64, 64}, 2, "aliases", "alias loop"},
        {"#d", "#d = #ttg.dot_op<{opIdx = 0, parent = #d, kWidth = 2}>", {64, 64}, 2, "aliases",
         "line 1, column 39: alias loop: #d"},
        {"#s", "#s = #ttg.slice<{dim = 0, parent = #s}>", {64}, 1, "aliases",
         "line 1, column 36: alias loop: #s contains itself"},
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0]}>", NULL, {64, 64, 2}, 3, "shape",
         "layout line 1, column 1: #ttg.blocked has rank 2, the shape has rank 3"},
        {"\n  #ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0]}>", NULL, {64, 64}, 2, "layout", "line 2, column 37: sizePerThread "
         "entries must be powers of two"},
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0], CGALayout = [[0, 1]]}>", NULL, {64, 64}, 2, "layout", "multi-CTA"},
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 1]}>", NULL, {64, 64}, 2, "layout", "order must be a permutation"},
        {"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0], spam = 1}>", NULL, {64, 64}, 2, "layout", "column 102: #ttg.blocked "
         "has no key 'spam'"},
        {"#ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 8]}>", NULL, {64, 64}, 2, "layout", "versionMajor 1 is not modelled"},
        {"#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>",
         "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 64, 16]}>", {64, 64}, 2, "layout", "operand B from shared memory"},
        {"#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 0}>",
         "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], "
         "instrShape = [16, 8]}>", {64, 64}, 2, "layout", "kWidth must be a power of two"},
        {"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 4], "
         "isTransposed = false}>", NULL, {64, 64}, 2, "layout", "instrShape must start"},
        {"#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
         "order = [0]}>", NULL, {48}, 1, "shape", "power of two"},
        {"#ttg.linear<{register = [[0, 3]], lane = [], warp = [], block = []}>", NULL, {64, 64},
         2, "layout", "moves along one dimension"},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", NULL,
         {64, 64}, 2, "layout", "not a distributed encoding"},
        {"#ttg.blocked<{sizePerThread = [99999999999999], threadsPerWarp = [32], "
         "warpsPerCTA = [4], order = [0]}>", NULL, {64}, 1, "layout", "integer too large"},
        {"[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", NULL, {64}, 1, "layout", "nested more than"},
        {"", NULL, {64}, 1, "layout", "the end of the text"},
        /* a non-ASCII byte is named by its value, so the JSON answer stays UTF-8
         * (found by fuzz_api: tests/fuzz/corpus_api/1f4c2c3f...) */
        {"#ttg.linear<{register = \xc3\xa9}>", NULL, {64}, 1, "layout", "got byte 0xc3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct td_layout l;
        struct sz_error err = {0};
        int rc = triton_dist_layout(&parser, cases[i].layout, cases[i].aliases, cases[i].shape,
                                    cases[i].rank, &l, &err);
        CHECK(rc < 0 && err.code == SZ_INVALID_ARGUMENT && strcmp(err.field, cases[i].field) == 0 &&
                  strstr(err.message, cases[i].needle) != NULL,
              "error %zu: want %s '%s', got rc %d %s '%s'", i, cases[i].field, cases[i].needle, rc,
              err.field, err.message);
    }
}

/* Issue 37: a distributed encoding's error, as a thread layout or through the
 * reader, carries its position (err.line, err.column) in a multi-line text;
 * so does an alias's, in the aliases text. */
static void test_error_positions(void)
{
    static const struct {
        const char *layout, *aliases, *field;
        int line, column;
    } cases[] = {
        {"#ttg.blocked<{sizePerThread = [1, 8],\n  threadsPerWarp = [4, x8], warpsPerCTA = [4, 1],"
         " order = [1, 0]}>", NULL, "layout", 2, 24},
        {"#ttg.linear<{register = [[0, 1]],\n  lane = [[0, 2], [0, 4], [0, 8], [1, 0], [2 0]],"
         " warp = [], block = []}>", NULL, "layout", 2, 46},
        {"\n  #ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0]}>", NULL, "layout", 2, 37},
        {"#d", "#s = #ttg.swizzled_shared<{}>\n#d = #ttg.dot_op<{opIdx = 0, parent = #d, kWidth = 2}>",
         "aliases", 2, 39},
    };
    int64_t shape[2] = {64, 64};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct td_layout l;
        struct sz_error err = {0};
        int rc = triton_dist_layout(&parser, cases[i].layout, cases[i].aliases, shape, 2, &l, &err);
        CHECK(rc < 0 && strcmp(err.field, cases[i].field) == 0 && err.line == cases[i].line &&
                  err.column == cases[i].column,
              "position %zu: want %s at %d:%d, got rc %d %s at %d:%d '%s'", i, cases[i].field,
              cases[i].line, cases[i].column, rc, err.field, err.line, err.column, err.message);
    }
    /* the same text as a thread layout (the layout page's thread field) */
    uint32_t ushape[2] = {64, 64};
    struct thr_ctx ctx = {"thread", 16, 2, ushape};
    static struct thr t;
    struct sz_error err = {0};
    CHECK(thr_parse(cases[0].layout, &ctx, &t, &err) < 0 && strcmp(err.field, "thread") == 0 &&
              err.line == 2 && err.column == 24,
          "a thread layout's error is at 2:24, got %s at %d:%d '%s'", err.field, err.line,
          err.column, err.message);
}

/* ---- cases beyond the transcription ------------------------------------------ */

static void aliases_dialects_and_larger_shapes(void)
{
    /* a `#name = ...` line as the layout, the older dialect prefix, and the
     * CTAsPerCGA form; a linear encoding on a larger shape grows registers */
    static const char *const texts[] = {
        "#blocked = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
        "warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], "
        "CTAOrder = [1, 0]}>",
        "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
        "order = [1, 0]}>",
    };
    int64_t shape[2] = {64, 64};
    struct td_layout a, b;
    struct sz_error err = {0};
    CHECK(triton_dist_layout(&parser, texts[0], NULL, shape, 2, &a, &err) == 0 &&
              triton_dist_layout(&parser, texts[1], NULL, shape, 2, &b, &err) == 0 &&
              same_layouts(&a, &b) && a.lanes == 32 && a.warps == 4 &&
              strcmp(a.encoding, "blocked") == 0,
          "old and new spellings of one blocked encoding agree (%s)", err.message);
    /* #ttg.linear: its own bases on its own shape, registers appended when larger */
    const char *lin = "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], "
                      "[1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>";
    int64_t s16x32[2] = {16, 32}, s64x32[2] = {64, 32}, s8x32[2] = {8, 32};
    CHECK(triton_dist_layout(&parser, lin, NULL, s16x32, 2, &a, &err) == 0 &&
              a.n[TLL_REGISTER] == 2 && a.n[TLL_LANE] == 5 && a.b[TLL_WARP][1][0] == 8,
          "linear on its own shape (%s)", err.message);
    CHECK(triton_dist_layout(&parser, lin, NULL, s64x32, 2, &a, &err) == 0 &&
              a.n[TLL_REGISTER] == 4 && a.b[TLL_REGISTER][2][0] == 16 &&
              a.b[TLL_REGISTER][3][0] == 32,
          "linear grows along dim0 with registers [16,0], [32,0] (%s)", err.message);
    CHECK(triton_dist_layout(&parser, lin, NULL, s8x32, 2, &a, &err) == 0 &&
              a.n[TLL_WARP] == 2 && a.b[TLL_WARP][1][0] == 0 && a.n[TLL_REGISTER] == 2,
          "linear shrunk to 8 rows: the warp basis [8,0] becomes 0 (%s)", err.message);
    /* a slice of a 3-D blocked parent is 2-D */
    const char *sl = "#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 4], "
                     "threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>";
    int64_t s2[2] = {16, 64};
    CHECK(triton_dist_layout(&parser, sl, NULL, s2, 2, &a, &err) == 0 && a.rank == 2 &&
              a.n[TLL_LANE] == 5 && a.b[TLL_LANE][4][0] == 0 && a.b[TLL_LANE][0][1] == 4,
          "slice of a 3-D blocked parent (%s)", err.message);
}

/* ---- routes ------------------------------------------------------------------ */

static void test_api(void)
{
    int status;
    char *body = post("/api/layout/distributed",
                      "{\"layout\":\"#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>\","
                      "\"shape\":[16,64],\"aliases\":\"#mma = #ttg.nvidia_mma<{versionMajor = 2, "
                      "versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>\"}", &status);
    struct api_response r = {.status = status, .body = body};
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    const cJSON *reg = cJSON_GetObjectItemCaseSensitive(j, "register");
    const cJSON *lane = cJSON_GetObjectItemCaseSensitive(j, "lane");
    const cJSON *r3 = cJSON_GetArrayItem(reg, 3);
    CHECK(r.status == 200 && cJSON_GetArraySize(reg) == 5 && cJSON_GetArraySize(lane) == 5 &&
              cJSON_GetArrayItem(r3, 0)->valueint == 8 &&
              cJSON_GetObjectItemCaseSensitive(j, "lanes_per_warp")->valueint == 32,
          "/api/layout/distributed: DotMMAv2_tile_kwidth8's register [8,0]: %d %.300s", r.status,
          r.body ? r.body : "");
    cJSON_Delete(j);
    free(r.body);
    static const struct { const char *body; int status; const char *field, *needle; } errs[] = {
        {"{\"layout\":\"#ttg.blocked<{sizePerThread = [1]}>\",\"shape\":[64]}", 400, "layout",
         "line 1, column 1"},
        {"{\"layout\":\"#x\",\"shape\":[64],\"aliases\":\"#x = #y\"}", 400, "aliases",
         "unknown alias #y"},
        {"{\"layout\":\"#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "
         "[4], order = [0]}>\",\"shape\":[64, 64]}", 400, "shape", "rank 1"},
        {"{\"layout\":\"#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = "
         "[4], order = [0]}>\"}", 400, "shape", ""},
        {"{\"layout\":7,\"shape\":[64]}", 400, "layout", ""},
        {"{\"layout\":\"#a\",\"shape\":[64],\"spam\":1}", 400, "spam", ""},
        {"{\"layout\":\"#a\",\"shape\":[64, 64, 64, 64]}", 400, "shape", ""},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        r = client_api_call("POST", "/api/layout/distributed", NULL, "application/json",
                            errs[i].body, 0);
        j = r.body ? cJSON_Parse(r.body) : NULL;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
        const char *f = str(e, "field"), *m = str(e, "message");
        CHECK(r.status == errs[i].status && f && strcmp(f, errs[i].field) == 0 && m &&
                  strstr(m, errs[i].needle),
              "distributed error %zu: %d %.200s", i, r.status, r.body ? r.body : "");
        cJSON_Delete(j);
        free(r.body);
    }
}

/* The workbench takes TTGIR: the same answer as the bases /api/layout/distributed gives. */

static void test_workbench(void)
{
    static const char *const blocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                                       "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
    static const char *const dot = "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>";
    static const char *const mma = "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                   "warpsPerCTA = [4, 1], instrShape = [16, 8]}>";
    char body[4096], *a, *b;
    int st;
    /* the bases of each side, through the distributed route */
    snprintf(body, sizeof body, "{\"layout\":\"%s\",\"shape\":[64,64]}", blocked);
    a = post("/api/layout/distributed", body, &st);
    snprintf(body, sizeof body, "{\"layout\":\"%s\",\"aliases\":\"%s\",\"shape\":[64,64]}",
             dot, mma);
    b = post("/api/layout/distributed", body, &st);
    cJSON *ja = cJSON_Parse(a ? a : ""), *jb = cJSON_Parse(b ? b : "");
    static const char *const keep[] = {"register", "lane", "warp"};
    cJSON *sa = cJSON_CreateObject(), *sb = cJSON_CreateObject();
    for (int i = 0; i < 3; i++) {
        cJSON_AddItemToObject(sa, keep[i], cJSON_Duplicate(cJSON_GetObjectItem(ja, keep[i]), 1));
        cJSON_AddItemToObject(sb, keep[i], cJSON_Duplicate(cJSON_GetObjectItem(jb, keep[i]), 1));
    }
    char *ra = cJSON_PrintUnformatted(sa), *rb = cJSON_PrintUnformatted(sb);
    static const char *const routes[] = {"/api/linear/evaluate", "/api/linear/optimize"};
    for (int k = 0; k < 2; k++) {
        const char *mem = k == 0 ? ",\"triton\":{\"vec\":8,\"per_phase\":1,\"max_phase\":8}" : "";
        char *raw, *text;
        int s1, s2;
        snprintf(body, sizeof body, "{\"shape\":[64,64],\"bitwidth\":16,\"A\":%s,\"B\":%s%s}",
                 ra ? ra : "{}", rb ? rb : "{}", mem);
        raw = post(routes[k], body, &s1);
        snprintf(body, sizeof body, "{\"shape\":[64,64],\"bitwidth\":16,\"A\":{\"layout\":\"%s\"},"
                 "\"B\":{\"layout\":\"%s\"},\"aliases\":\"%s\"%s}", blocked, dot, mma, mem);
        text = post(routes[k], body, &s2);
        CHECK(s1 == 200 && s2 == 200 && raw && text && strcmp(raw, text) == 0,
              "%s: A and B as TTGIR text answer as their bases do: %d %d %.200s", routes[k], s1,
              s2, text ? text : "");
        free(raw);
        free(text);
    }
    free(ra);
    free(rb);
    cJSON_Delete(sa);
    cJSON_Delete(sb);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    free(a);
    free(b);
    /* an MFMA layout's 6 lane bases make a 64-lane wave without being told */
    snprintf(body, sizeof body,
             "{\"shape\":[64,64],\"bitwidth\":16,\"A\":{\"layout\":\"#m\"},"
             "\"B\":{\"layout\":\"#ttg.dot_op<{opIdx = 0, parent = #m, kWidth = 4}>\"},"
             "\"aliases\":\"#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = "
             "[32, 32, 8], isTransposed = true}>\"}");
    a = post("/api/linear/optimize", body, &st);
    CHECK(st == 200 && a && strstr(a, "\"lanes_per_wavefront\":64"),
          "MFMA sides: a 64-lane wave: %d %.200s", st, a ? a : "");
    free(a);
    /* errors inside a side's text name the side */
    a = post("/api/linear/optimize", "{\"shape\":[64,64],\"A\":{\"layout\":\"#nope\"},"
             "\"B\":{\"layout\":\"#nope\"}}", &st);
    CHECK(st == 400 && a && strstr(a, "\"field\":\"A.layout\"") &&
              strstr(a, "line 1, column 1: unknown alias #nope"),
          "a side's unknown alias: %d %.200s", st, a ? a : "");
    free(a);
}

/* Gluon's test_bank_conflicts: Triton's number, and our wavefronts beside it. */
static void test_gluon_cases(void)
{
    char *txt = client_slurp("tests/data/gluon_bank_conflicts.json");
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int n = 0, same = 0;
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next, n++) {
        int64_t shape[TLL_MAX_RANK];
        int rank = read_shape(cJSON_GetObjectItemCaseSensitive(c, "shape"), shape);
        int bits = cJSON_GetObjectItemCaseSensitive(c, "bitwidth")->valueint;
        int ref = cJSON_GetObjectItemCaseSensitive(c, "ref_conflicts")->valueint;
        struct td_layout d;
        struct tsh_layout sh;
        struct tac_result r;
        struct sz_error err = {0};
        int node, rc = triton_dist_layout(&parser, str(c, "distributed"), NULL, shape, rank, &d,
                                          &err);
        if (rc == 0)
            rc = ta_init(&parser, str(c, "shared"), "shared", NULL, NULL, &err) < 0 ||
                         ta_parse(&parser, 0, 0, 0, 1, &node, &err) < 0 ||
                         triton_shared_build(&parser, node, shape, rank, bits, &sh, &err) < 0 ||
                         triton_access_cost(&d, &sh, bits, 1, 32, &r, &err) < 0
                     ? -1
                     : 0;
        CHECK(rc == 0, "gluon case %d: %s: %s", n, err.field, err.message);
        if (rc < 0)
            continue;
        same += r.triton_conflicts == ref;
        CHECK(r.triton_conflicts == ref, "gluon case %d: bank_conflicts %d, Triton's test says %d",
              n, r.triton_conflicts, ref);
        printf("gluon case %2d: triton_bank_conflicts %d (test: %d), vec %d, ours %u wavefronts "
               "per instruction (ideal %u) x %u instructions\n", n, r.triton_conflicts, ref,
               r.vec_elems, r.wavefronts, r.ideal, r.instructions);
    }
    CHECK(n == 11 && same == 11, "Gluon's 11 test_bank_conflicts cases: %d of %d", same, n);
    cJSON_Delete(root);
    free(txt);
}

/* POST /api/ttgir {"text", "part"} (part -1: none given). */
static cJSON *ttgir_part(const char *text, int part, int *status)
{
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "text", text);
    if (part >= 0)
        cJSON_AddNumberToObject(body, "part", part);
    char *b = cJSON_PrintUnformatted(body);
    char *r = post("/api/ttgir", b, status);
    cJSON *j = cJSON_Parse(r ? r : "");
    free(b);
    free(r);
    cJSON_Delete(body);
    return j;
}

static cJSON *ttgir(const char *text, int *status)
{
    return ttgir_part(text, -1, status);
}

/* POST /api/ttgir: a lit test's pipelined matmul, Gluon's cases as one-op
 * dumps, the issue's single op, and what is skipped or refused. */
static void test_dump(void)
{
    int st;
    char *txt = client_slurp("tests/data/ttgir/amd_block_pingpong_small.mlir");
    cJSON *j = ttgir(txt ? txt : "", &st);
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(j, "ops");
    const cJSON *sk = cJSON_GetObjectItemCaseSensitive(j, "skipped");
    static const struct { const char *op; int line; int r, c; const char *shared; } want[] = {
        {"local_load", 49, 128, 64, "#shared"}, {"local_load", 50, 64, 128, "#shared1"},
        {"local_store", 57, 128, 64, "#shared"}, {"local_store", 59, 64, 128, "#shared1"},
    };
    CHECK(st == 200 && cJSON_GetArraySize(ops) == 4 && cJSON_GetArraySize(sk) == 2,
          "the pipelined matmul (amd-block-pingpong @pingpong_small): 4 ops costed, its 2 "
          "value-less allocs skipped: %d %d %d", st, cJSON_GetArraySize(ops),
          cJSON_GetArraySize(sk));
    for (int i = 0; i < 4 && i < cJSON_GetArraySize(ops); i++) {
        const cJSON *o = cJSON_GetArrayItem(ops, i);
        const cJSON *shape = cJSON_GetObjectItemCaseSensitive(o, "shape");
        const cJSON *sh = cJSON_GetObjectItemCaseSensitive(o, "shared");
        CHECK(strcmp(str(o, "op"), want[i].op) == 0 &&
                  cJSON_GetObjectItemCaseSensitive(o, "line")->valueint == want[i].line &&
                  cJSON_GetArrayItem(shape, 0)->valueint == want[i].r &&
                  cJSON_GetArrayItem(shape, 1)->valueint == want[i].c &&
                  strcmp(str(sh, "text"), want[i].shared) == 0 &&
                  cJSON_GetObjectItemCaseSensitive(o, "lanes_per_wavefront")->valueint == 64 &&
                  cJSON_GetObjectItemCaseSensitive(o, "wavefronts_per_instruction")->valueint >=
                      cJSON_GetObjectItemCaseSensitive(o, "ideal")->valueint,
              "pingpong op %d: %s line %d", i, want[i].op, want[i].line);
    }
    CHECK(cJSON_GetObjectItemCaseSensitive(j, "num_banks")->valueint == 32 &&
              strcmp(str(j, "target"), "hip:gfx942") == 0,
          "gfx942: 32 LDS banks");
    cJSON_Delete(j);
    free(txt);

    /* Gluon's cases, each as a one-op dump: Triton's number and our wavefronts */
    txt = client_slurp("tests/data/gluon_bank_conflicts.json");
    cJSON *root = cJSON_Parse(txt ? txt : "");
    int n = 0, same = 0;
    for (const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "cases")->child; c;
         c = c->next, n++) {
        static const char *const ty[] = {"", "i8", "f16", "", "f32"};
        const cJSON *shape = cJSON_GetObjectItemCaseSensitive(c, "shape");
        int bits = cJSON_GetObjectItemCaseSensitive(c, "bitwidth")->valueint;
        char dims[64] = "", dump[2048];
        for (const cJSON *x = shape->child; x; x = x->next)
            snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%dx", x->valueint);
        snprintf(dump, sizeof dump,
                 "#d = %s\n#s = %s\n#smem = #ttg.shared_memory\n"
                 "%%1 = ttg.local_load %%0 : !ttg.memdesc<%s%s, #s, #smem> -> tensor<%s%s, #d>\n",
                 str(c, "distributed"), str(c, "shared"), dims, ty[bits / 8], dims, ty[bits / 8]);
        j = ttgir(dump, &st);
        const cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "ops"), 0);
        const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "triton_bank_conflicts");
        int ok = st == 200 && cJSON_IsNumber(tc) &&
                 tc->valueint == cJSON_GetObjectItemCaseSensitive(c, "ref_conflicts")->valueint &&
                 cJSON_GetObjectItemCaseSensitive(o, "wavefronts_per_instruction") != NULL;
        same += ok;
        CHECK(ok, "gluon case %d through /api/ttgir: %d", n, st);
        cJSON_Delete(j);
    }
    CHECK(n == 11 && same == 11, "/api/ttgir gives Triton's number on all 11 Gluon cases: %d", same);
    cJSON_Delete(root);
    free(txt);

    /* the issue's op, with its aliases; a `loc(...)` alias and CHECK lines around it */
    j = ttgir("// CHECK: nothing here: ttg.local_load %x : bad\n"
              "#loc1 = loc(\"k.py\":3:4)\n"
              "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
              "instrShape = [16, 8]}>\n"
              "#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
              "#smem = #ttg.shared_memory\n"
              "%b2 = ttg.local_load %b : !ttg.memdesc<64x64xf16, #shared, #smem> -> "
              "tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> loc(#loc1)\n",
              &st);
    ops = cJSON_GetObjectItemCaseSensitive(j, "ops");
    const cJSON *o = cJSON_GetArrayItem(ops, 0);
    CHECK(st == 200 && cJSON_GetArraySize(ops) == 1 &&
              cJSON_GetObjectItemCaseSensitive(o, "line")->valueint == 6 &&
              cJSON_GetObjectItemCaseSensitive(o, "element_bits")->valueint == 16,
          "the issue's local_load: one op on line 6: %d", st);
    cJSON_Delete(j);

    /* an op it cannot read is skipped with the line and column; nothing to cost is a 400 */
    j = ttgir("#smem = #ttg.shared_memory\n"
              "%1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #nope, #smem> -> "
              "tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
              "warpsPerCTA = [4, 1], order = [1, 0]}>>\n"
              "%2 = ttg.local_alloc %1 : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], "
              "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> "
              "!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
              "order = [1, 0]}>, #smem>\n", &st);
    sk = cJSON_GetObjectItemCaseSensitive(j, "skipped");
    const cJSON *s0 = cJSON_GetArrayItem(sk, 0);
    CHECK(st == 200 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "ops")) == 1 &&
              s0 && strstr(str(s0, "reason"), "line 2, column 50: unknown alias #nope"),
          "an unreadable op is skipped with its line and column: %d %s", st,
          s0 ? str(s0, "reason") : "");
    cJSON_Delete(j);
    j = ttgir("tt.func @f() {\n  tt.return\n}\n", &st);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    CHECK(st == 400 && e && strcmp(str(e, "field"), "text") == 0, "no shared-memory op: 400");
    cJSON_Delete(j);
    j = ttgir("%1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf16, "
              "#d>\n", &st);
    e = cJSON_GetObjectItemCaseSensitive(j, "error");
    CHECK(st == 400 && e && strstr(str(e, "message"), "nothing to cost") &&
              strstr(str(e, "message"), "line 1, column"),
          "nothing to cost: 400 naming the line and column: %d %s", st,
          e ? str(e, "message") : "");
    cJSON_Delete(j);
    /* issue 37: "at" is where the reason points (the unknown alias #d on line 2), or the op's
     * name where the reason has no column (no types after ' : ' on line 2) */
    static const struct { const char *text; int line, column; } why[] = {
        {"#smem = #ttg.shared_memory\n"
         "%1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf16, #d>\n",
         2, 82},
        {"#smem = #ttg.shared_memory\n  %1 = ttg.local_load %0\n", 2, 8},
    };
    for (size_t i = 0; i < sizeof why / sizeof why[0]; i++) {
        j = ttgir(why[i].text, &st);
        e = cJSON_GetObjectItemCaseSensitive(j, "error");
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "at");
        int line = cJSON_IsObject(at) ? cJSON_GetObjectItemCaseSensitive(at, "line")->valueint : 0;
        int col = cJSON_IsObject(at) ? cJSON_GetObjectItemCaseSensitive(at, "column")->valueint : 0;
        CHECK(st == 400 && line == why[i].line && col == why[i].column,
              "nothing to cost %zu: at %d:%d, got %d at %d:%d (%s)", i, why[i].line,
              why[i].column, st, line, col, e ? str(e, "message") : "");
        cJSON_Delete(j);
    }
}

/* The dump's target is cut at 63 bytes: on a character boundary, so the 200
 * stays UTF-8 (issue 36 item 5: 62 ASCII bytes then a 2-byte character). */
static void test_dump_target_cut(void)
{
    char name[80], body[1024];
    memset(name, 'a', 62);
    memcpy(name + 62, "\xc3\xa9", 3);
    cJSON *b = cJSON_CreateObject();
    snprintf(body, sizeof body,
             "module attributes {ttg.target = \"%s\"} {\n#smem = #ttg.shared_memory\n"
             "%%2 = ttg.local_alloc %%1 : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], "
             "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> "
             "!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
             "order = [1, 0]}>, #smem>\n}\n", name);
    cJSON_AddStringToObject(b, "text", body);
    char *req = cJSON_PrintUnformatted(b);
    int st;
    char *r = post("/api/ttgir", req, &st);
    cJSON *j = cJSON_Parse(r ? r : "");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "target");
    CHECK(st == 200 && r && utf8_ok((const unsigned char *)r, strlen(r)) && cJSON_IsString(t) &&
              strlen(t->valuestring) == 62,
          "a target cut inside a character: 200, valid UTF-8, the 62 whole bytes: %d %s", st,
          cJSON_IsString(t) ? t->valuestring : "?");
    /* the helper itself: whole characters kept, a cut one dropped */
    CHECK(sz_utf8_cut("ab\xc3\xa9", 4) == 4 && sz_utf8_cut("ab\xc3\xa9", 3) == 2 &&
              sz_utf8_cut("\xf0\x9f\x98\x80", 3) == 0 && sz_utf8_cut("\xf0\x9f\x98\x80", 4) == 4 &&
              sz_utf8_cut("a\xe2\x82", 3) == 1 && sz_utf8_cut("abc", 2) == 2 && sz_utf8_cut("", 0) == 0,
          "sz_utf8_cut keeps whole characters only");
    /* sz_fail's message cut by its buffer drops the cut character, not '?' for it */
    struct sz_error e = {0};
    char longer[sizeof e.message + 16];
    memset(longer, 'a', sizeof e.message - 2);
    memcpy(longer + sizeof e.message - 2, "\xc3\xa9 and more", 12);
    sz_fail(&e, SZ_INVALID_ARGUMENT, "x", "%s", longer);
    CHECK(strlen(e.message) == sizeof e.message - 2 && !strchr(e.message, '?'),
          "sz_fail cuts its message at a character's start: %zu bytes", strlen(e.message));
    CHECK(sz_utf8_prec("ab\xc3\xa9", 3) == 2 && sz_utf8_prec("ab", 40) == 2,
          "sz_utf8_prec: whole characters within the budget");
    cJSON_Delete(j);
    free(r);
    free(req);
    cJSON_Delete(b);
}

/* Issue 36 item 4's crafted dump (bench/ttgir_alias_chain.py, with 800-byte
 * padding lines instead of 3,000): a 1,020-alias chain #a0 = #a1 = ... = a
 * blocked encoding, and 510 ops that walk the whole chain, then fail on an
 * unknown alias #nopeK, then one op that costs. */
static void alias_chain_text(struct buf *t)
{
    for (int i = 0; i < 1019; i++)
        buf_printf(t, "#a%d = #a%d\n", i, i + 1);
    buf_puts(t, "#a1019 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                "warpsPerCTA = [4, 1], order = [1, 0]}>\n#s = #ttg.swizzled_shared<{vec = 8, "
                "perPhase = 1, maxPhase = 8, order = [1, 0]}>\n#smem = #ttg.shared_memory\n");
    for (int i = 0; i < 510; i++)
        buf_printf(t, "// %0800d\n%%%d = ttg.local_load %%0 : !ttg.memdesc<64x64xf16, #nope%d, "
                   "#smem> -> tensor<64x64xf16, #a0>\n", 0, i + 1, i);
    buf_puts(t, "%x = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #s, #smem> -> "
                "tensor<64x64xf16, #a0>\n");
}

/* The dump answers whole: one op costed, every failing op skipped with its
 * reason.  How long it takes is the bench's to say (bench/README.md: 0.70 s
 * before the alias hash and the running line count, 0.04 s after, -O2); a
 * unit test times nothing (DESIGN.md sec. 5): test_dump_alias_chain_work
 * bounds the work by counts. */
static void test_dump_alias_chain_cost(void)
{
    struct buf t = {0};
    alias_chain_text(&t);
    int st;
    cJSON *j = ttgir(t.p, &st);
    CHECK(st == 200 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "ops")) == 1 &&
              cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "skipped")) == 510,
          "a 1,020-alias chain and 510 failing ops: 1 op, 510 skipped (status %d)", st);
    cJSON_Delete(j);
    buf_free(&t);
}

/* Issue 36 item 4, by the parser's work counters (ta_work), not a clock: the
 * crafted dump read as api_ttgir.c reads it (one parser over the dump as
 * text and aliases, its nodes reset before each op, both types read, both
 * encodings resolved; 510 of them fail on #nopeK, whose error names its line
 * and column).  The bounds, and why:
 * - probes <= 2 x lookups: a lookup compares the names of one hash bucket
 *   (1,022 names in 1,024 buckets); the linear lookup it replaced compared
 *   every alias before the one it found (about 510 a lookup here).
 * - scanned <= 2 x the text: the errors come in text order, so the line count
 *   runs on from the last error (the text once), and each column is counted
 *   from its line's start (one op line each, under 130 bytes); counting from
 *   the text's start for every error stepped over about 250 texts.
 * How many lookups there are (the chain once per op: ops x hops) is the
 * reset's design and is asserted too, so that neither bound is met by
 * looking up less than the dump needs. */
static void test_dump_alias_chain_work(void)
{
    struct buf t = {0};
    alias_chain_text(&t);
    static struct ta_space sp;
    static struct tdump d;
    struct ta_parser *p = ta_space_init(&sp);
    struct sz_error err = {0};
    CHECK(ta_init(p, t.p, "text", t.p, "text", &err) == 0, "init: %s", err.message);
    tdump_scan(t.p, t.len, &d);
    int mark = ta_mark(p), failed = 0, resolved = 0, wrong_at = 0;
    for (int i = 0; i < d.nops; i++) {
        int64_t shape[TLL_MAX_RANK];
        int rank, bits, dn, sn, v;
        struct sz_error why = {0};
        ta_reset(p, mark);
        if (tdump_type(p, d.op[i].tensor, shape, &rank, &bits, &dn, &why) < 0 ||
            tdump_type(p, d.op[i].memdesc, shape, &rank, &bits, &sn, &why) < 0 ||
            ta_resolve(p, dn, &v, &why) < 0)
            break;
        resolved++;
        if (ta_resolve(p, sn, &v, &why) < 0) {
            failed++;
            /* op i is on text line 1022 + 2i + 2 (1,022 alias lines, then a
             * padding line and the op) */
            wrong_at += why.line != 1022 + 2 * i + 2 || !strstr(why.message, "unknown alias");
        }
    }
    CHECK(d.nops == 511 && resolved == 511 && failed == 510 && wrong_at == 0,
          "the crafted dump: 511 ops, each chain resolved, 510 failed where they should "
          "(%d ops, %d resolved, %d failed, %d at the wrong line)", d.nops, resolved, failed,
          wrong_at);
    long lookups = p->work.lookups, probes = p->work.probes, scanned = p->work.scanned;
    printf("alias chain: %ld lookups, %ld names compared, %ld bytes scanned for positions "
           "(text: %zu bytes)\n", lookups, probes, scanned, t.len);
    CHECK(lookups >= 511L * 1020 && lookups <= 511L * 1024 + 1024,
          "lookups: the chain once per op, 511 x 1,020 to 511 x 1,024 + 1,024: %ld", lookups);
    CHECK(probes <= 2 * lookups,
          "an alias lookup compares one hash bucket: %ld names compared in %ld lookups "
          "(bound: 2 a lookup)", probes, lookups);
    CHECK(scanned <= 2 * (long)t.len,
          "errors' lines and columns step over the text once: %ld bytes for a %zu-byte text "
          "(bound: twice the text)", scanned, t.len);
    buf_free(&t);
}

/* The encodings are a row of the thread-form table: thr_parse reads them. */
static void test_thread_row(void)
{
    static const char *const text = "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{"
                                    "versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], "
                                    "instrShape = [16, 8]}>, kWidth = 8}>";
    uint32_t shape[2] = {128, 128};
    int64_t s64[2] = {128, 128};
    struct thr_ctx ctx = {"thread", 16, 2, shape};
    struct thr t;
    struct td_layout d;
    struct sz_error err = {0};
    int rc = thr_parse(text, &ctx, &t, &err);
    int ok = rc == 0 && t.kind == THR_BASES && t.lanes == 32 && t.rank == 2 &&
             triton_dist_layout(&parser, text, NULL, s64, 2, &d, &err) == 0;
    for (int in = 0; ok && in < THR_NIN; in++) {
        ok = t.n[in] == d.n[in];
        for (int i = 0; ok && i < d.n[in]; i++)
            ok = t.basis[in][i][0] == (uint32_t)d.b[in][i][0] &&
                 t.basis[in][i][1] == (uint32_t)d.b[in][i][1];
    }
    CHECK(ok && strcmp(t.form->name, "triton") == 0,
          "thr_parse reads a dot_op as the triton row, with triton_dist's bases (%s)",
          err.message);
    /* DotMMAv2_large_warp4_kwidth8 on 128x128: 7 register bases, 8 per vector */
    CHECK(ok && thr_instructions(&t, 3) == 64, "16 register groups x 4 warps: %llu",
          (unsigned long long)thr_instructions(&t, 3));
    rc = thr_parse("#ttg.blocked<{sizePerThread = [1, 3]}>", &ctx, &t, &err);
    CHECK(rc < 0 && strcmp(err.field, "thread") == 0 && strstr(err.message, "line 1, column"),
          "a bad encoding through the row names the request's field: %s %s", err.field,
          err.message);
}

/* shared_linear and padded_shared as layout forms: /api/layout's offsets
 * against a brute-force walk of the definition (offset -> element by XOR of
 * the bases, padding added after every interval). */
static void check_layout_offsets(const char *text, const int32_t (*bases)[2], int n,
                                 uint32_t rows, uint32_t cols, int every, int by,
                                 const char *form)
{
    char body[2048];
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "layout", text);
    cJSON_AddItemToObject(b, "shape", cJSON_CreateIntArray((const int[]){(int)rows, (int)cols}, 2));
    cJSON_AddNumberToObject(b, "element_bits", 16);
    char *p = cJSON_PrintUnformatted(b);
    snprintf(body, sizeof body, "%s", p);
    free(p);
    cJSON_Delete(b);
    struct api_response r = client_api_call("POST", "/api/layout", NULL, "application/json",
                                            body, 0);
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
    int ok = r.status == 200 && cJSON_GetArraySize(offs) == (int)(rows * cols) &&
             strcmp(str(j, "form"), form) == 0;
    static int64_t want[1 << 12];
    for (uint32_t o = 0; ok && o < rows * cols; o++) {
        int32_t rr = 0, cc = 0;
        for (int k = 0; k < n; k++)
            if (o >> k & 1)
                rr ^= bases[k][0], cc ^= bases[k][1];
        int64_t phys = o + (every ? (int64_t)(o / (uint32_t)every) * by : 0);
        want[(uint32_t)rr + rows * (uint32_t)cc] = phys * 2;
    }
    for (uint32_t i = 0; ok && i < rows * cols; i++)
        ok = cJSON_GetArrayItem(offs, (int)i)->valuedouble == (double)want[i];
    CHECK(ok, "%s on %ux%u: /api/layout's offsets are the definition's: %d %.200s", form, rows,
          cols, r.status, r.body ? r.body : "");
    cJSON_Delete(j);
    free(r.body);
}

static void test_layout_forms(void)
{
    /* a diagonal shared_linear (row r's columns XOR r) on 32x32 */
    static const int32_t diag[10][2] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16},
                                        {1, 1}, {2, 2}, {4, 4}, {8, 8}, {16, 16}};
    check_layout_offsets("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], "
                         "[1, 1], [2, 2], [4, 4], [8, 8], [16, 16]]}, alignment = 16>",
                         diag, 10, 32, 32, 0, 0, "triton_shared_linear");
    /* padded rows: 64 x 64, 4 elements after every 64 (a row), identity in order [1, 0] */
    static int32_t rowmajor[12][2];
    for (int k = 0; k < 6; k++)
        rowmajor[k][0] = 0, rowmajor[k][1] = 1 << k;
    for (int k = 0; k < 6; k++)
        rowmajor[6 + k][0] = 1 << k, rowmajor[6 + k][1] = 0;
    check_layout_offsets("#shared = #ttg.padded_shared<[64:+4] {order = [1, 0], shape = [64, 64]}>",
                         (const int32_t(*)[2])rowmajor, 12, 64, 64, 64, 4, "triton_padded");
    /* the linear form: the same identity through offset bases, padded by 2 every 32 */
    check_layout_offsets("#ttg.padded_shared<[32:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], "
                         "[0, 16], [0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], "
                         "block = []}>", (const int32_t(*)[2])rowmajor, 12, 64, 64, 32, 2,
                         "triton_padded");
    /* amd_rotating_shared through /api/layout: Triton's AMDRotatingShared2D_64x64 bases */
    static const int32_t rot[12][2] = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32},
                                       {1, 0}, {2, 4}, {4, 8}, {8, 4}, {16, 8}, {32, 0}};
    check_layout_offsets("#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, "
                         "order = [1, 0]}>", rot, 12, 64, 64, 0, 0, "triton_amd_rotating");
    /* a shared_linear that is a swizzle has its equivalents; a bad one names the column */
    static const char *const swz = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                                   "order = [1, 0]}>";
    cJSON *q = cJSON_CreateObject();
    cJSON_AddStringToObject(q, "layout", "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], "
                            "[0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], "
                            "[32, 0]]}, alignment = 16>");
    cJSON_AddItemToObject(q, "shape", cJSON_CreateIntArray((const int[]){64, 64}, 2));
    char *qs = cJSON_PrintUnformatted(q), *eq;
    int status;
    char *answer = post("/api/layout", qs, &status);
    cJSON *ans = cJSON_Parse(answer ? answer : "");
    eq = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(ans, "equivalents"));
    CHECK(status == 200 && eq && strstr(eq, swz) && strstr(eq, "Swizzle<3,4,3>"),
          "a shared_linear equal to swizzled_shared<8,1,8>: its equivalents name it: %d %s",
          status, eq ? eq : "");
    free(eq);
    free(qs);
    free(answer);
    cJSON_Delete(ans);
    cJSON_Delete(q);
    struct api_response r;
    r = client_api_call("POST", "/api/layout", NULL, "application/json",
                        "{\"layout\":\"#ttg.shared_linear<{offset = [[0, 1], [0, 1]]}, "
                        "alignment = 16>\",\"shape\":[2,2]}", 0);
    CHECK(r.status == 400 && r.body && strstr(r.body, "\"field\":\"shape\"") &&
              strstr(r.body, "one to one"),
          "offset bases that are no bijection: 400: %d %.200s", r.status, r.body ? r.body : "");
    free(r.body);
}

/* ---- one reader: every shared expectation through /api/layout too (issue 37) ---- */

/* POST /api/layout {layout, shape, element_bits} (rank 0: no shape, bits
 * 0: no element_bits); the offsets (first coordinate fastest) or NULL, the
 * status in *status. */
static cJSON *layout_offsets(const char *text, const int64_t *shape, int rank, int bits,
                             int *status, char *why, size_t nwhy)
{
    int sh[TLL_MAX_RANK];
    for (int d = 0; d < rank; d++)
        sh[d] = (int)shape[d];
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "layout", text);
    if (rank > 0)           /* none: the text's own (a memdesc) */
        cJSON_AddItemToObject(b, "shape", cJSON_CreateIntArray(sh, rank));
    if (bits > 0)
        cJSON_AddNumberToObject(b, "element_bits", bits);
    char *p = cJSON_PrintUnformatted(b);
    cJSON_Delete(b);
    struct api_response r = client_api_call("POST", "/api/layout", NULL, "application/json", p, 0);
    free(p);
    *status = r.status;
    snprintf(why, nwhy, "%.200s", r.body ? r.body : "");
    cJSON *j = r.status == 200 && r.body ? cJSON_Parse(r.body) : NULL;
    free(r.body);
    return j;
}

/* The index of a coordinate in /api/layout's offsets: the first fastest. */
static uint32_t first_fastest(const int64_t *c, const int64_t *shape, int rank)
{
    uint32_t i = 0;
    for (int d = rank - 1; d >= 0; d--)
        i = i * (uint32_t)shape[d] + (uint32_t)c[d];
    return i;
}

/* The element offset o reaches under offset bases `bases` (JSON [[d0, d1,
 * ...], ...]): the XOR of the bases of o's set bits, into e[0..rank). */
static void element_at(const cJSON *bases, uint32_t o, int rank, int64_t *e)
{
    int i = 0;
    for (int d = 0; d < rank; d++)
        e[d] = 0;
    for (const cJSON *b = bases ? bases->child : NULL; b; b = b->next, i++)
        if (o >> i & 1) {
            int d = 0;
            for (const cJSON *x = b->child; x && d < rank; x = x->next, d++)
                e[d] ^= x->valueint;
        }
}

/* triton_ll_cases.json's 18 shared expectations (offset bases from Triton's
 * LinearLayoutConversionsTest.cpp) through /api/layout: offset o holds the
 * element that XORs the bases of o's set bits, so its byte is o * bits / 8.
 * The 4-D one meets the request's rank limit (LAY_MAX_SHAPED_RANK), not the reader. */
static void test_shared_cases_on_layout(void)
{
    char *txt = client_slurp("tests/data/triton_ll_cases.json");
    cJSON *root = txt ? cJSON_Parse(txt) : NULL;
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    int n = 0, ok_n = 0;
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next) {
        const cJSON *ws = cJSON_GetObjectItemCaseSensitive(c, "expected_shared");
        if (!ws)
            continue;
        int64_t shape[TLL_MAX_RANK];
        int rank = read_shape(cJSON_GetObjectItemCaseSensitive(c, "shape"), shape), st;
        const char *m = strstr(str(c, "layout"), "elementBitWidth = ");
        int bits = m ? atoi(m + 18) : 16;
        char why[256];
        cJSON *j = layout_offsets(str(c, "layout"), shape, rank, bits, &st, why, sizeof why);
        const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
        const cJSON *off = cJSON_GetObjectItemCaseSensitive(ws, "offset");
        int nb = cJSON_GetArraySize(off), ok = j != NULL;
        uint32_t size = 1;
        for (int d = 0; d < rank; d++)
            size *= (uint32_t)shape[d];
        ok = ok && (uint32_t)cJSON_GetArraySize(offs) == size && size == 1u << nb;
        static double got[1 << 16];
        int k = 0;
        for (const cJSON *x = offs ? offs->child : NULL; ok && x; x = x->next)
            got[k++] = x->valuedouble;
        for (uint32_t o = 0; ok && o < size; o++) {
            int64_t e[TLL_MAX_RANK];
            element_at(off, o, rank, e);
            ok = got[first_fastest(e, shape, rank)] == (double)o * bits / 8;
        }
        n++;
        if (rank > 3) {     /* the request's shape, not the reader: 1 to 3 extents */
            CHECK(st == 400 && strstr(why, "\"field\":\"shape\""),
                  "%s: /api/layout takes shapes of 1 to 3 extents: %d %s", str(c, "test"), st,
                  why);
            cJSON_Delete(j);
            continue;
        }
        ok_n += ok;
        CHECK(ok, "%s (%s) through /api/layout: the offsets are the expected bases': %d %s",
              str(c, "test"), str(c, "layout"), st, why);
        cJSON_Delete(j);
    }
    CHECK(n == 18 && ok_n == 17, "18 shared expectations through /api/layout, the 17 of rank "
          "1 to 3 exact: %d %d", n, ok_n);
    cJSON_Delete(root);
    free(txt);
}

/* nvmma_shared with Triton's own `rank = 3` (the text /api/layout refused
 * and /api/ttgir took): its offsets against CuTe's byte swizzle, written from
 * the definition (an 8-row atom of swizzlingByteWidth-byte rows with
 * Swizzle<log2(sw/16),4,3> on its bytes, the batch dims collapsed into rows,
 * atoms down the rows first, then along the columns). */
static void test_nvmma_rank3_on_layout(void)
{
    static const struct { int sw, bits; int64_t shape[3]; } cs[] = {
        {64, 32, {32, 4, 64}}, {32, 16, {2, 8, 64}}, {128, 16, {4, 16, 128}},
        {128, 8, {2, 8, 256}}, {64, 8, {8, 2, 64}}, {0, 32, {4, 4, 8}},
    };
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        int sw = cs[t].sw, bits = cs[t].bits, st;
        const int64_t *sh = cs[t].shape;
        char text[200], why[256];
        snprintf(text, sizeof text, "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = "
                 "false, elementBitWidth = %d, rank = 3}>", sw, bits);
        cJSON *j = layout_offsets(text, sh, 3, bits, &st, why, sizeof why);
        const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
        uint32_t eb = (uint32_t)bits / 8, rows = (uint32_t)(sh[0] * sh[1]);
        uint32_t row_bytes = sw ? (uint32_t)sw : (uint32_t)sh[2] * eb;
        uint32_t per_row = row_bytes / eb, yy = 0;
        while (sw && (16u << yy) < (uint32_t)sw)
            yy++;   /* Swizzle<yy,4,3>: bits 4.. XOR bits 7.. */
        int ok = j && cJSON_GetArraySize(offs) == (int)(rows * sh[2]);
        const cJSON *x = offs ? offs->child : NULL;
        for (int64_t c2 = 0; ok && c2 < sh[2]; c2++)
            for (int64_t c1 = 0; ok && c1 < sh[1]; c1++)
                for (int64_t c0 = 0; ok && c0 < sh[0]; c0++, x = x->next) {
                    int64_t c[3] = {c0, c1, c2};
                    uint32_t r = (uint32_t)(c[0] * sh[1] + c[1]), col = (uint32_t)c[2];
                    uint32_t a = r * row_bytes + (col % per_row) * eb;
                    a ^= ((a >> 7) & ((1u << yy) - 1)) << 4;
                    uint32_t want = (col / per_row) * rows * row_bytes + a;
                    ok = x && x->valuedouble == (double)want;
                    if (!ok)
                        snprintf(why, sizeof why, "[%lld,%lld,%lld]: %g, oracle %u",
                                 (long long)c0, (long long)c1, (long long)c2,
                                 x ? x->valuedouble : -1.0, want);
                }
        CHECK(ok && strcmp(str(j, "form"), "triton_nvmma") == 0,
              "%s on [%lld,%lld,%lld] through /api/layout: CuTe's byte swizzle: %d %s", text,
              (long long)sh[0], (long long)sh[1], (long long)sh[2], st, why);
        cJSON_Delete(j);
    }
}

/* ---- issue 37: every shared encoding through both routes ------------------- */

/* The element type TTGIR prints for `bits`. */
static const char *elem_type(int bits)
{
    return bits == 8 ? "i8" : bits == 32 ? "f32" : "f16";
}

/* Whether /api/layout places encoding `enc` as /api/ttgir placed it in `op`
 * (its shape, element_bits, shared offset_bases and padding: offset o holds
 * the element XORing the bases of o's set bits, at o plus the padding before
 * it), given as the encoding with shape and element_bits and as the memdesc
 * TTGIR prints (its own shape and type).  *why says what differs. */
static int same_on_layout(const char *enc, const cJSON *op, char *why, size_t cap)
{
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(op, "shared");
    const cJSON *bases = cJSON_GetObjectItemCaseSensitive(sh, "offset_bases");
    const cJSON *pads = cJSON_GetObjectItemCaseSensitive(sh, "padding");
    int64_t shape[TLL_MAX_RANK];
    int rank = read_shape(cJSON_GetObjectItemCaseSensitive(op, "shape"), shape);
    int bits = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(op, "element_bits")), st, nb = cJSON_GetArraySize(bases);
    uint32_t size = 1;
    char dims[64] = "", md[1024];
    for (int d = 0; d < rank; d++) {
        size *= (uint32_t)shape[d];
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%lldx", (long long)shape[d]);
    }
    int old = strncmp(enc, "#triton_gpu.", 12) == 0;
    snprintf(md, sizeof md, old ? "!tt.memdesc<%s%s, %s, #triton_gpu.shared_memory, mutable>" :
             "!ttg.memdesc<%s%s, %s, #smem, mutable>", dims, elem_type(bits), enc);
    if (size != 1u << nb || size > (1u << 16)) {
        snprintf(why, cap, "/api/ttgir: %d bases for %u elements", nb, size);
        return 0;
    }
    static double want[1 << 16];
    for (uint32_t o = 0; o < size; o++) {
        int64_t e[TLL_MAX_RANK], phys = o;
        element_at(bases, o, rank, e);
        for (const cJSON *p = pads ? pads->child : NULL; p; p = p->next)
            phys += (int64_t)(o / (uint32_t)cJSON_GetArrayItem(p, 0)->valueint) *
                    cJSON_GetArrayItem(p, 1)->valueint;
        want[first_fastest(e, shape, rank)] = (double)phys * bits / 8;
    }
    for (int form = 0; form < 2; form++) {
        cJSON *j = form ? layout_offsets(md, shape, 0, 0, &st, why, cap)
                        : layout_offsets(enc, shape, rank, bits, &st, why, cap);
        const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
        int ok = j && (uint32_t)cJSON_GetArraySize(offs) == size;
        uint32_t i = 0;
        for (const cJSON *x = offs ? offs->child : NULL; ok && x; x = x->next, i++)
            if (x->valuedouble != want[i]) {
                snprintf(why, cap, "%s: element %u at %g, /api/ttgir's %g", form ? md : "the encoding",
                         i, x->valuedouble, want[i]);
                ok = 0;
            }
        cJSON_Delete(j);
        if (!ok)
            return 0;
    }
    return 1;
}

/* A one-op TTGIR of `enc` on `shape` (blocked, 4 warps; the 3.0/3.1 dialect
 * for a #triton_gpu. encoding). */
static void one_alloc(char *dst, size_t cap, const char *enc, const int64_t *shape, int rank,
                      int bits)
{
    const char *ns = strncmp(enc, "#triton_gpu.", 12) == 0 ? "triton_gpu" : "ttg";
    char dims[64] = "", spt[32] = "", tpw[32] = "", wpc[32] = "", order[32] = "";
    for (int d = 0; d < rank; d++) {
        const char *sep = d ? ", " : "";
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%lldx", (long long)shape[d]);
        snprintf(spt + strlen(spt), sizeof spt - strlen(spt), "%s1", sep);
        snprintf(tpw + strlen(tpw), sizeof tpw - strlen(tpw), "%s%d", sep, d == rank - 1 ? 32 : 1);
        snprintf(wpc + strlen(wpc), sizeof wpc - strlen(wpc), "%s%d", sep, d == 0 ? 4 : 1);
        snprintf(order + strlen(order), sizeof order - strlen(order), "%s%d", sep, rank - 1 - d);
    }
    snprintf(dst, cap, "#blocked = #%s.blocked<{sizePerThread = [%s], threadsPerWarp = [%s], "
             "warpsPerCTA = [%s], order = [%s]}>\n#smem = #%s.shared_memory\n"
             "%%1 = %s.local_alloc %%0 : (tensor<%s%s, #blocked>) -> %s<%s%s, %s, #smem>\n", ns,
             spt, tpw, wpc, order, ns, ns, dims, elem_type(bits),
             *ns == 't' && ns[1] == 'r' ? "!tt.memdesc" : "!ttg.memdesc", dims, elem_type(bits), enc);
}

/* Issue 37: "run every Triton shared-encoding expectation the project holds
 * through /api/layout as well": every op of every part of tests/data/ttgir
 * (its alias resolved to the line that defines it), and each kind the
 * readers take in one-op texts (swizzled of several vec/perPhase/maxPhase/
 * order, 2-D and 3-D; nvmma of every swizzlingByteWidth, transposed,
 * elementBitWidth and rank, and without elementBitWidth; padded by order and
 * by bases, one and two intervals; shared_linear; amd_rotating 2-D and 3-D;
 * 3.0/3.1's #triton_gpu.shared with and without hasLeadingOffset and
 * #triton_gpu.nvmma_shared): /api/layout's offsets, for the encoding with
 * the op's shape and element_bits and for the memdesc, are /api/ttgir's
 * placement; a shape /api/ttgir refuses (an nvmma box narrower than one
 * swizzle row) /api/layout refuses too.  None disagreed when this was
 * written (2026-11-28): the test holds the two routes on one reader. */
static void test_shared_both_routes(void)
{
    static const char *const files[] = {
        "amd_block_pingpong_small", "team_convert_layouts", "team_dump_two_passes",
        "team_epilogue_sm90", "team_lit_two_modules", "team_mm_nvmma128",
        "team_pipelined_two_buffers", "team_triton31_operands"};
    int n = 0, bad = 0, st;
    char why[512];
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/ttgir/%s.mlir", files[f]);
        char *txt = client_slurp(path);
        cJSON *all = ttgir(txt ? txt : "", &st);
        int parts = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(all, "parts"));
        cJSON_Delete(all);
        for (int part = 0; part < parts; part++) {
            cJSON *j = ttgir_part(txt, part, &st);
            const cJSON *ops = cJSON_GetObjectItemCaseSensitive(j, "ops");
            for (const cJSON *op = ops ? ops->child : NULL; op; op = op->next) {
                /* the alias's definition: the nearest line above the op opening "#x = " */
                char enc[512], head[80];
                const char *t = str(cJSON_GetObjectItemCaseSensitive(op, "shared"), "text");
                snprintf(enc, sizeof enc, "%s", t);
                snprintf(head, sizeof head, "%s = ", t);
                const char *at = NULL;
                int line = 1, opline = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(op, "line"));
                for (const char *l = txt; l && *l && line < opline; line++) {
                    if (strncmp(l, head, strlen(head)) == 0)
                        at = l + strlen(head);
                    l = strchr(l, '\n');
                    l = l ? l + 1 : NULL;
                }
                if (at && !strchr(t, '<'))
                    snprintf(enc, sizeof enc, "%.*s", (int)strcspn(at, "\n"), at);
                n++;
                CHECK_QUIET(bad, same_on_layout(enc, op, why, sizeof why),
                            "%s part %d line %d, %s: %s", files[f], part, opline, enc, why);
            }
            cJSON_Delete(j);
        }
        free(txt);
    }
    int from_files = n;
    /* one-op texts of every kind */
    static const struct { const char *enc; int64_t shape[3]; int rank, bits; } cs[] = {
        {"#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", {64, 64}, 2, 16},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", {64, 64}, 2, 8},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>", {64, 128}, 2, 16},
        {"#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>", {64, 64}, 2, 32},
        {"#ttg.swizzled_shared<{vec = 2, perPhase = 4, maxPhase = 2, order = [0, 1]}>", {32, 64}, 2, 16},
        {"#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [0, 1]}>", {64, 64}, 2, 32},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>", {2, 32, 64}, 3, 16},
        {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0, 2]}>", {4, 16, 64}, 3, 16},
        {"#ttg.padded_shared<[32:+2] {order = [1, 0], shape = [64, 64]}>", {64, 64}, 2, 16},
        {"#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [32, 64]}>", {32, 64}, 2, 16},
        {"#ttg.padded_shared<[32:+4, 256:+8] {order = [0, 1], shape = [64, 64]}>", {64, 64}, 2, 16},
        {"#ttg.padded_shared<[32:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], "
         "[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], block = []}>", {64, 64}, 2, 16},
        {"#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], "
         "[4, 4], [8, 8], [16, 16]]}, alignment = 16>", {32, 32}, 2, 16},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>", {64, 64}, 2, 16},
        {"#ttg.amd_rotating_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>", {64, 64}, 2, 16},
        {"#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [2, 1, 0]}>", {2, 32, 64}, 3, 16},
        {"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>", {64, 64}, 2, 16},
        {"#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>", {64, 64}, 2, 16},
        {"#triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], hasLeadingOffset = false}>", {64, 32}, 2, 32},
        {"#triton_gpu.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1], hasLeadingOffset = false}>", {64, 64}, 2, 16},
        {"#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>", {64, 64}, 2, 16},
        {"#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], hasLeadingOffset = true}>", {64, 64}, 2, 16},
        {"#triton_gpu.shared<{vec = 4, perPhase = 4, maxPhase = 2, order = [1, 0], hasLeadingOffset = true}>", {64, 64}, 2, 32},
        {"#triton_gpu.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", {64, 64}, 2, 16},
        {"#triton_gpu.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>", {64, 64}, 2, 16},
    };
    int refused = 0, both_refuse = 0;
    char text[2048], enc[256];
    for (size_t i = 0; i < sizeof cs / sizeof cs[0] + 4 * 2 * 3 * 3; i++) {
        int64_t shape[3];
        int rank, bits;
        if (i < sizeof cs / sizeof cs[0]) {
            snprintf(enc, sizeof enc, "%s", cs[i].enc);
            memcpy(shape, cs[i].shape, sizeof shape);
            rank = cs[i].rank, bits = cs[i].bits;
        } else {    /* nvmma: swizzlingByteWidth x transposed x elementBitWidth x (2-D, 3-D, 2-D turned) */
            size_t k = i - sizeof cs / sizeof cs[0];
            static const int sws[4] = {0, 32, 64, 128}, bw[3] = {8, 16, 32};
            static const int64_t sh[3][3] = {{64, 128}, {2, 16, 128}, {128, 64}};
            int sw = sws[k / 18], tr = (int)(k / 9 % 2), form = (int)(k % 3);
            bits = bw[k / 3 % 3];
            rank = form == 1 ? 3 : 2;
            memcpy(shape, sh[form], sizeof shape);
            snprintf(enc, sizeof enc, "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, "
                     "elementBitWidth = %d%s}>", sw, tr ? "true" : "false", bits,
                     rank == 3 ? ", rank = 3" : "");
        }
        one_alloc(text, sizeof text, enc, shape, rank, bits);
        cJSON *j = ttgir(text, &st);
        const cJSON *op = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "ops"), 0);
        n++;
        if (!op) {      /* refused by /api/ttgir: refused by /api/layout */
            int ls;
            cJSON *l = layout_offsets(enc, shape, rank, bits, &ls, why, sizeof why);
            refused++;
            both_refuse += st == 400 && ls == 400;
            CHECK_QUIET(bad, st == 400 && ls == 400, "%s on %lldx%lld: /api/ttgir %d, /api/layout "
                        "%d: %s", enc, (long long)shape[0], (long long)shape[1], st, ls, why);
            cJSON_Delete(l);
        } else {
            CHECK_QUIET(bad, same_on_layout(enc, op, why, sizeof why), "%s on %lldx%lld (%d bits): %s",
                        enc, (long long)shape[0], (long long)shape[1], bits, why);
        }
        cJSON_Delete(j);
    }
    CHECK(bad == 0 && from_files == 29 && n - from_files == 97 && refused == both_refuse,
          "every shared encoding through both routes: %d ops of tests/data/ttgir and %d one-op "
          "texts (%d refused by both), /api/layout's offsets (encoding and memdesc) are "
          "/api/ttgir's: %d differ", from_files, n - from_files, both_refuse, bad);
}

/* The fix /api/ttgir proposes, pasted back in place of the buffer's
 * encoding, costs what the fix said; Gluon's case 9 (3 conflicts) gets one. */
static void test_fix(void)
{
    static const char *const head =
        "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], "
        "instrShape = [16, 8]}>\n#smem = #ttg.shared_memory\n";
    static const char *const ops =
        "%%1 = ttg.local_alloc %%0 : (tensor<4x64xf16, #mma>) -> !ttg.memdesc<4x64xf16, %s, "
        "#smem>\n"
        "%%2 = ttg.local_load %%1 : !ttg.memdesc<4x64xf16, %s, #smem> -> tensor<4x64xf16, #mma>\n";
    static const char *const before = "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = "
                                      "false, elementBitWidth = 16}>";
    static char text[8192];
    int st;
    snprintf(text, sizeof text, "%s", head);
    snprintf(text + strlen(text), sizeof text - strlen(text), ops, before, before);
    cJSON *j = ttgir(text, &st);
    const cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "ops"), 1);
    const cJSON *fix = cJSON_GetObjectItemCaseSensitive(o, "fix");
    const char *ft = str(fix, "ttgir");
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(fix, "load");
    int fwf = fl ? cJSON_GetObjectItemCaseSensitive(fl, "wavefronts_per_instruction")->valueint : -1;
    CHECK(st == 200 && cJSON_GetObjectItemCaseSensitive(o, "triton_bank_conflicts")->valueint == 3 &&
              cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fix, "needed")) && ft &&
              cJSON_GetObjectItemCaseSensitive(fix, "store_line")->valueint == 3 &&
              cJSON_GetObjectItemCaseSensitive(fix, "load_line")->valueint == 4,
          "Gluon's case 9 as a dump: 3 conflicts, a fix for the alloc + load pair: %d", st);
    char after[1600];
    if (snprintf(after, sizeof after, "%s", ft ? ft : "") >= (int)sizeof after)
        after[0] = '\0';
    cJSON_Delete(j);
    snprintf(text, sizeof text, "%s", head);
    snprintf(text + strlen(text), sizeof text - strlen(text), ops, after, after);
    j = ttgir(text, &st);
    o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "ops"), 1);
    const cJSON *wf = cJSON_GetObjectItemCaseSensitive(o, "wavefronts_per_instruction");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "ideal");
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "triton_bank_conflicts");
    CHECK(st == 200 && wf && id && wf->valueint == fwf && wf->valueint == id->valueint &&
              tc->valueint == 0 &&
              cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
                  cJSON_GetObjectItemCaseSensitive(o, "fix"), "needed")),
          "the fix pasted back (%s): %d wavefronts as promised (%d), ideal, and 0 by Gluon's "
          "count", after, wf ? wf->valueint : -1, fwf);
    cJSON_Delete(j);
}


/* ---- issue 39: the instruction Triton emits, units, whole texts, buffers -- */


/* POST /api/ttgir with a file of tests/data/ttgir as its text. */
static cJSON *ttgir_file(const char *name, int part, int *status)
{
    char path[160];
    snprintf(path, sizeof path, "tests/data/ttgir/%s", name);
    char *txt = client_slurp(path);
    cJSON *j = ttgir_part(txt ? txt : "", part, status);
    free(txt);
    return j;
}

/* str, "" where the member is missing: a check that fails reports, not crashes. */
static const char *sv(const cJSON *o, const char *k)
{
    const char *v = str(o, k);
    return v ? v : "";
}

static long inum(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

static const cJSON *nth_op(const cJSON *j, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "ops"), i);
}

/* The instruction's name ("ldmatrix.x4.trans", "ld.shared.v4.b32"), or "". */
static const char *instr_name(const cJSON *op)
{
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(op, "instruction");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(in, "name");
    return cJSON_IsString(n) ? n->valuestring : "";
}

/* The op's conflicts_request offsets against the oracle's, and its cost
 * against POST /api/conflicts of that request (the model, asked directly). */
static int same_request(const cJSON *op, const uint32_t *want, long *wf, long *ideal)
{
    const cJSON *rq = cJSON_GetObjectItemCaseSensitive(op, "conflicts_request");
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(rq, "offsets");
    int ok = cJSON_GetArraySize(off) == 32;
    for (int l = 0; l < 32 && ok; l++)
        ok = (uint32_t)cJSON_GetArrayItem(off, l)->valuedouble == want[l];
    char *b = rq ? cJSON_PrintUnformatted(rq) : NULL;
    int st;
    char *r = b ? post("/api/conflicts", b, &st) : NULL;
    cJSON *c = cJSON_Parse(r ? r : "");
    *wf = inum(c, "wavefronts");
    *ideal = inum(c, "ideal_wavefronts");
    cJSON_Delete(c);
    free(r);
    free(b);
    return ok;
}

/* A team-written 16x16 f16 operand pair on one warp, unswizzled (the shape
 * of Triton's own convert_dot_ldmatrix lit case, whose CHECK lines at main
 * show one ldmatrix num = 4 for A and one with layout col (.trans) for B). */
static const char *operands_16x16(const char *dialect, const char *target, int kwidth,
                                  const char *elem, char *out, size_t cap)
{
    snprintf(out, cap,
             "#blocked0 = #%s.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
             "warpsPerCTA = [1, 1], order = [1, 0]}>\n"
             "#shared0 = #%s.%s<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n"
             "#mma0 = #%s.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>\n"
             "module attributes {\"%s.num-warps\" = 1 : i32%s%s} {\n"
             "  tt.func @team_operands(%%A: tensor<16x16x%s, #blocked0>, %%B: tensor<16x16x%s, #blocked0>) {\n"
             "    %%AA = %s.local_alloc %%A : (tensor<16x16x%s, #blocked0>) -> !%s.memdesc<16x16x%s, #shared0>\n"
             "    %%BB = %s.local_alloc %%B : (tensor<16x16x%s, #blocked0>) -> !%s.memdesc<16x16x%s, #shared0>\n"
             "    %%a = %s.local_load %%AA : !%s.memdesc<16x16x%s, #shared0> -> tensor<16x16x%s, "
             "#%s.dot_op<{opIdx = 0, parent = #mma0, kWidth = %d}>>\n"
             "    %%b = %s.local_load %%BB : !%s.memdesc<16x16x%s, #shared0> -> tensor<16x16x%s, "
             "#%s.dot_op<{opIdx = 1, parent = #mma0, kWidth = %d}>>\n"
             "    tt.return\n  }\n}\n",
             dialect, dialect, strcmp(dialect, "ttg") ? "shared" : "swizzled_shared", dialect, dialect,
             target ? ", " : "", target ? target : "", elem, elem,
             dialect, elem, strcmp(dialect, "ttg") ? "tt" : "ttg", elem,
             dialect, elem, strcmp(dialect, "ttg") ? "tt" : "ttg", elem,
             dialect, strcmp(dialect, "ttg") ? "tt" : "ttg", elem, elem, dialect, kwidth,
             dialect, strcmp(dialect, "ttg") ? "tt" : "ttg", elem, elem, dialect, kwidth);
    return out;
}

/* Item 1: a dot operand's local_load is costed as the ldmatrix Triton emits. */
static void test_ldmatrix(void)
{
    char text[4096];
    int st;
    cJSON *j = ttgir(operands_16x16("ttg", NULL, 2, "f16", text, sizeof text), &st);
    const cJSON *a = nth_op(j, 2), *b = nth_op(j, 3);
    CHECK(st == 200 && strcmp(instr_name(a), "ldmatrix.x4") == 0 &&
              strcmp(instr_name(b), "ldmatrix.x4.trans") == 0 &&
              inum(a, "instructions_per_warp") == 1 && inum(b, "instructions_per_warp") == 1,
          "16x16 f16 operands: A one ldmatrix.x4, B one ldmatrix.x4.trans a warp (%d): %s x%ld, "
          "%s x%ld", st, instr_name(a), inum(a, "instructions_per_warp"), instr_name(b),
          inum(b, "instructions_per_warp"));
    /* the oracle: lane l gives row l%8 of matrix l/8; A (m x k, k fastest,
     * 32-byte rows): matrices m0-7/k0-7, m8-15/k0-7, m0-7/k8-15, m8-15/k8-15;
     * B (k x n, n fastest) .trans: rows k, matrices k+8 then n+8 */
    uint32_t want[32];
    for (uint32_t l = 0; l < 32; l++)
        want[l] = ((l & 7) + 8 * (l >> 3 & 1)) * 32 + 16 * (l >> 4);
    long wf, ideal;
    int same = same_request(a, want, &wf, &ideal);
    /* rows 32 bytes apart: rows r and r+4 share their 4 banks, 2 wavefronts a
     * matrix, 8 for the x4 where 4 is ideal */
    CHECK(same && inum(a, "wavefronts_per_instruction") == 8 && inum(a, "ideal") == 4 &&
              wf == 8 && ideal == 4,
          "A's ldmatrix rows are the oracle's, 8 wavefronts (ideal 4) as /api/conflicts "
          "costs them: same %d, %ld/%ld, conflicts %ld/%ld", same,
          inum(a, "wavefronts_per_instruction"), inum(a, "ideal"), wf, ideal);
    same = same_request(b, want, &wf, &ideal);
    CHECK(same && inum(b, "wavefronts_per_instruction") == wf && wf == 8 && ideal == 4,
          "B's ldmatrix.trans rows are the oracle's, 8 wavefronts: same %d, %ld", same, wf);
    CHECK(strstr(sv(j, "target_assumed"), "sm_75"), "no target in the text: NVIDIA assumed, "
          "said: %s", sv(j, "target_assumed"));
    cJSON_Delete(j);

    /* the issue's case: 64x64 on nvmma 128B, 4 warps: 8 ldmatrix.x4 a warp
     * (a warp's 32x64 half of A is 4 KiB, 512 bytes an x4), not 64 and 128
     * narrow loads; conflict-free */
    j = ttgir_file("team_mm_nvmma128.mlir", -1, &st);
    a = nth_op(j, 2), b = nth_op(j, 3);
    CHECK(st == 200 && strcmp(instr_name(a), "ldmatrix.x4") == 0 &&
              strcmp(instr_name(b), "ldmatrix.x4.trans") == 0 && inum(a, "instructions") == 8 &&
              inum(b, "instructions") == 8 && inum(a, "wavefronts_per_instruction") == 4 &&
              inum(a, "ideal") == 4 && inum(b, "wavefronts_per_instruction") == 4,
          "64x64 nvmma 128B operands: 8 ldmatrix.x4 (.trans) a warp, 4 wavefronts each: %s %ld "
          "%s %ld", instr_name(a), inum(a, "instructions"), instr_name(b), inum(b, "instructions"));
    cJSON_Delete(j);

    /* 32-bit elements: A plain ldmatrix (4-byte rows of lanes); B would need
     * .trans, which takes 16-bit elements only: ld.shared, saying why */
    j = ttgir(operands_16x16("ttg", NULL, 1, "f32", text, sizeof text), &st);
    a = nth_op(j, 2), b = nth_op(j, 3);
    const cJSON *bi = cJSON_GetObjectItemCaseSensitive(b, "instruction");
    CHECK(st == 200 && strcmp(instr_name(a), "ldmatrix.x4") == 0 &&
              strncmp(instr_name(b), "ld.shared", 9) == 0 &&
              strstr(sv(bi, "not_ldmatrix"), ".trans takes 16-bit"),
          "f32 operands: A ldmatrix.x4, B ld.shared (%s; %s)", instr_name(a), instr_name(b));
    cJSON_Delete(j);

    /* AMD has no ldmatrix; Triton 3.0/3.1 (triton_gpu) refuses kWidth != 32 / bits */
    j = ttgir(operands_16x16("ttg", "ttg.target = \"hip:gfx942\"", 2, "f16", text, sizeof text),
              &st);
    CHECK(st == 200 && strncmp(instr_name(nth_op(j, 2)), "ld.shared", 9) == 0,
          "gfx942: ld.shared, no ldmatrix: %s", instr_name(nth_op(j, 2)));
    cJSON_Delete(j);
    j = ttgir(operands_16x16("triton_gpu", NULL, 4, "f16", text, sizeof text), &st);
    a = nth_op(j, 2);
    CHECK(st == 200 && strncmp(instr_name(a), "ld.shared", 9) == 0 &&
              strstr(sv(cJSON_GetObjectItemCaseSensitive(a, "instruction"), "not_ldmatrix"),
                     "kWidth"),
          "Triton 3.1, kWidth 4 on f16: no ldmatrix (canUseLdmatrix), saying why: %d %s", st,
          instr_name(a));
    cJSON_Delete(j);
    j = ttgir(operands_16x16("triton_gpu", NULL, 2, "f16", text, sizeof text), &st);
    CHECK(st == 200 && strcmp(instr_name(nth_op(j, 2)), "ldmatrix.x4") == 0 &&
              strcmp(instr_name(nth_op(j, 3)), "ldmatrix.x4.trans") == 0,
          "Triton 3.1, kWidth 2 on f16: ldmatrix.x4 and .x4.trans: %d %s %s", st,
          instr_name(nth_op(j, 2)), instr_name(nth_op(j, 3)));
    cJSON_Delete(j);
}

/* Item 1's stores: Triton's current lowering stores with stmatrix on sm_90
 * where the layout holds its tile (an MMA accumulator does: 2 halves of a
 * 4-byte row a register, lanes 0-1 across the 16-byte row); below sm_90,
 * st.shared.  On the 128B swizzle each 8-row matrix is conflict-free (4 of 4
 * wavefronts an x4); unswizzled, the 8 rows of 128 bytes share 4 banks (8
 * wavefronts a matrix, 32 an x4). */
static void test_stmatrix(void)
{
    int st;
    cJSON *j = ttgir_file("team_epilogue_sm90.mlir", -1, &st);
    const cJSON *sw = nth_op(j, 0), *plain = nth_op(j, 1);
    CHECK(st == 200 && strcmp(instr_name(sw), "stmatrix.x4") == 0 &&
              inum(sw, "instructions_per_warp") == 4 && inum(sw, "wavefronts_per_instruction") == 4 &&
              inum(sw, "ideal") == 4 && strcmp(instr_name(plain), "stmatrix.x4") == 0 &&
              inum(plain, "wavefronts_per_instruction") == 32,
          "sm_90 epilogue: stmatrix.x4, 4 a warp, 4/4 swizzled and 32/4 plain: %s %ld %ld, %s %ld",
          instr_name(sw), inum(sw, "instructions_per_warp"), inum(sw, "wavefronts_per_instruction"),
          instr_name(plain), inum(plain, "wavefronts_per_instruction"));
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(plain, "fix"),
                                                      "store");
    CHECK(strcmp(sv(fs, "instruction"), "stmatrix.x4") == 0 &&
              inum(fs, "wavefronts_per_instruction") == 4,
          "the plain buffer's fix keeps stmatrix, conflict-free: %s %ld", sv(fs, "instruction"),
          inum(fs, "wavefronts_per_instruction"));
    cJSON_Delete(j);
    char *txt = client_slurp("tests/data/ttgir/team_epilogue_sm90.mlir");
    char *at = txt ? strstr(txt, "cuda:90") : NULL;
    if (at)
        at[5] = '8';    /* cuda:80 */
    j = ttgir(txt ? txt : "", &st);
    CHECK(st == 200 && at && strcmp(instr_name(nth_op(j, 0)), "st.shared.b32") == 0,
          "the same on sm_80: st.shared.b32 (%s)", instr_name(nth_op(j, 0)));
    cJSON_Delete(j);
    free(txt);
}

/* Item 2: per warp and per CTA, with num-warps from the module. */
static void test_units(void)
{
    int st;
    cJSON *j = ttgir_file("team_mm_nvmma128.mlir", -1, &st);
    const cJSON *al = nth_op(j, 0), *a = nth_op(j, 2);
    /* the blocked store of 64x64 f16, 8 elements a lane: 4096 / (32 x 8) = 16
     * st.shared.v4 for the CTA, 4 a warp (4 warps) */
    CHECK(st == 200 && inum(j, "num_warps") == 4 && inum(al, "instructions") == 4 &&
              inum(al, "instructions_per_warp") == 4 && inum(al, "instructions_per_cta") == 16 &&
              inum(a, "instructions_per_cta") == 32 && inum(a, "wavefronts_per_warp") == 32 &&
              inum(a, "wavefronts_per_cta") == 128 && inum(a, "warps") == 4,
          "per warp and per CTA (4 warps): store %ld a warp, %ld a CTA; ldmatrix %ld a CTA, "
          "%ld wavefronts a warp, %ld a CTA", inum(al, "instructions_per_warp"),
          inum(al, "instructions_per_cta"), inum(a, "instructions_per_cta"),
          inum(a, "wavefronts_per_warp"), inum(a, "wavefronts_per_cta"));
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(al, "triton_bank_conflicts_unit");
    CHECK(cJSON_IsString(unit) && strstr(unit->valuestring, "per phase of one instruction"),
          "Gluon's number says its unit: %s", cJSON_IsString(unit) ? unit->valuestring : "none");
    cJSON_Delete(j);
    /* 8 warps: a 2-way conflict on 128x32 f32 (4 wavefronts of 8 per ld.v4),
     * 4 instructions a warp: 16 conflict wavefronts a warp, 128 a CTA */
    j = ttgir_file("team_lit_two_modules.mlir", 1, &st);
    const cJSON *ld = nth_op(j, 1);
    CHECK(st == 200 && inum(j, "num_warps") == 8 && inum(ld, "wavefronts_per_instruction") == 8 &&
              inum(ld, "ideal") == 4 && inum(ld, "instructions_per_warp") == 4 &&
              inum(ld, "conflict_wavefronts_per_warp") == 16 &&
              inum(ld, "conflict_wavefronts_per_cta") == 128 &&
              inum(ld, "triton_bank_conflicts") == 1,
          "8 warps: %ld conflict wavefronts a warp, %ld a CTA (Gluon's 1 a phase)",
          inum(ld, "conflict_wavefronts_per_warp"), inum(ld, "conflict_wavefronts_per_cta"));
    cJSON_Delete(j);
}

/* Item 3: whole lit files and pass dumps, each part alone; Triton 3.0/3.1 text. */
static void test_parts(void)
{
    int st;
    cJSON *j = ttgir_file("team_lit_two_modules.mlir", -1, &st);
    const cJSON *parts = cJSON_GetObjectItemCaseSensitive(j, "parts");
    CHECK(st == 200 && cJSON_GetArraySize(parts) == 2 && inum(j, "part") == 0 &&
              inum(cJSON_GetArrayItem(parts, 1), "first_line") == 13 &&
              inum(cJSON_GetArrayItem(parts, 1), "ops") == 2 &&
              strcmp(sv(cJSON_GetArrayItem(parts, 1), "title"), "@second") == 0,
          "a lit file of two modules, each defining #blocked: 2 parts, the first shown (%d)", st);
    cJSON_Delete(j);
    j = ttgir_file("team_lit_two_modules.mlir", 1, &st);
    CHECK(st == 200 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "ops")) == 2 &&
              inum(nth_op(j, 0), "line") == 19 && inum(nth_op(j, 1), "line") == 20 &&
              inum(nth_op(j, 0), "element_bits") == 32,
          "part 1: its own #blocked and #shared, lines of the whole file (19, 20): %d", st);
    cJSON_Delete(j);
    j = ttgir_file("team_lit_two_modules.mlir", 2, &st);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    CHECK(st == 400 && e && strcmp(sv(e, "field"), "part") == 0 &&
              strstr(sv(e, "message"), "2 parts"),
          "part 2 of 2: 400 on \"part\": %d %s", st, e ? sv(e, "message") : "");
    cJSON_Delete(j);

    j = ttgir_file("team_dump_two_passes.mlir", 1, &st);
    parts = cJSON_GetObjectItemCaseSensitive(j, "parts");
    CHECK(st == 200 && cJSON_GetArraySize(parts) == 2 &&
              strcmp(sv(cJSON_GetArrayItem(parts, 0), "title"),
                     "IR Dump Before TritonGPURemoveLayoutConversions "
                     "(tritongpu-remove-layout-conversions)") == 0 &&
              inum(nth_op(j, 2), "line") == 24 &&
              inum(nth_op(j, 2), "wavefronts_per_instruction") == 8,
          "a two-pass dump in Triton 3.1's dialect: 2 parts by pass, the second's A load on "
          "line 24 at 8 wavefronts: %d %s", st,
          cJSON_GetArraySize(parts) ? sv(cJSON_GetArrayItem(parts, 0), "title") : "");
    j = (cJSON_Delete(j), ttgir_file("team_dump_two_passes.mlir", 0, &st));
    CHECK(st == 200 && inum(nth_op(j, 2), "wavefronts_per_instruction") == 16,
          "the first pass (vec 1, unswizzled): 16 wavefronts: %ld",
          inum(nth_op(j, 2), "wavefronts_per_instruction"));
    cJSON_Delete(j);

    /* the splitter alone: the last part needs no newline after it; blank and
     * comment-only parts (a file's header, a dump's preamble) are no parts */
    static const struct { const char *text; int parts, line1; } cuts[] = {
        {"a\n// -----\nb", 2, 3},
        {"// RUN: x\n\n// -----\n%1 = c\n// -----\n  // CHECK: y\n", 1, 4},
        {"// -----// IR Dump Before P (p) ('builtin.module' operation) //----- //\nx\n"
         "// -----// IR Dump After P (p) ('builtin.module' operation) //----- //\ny", 2, 3},
        {"x\n// ------ not a separator\ny\n", 1, 1},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        struct tdump_part pt[4];
        int more, np = tdump_split(cuts[i].text, strlen(cuts[i].text), pt, 4, &more);
        CHECK(np == cuts[i].parts && pt[np > 1].first_line == cuts[i].line1,
              "split %zu: %d parts (want %d), part %d from line %d (want %d)", i, np,
              cuts[i].parts, np > 1, np ? pt[np > 1].first_line : 0, cuts[i].line1);
    }

    /* #triton_gpu.shared: without a leading offset the swizzled layout, with
     * one nvmma_shared's of the same swizzle (128 bytes: perPhase 1, maxPhase 8) */
    static const char *const pairs[][2] = {
        {"#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], "
         "hasLeadingOffset = false}>",
         "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"},
        {"#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
         "hasLeadingOffset = true}>",
         "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"},
        {"#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], "
         "hasLeadingOffset = true}>",
         "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char *bases[2] = {NULL, NULL};
        for (int k = 0; k < 2; k++) {
            char t[1024];
            snprintf(t, sizeof t, "%%1 = ttg.local_alloc %%0 : (tensor<64x64xf16, "
                     "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x64xf16, %s, "
                     "#ttg.shared_memory>\n", pairs[i][k]);
            j = ttgir(t, &st);
            const cJSON *sh = cJSON_GetObjectItemCaseSensitive(nth_op(j, 0), "shared");
            bases[k] = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(sh, "offset_bases"));
            cJSON_Delete(j);
        }
        CHECK(bases[0] && bases[1] && strcmp(bases[0], bases[1]) == 0,
              "Triton 3.1's shared %zu reads as its successor: %s vs %s", i,
              bases[0] ? bases[0] : "-", bases[1] ? bases[1] : "-");
        free(bases[0]);
        free(bases[1]);
    }
    j = ttgir_file("team_triton31_operands.mlir", -1, &st);
    CHECK(st == 200 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "ops")) == 4 &&
              strcmp(sv(cJSON_GetObjectItemCaseSensitive(nth_op(j, 0), "shared"), "encoding"),
                     "shared") == 0,
          "Triton 3.1 text (triton_gpu.local_load, !tt.memdesc): 4 ops costed: %d", st);
    cJSON_Delete(j);
}

/* Item 4: buffers by SSA value: A and B of one memdesc type are two buffers,
 * followed through memdesc_index and scf.for's carried values. */
static void test_buffers(void)
{
    int st;
    cJSON *j = ttgir_file("team_pipelined_two_buffers.mlir", -1, &st);
    const cJSON *sa = nth_op(j, 0), *sb = nth_op(j, 1), *la = nth_op(j, 2), *lb = nth_op(j, 3);
    const cJSON *fb = cJSON_GetObjectItemCaseSensitive(sb, "fix");
    CHECK(st == 200 && inum(sa, "buffer") == inum(la, "buffer") &&
              inum(sb, "buffer") == inum(lb, "buffer") && inum(sa, "buffer") != inum(sb, "buffer") &&
              strcmp(sv(sa, "buffer_value"), "%abuf") == 0 &&
              strcmp(sv(lb, "buffer_value"), "%bbuf") == 0,
          "two buffers of one type: A's store and load one buffer (%%abuf), B's another "
          "(%%bbuf): %ld %ld %ld %ld", inum(sa, "buffer"), inum(la, "buffer"), inum(sb, "buffer"),
          inum(lb, "buffer"));
    CHECK(inum(fb, "store_line") == 19 && inum(fb, "load_line") == 21 &&
              inum(cJSON_GetObjectItemCaseSensitive(fb, "store"), "wavefronts_per_instruction") ==
                  1,
          "B's fix is B's: its store (line 19, 4 wavefronts where 1 is ideal) and load (line "
          "21): %ld %ld", inum(fb, "store_line"), inum(fb, "load_line"));
    cJSON_Delete(j);
}

/* Item 3's convert_layout: through shared memory where data crosses warps
 * (store, barrier, load on the pair's optimal scratch), not where each warp
 * keeps its data.  Counts from the shapes: 64x64 f32 over 4 warps is 32
 * elements a lane, so 32 scalar or 8 four-element instructions a warp. */
static void test_converts(void)
{
    int st;
    cJSON *j = ttgir_file("team_convert_layouts.mlir", -1, &st);
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(j, "converts");
    const cJSON *t = cJSON_GetArrayItem(cv, 0), *m = cJSON_GetArrayItem(cv, 1),
                *s4 = cJSON_GetArrayItem(cv, 3);
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(t, "store"),
                *tl = cJSON_GetObjectItemCaseSensitive(t, "load"),
                *ms = cJSON_GetObjectItemCaseSensitive(m, "store");
    CHECK(st == 200 && cJSON_GetArraySize(cv) == 4 && inum(t, "line") == 9 &&
              cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "through_shared")) &&
              strcmp(sv(ts, "instruction"), "st.shared.b32") == 0 &&
              inum(ts, "instructions_per_warp") == 32 && inum(tl, "instructions_per_warp") == 32 &&
              inum(ts, "instructions_per_cta") == 128 &&
              inum(ts, "wavefronts_per_instruction") == inum(ts, "ideal"),
          "blocked -> transposed blocked: 32 st.shared.b32 and 32 ld a warp, conflict-free: %d "
          "%s %ld", st, ts ? sv(ts, "instruction") : "-", inum(ts, "instructions_per_warp"));
    CHECK(strcmp(sv(ms, "instruction"), "st.shared.v4.b32") == 0 &&
              inum(ms, "instructions_per_warp") == 8 &&
              inum(cJSON_GetObjectItemCaseSensitive(m, "scratch"), "vector_elems") == 4,
          "mma -> blocked: the registers both hold make 4-element vectors, 8 a warp: %s %ld",
          ms ? sv(ms, "instruction") : "-", inum(ms, "instructions_per_warp"));
    CHECK(inum(s4, "line") == 12 &&
              cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s4, "through_shared")) &&
              strstr(sv(s4, "reason"), "warp shuffles"),
          "a conversion within each warp: no shared memory, saying why: %s",
          s4 ? sv(s4, "reason") : "-");
    cJSON_Delete(j);
}

/* Entry i of a JSON array of numbers, -1 where there is none. */
/* A TTGIR text /api/ttgir refuses with a 400 whose message holds `words`. */
static void refused_saying(const char *text, const char *words, const char *what)
{
    int st;
    cJSON *j = ttgir(text, &st);
    const char *msg = sv(cJSON_GetObjectItemCaseSensitive(j, "error"), "message");
    CHECK(st == 400 && strstr(msg, words), "%s: %d %s", what, st, msg);
    cJSON_Delete(j);
}

static long nth_num(const cJSON *arr, int i)
{
    const cJSON *v = cJSON_GetArrayItem(arr, i);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

/* One side of a 3.0/3.1 conversion against its hand count. */
static int legacy_side(const cJSON *side, const char *instr, long per_warp, long wf, long ideal,
                       long cta_wf, long cta_conflict)
{
    return side && strcmp(sv(side, "instruction"), instr) == 0 &&
           inum(side, "instructions_per_warp") == per_warp &&
           inum(side, "instructions_per_cta") == per_warp * 4 &&
           inum(side, "wavefronts_per_instruction") == wf && inum(side, "ideal") == ideal &&
           inum(side, "wavefronts_per_cta") == cta_wf &&
           inum(side, "conflict_wavefronts_per_cta") == cta_conflict;
}

/* Item 3's last gap: Triton 3.0/3.1's convert_layout through its padded
 * scratch (team_triton31_converts.mlir, 4 warps, f32), by the rules of that
 * era's Allocation.cpp (getRepShapeForCvt, getScratchConfigForCvt) and
 * ConvertLayoutOpToLLVM.cpp (lowerDistributedToDistributed, processReplica):
 *   rep[d] = max(min(S[d], srcTile[d]), min(S[d], dstTile[d])); reps = S / rep;
 *   inVec = 1 unless both orders start at the last dim (then src's contiguity),
 *   outVec = 1 unless dst's order does (then dst's contiguity; an MMA source
 *   read as blocked always gets it); pad = max(inVec, outVec) elements on the
 *   blocked dst's order[0]; element (r, c) at (c mod rep1) + padded1 * (r mod rep0).
 * Bank of a 4-byte word = address mod 32.
 * A. blockedT [4,1]/[16,2]/[1,4] order [0,1] -> blocked [1,4]/[2,16]/[4,1]
 *    order [1,0], 64x64: tiles 64x8 and 8x64, rep 64x64, 1 rep; inVec 1 (src
 *    order is dim 0), outVec 4, pad 4: padded 64x68.  Store: lane t holds row
 *    4(t%16)+k, column t/16 + 2w + 8j: bank = col + 4 row = col0 + {0,1} +
 *    16 (t%2) + 4k: 4 banks for 32 lanes, 8 wavefronts (ideal 1), 32
 *    st.shared.b32 a warp (32 registers, vector 1); CTA 128 x 8 = 1024, 896
 *    over ideal.  (Without the pad, stride 64: 2 banks, 16.)  Load: v4 of
 *    columns 4(t%16).., row t/16 + 2w: each 8-lane phase reads 32 words of one
 *    row, 4 wavefronts = ideal; 32 registers / 4 = 8 a warp, CTA 128.
 * B. cols [1,1]/[32,1]/[1,4] -> rows [1,1]/[1,32]/[4,1], 32x32, both order
 *    [1,0]: tiles 32x4 and 4x32, rep 32x32, vec 1 and 1, pad 1: padded 32x33.
 *    Store: lane t writes row t of one column c: bank (c + 33t) % 32 = c + t,
 *    32 banks, 1 wavefront (the pad removes the 32-way conflict a 32-word row
 *    stride gives); 8 a warp.  Load: lane t reads column t of one row: 1
 *    wavefront; 8 a warp.
 * C. blocked -> small [1,1]/[4,8]/[1,4] order [1,0], 128x64: tiles 8x64 and
 *    4x32, rep 8x64, 128/8 = 16 repetitions (31 barriers); inVec 4, outVec
 *    1, pad 4: padded 8x68, 2176 bytes.  Store: v4, each 8-lane phase 32
 *    words of one row: 4 = ideal, 64 registers / 4 = 16 a warp.  Load: lane
 *    t at column t%8 + 8w (+32), row t/8: bank = t%8 + 4 (t/8) + const,
 *    banks 4..15 hit twice: 2 wavefronts (ideal 1; 4 unpadded), 64 a warp,
 *    CTA 256 x 2 = 512, 256 over ideal.
 * D. mma v2 warpsPerCTA [2,2] -> blocked, 64x64: tiles 32x16 and 8x64, rep
 *    32x64, 2 repetitions (3 barriers); inVec 2 (mma's two columns), outVec 4,
 *    pad 4: padded 32x68.  Store: v2 (8 bytes), lane t at row t/4, column
 *    2(t%4): a 16-lane phase covers rows 0..3, words 4 row + 0..7, banks 4..27
 *    twice: 2 wavefronts a phase, 4 an instruction (ideal 2); 32 registers /
 *    2 = 16 a warp, CTA 64 x 4 = 256, 128 over.  Load as A's: 8 a warp, 4.
 * E. blocked -> the same blocked: lanes and warps keep their elements, no
 *    shared memory. */
static void test_converts_legacy(void)
{
    int st;
    cJSON *j = ttgir_file("team_triton31_converts.mlir", -1, &st);
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(j, "converts");
    const cJSON *a = cJSON_GetArrayItem(cv, 0), *b = cJSON_GetArrayItem(cv, 1),
                *c = cJSON_GetArrayItem(cv, 2), *d = cJSON_GetArrayItem(cv, 3),
                *e = cJSON_GetArrayItem(cv, 4);
#define SIDE(o, k) cJSON_GetObjectItemCaseSensitive(o, k)
    const cJSON *as = SIDE(a, "scratch"), *cs = SIDE(c, "scratch"), *ds = SIDE(d, "scratch");
    CHECK(st == 200 && cJSON_GetArraySize(cv) == 5 && inum(a, "line") == 10 &&
              cJSON_IsTrue(SIDE(a, "through_shared")) && strcmp(sv(a, "triton"), "3.0/3.1") == 0 &&
              strstr(sv(a, "rule"), "getScratchConfigForCvt") &&
              inum(as, "pad_dim") == 1 && inum(as, "pad_elems") == 4 &&
              inum(as, "repetitions") == 1 && inum(a, "barriers") == 1 &&
              nth_num(SIDE(as, "padded_shape"), 1) == 68,
          "3.1 blocked -> transposed blocked: padded 64x68 scratch, one repetition: %d %d %s",
          st, cJSON_GetArraySize(cv), a ? sv(a, "triton") : "-");
    CHECK(legacy_side(SIDE(a, "store"), "st.shared.b32", 32, 8, 1, 1024, 896) &&
              legacy_side(SIDE(a, "load"), "ld.shared.v4.b32", 8, 4, 4, 128, 0),
          "3.1 A: inVec 1 != outVec 4: 32 st.shared.b32 at 8 wavefronts, 8 ld.v4 at 4");
    CHECK(legacy_side(SIDE(b, "store"), "st.shared.b32", 8, 1, 1, 32, 0) &&
              legacy_side(SIDE(b, "load"), "ld.shared.b32", 8, 1, 1, 32, 0) &&
              nth_num(SIDE(SIDE(b, "scratch"), "padded_shape"), 1) == 33,
          "3.1 B: a one-element pad (32x33) makes the column store conflict-free");
    CHECK(inum(cs, "repetitions") == 16 && inum(c, "barriers") == 31 &&
              inum(cs, "bytes") == 2176 &&
              nth_num(SIDE(cs, "rep_shape"), 0) == 8 &&
              legacy_side(SIDE(c, "store"), "st.shared.v4.b32", 16, 4, 4, 256, 0) &&
              legacy_side(SIDE(c, "load"), "ld.shared.b32", 64, 2, 1, 512, 256),
          "3.1 C: an 8x68 scratch in 16 repetitions, 31 barriers; the load 2-way: %ld %ld",
          inum(cs, "repetitions"), inum(c, "barriers"));
    CHECK(inum(ds, "repetitions") == 2 && inum(d, "barriers") == 3 &&
              legacy_side(SIDE(d, "store"), "st.shared.v2.b32", 16, 4, 2, 256, 128) &&
              legacy_side(SIDE(d, "load"), "ld.shared.v4.b32", 8, 4, 4, 128, 0),
          "3.1 D: mma -> blocked: v2 stores at 4 wavefronts (ideal 2), v4 loads");
    CHECK(cJSON_IsFalse(SIDE(e, "through_shared")) && strstr(sv(e, "reason"), "registers") &&
              !SIDE(e, "store"),
          "3.1 E: the same layout: registers only, no shared memory");
    cJSON_Delete(j);
    /* a dot operand is not a scratch conversion in 3.0/3.1: skipped, saying why */
    refused_saying("%1 = triton_gpu.convert_layout %0 : tensor<64x64xf16, #triton_gpu.blocked<{"
                   "sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order "
                   "= [1, 0]}>> -> tensor<64x64xf16, #triton_gpu.dot_op<{opIdx = 0, parent = "
                   "#triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, "
                   "2], instrShape = [16, 8]}>, kWidth = 2}>>\n", "dot_op: Triton 3.0/3.1",
                   "3.1 blocked -> dot_op alone: nothing to cost, naming the dot operand");
    /* F. slice{dim 1} of [1,1]/[32,1]/[1,4] -> slice{dim 0} of #blocked, 128
     *    f32: 1-D tiles 32 (lanes along dim 0, warps broadcast) and 64, rep
     *    64, 2 repetitions (3 barriers), rank 1: no pad, 256 bytes; inVec 1
     *    (the column layout's one element), outVec 4.  Store: lane t at
     *    element t (+32, mod 64): 32 consecutive words, 1 wavefront, 4 a warp
     *    (two 32-element tiles a repetition).  Load: v4 of elements 4(t%16)
     *    (lanes 16-31 the same), 4 wavefronts (the model's ideal for a v4),
     *    8 registers / 4 = 2 a warp. */
    j = ttgir("%1 = triton_gpu.convert_layout %0 : tensor<128xf32, #triton_gpu.slice<{dim = 1, "
              "parent = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
              "warpsPerCTA = [1, 4], order = [1, 0]}>}>> -> tensor<128xf32, #triton_gpu.slice<{"
              "dim = 0, parent = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
              "[2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>\n", &st);
    const cJSON *f = cJSON_GetArrayItem(SIDE(j, "converts"), 0), *fs = SIDE(f, "scratch");
    CHECK(st == 200 && inum(fs, "repetitions") == 2 && inum(fs, "pad_elems") == 0 &&
              inum(fs, "bytes") == 256 && inum(f, "barriers") == 3 &&
              legacy_side(SIDE(f, "store"), "st.shared.b32", 4, 1, 1, 16, 0) &&
              legacy_side(SIDE(f, "load"), "ld.shared.v4.b32", 2, 4, 4, 32, 0),
          "3.1 F: slice -> slice, 1-D: no pad, 2 repetitions: %d %ld", st,
          inum(fs, "repetitions"));
    cJSON_Delete(j);
    /* MMA -> MMA: the era's register shortcut is not modelled: said, not costed */
    refused_saying("%1 = triton_gpu.convert_layout %0 : tensor<64x64xf32, #triton_gpu.nvidia_mma<{"
                   "versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                   "8]}>> -> tensor<64x64xf32, #triton_gpu.nvidia_mma<{versionMajor = 2, "
                   "versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>\n",
                   "isMmaToMmaShortcut", "3.1 mma -> mma: not costed, naming the shortcut");
#undef SIDE
}

int main(void)
{
    test_triton_cases();
    test_linear_texts();
    test_algebra();
    test_errors();
    test_error_positions();
    aliases_dialects_and_larger_shapes();
    test_api();
    test_workbench();
    test_gluon_cases();
    test_dump();
    test_dump_target_cut();
    test_dump_alias_chain_cost();
    test_dump_alias_chain_work();
    test_thread_row();
    test_layout_forms();
    test_shared_cases_on_layout();
    test_nvmma_rank3_on_layout();
    test_shared_both_routes();
    test_fix();
    test_ldmatrix();
    test_stmatrix();
    test_units();
    test_parts();
    test_buffers();
    test_converts();
    test_converts_legacy();
    return check_summary("test_triton");
}
