/* stream.h - an answer written in windows as the socket takes them: text pieces
 * and arrays of unsigned integers produced on demand by a fill function, so a
 * million-cell map never lives whole in memory.  Knows nothing of HTTP (http.c
 * drives it) nor of which answers stream (the API decides); no I/O. */
#ifndef SZ_STREAM_H
#define SZ_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct stream;

/* Writes elements [from, from+n) of an array (n <= STREAM_FILL) into out[0..n). */
typedef void (*stream_fill_fn)(const void *ctx, uint32_t from, uint32_t n, uint32_t *out);

/* The most elements one fill call is asked for. */
#define STREAM_FILL 4096u

/* A new, empty stream holding a copy of the `ctx_size` bytes at `ctx` (handed
 * to every fill); NULL when memory runs out. */
struct stream *stream_new(const void *ctx, size_t ctx_size);

/* Append `n` bytes of text / a NUL-terminated string / "[v0,v1,...]" of `n`
 * integers from `fill`.  At most STREAM_PIECES pieces; past that, out of
 * memory or text NULL, the stream is marked failed (stream_finish says so). */
#define STREAM_PIECES 32
void stream_text(struct stream *st, const char *s, size_t n);
void stream_puts(struct stream *st, const char *s);
void stream_u32_array(struct stream *st, uint32_t n, stream_fill_fn fill);

/* stream_u32_array for an array the caller knows to be a permutation of
 * 0..n-1 (a swizzle's map of whole periods): its length is the digits of
 * 0..n-1, counted without filling it.  A wrong claim gives a wrong length:
 * every use is checked byte for byte against the built answer (test_stream). */
void stream_u32_perm(struct stream *st, uint32_t n, stream_fill_fn fill);

/* Done appending: count the answer's bytes (one pass over every array).
 * Returns 0, or -1 when an append failed (the caller frees the stream). */
int stream_finish(struct stream *st);

/* The answer's length in bytes, after stream_finish. */
size_t stream_len(const struct stream *st);

/* The next up to `max` bytes of the answer into `dst`; returns how many, 0 at
 * the end.  Writes `max` bytes whenever that many remain, so the bytes are the
 * same whatever the windows.  Not thread-safe per stream (one reader). */
size_t stream_read(struct stream *st, char *dst, size_t max);

/* stream_read shaped as a libmicrohttpd content reader, so that http.c hands
 * it over as is (without this file knowing libmicrohttpd): `pos` must be the
 * count of bytes read so far (-2, an error, otherwise); -1 at the end. */
ssize_t stream_window(void *st, uint64_t pos, char *dst, size_t max);

/* Free the stream; NULL is a no-op.  stream_release is the same, shaped as
 * the reader's free callback. */
void stream_free(struct stream *st);
void stream_release(void *st);

#endif
