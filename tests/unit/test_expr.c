/* test_expr.c - the access-pattern expression language: a table of expressions
 * with per-lane values derived by hand, every error with its column, the limits
 * at and one past their edge, and a differential test of random expression
 * trees against a tree-walking __int128 reference that shares no code with
 * expr.c's parser or stack machine. */
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "check.h"

/* The test's swz(): CuTe Swizzle<3,4,3> on byte offsets in [0, 2^31), the
 * 128B preset: bits 7..9 (the row in an 8-row tile) XORed into bits 4..6. */
static int swz343(void *ctx, int64_t x, int64_t *out, struct sz_error *err)
{
    (void)ctx;
    if (x < 0 || x >= ((int64_t)1 << 31))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offset", "must be in 0..2^31-1");
    *out = x ^ ((x >> 3) & 0x70);
    return 0;
}

/* Column N of "at column N: ...", or -1. */
static int column_of(const struct sz_error *err)
{
    int col = -1;
    if (sscanf(err->message, "at column %d:", &col) != 1)
        return -1;
    return col;
}

#define ALL(v) {v}, 1   /* the same value in every lane */
#define LANES(...) {__VA_ARGS__}, 32

static const struct value_case {
    const char *src;
    int64_t r;
    int64_t want[32];
    int nwant;          /* 1: want[0] in every lane; 32: one per lane */
} values[] = {
    /* precedence and associativity, C's */
    {"1 + 2 * 3", 0, ALL(7)},
    {"(1 + 2) * 3", 0, ALL(9)},
    {"1 << 2 + 1", 0, ALL(8)},              /* + binds tighter than << */
    {"1 | 2 ^ 3 & 6", 0, ALL(1)},           /* 3&6 = 2, 2^2 = 0, 1|0 = 1 */
    {"6 & 3 ^ 1 | 8", 0, ALL(11)},          /* (6&3) = 2, 2^1 = 3, 3|8 = 11 */
    {"10 - 4 - 3", 0, ALL(3)},              /* (10-4)-3, not 10-(4-3) = 9 */
    {"100 / 10 / 5", 0, ALL(2)},
    {"2 * 3 % 4", 0, ALL(2)},               /* (2*3)%4, not 2*(3%4) = 6 */
    {"256 >> 2 >> 1", 0, ALL(32)},
    {"-2 * 3", 0, ALL(-6)},                 /* unary binds tighter than binary */
    {"2*-3", 0, ALL(-6)},
    {"- -3", 0, ALL(3)},
    {"--3", 0, ALL(3)},                     /* no decrement operator: two negations */
    {"-~0", 0, ALL(1)},
    {"~-1", 0, ALL(0)},
    {"~0", 0, ALL(-1)},
    /* C division and modulo truncate toward zero */
    {"7 / -2", 0, ALL(-3)},
    {"-7 / 2", 0, ALL(-3)},
    {"-7 % 2", 0, ALL(-1)},
    {"7 % -2", 0, ALL(1)},
    /* shifts: << is * 2^n, >> is floor(/ 2^n) */
    {"-1 >> 1", 0, ALL(-1)},
    {"-8 >> 2", 0, ALL(-2)},
    {"-7 >> 1", 0, ALL(-4)},                /* floor(-3.5) */
    {"-1 << 3", 0, ALL(-8)},
    {"1 << 62", 0, ALL(INT64_C(4611686018427387904))},
    {"-2 << 62", 0, ALL(INT64_MIN)},        /* exactly -2^63: no overflow */
    {"5 >> 62", 0, ALL(0)},
    /* literals */
    {"0x10 + 0b101 + 0", 0, ALL(21)},
    {"0XfF", 0, ALL(255)},
    {"9223372036854775807", 0, ALL(INT64_MAX)},
    {"0x7fffffffffffffff", 0, ALL(INT64_MAX)},
    {"-9223372036854775807 - 1", 0, ALL(INT64_MIN)},
    {"(-9223372036854775807 - 1) % -1", 0, ALL(0)},   /* C leaves this undefined */
    {"(-9223372036854775807 - 1) / 1", 0, ALL(INT64_MIN)},
    {"  t\t*\n2\r ", 0, LANES(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                              32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60,
                              62)},
    /* variables and functions */
    {"r * 32 + t", 2, LANES(64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
                            80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95)},
    {"~t", 0, LANES(-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16,
                    -17, -18, -19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30,
                    -31, -32)},
    {"min(t, 5)", 0, LANES(0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                           5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5)},
    {"max(t - 30, 0)", 0, LANES(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)},
    /* t/8 + t%8*4 is (t/8) + ((t%8)*4): lane t -> 4*(t%8) + t/8 */
    {"t/8 + t%8*4", 0, LANES(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29,
                             2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31)},
    /* Swizzle<3,4,3> is an involution: swz(swz(x)) == x */
    {"swz(swz(t*16))", 0, LANES(0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192,
                                208, 224, 240, 256, 272, 288, 304, 320, 336, 352, 368, 384,
                                400, 416, 432, 448, 464, 480, 496)},
    /* The brief's first pattern, r = 0.  u = t%16, h = t/16:
     * 4 * (32u + (h ^ u)).  h = 0: 4 * 33u = 132u.
     * h = 1: u=0 -> 4*(0+1) = 4, u=1 -> 4*(32+0) = 128, u=2 -> 4*(64+3) = 268,
     * u=3 -> 4*(96+2) = 392, u=4 -> 4*(128+5) = 532, u=5 -> 4*(160+4) = 656,
     * u=6 -> 4*(192+7) = 796, u=7 -> 4*(224+6) = 920, u=8 -> 4*(256+9) = 1060,
     * u=9 -> 4*(288+8) = 1184, u=10 -> 4*(320+11) = 1324, u=11 -> 4*(352+10) = 1448,
     * u=12 -> 4*(384+13) = 1588, u=13 -> 4*(416+12) = 1712,
     * u=14 -> 4*(448+15) = 1852, u=15 -> 4*(480+14) = 1976. */
    {"4 * (32 * (t % 16) + ((2*r + t/16) ^ (t % 16)))", 0,
     LANES(0, 132, 264, 396, 528, 660, 792, 924, 1056, 1188, 1320, 1452, 1584, 1716, 1848,
           1980, 4, 128, 268, 392, 532, 656, 796, 920, 1060, 1184, 1324, 1448, 1588, 1712,
           1852, 1976)},
    /* Same at r = 1: h' = 2 + h.  h = 0: 4*(32u + (2^u)): u=0 -> 8, u=1 -> 4*(32+3) = 140,
     * u=2 -> 4*(64+0) = 256, u=3 -> 4*(96+1) = 388, then +4*32 = +128 per u with
     * 2^u = 6,7,4,5,10,11,8,9,14,15,12,13 for u = 4..15.  h = 1: 3^u = 3,2,1,0,7,6,5,4,
     * 11,10,9,8,15,14,13,12. */
    {"4 * (32 * (t % 16) + ((2*r + t/16) ^ (t % 16)))", 1,
     LANES(8, 140, 256, 388, 536, 668, 784, 916, 1064, 1196, 1312, 1444, 1592, 1724, 1840,
           1972, 12, 136, 260, 384, 540, 664, 788, 912, 1068, 1192, 1316, 1440, 1596, 1720,
           1844, 1968)},
    /* ldmatrix on a 128B-swizzled tile: lane t reads row t%8, 16-byte chunk t/8.
     * Before the swizzle: 128*row + 16*chunk.  Swizzle<3,4,3> XORs the row into
     * the chunk: 128*row + 16*(chunk ^ row).
     * chunk 0: row*144 = 0,144,288,432,576,720,864,1008
     * chunk 1: 16,128,304,416,592,704,880,992   (chunk^row = 1,0,3,2,5,4,7,6)
     * chunk 2: 32,176,256,400,608,752,832,976   (2,3,0,1,6,7,4,5)
     * chunk 3: 48,160,272,384,624,736,848,960   (3,2,1,0,7,6,5,4) */
    {"swz(128*(t%8) + 16*(t/8))", 0,
     LANES(0, 144, 288, 432, 576, 720, 864, 1008, 16, 128, 304, 416, 592, 704, 880, 992,
           32, 176, 256, 400, 608, 752, 832, 976, 48, 160, 272, 384, 624, 736, 848, 960)},
};

static void test_values(void)
{
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const struct value_case *c = &values[i];
        struct expr e;
        struct sz_error err = {0};
        int64_t got[32];
        int rc = expr_compile(c->src, &e, &err);
        CHECK(rc == 0, "compile \"%s\": %s", c->src, err.message);
        if (rc != 0)
            continue;
        rc = expr_eval_warp(&e, c->r, swz343, NULL, got, &err);
        CHECK(rc == 0, "eval \"%s\": %s", c->src, err.message);
        if (rc != 0)
            continue;
        int bad = -1;
        for (int t = 0; t < 32 && bad < 0; t++)
            if (got[t] != c->want[c->nwant == 1 ? 0 : t])
                bad = t;
        CHECK(bad < 0, "\"%s\" r=%lld lane %d: got %lld, want %lld", c->src,
              (long long)c->r, bad, (long long)got[bad < 0 ? 0 : bad],
              (long long)c->want[c->nwant == 1 || bad < 0 ? 0 : bad]);
    }
}

/* ---- errors -------------------------------------------------------------- */

static const struct compile_error_case {
    const char *src;
    int col;
    const char *want;   /* substring of the message */
} compile_errors[] = {
    {"", 1, "empty expression"},
    {"   ", 4, "empty expression"},
    {"1 +", 4, "got the end"},
    {"(1 + 2", 7, "expected ')' to match '(' at column 1"},
    {"1 + 2)", 6, "unmatched ')'"},
    {")", 1, "got ')'"},
    {"2 3", 3, "expected an operator, got '3'"},
    {"t + x", 5, "unknown name 'x'"},
    {"t + threadIdx", 5, "unknown name 'threadIdx'"},
    {"012", 1, "no octal"},
    {"0x", 1, "malformed number"},
    {"0xg1", 1, "malformed number"},
    {"1 + 12t", 5, "malformed number"},
    {"0b102", 1, "malformed number"},
    {"9223372036854775808", 1, "above 2^63 - 1"},
    {"0x8000000000000000", 1, "above 2^63 - 1"},
    {"-9223372036854775808", 2, "above 2^63 - 1"},
    {"1 < 2", 3, "comparisons are not supported"},
    {"1 >= 2", 3, "comparisons"},
    {"1 $ 2", 3, "unexpected character '$'"},
    {"1 + \xc3\xa9", 5, "unexpected byte 0xc3"},     /* never echoes non-ASCII */
    {"1 +\x01", 4, "unexpected byte 0x01"},
    {"swz 1", 5, "expected '(' after swz, got '1'"},
    {"swz(1, 2)", 6, "swz takes one argument"},
    {"min(1)", 6, "two arguments"},
    {"min(1,2,3)", 8, "expected ')' to match '(' at column 4, got ','"},
    {"max()", 5, "got ')'"},
    {"min", 4, "expected '(' after min, got the end"},
    {"t r", 3, "expected an operator, got 'r'"},
    {"1 ** 2", 4, "got '*'"},
    {"t(1)", 2, "expected an operator"},
};

static void test_compile_errors(void)
{
    for (size_t i = 0; i < sizeof compile_errors / sizeof compile_errors[0]; i++) {
        const struct compile_error_case *c = &compile_errors[i];
        struct expr e;
        struct sz_error err = {0};
        int rc = expr_compile(c->src, &e, &err);
        CHECK(rc == -1, "\"%s\" compiled", c->src);
        CHECK(err.code == SZ_INVALID_ARGUMENT && strcmp(err.field, "expr") == 0,
              "\"%s\": code %d field '%s'", c->src, err.code, err.field);
        CHECK(column_of(&err) == c->col, "\"%s\": column %d, want %d (%s)", c->src,
              column_of(&err), c->col, err.message);
        CHECK(strstr(err.message, c->want) != NULL, "\"%s\": message \"%s\" lacks \"%s\"",
              c->src, err.message, c->want);
        /* A failed compile leaves nothing that evaluates. */
        int64_t v;
        struct sz_error err2 = {0};
        CHECK(e.n == 0 && expr_eval(&e, 0, 0, NULL, NULL, &v, &err2) == -1 &&
              err2.code == SZ_INTERNAL, "\"%s\": half-built program evaluated", c->src);
    }
}

static const struct eval_error_case {
    const char *src;
    int use_swz;
    int t;              /* first lane that fails */
    int col;
    const char *want;
} eval_errors[] = {
    {"1 / (t - 3)", 1, 3, 3, "division by zero (t=3, r=0)"},
    {"t % (t - 31)", 1, 31, 3, "modulo by zero (t=31, r=0)"},
    {"1 << 63", 1, 0, 3, "shift count 63 is outside 0..62"},
    {"1 << t - 1", 1, 0, 3, "shift count -1 is outside"},
    {"1 >> (t + 40)", 1, 23, 3, "shift count 63"},
    {"3 << 62", 1, 0, 3, "'<<' overflows"},
    {"-3 << 62", 1, 0, 4, "'<<' overflows"},
    {"9223372036854775807 + t", 1, 1, 21, "'+' overflows"},
    {"-9223372036854775807 - 2", 1, 0, 22, "'-' overflows"},
    {"-(-9223372036854775807 - 1)", 1, 0, 1, "'-' overflows"},
    {"(-9223372036854775807 - 1) / -1", 1, 0, 28, "'/' overflows"},
    {"4611686018427387904 * 2", 1, 0, 21, "'*' overflows"},
    {"t * 0x400000000000000", 1, 32, 0, NULL},  /* 31 * 2^58 fits: no error */
    {"(t + 1) * 0x400000000000000", 1, 31, 9, "'*' overflows 64 bits (t=31"},  /* 2^5 * 2^58 */
    {"swz(t - 1)", 1, 0, 1, "swz(-1): must be in 0..2^31-1 (t=0, r=0)"},
    {"1 + swz(0x7fffffff + t)", 1, 1, 5, "swz(2147483648)"},
    {"swz(t)", 0, 0, 1, "swz() needs a swizzle"},
    {"min(t, 1 / 0)", 1, 0, 10, "division by zero"},
};

static void test_eval_errors(void)
{
    for (size_t i = 0; i < sizeof eval_errors / sizeof eval_errors[0]; i++) {
        const struct eval_error_case *c = &eval_errors[i];
        struct expr e;
        struct sz_error err = {0};
        int rc = expr_compile(c->src, &e, &err);
        CHECK(rc == 0, "compile \"%s\": %s", c->src, err.message);
        if (rc != 0)
            continue;
        int t;
        int64_t v;
        for (t = 0; t < 32; t++)
            if (expr_eval(&e, t, 0, c->use_swz ? swz343 : NULL, NULL, &v, &err) < 0)
                break;
        CHECK(t == c->t, "\"%s\": first failing lane %d, want %d (%s)", c->src, t, c->t,
              err.message);
        if (c->want == NULL || t == 32)
            continue;
        CHECK(err.code == SZ_INVALID_ARGUMENT && strcmp(err.field, "expr") == 0,
              "\"%s\": code %d field '%s'", c->src, err.code, err.field);
        CHECK(column_of(&err) == c->col, "\"%s\": column %d, want %d (%s)", c->src,
              column_of(&err), c->col, err.message);
        CHECK(strstr(err.message, c->want) != NULL, "\"%s\": message \"%s\" lacks \"%s\"",
              c->src, err.message, c->want);
    }
}

/* ---- limits, at the edge and one past it ---------------------------------- */

static int compile_str(const char *src, struct expr *e, struct sz_error *err)
{
    memset(err, 0, sizeof *err);
    return expr_compile(src, e, err);
}

static void test_limits(void)
{
    char s[2048];
    struct expr e;
    struct sz_error err;
    int64_t v;

    /* 32 nested parentheses compile; the 33rd '(' (column 33) is refused. */
    for (int depth = 32; depth <= 33; depth++) {
        int n = 0;
        for (int i = 0; i < depth; i++)
            s[n++] = '(';
        s[n++] = '7';
        for (int i = 0; i < depth; i++)
            s[n++] = ')';
        s[n] = '\0';
        int rc = compile_str(s, &e, &err);
        if (depth == 32)
            CHECK(rc == 0 && expr_eval(&e, 0, 0, NULL, NULL, &v, &err) == 0 && v == 7,
                  "32 parentheses: %s", err.message);
        else
            CHECK(rc == -1 && column_of(&err) == 33 && strstr(err.message, "deeper"),
                  "33 parentheses: %s", err.message);
    }
    /* Unary operators nest too: 32 minus signs are 7, the 33rd is refused. */
    for (int depth = 32; depth <= 33; depth++) {
        memset(s, '-', (size_t)depth);
        strcpy(s + depth, "7");
        int rc = compile_str(s, &e, &err);
        if (depth == 32)
            CHECK(rc == 0 && expr_eval(&e, 0, 0, NULL, NULL, &v, &err) == 0 && v == 7,
                  "32 minus signs: %s", err.message);
        else
            CHECK(rc == -1 && column_of(&err) == 33, "33 minus signs: %s", err.message);
    }
    /* Calls count: 16 min( inside 16 ( is 32 deep. */
    {
        int n = 0;
        for (int i = 0; i < 16; i++)
            n += sprintf(s + n, "(min(%d,", i);
        n += sprintf(s + n, "1");
        for (int i = 0; i < 16; i++)
            n += sprintf(s + n, "))");
        CHECK(compile_str(s, &e, &err) == 0 && expr_eval(&e, 0, 0, NULL, NULL, &v, &err) == 0
              && v == 0, "16 x (min(: %s", err.message);
    }
    /* 512 characters compile, 513 do not (column 513). */
    /* "1+", 509 spaces, "2" */
    memset(s, ' ', 511);
    memcpy(s, "1+", 2);
    strcpy(s + 511, "2");
    CHECK(strlen(s) == 512 && compile_str(s, &e, &err) == 0 &&
          expr_eval(&e, 0, 0, NULL, NULL, &v, &err) == 0 && v == 3, "512 chars: %s",
          err.message);
    strcat(s, " ");
    CHECK(compile_str(s, &e, &err) == -1 && column_of(&err) == 513 &&
          strstr(err.message, "longer than 512"), "513 chars: %s", err.message);
    /* "~1+1+...+1" with 127 '+' is 256 nodes: -2 + 127 = 125.  "1+1+...+1" with
     * 128 '+' is 257; the 257th node is the 128th '+', at column 256. */
    {
        int n = sprintf(s, "~1");
        for (int i = 0; i < 127; i++)
            n += sprintf(s + n, "+1");
        CHECK(compile_str(s, &e, &err) == 0 && e.n == 256 &&
              expr_eval(&e, 0, 0, NULL, NULL, &v, &err) == 0 && v == 125,
              "256 nodes: n=%d %s", e.n, err.message);
        n = sprintf(s, "1");
        for (int i = 0; i < 128; i++)
            n += sprintf(s + n, "+1");
        CHECK(compile_str(s, &e, &err) == -1 && column_of(&err) == 256 &&
              strstr(err.message, "more than 256"), "257 nodes: %s", err.message);
    }
    CHECK(compile_str(NULL, &e, &err) == -1 && strcmp(err.field, "expr") == 0,
          "NULL source");
    /* uses and stack depth: "1 + (2 * (3 - t))" pushes 1, 2, 3, t before folding. */
    CHECK(compile_str("1 + (2 * (3 - t))", &e, &err) == 0 && e.max_stack == 4 &&
          e.uses == EXPR_USES_T, "max_stack %d uses %u", e.max_stack, e.uses);
    CHECK(compile_str("swz(r)", &e, &err) == 0 && e.uses == (EXPR_USES_R | EXPR_USES_SWZ),
          "uses %u", e.uses);
    /* A NULL err is allowed everywhere. */
    CHECK(expr_compile("1 +", &e, NULL) == -1, "NULL err");
    CHECK(expr_compile("1/t", &e, NULL) == 0 && expr_eval(&e, 0, 0, NULL, NULL, &v, NULL) == -1,
          "NULL err at eval");
}

/* ---- differential: random trees against an __int128 reference ------------- */

__extension__ typedef __int128 i128;

/* A tree node; kind is a character for operators: 'n' literal, 't', 'r',
 * 'N' negate, '~', 's' swz, 'm' min, 'M' max, and the binary operators as
 * themselves ('<' is <<, '>' is >>). */
struct node {
    char kind;
    int64_t v;
    int a, b;       /* children */
    int col;        /* where its operator or name was printed, 1-based */
};

#define TREE_MAX 600
static struct node tree[TREE_MAX];
static int ntree;

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)   /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}
static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }

static int64_t rnd_literal(void)
{
    switch (rndn(10)) {
    case 0: return (int64_t)(rnd() >> 1);                       /* any non-negative */
    case 1: return INT64_MAX - rndn(4);
    case 2: case 3: return (int64_t)1 << rndn(63);
    case 4: return ((int64_t)1 << rndn(63)) - 1;
    default: return rndn(70);
    }
}

static int gen(int depth)
{
    int i = ntree++;
    struct node *nd = &tree[i];
    nd->a = nd->b = -1;
    int leaf = depth == 0 || rndn(4) == 0;
    if (leaf) {
        static const char leaves[] = "nnnttr";
        nd->kind = leaves[rndn(6)];
        nd->v = nd->kind == 'n' ? rnd_literal() : 0;
        return i;
    }
    static const char kinds[] = "N~smM*/%+-<>&^|*+-&^|<>";
    char k = kinds[rndn((int)sizeof kinds - 1)];
    nd->kind = k;
    int a = gen(depth - 1);
    tree[i].a = a;
    if (k != 'N' && k != '~' && k != 's') {
        int b = gen(depth - 1);
        tree[i].b = b;
    }
    return i;
}

static int prec(char k)   /* higher binds tighter; operands and calls are 7 */
{
    switch (k) {
    case '*': case '/': case '%': return 5;
    case '+': case '-': return 4;
    case '<': case '>': return 3;
    case '&': return 2;
    case '^': return 1;
    case '|': return 0;
    case 'N': case '~': return 6;
    default: return 7;
    }
}

static char text[4096];
static int textn;

static void put(const char *s)
{
    while (*s && textn < (int)sizeof text - 1)
        text[textn++] = *s++;
    text[textn] = '\0';
}

static void space(void)
{
    static const char *const sp[] = {"", "", "", " ", " ", "  ", "\t", "\n"};
    put(sp[rndn(8)]);
}

/* Print with only the parentheses C's precedence needs, plus a few spare
 * ones, so that the parser must get precedence right on its own. */
static void print(int i, int need_parens)
{
    struct node *nd = &tree[i];
    int paren = need_parens || rndn(12) == 0;
    char buf[80];
    if (paren)
        put("(");
    space();
    switch (nd->kind) {
    case 'n':
        nd->col = textn + 1;
        switch (rndn(3)) {
        case 0: snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)nd->v); break;
        default: snprintf(buf, sizeof buf, "%lld", (long long)nd->v); break;
        }
        put(buf);
        break;
    case 't': nd->col = textn + 1; put("t"); break;
    case 'r': nd->col = textn + 1; put("r"); break;
    case 'N': case '~':
        nd->col = textn + 1;
        put(nd->kind == 'N' ? "-" : "~");
        space();
        print(nd->a, prec(tree[nd->a].kind) < 6);
        break;
    case 's': case 'm': case 'M':
        nd->col = textn + 1;
        put(nd->kind == 's' ? "swz(" : nd->kind == 'm' ? "min(" : "max(");
        print(nd->a, 0);
        if (nd->kind != 's') {
            put(",");
            print(nd->b, 0);
        }
        put(")");
        break;
    default: {
        int p = prec(nd->kind);
        print(nd->a, prec(tree[nd->a].kind) < p);
        space();
        nd->col = textn + 1;
        buf[0] = nd->kind;
        buf[1] = nd->kind == '<' || nd->kind == '>' ? nd->kind : '\0';
        buf[2] = '\0';
        put(buf);
        space();
        print(nd->b, prec(tree[nd->b].kind) <= p);     /* left-associative */
    }
    }
    space();
    if (paren)
        put(")");
}

/* The reference: recursion on the tree, arithmetic in 128 bits, and each
 * rule written from the definition (floor for >>, -a-1 for ~).  Returns 0, or
 * the column of the first failing node in evaluation order (left to right,
 * children before their operator). */
static int ref_fits(i128 x) { return x >= INT64_MIN && x <= INT64_MAX; }

static int ref_eval(int i, int64_t t, int64_t r, i128 *res)
{
    const struct node *nd = &tree[i];
    i128 a = 0, b = 0;
    int e;
    if (nd->a >= 0 && (e = ref_eval(nd->a, t, r, &a)) != 0)
        return e;
    if (nd->b >= 0 && (e = ref_eval(nd->b, t, r, &b)) != 0)
        return e;
    i128 x;
    switch (nd->kind) {
    case 'n': x = nd->v; break;
    case 't': x = t; break;
    case 'r': x = r; break;
    case 'N': x = -a; break;
    case '~': x = -a - 1; break;
    case 's': {
        if (a < 0 || a >= ((i128)1 << 31))
            return nd->col;
        int64_t o = (int64_t)a, row = (o >> 7) & 7;
        x = o ^ (row << 4);
        break;
    }
    case 'm': x = a < b ? a : b; break;
    case 'M': x = a > b ? a : b; break;
    case '*': x = a * b; break;
    case '+': x = a + b; break;
    case '-': x = a - b; break;
    case '/': if (b == 0) return nd->col; x = a / b; break;
    case '%': if (b == 0) return nd->col; x = a % b; break;
    case '<':
    case '>': {
        if (b < 0 || b > 62)
            return nd->col;
        i128 d = (i128)1 << (int)b;
        if (nd->kind == '<') {
            x = a * d;
        } else {
            x = a / d;
            if (a % d != 0 && a < 0)
                x -= 1;
        }
        break;
    }
    case '&': x = (int64_t)((uint64_t)(int64_t)a & (uint64_t)(int64_t)b); break;
    case '^': x = (int64_t)((uint64_t)(int64_t)a ^ (uint64_t)(int64_t)b); break;
    case '|': x = (int64_t)((uint64_t)(int64_t)a | (uint64_t)(int64_t)b); break;
    default: return -1;
    }
    if (!ref_fits(x))
        return nd->col;
    *res = x;
    return 0;
}

static void test_differential(void)
{
    int failures = 0, ok = 0, errs = 0, skipped = 0, trees = 0;
    for (int iter = 0; iter < 20000; iter++) {
        ntree = 0;
        /* depth 7: at most 255 nodes and 7 nesting levels, inside the limits */
        int root = gen(1 + rndn(7));
        textn = 0;
        text[0] = '\0';
        print(root, 0);
        if (textn > EXPR_MAX_LEN) {
            skipped++;
            continue;
        }
        trees++;
        struct expr e;
        struct sz_error err = {0};
        if (expr_compile(text, &e, &err) < 0) {
            CHECK_QUIET(failures, 0, "random \"%s\" did not compile: %s", text, err.message);
            continue;
        }
        static const int64_t ts[] = {0, 5, 31}, rs[] = {0, 3};
        for (int k = 0; k < 6; k++) {
            int64_t t = ts[k % 3], r = rs[k / 3], got = 0;
            i128 want = 0;
            int want_col = ref_eval(root, t, r, &want);
            int rc = expr_eval(&e, t, r, swz343, NULL, &got, &err);
            if (want_col == 0) {
                ok++;
                CHECK_QUIET(failures, rc == 0 && got == (int64_t)want,
                            "\"%s\" t=%lld r=%lld: got %lld (%s), want %lld", text,
                            (long long)t, (long long)r, (long long)got,
                            rc ? err.message : "ok", (long long)want);
            } else {
                errs++;
                CHECK_QUIET(failures, rc == -1 && column_of(&err) == want_col,
                            "\"%s\" t=%lld r=%lld: rc %d (%s), want an error at column %d",
                            text, (long long)t, (long long)r, rc, rc ? err.message : "ok",
                            want_col);
            }
        }
    }
    /* Both outcomes must be well represented, or the test proves little. */
    CHECK(failures == 0, "%d of the random evaluations disagreed", failures);
    CHECK(ok > 20000 && errs > 5000, "random trees: %d values, %d errors", ok, errs);
    printf("differential: %d trees (%d over 512 chars skipped), %d values, %d errors\n",
           trees, skipped, ok, errs);
}

/* Issue 37: a compile error carries its position (err.line, err.column), on
 * the second line of a multi-line expression; the one text-position function
 * counts a column in characters, a line from each '\n'. */
static void test_error_positions(void)
{
    struct expr e;
    struct sz_error err = {0};
    CHECK(expr_compile("t * 2\n  + (r $ 3)", &e, &err) < 0 && err.line == 2 && err.column == 8,
          "'$' on line 2 is at 2:8, got %d:%d (%s)", err.line, err.column, err.message);
    CHECK(expr_compile("(t +\n r", &e, &err) < 0 && err.line == 2 && err.column == 3,
          "the missing ')' is at 2:3, got %d:%d (%s)", err.line, err.column, err.message);
    /* an evaluation error points at its operator */
    int64_t v;
    CHECK(expr_compile("t +\n  (r / 0)", &e, &err) == 0 &&
              expr_eval(&e, 1, 2, NULL, NULL, &v, &err) < 0 && err.line == 2 && err.column == 6,
          "'/ 0' on line 2 is at 2:6, got %d:%d (%s)", err.line, err.column, err.message);
    int line, col;
    sz_text_pos("ab\n\xc3\xa9x\xe2\x82\xacy", SIZE_MAX, 9, &line, &col);
    CHECK(line == 2 && col == 4, "'y' after two 2- and 3-byte characters is at 2:4, got %d:%d",
          line, col);
    sz_text_pos("ab\ncd", 4, 99, &line, &col);
    CHECK(line == 2 && col == 2, "an offset past the end is the end, got %d:%d", line, col);
    sz_fail(&err, SZ_INVALID_ARGUMENT, "expr", "x");
    CHECK(err.line == 0 && err.column == 0, "sz_fail clears the position");
}

int main(void)
{
    test_values();
    test_compile_errors();
    test_error_positions();
    test_eval_errors();
    test_limits();
    test_differential();
    return check_summary("test_expr");
}
