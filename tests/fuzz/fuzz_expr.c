/* fuzz_expr.c - libFuzzer target for the expression language: the input is
 * the source text (up to its first NUL), compiled and then evaluated on every
 * lane at a few steps with a swizzle callback that can fail.  Beyond ASan and
 * UBSan it checks the contract of expr.h: errors carry field "expr" and
 * "at column N:" with N inside the text (and a position, "at", that is N's),
 * messages are printable ASCII, and a compiled program stays within its
 * limits.  Must not allocate per input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Swizzle<3,4,3> on [0, 2^31); anything else fails, like the real callback. */
static int dummy_swz(void *ctx, int64_t x, int64_t *out, struct sz_error *err)
{
    (*(int *)ctx)++;
    if (x < 0 || x >= ((int64_t)1 << 31))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offset", "outside 0..2^31-1");
    *out = x ^ ((x >> 3) & 0x70);
    return 0;
}

static void check_error(const struct sz_error *err, size_t len, const char *src)
{
    int col = -1;
    if (err->code != SZ_INVALID_ARGUMENT || strcmp(err->field, "expr") != 0 ||
        sscanf(err->message, "at column %d:", &col) != 1 || col < 1 ||
        (size_t)col > len + 1 || (err->line == 0) != (err->column == 0)) {
        fprintf(stderr, "fuzz_expr: bad error for \"%s\": code %d field '%s' \"%s\"\n",
                src, err->code, err->field, err->message);
        abort();
    }
    /* its position ("at") is the message's column's */
    int line = 0, column = 0;
    sz_text_pos(src, len, (size_t)col - 1, &line, &column);
    if (err->line != line || err->column != column) {
        fprintf(stderr, "fuzz_expr: \"%s\": at %d:%d, but column %d is %d:%d\n", src, err->line,
                err->column, col, line, column);
        abort();
    }
    for (const char *m = err->message; *m; m++)
        if (*m < 0x20 || *m > 0x7E) {
            fprintf(stderr, "fuzz_expr: non-printable byte in \"%s\"\n", err->message);
            abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char src[EXPR_MAX_LEN + 64];
    static struct expr e;
    /* Longer inputs only test the length check; keep them cheap. */
    size_t n = size < sizeof src - 1 ? size : sizeof src - 1;
    memcpy(src, data, n);
    src[n] = '\0';
    size_t len = strlen(src);
    struct sz_error err = {0};
    if (expr_compile(src, &e, &err) < 0) {
        check_error(&err, len > EXPR_MAX_LEN ? EXPR_MAX_LEN : len, src);
        return 0;
    }
    if (e.n == 0 || e.n > EXPR_MAX_NODES || e.max_stack == 0 || e.max_stack > e.n) {
        fprintf(stderr, "fuzz_expr: \"%s\" compiled to n=%u max_stack=%u\n", src,
                e.n, e.max_stack);
        abort();
    }
    static const int64_t steps[] = {0, 1, 7, -1, INT64_MAX};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        for (int64_t t = 0; t < 32; t++) {
            int64_t v, v2;
            int calls = 0;
            int rc = expr_eval(&e, t, steps[k], dummy_swz, &calls, &v, &err);
            if (rc < 0) {
                check_error(&err, len, src);
                break;      /* the rest of the warp would fail the same way, mostly */
            }
            if ((e.uses & EXPR_USES_SWZ) == 0 && calls != 0)
                abort();
            /* Pure: the same inputs give the same value. */
            if (expr_eval(&e, t, steps[k], dummy_swz, &calls, &v2, &err) < 0 || v2 != v)
                abort();
        }
    }
    /* Without a swizzle, swz() is an error and nothing else changes. */
    int64_t v;
    if (expr_eval(&e, 0, 0, NULL, NULL, &v, &err) < 0)
        check_error(&err, len, src);
    else if (e.uses & EXPR_USES_SWZ)
        abort();
    return 0;
}
