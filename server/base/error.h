/* error.h - the one error type of the C side: a code, the offending field, a message.
 *
 * Every public function that can fail takes a `struct sz_error *` as its last
 * argument and returns 0 or -1.  This file maps codes to HTTP statuses; it
 * knows nothing of HTTP otherwise and never prints or exits. */
#ifndef SZ_ERROR_H
#define SZ_ERROR_H

#include <stddef.h>

enum sz_code {
    SZ_OK = 0,
    SZ_INVALID_ARGUMENT,    /* a value out of range, of the wrong type, missing */
    SZ_BAD_JSON,            /* body is not one valid JSON document */
    SZ_TOO_LARGE,           /* body, array or map over its limit */
    SZ_NOT_FOUND,           /* no such route or file */
    SZ_METHOD_NOT_ALLOWED,  /* route exists, method does not */
    SZ_UNSUPPORTED_MEDIA,   /* POST without Content-Type: application/json */
    SZ_MISDIRECTED,         /* Host header is not the loopback name we serve */
    SZ_BUSY,                /* a measurement is already running */
    SZ_GPU_UNAVAILABLE,     /* no tool, driver or device */
    SZ_MEASURE_FAILED,      /* the measurement tool failed or timed out */
    SZ_OVERLOADED,          /* the server's budget (bodies being received) is spent */
    SZ_COMPILER_UNAVAILABLE, /* no nvcc to compile a request's CUDA source with */
    SZ_INTERNAL             /* out of memory and other server-side failures */
};

struct sz_error {
    enum sz_code code;
    char field[32];         /* "" when the error is not about one field */
    char message[160];
    int line, column;       /* where in pasted text, 1-based; 0 when the error points
                               at no text (sz_fail clears both; sz_set_at sets them) */
};

/* Fill `err` (if not NULL) and return -1, so callers can `return sz_fail(...)`.
 * `field` may be NULL.  The message is printf-formatted and truncated to fit;
 * both are then made valid UTF-8 (a byte that starts no valid sequence, such
 * as half a character cut by "%.40s", becomes '?'). */
int sz_fail(struct sz_error *err, enum sz_code code, const char *field,
            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The position of byte `off` of text[0..len) (stopping at a NUL): line 1 + the
 * newlines before it; column 1 + the characters (UTF-8 code points: every byte
 * but a continuation byte 10xxxxxx) between the line's start and it, which is
 * where the page's caret goes when it walks the line by code points.  An `off`
 * past the end is the end.  This is the one text-position function of the C
 * side; the messages keep their own words ("at column N:" counts bytes). */
void sz_text_pos(const char *text, size_t len, size_t off, int *line, int *column);

/* Set the position an error points at (after sz_fail, which clears it) and
 * return -1, so callers can `sz_fail(...); return sz_set_at(err, l, c);`.
 * `err` may be NULL.  api_error_response writes it as "at". */
int sz_set_at(struct sz_error *err, int line, int column);

/* sz_text_pos then sz_set_at: the error points at byte `off` of text[0..len). */
int sz_fail_pos(struct sz_error *err, const char *text, size_t len, size_t off);

/* Copy at most `n` bytes of `s` (stopping at a NUL) into dst[0..cap) for
 * echoing in a message: printable ASCII as is, every other byte as '?', so
 * an echo is text and never cuts a character.  Returns the length written. */
size_t sz_echo(char *dst, size_t cap, const char *s, size_t n);

/* The length of s[0..n) less a character cut short at its end: a copy of a
 * string cut at a byte budget (n = min(len, budget)) keeps whole characters
 * only, so user text copied into a fixed buffer stays valid UTF-8. */
size_t sz_utf8_cut(const char *s, size_t n);

/* The precision for "%.*s" that prints at most budget bytes of the
 * NUL-terminated s, whole characters only (sz_utf8_cut on its prefix). */
int sz_utf8_prec(const char *s, size_t budget);

/* The wire name of a code ("invalid_argument", ...); never NULL. */
const char *sz_code_name(enum sz_code code);

/* The HTTP status a code is answered with (400, 404, ...; 500 only for SZ_INTERNAL). */
int sz_code_status(enum sz_code code);

#endif
