/* stream.c - the windowed answer writer: text pieces copied, integer arrays
 * filled STREAM_FILL at a time and printed straight into the caller's window.
 * Memory is bounded by the pieces' text and one fill's scratch, whatever the
 * answer's size.  Must not know HTTP or which answers stream. */
#include "stream.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

struct piece {
    size_t off, len;        /* text: bytes [off, off+len) of st->text */
    uint32_t n;             /* array: n elements */
    stream_fill_fn fill;    /* NULL for text */
    int perm;               /* the array is a permutation of 0..n-1 */
};

struct stream {
    struct piece pieces[STREAM_PIECES];
    int npieces, failed;
    char *text;
    size_t text_len, text_cap, total;
    uint64_t done;                  /* bytes read so far */
    /* the reader: piece k, offset in its text or next element i */
    int k;
    size_t off;
    uint32_t i;
    int opened;                     /* the array's '[' is out */
    char pend[16];                  /* one element that did not fit the window */
    size_t pend_len, pend_off;
    uint32_t scratch[STREAM_FILL];  /* elements [s_from, s_from+s_n) */
    uint32_t s_from, s_n;
    void *ctx;
};

struct stream *stream_new(const void *ctx, size_t ctx_size)
{
    struct stream *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->ctx = malloc(ctx_size ? ctx_size : 1);
    if (st->ctx == NULL) {
        free(st);
        return NULL;
    }
    memcpy(st->ctx, ctx, ctx_size);
    return st;
}

static struct piece *add_piece(struct stream *st)
{
    if (st->failed || st->npieces == STREAM_PIECES) {
        st->failed = 1;
        return NULL;
    }
    return &st->pieces[st->npieces++];
}

void stream_text(struct stream *st, const char *s, size_t n)
{
    if (n == 0 || st->failed)
        return;
    if (s == NULL || n > SIZE_MAX / 4 - st->text_len) {
        st->failed = 1;
        return;
    }
    if (st->text_len + n > st->text_cap) {
        size_t cap = (st->text_len + n) * 2;
        char *p = realloc(st->text, cap);
        if (p == NULL) {
            st->failed = 1;
            return;
        }
        st->text = p;
        st->text_cap = cap;
    }
    /* text after text extends the same piece */
    struct piece *last = st->npieces ? &st->pieces[st->npieces - 1] : NULL;
    if (last == NULL || last->fill != NULL) {
        if ((last = add_piece(st)) == NULL)
            return;
        last->off = st->text_len;
        last->len = 0;
    }
    memcpy(st->text + st->text_len, s, n);
    st->text_len += n;
    last->len += n;
}

void stream_puts(struct stream *st, const char *s) { stream_text(st, s, strlen(s)); }

void stream_u32_array(struct stream *st, uint32_t n, stream_fill_fn fill)
{
    struct piece *p = add_piece(st);
    if (p) {
        p->n = n;
        p->fill = fill;
    }
}

void stream_u32_perm(struct stream *st, uint32_t n, stream_fill_fn fill)
{
    stream_u32_array(st, n, fill);
    if (!st->failed)
        st->pieces[st->npieces - 1].perm = 1;
}

/* The decimal digits of 0, 1, ..., n-1 together: 1 for each value below 10,
 * 2 for each in 10..99, and so on. */
static size_t digits_below(uint32_t n)
{
    size_t total = 0;
    uint64_t lo = 0, hi = 10;
    for (int d = 1; lo < n; d++, lo = hi, hi *= 10)
        total += (size_t)d * (size_t)((hi < n ? hi : n) - lo);
    return total;
}

int stream_finish(struct stream *st)
{
    if (st->failed)
        return -1;
    size_t total = 0;
    for (int k = 0; k < st->npieces; k++) {
        const struct piece *p = &st->pieces[k];
        if (p->fill == NULL) {
            total += p->len;
            continue;
        }
        total += 2 + (p->n ? p->n - 1 : 0);     /* brackets and commas */
        if (p->perm) {
            total += digits_below(p->n);
            continue;
        }
        for (uint32_t from = 0; from < p->n; from += STREAM_FILL) {
            uint32_t n = p->n - from < STREAM_FILL ? p->n - from : STREAM_FILL;
            p->fill(st->ctx, from, n, st->scratch);
            size_t sum = 0;
            for (uint32_t j = 0; j < n; j++)
                sum += (size_t)buf_u32_len(st->scratch[j]);
            total += sum;
        }
    }
    st->total = total;
    st->s_n = 0;
    return 0;
}

size_t stream_len(const struct stream *st) { return st->total; }

/* Elements [i, i+k) of array piece p in st->scratch (refilled when i is not
 * there): returns k >= 1, the scratch pointer for element i in *at. */
static uint32_t window_of(struct stream *st, const struct piece *p, uint32_t i,
                          const uint32_t **at)
{
    if (i < st->s_from || i >= st->s_from + st->s_n) {
        st->s_from = i;
        st->s_n = p->n - i < STREAM_FILL ? p->n - i : STREAM_FILL;
        p->fill(st->ctx, i, st->s_n, st->scratch);
    }
    *at = st->scratch + (i - st->s_from);
    return st->s_from + st->s_n - i;
}

/* The next bytes of array piece p into [out, end); returns the new out.  A
 * bracket or an element that does not fit waits in st->pend. */
static char *read_array(struct stream *st, const struct piece *p, char *out, char *end)
{
    if (!st->opened) {
        st->opened = 1;
        st->pend[0] = '[';
        st->pend_len = 1;
        return out;
    }
    /* an element is at most ",4294967295": 11 bytes; whole runs of the scratch
     * are printed while 11 bytes each surely fit */
    while (st->i < p->n) {
        size_t room = (size_t)(end - out) / 11;
        if (room == 0)
            break;
        const uint32_t *v;
        uint32_t k = window_of(st, p, st->i, &v);
        if (k > room)
            k = (uint32_t)room;
        uint32_t j = 0;
        if (st->i == 0) {
            out = buf_u32_put(out, v[0]);
            j = 1;
        }
        for (; j < k; j++) {
            *out++ = ',';
            out = buf_u32_put(out, v[j]);
        }
        st->i += k;
    }
    if (st->i == p->n) {
        st->pend[0] = ']';
        st->pend_len = 1;
        st->k++;
        st->i = 0;
        st->opened = 0;
        st->s_n = 0;
    } else if (out < end) {
        const uint32_t *v;
        window_of(st, p, st->i, &v);
        char *q = st->pend;
        if (st->i)
            *q++ = ',';
        q = buf_u32_put(q, v[0]);
        st->i++;
        st->pend_len = (size_t)(q - st->pend);
    }
    return out;
}

size_t stream_read(struct stream *st, char *dst, size_t max)
{
    char *out = dst, *end = dst + max;
    while (out < end) {
        if (st->pend_off < st->pend_len) {
            size_t n = st->pend_len - st->pend_off;
            if (n > (size_t)(end - out))
                n = (size_t)(end - out);
            memcpy(out, st->pend + st->pend_off, n);
            out += n;
            if ((st->pend_off += n) == st->pend_len)
                st->pend_off = st->pend_len = 0;
            continue;
        }
        if (st->k == st->npieces)
            break;
        const struct piece *p = &st->pieces[st->k];
        if (p->fill != NULL) {
            out = read_array(st, p, out, end);
            continue;
        }
        size_t n = p->len - st->off;
        if (n > (size_t)(end - out))
            n = (size_t)(end - out);
        memcpy(out, st->text + p->off + st->off, n);
        out += n;
        if ((st->off += n) == p->len) {
            st->k++;
            st->off = 0;
        }
    }
    st->done += (uint64_t)(out - dst);
    return (size_t)(out - dst);
}

ssize_t stream_window(void *st, uint64_t pos, char *dst, size_t max)
{
    struct stream *s = st;
    if (pos != s->done)
        return -2;
    size_t n = stream_read(s, dst, max);
    return n ? (ssize_t)n : -1;
}

void stream_release(void *st) { stream_free(st); }

void stream_free(struct stream *st)
{
    if (st == NULL)
        return;
    free(st->text);
    free(st->ctx);
    free(st);
}
