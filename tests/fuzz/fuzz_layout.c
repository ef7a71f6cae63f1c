/* fuzz_layout.c - libFuzzer target for the layout parser: the input is
 * "ELEMENT_BITS SHAPE0 SHAPE1 SHAPE2\nTEXT" (a missing first line means CuTe
 * text at 16 bits); the text goes through lay_parse, and a parsed layout is
 * evaluated.  Beyond ASan and UBSan it checks the contract of layout.h:
 * errors name "layout" (with "at column N:" after the form it was read as,
 * N inside the text, and a
 * position, error.h's "at", that is byte N-1's: sz_text_pos), "shape" or
 * "element_bits"; a parsed layout has 1..2^20 elements, every offset below
 * 2^31 and aligned to its element.  Must not allocate per input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t offs[LAY_MAX_SIZE], srt[LAY_MAX_SIZE], tmp[LAY_MAX_SIZE];

static void check_error(const struct sz_error *err, size_t len, const char *src)
{
    int col = -1;
    int ok = err->code == SZ_INVALID_ARGUMENT || err->code == SZ_TOO_LARGE;
    /* the form it was read as comes first: "read as CuTe (...): at column N: ..." */
    const char *at = err->message;
    if (strncmp(at, "read as ", 8) == 0 && strstr(at, ": "))
        at = strstr(at, ": ") + 2;
    if (strcmp(err->field, "layout") == 0 && strncmp(at, "at column", 9) == 0) {
        ok &= sscanf(at, "at column %d:", &col) == 1 && col >= 1 &&
              (size_t)col <= len + 1;
        int line = 0, column = 0;
        if (ok)
            sz_text_pos(src, len, (size_t)col - 1, &line, &column);
        ok &= err->line == line && err->column == column;
    } else
        ok &= strcmp(err->field, "layout") == 0 || strcmp(err->field, "shape") == 0 ||
              strcmp(err->field, "element_bits") == 0;
    ok &= (err->line == 0) == (err->column == 0);
    for (const char *m = err->message; *m; m++)
        ok &= *m >= 0x20 && *m <= 0x7E;
    if (!ok) {
        fprintf(stderr, "fuzz_layout: bad error for \"%s\": code %d field '%s' \"%s\" at %d:%d\n",
                src, err->code, err->field, err->message, err->line, err->column);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char src[LAY_MAX_TEXT + 64];
    size_t n = size < sizeof src - 1 ? size : sizeof src - 1;
    memcpy(src, data, n);
    src[n] = '\0';
    int bits = 0, rank = 0;
    uint32_t shape[3] = {0, 0, 0};
    char *text = src;
    char *nl = strchr(src, '\n');
    if (nl) {
        *nl = '\0';
        unsigned b = 0, s[3] = {0, 0, 0};
        int k = sscanf(src, "%u %u %u %u", &b, &s[0], &s[1], &s[2]);
        bits = k >= 1 ? (int)(b % 128) : 0;
        for (int d = 0; d + 1 < k && d < 3; d++)
            shape[rank++] = s[d] % (1u << 21);
        text = nl + 1;
    }
    size_t len = strlen(text);
    struct lay l;
    struct sz_error err = {0};
    if (lay_parse(text, bits, shape, rank, &l, &err) < 0) {
        check_error(&err, len, text);
        return 0;
    }
    if (l.size < 1 || l.size > LAY_MAX_SIZE || l.rank < 1 || l.rank > LAY_MAX_RANK)
        abort();
    lay_eval(&l, offs);
    uint32_t eb = (uint32_t)l.element_bits / 8;
    for (uint32_t i = 0; i < l.size; i++)
        if (offs[i] >= 0x80000000u || offs[i] % eb) {
            fprintf(stderr, "fuzz_layout: \"%s\" index %u at %u\n", text, i, offs[i]);
            abort();
        }
    lay_sort(offs, l.size, srt, tmp);
    for (uint32_t i = 1; i < l.size; i++)
        if (srt[i] < srt[i - 1])
            abort();
    struct swz zb, ze;
    int ok;
    lay_swizzles(&l, &zb, &ze, &ok);
    return 0;
}
