/* utf8_check.h - RFC 3629 UTF-8 validity for the tests and fuzzers that check
 * the API's promise that every answer is UTF-8, written apart from the
 * server's own check (api_read.c) on purpose.  Header-only, C11. */
#ifndef SZ_UTF8_CHECK_H
#define SZ_UTF8_CHECK_H

#include <stddef.h>

/* 1 when s[0..n) is valid UTF-8: no overlongs, surrogates or values past U+10FFFF. */
static int utf8_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        int extra = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2
                  : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
        if (extra < 0 || i + (size_t)extra >= n)
            return 0;
        unsigned lo = 0x80, hi = 0xBF;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
        for (int k = 1; k <= extra; k++) {
            unsigned d = s[i + (size_t)k];
            if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF))
                return 0;
        }
        i += (size_t)extra + 1;
    }
    return 1;
}

#endif
