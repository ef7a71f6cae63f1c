/* buf.c - growable byte buffer and number writers for responses.  No JSON
 * structure here (that is api.c's); no I/O; out of memory is a flag, not an exit. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(struct buf *b, size_t need)
{
    if (b->oom)
        return -1;
    if (b->len + need + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + need + 1) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;   /* doubling keeps appends amortized O(1) */
    }
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

int buf_reserve(struct buf *b, size_t n)
{
    if (b->oom || n > SIZE_MAX - b->len - 1) {
        b->oom = 1;
        return -1;
    }
    if (b->len + n + 1 <= b->cap)
        return 0;
    char *p = realloc(b->p, b->len + n + 1);
    if (p == NULL) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = b->len + n + 1;
    return 0;
}

void buf_put(struct buf *b, const void *s, size_t n)
{
    if (grow(b, n) < 0)
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_putc(struct buf *b, char c) { buf_put(b, &c, 1); }

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || grow(b, (size_t)n) < 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Digits into the tail of `tmp`; returns the first digit.  Hand-rolled because
 * snprintf per integer dominates writing a million-cell map. */
static char *u64_digits(char *end, uint64_t v)
{
    char *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void buf_i64(struct buf *b, int64_t v)
{
    char tmp[24];
    char *end = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *p = u64_digits(end, u);
    if (v < 0)
        *--p = '-';
    buf_put(b, p, (size_t)(end - p));
}

void buf_u32_array(struct buf *b, const uint32_t *v, size_t n)
{
    /* 11 bytes covers "4294967295," so one grow serves the whole array. */
    if (grow(b, n * 11 + 2) < 0)
        return;
    char *out = b->p + b->len;
    *out++ = '[';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *out++ = ',';
        out = buf_u32_put(out, v[i]);
    }
    *out++ = ']';
    *out = '\0';
    b->len = (size_t)(out - b->p);
}

void buf_json_str(struct buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            buf_put(b, esc, 2);
        } else if (*p < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
            buf_put(b, esc, 6);
        } else {
            buf_putc(b, (char)*p);
        }
    }
    buf_putc(b, '"');
}

char *buf_take(struct buf *b, size_t *len)
{
    if (b->oom || b->p == NULL) {
        buf_free(b);
        return NULL;
    }
    char *p = b->p;
    if (len)
        *len = b->len;
    b->p = NULL;
    b->len = b->cap = 0;
    return p;
}

void buf_free(struct buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}
