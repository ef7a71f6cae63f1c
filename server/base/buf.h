/* buf.h - a growable byte buffer with the few writers a JSON response needs:
 * raw bytes, escaped strings and decimal integers (arrays of them written in one
 * pass, because a million-cell map must not cost a node per integer).
 * It knows nothing of JSON's structure; api.c does.  Must not print or exit:
 * an allocation failure only sets `oom`, and every later write is a no-op. */
#ifndef SZ_BUF_H
#define SZ_BUF_H

#include <stddef.h>
#include <stdint.h>

struct buf {
    char *p;
    size_t len, cap;
    int oom;
};

/* Make room for `n` more bytes (and the NUL) in one allocation of exactly
 * that size, so that appending them never reallocates: a request body whose
 * length is known costs its length, not the next power of two.  0, or -1 (and
 * oom) when memory runs out. */
int buf_reserve(struct buf *b, size_t n);

/* Append bytes / a NUL-terminated string / one char.  No-ops once oom. */
void buf_put(struct buf *b, const void *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);

/* printf into the buffer (for short, rare pieces; use buf_i64 on hot paths). */
void buf_printf(struct buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Decimal integers. */
void buf_i64(struct buf *b, int64_t v);

/* The decimal digits of v (1..10), and v's digits written at out (no NUL),
 * returning the end: the one integer formatter of the answers (buf.c's
 * arrays, stream.c's windows).  Two digits per division, from a table: a
 * million-cell map is mostly this. */
static inline int buf_u32_len(uint32_t v)
{
    /* compares, not the bit length: a map's values have a few lengths, so the
     * branches are predicted, and this measured faster (bench/README.md) */
    return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5
         : v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
}

static inline char *buf_u32_put(char *out, uint32_t v)
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char *end = out + buf_u32_len(v), *p = end;
    while (v >= 100) {
        uint32_t q = v / 100, r = v - q * 100;
        p -= 2;
        p[0] = pairs[2 * r];
        p[1] = pairs[2 * r + 1];
        v = q;
    }
    if (v >= 10) {
        p[-2] = pairs[2 * v];
        p[-1] = pairs[2 * v + 1];
    } else {
        p[-1] = (char)('0' + v);
    }
    return end;
}

/* "[a,b,c]" of n unsigned integers. */
void buf_u32_array(struct buf *b, const uint32_t *v, size_t n);

/* A JSON string literal: quotes, escapes for '"', '\\' and control bytes.
 * Bytes >= 0x80 pass through: callers hand it valid UTF-8. */
void buf_json_str(struct buf *b, const char *s);

/* Hand the bytes over (NUL-terminated, caller frees) and reset the buffer;
 * NULL if an allocation failed at any point. */
char *buf_take(struct buf *b, size_t *len);

/* Free the bytes; the buffer is empty and usable again. */
void buf_free(struct buf *b);

#endif
