/* framing.h - checks on a request's head that need no HTTP library: how its
 * body is framed (Content-Length, Transfer-Encoding), the syntax of its
 * fields, the size of its query, percent-decoding.
 *
 * Pure string work on what the daemon hands over: no I/O, no allocation, and
 * it never writes an answer (http.c does). */
#ifndef SZ_FRAMING_H
#define SZ_FRAMING_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* What one request's header fields say, gathered one field at a time. */
struct framing {
    const char *next;           /* where the next field line must start (below) */
    int misplaced;              /* a field line not where it must be */
    int bad_name, bad_value;    /* a name not a token; a control byte in a value */
    int hosts, lengths, codings;    /* Host, Content-Length, Transfer-Encoding lines */
    const char *coding;         /* the first Transfer-Encoding value */
};

/* Start gathering.  `version` is the request line's version as libmicrohttpd
 * 0.9.75 hands it to the access handler: a pointer into its read buffer,
 * where the head was parsed in place ("GET\0/p\0HTTP/1.1\0\0Host\0 v\0\0..."
 * for "GET /p HTTP/1.1\r\nHost: v\r\n...").  Every well-formed field line
 * starts two bytes (the CRLF, both bytes zeroed) after the end of the
 * previous line's value; a NUL inside a value, an obs-fold (0.9.75 copies a
 * folded field elsewhere) or a bare LF breaks that chain, so that is how they
 * are seen although the daemon cut the value at the NUL or joined the fold. */
void framing_begin(struct framing *f, const char *version);

/* One header field in the order received (name and value as the daemon
 * parsed them in place; value_len == strlen(value)). */
void framing_field(struct framing *f, const char *name, size_t name_len, const char *value,
                   size_t value_len);

/* Judge the gathered fields.  `head_end` is one past the blank line that ends
 * the head (the read buffer's start of the request line plus its
 * MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE); NULL skips the chain check.
 * Fails with SZ_INVALID_ARGUMENT (400) naming the field for: a misplaced
 * line (NUL in a value, obs-fold, bare LF), a name that is not a token, a
 * control byte in a value, two Host lines, two Content-Length lines,
 * Content-Length with Transfer-Encoding, two Transfer-Encoding lines, any
 * coding but "chunked", or Transfer-Encoding in HTTP/1.0 (RFC 9112 sec. 6).
 * After any of these the connection must be closed. */
int framing_check(const struct framing *f, const char *head_end, const char *version,
                  struct sz_error *err);

/* How many arguments the raw (undecoded) request target's query holds, as
 * the daemon would split it: one per '&'-separated piece, empty ones
 * included; 0 without '?'.  Counts at most `stop` + 1. */
unsigned framing_query_args(const char *target, unsigned stop);

/* Decode %HH in place, once; a decoded control byte becomes 0x7F so that the
 * path check and the number parsers refuse it rather than a NUL cutting the
 * string short.  Returns the new length. */
size_t framing_unescape(char *s);

#endif
