/* framing.c - the request head's checks that need no HTTP library: body
 * framing (RFC 9112 sec. 6), field syntax, the query's size and
 * percent-decoding.
 * Must not include microhttpd.h, allocate or write an answer: it judges
 * strings that http.c hands over and says why one is refused. */
#define _GNU_SOURCE 1   /* strcasecmp, strncasecmp under -std=c11 */
#include "framing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- header fields ----------------------------------------------------------- */

void framing_begin(struct framing *f, const char *version)
{
    memset(f, 0, sizeof *f);
    f->next = version ? version + strlen(version) + 2 : NULL;
}

/* RFC 9110 sec. 5.6.2: tchar. */
static int is_token(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch && strchr("!#$%&'*+-.^_`|~", ch))))
            return 0;
    }
    return 1;
}

static int is_named(const char *name, size_t n, const char *want)
{
    return n == strlen(want) && strncasecmp(name, want, n) == 0;
}

void framing_field(struct framing *f, const char *name, size_t name_len, const char *value,
                   size_t value_len)
{
    /* The chain: this line starts where the previous one's CRLF ended. */
    if (f->next != NULL && name != f->next)
        f->misplaced = 1;
    if (f->next != NULL)
        f->next = value + value_len + 2;
    if (!is_token(name, name_len))
        f->bad_name = 1;
    /* RFC 9110 sec. 5.5: a bare CR (or any control byte but HTAB) in a value
     * is refused rather than passed on to code that may split on it. */
    for (size_t i = 0; i < value_len; i++) {
        unsigned char ch = (unsigned char)value[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7F)
            f->bad_value = 1;
    }
    if (is_named(name, name_len, "Host"))
        f->hosts++;
    else if (is_named(name, name_len, "Content-Length"))
        f->lengths++;
    else if (is_named(name, name_len, "Transfer-Encoding") && f->codings++ == 0)
        f->coding = value;
}

/* "chunked", in any case, is the only coding the daemon decodes, and only so
 * spelled: libmicrohttpd 0.9.75 compares the whole value, so "chunked " (it
 * keeps trailing blanks), "gzip, chunked" or "identity" would leave it
 * reading a body of unknown length until the client closes. */
static int only_chunked(const char *v)
{
    return strcasecmp(v, "chunked") == 0;
}

int framing_check(const struct framing *f, const char *head_end, const char *version,
                  struct sz_error *err)
{
    /* After the last field line comes the blank line: two more zeroed bytes. */
    if (f->misplaced || (head_end != NULL && f->next != NULL && f->next + 2 != head_end))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "header",
                       "malformed header: a NUL byte, a folded line (obs-fold) or a "
                       "line not ended by CRLF");
    if (f->bad_name)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "header",
                       "malformed header: a field name that is not a token");
    if (f->bad_value)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "header",
                       "malformed header: a control character in a field value");
    if (f->hosts > 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "Host", "more than one Host header");
    if (f->lengths > 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "Content-Length",
                       "more than one Content-Length header");
    if (f->codings == 0)
        return 0;
    /* RFC 9112 sec. 6.1: a length with a coding is a smuggling attempt (the
     * two framings disagree on where the next request starts); HTTP/1.0 has
     * no codings at all. */
    if (f->lengths > 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "Transfer-Encoding",
                       "Content-Length and Transfer-Encoding together");
    if (version && strcmp(version, "HTTP/1.0") == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "Transfer-Encoding",
                       "Transfer-Encoding in an HTTP/1.0 request");
    if (f->codings > 1 || !only_chunked(f->coding))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "Transfer-Encoding",
                       "the only transfer coding accepted is \"chunked\"");
    return 0;
}

/* ---- the request target -------------------------------------------------------- */

unsigned framing_query_args(const char *target, unsigned stop)
{
    const char *q = target ? strchr(target, '?') : NULL;
    if (q == NULL || q[1] == '\0')
        return 0;
    unsigned n = 1;
    for (q++; *q && n <= stop; q++)
        n += *q == '&';
    return n;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

size_t framing_unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        int hi, lo;
        if (r[0] == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0) {
            unsigned char ch = (unsigned char)(hi * 16 + lo);
            *w++ = (ch < 0x20 || ch == 0x7F) ? (char)0x7F : (char)ch;
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}
