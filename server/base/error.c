/* error.c - filling sz_error and the single code -> name -> HTTP status table.
 * Must not allocate, print or exit: it runs on every failing request. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int status;
} code_table[] = {
    [SZ_OK]                 = {"ok", 200},
    [SZ_INVALID_ARGUMENT]   = {"invalid_argument", 400},
    [SZ_BAD_JSON]           = {"bad_json", 400},
    [SZ_TOO_LARGE]          = {"too_large", 413},
    [SZ_NOT_FOUND]          = {"not_found", 404},
    [SZ_METHOD_NOT_ALLOWED] = {"method_not_allowed", 405},
    [SZ_UNSUPPORTED_MEDIA]  = {"unsupported_media_type", 415},
    [SZ_MISDIRECTED]        = {"misdirected_request", 421},
    [SZ_BUSY]               = {"busy", 409},
    [SZ_GPU_UNAVAILABLE]    = {"gpu_unavailable", 503},
    [SZ_MEASURE_FAILED]     = {"measure_failed", 502},
    [SZ_OVERLOADED]         = {"overloaded", 503},
    [SZ_COMPILER_UNAVAILABLE] = {"compiler_unavailable", 503},
    [SZ_INTERNAL]           = {"internal", 500},
};

/* The length of the valid RFC 3629 sequence at s[0..n) (1..4), or 0 when s
 * does not start one: no overlongs, surrogates or values past U+10FFFF. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* Every answer is valid UTF-8, and a message may echo what a client sent
 * (raw query bytes, or text cut by "%.40s" in the middle of a character,
 * anywhere in the message): each byte that starts no valid sequence becomes
 * '?', in place (never longer). */
static void utf8_scrub(char *s)
{
    unsigned char *p = (unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t len = utf8_seq(p + i, n - i);
        if (len == 0) {
            p[i++] = '?';
            continue;
        }
        i += len;
    }
}

size_t sz_utf8_cut(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = n;
    while (i > 0 && n - i < 3 && (p[i - 1] & 0xC0) == 0x80)
        i--;
    if (i == 0)
        return n;
    unsigned c = p[i - 1];
    size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > 1 && n - (i - 1) < need ? i - 1 : n;
}

int sz_utf8_prec(const char *s, size_t budget)
{
    size_t n = 0;
    while (n < budget && s[n])
        n++;
    return (int)sz_utf8_cut(s, n);
}

size_t sz_echo(char *dst, size_t cap, const char *s, size_t n)
{
    if (cap == 0)
        return 0;
    size_t k = 0;
    for (; k < n && k + 1 < cap && s[k]; k++) {
        unsigned char ch = (unsigned char)s[k];
        dst[k] = ch >= 0x20 && ch < 0x7F ? (char)ch : '?';
    }
    dst[k] = '\0';
    return k;
}

int sz_fail(struct sz_error *err, enum sz_code code, const char *field,
            const char *fmt, ...)
{
    if (err == NULL)
        return -1;
    err->code = code;
    err->line = err->column = 0;
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof err->message)    /* cut by the buffer: at a character's start */
        err->message[sz_utf8_cut(err->message, strlen(err->message))] = '\0';
    utf8_scrub(err->field);
    utf8_scrub(err->message);
    return -1;
}

void sz_text_pos(const char *text, size_t len, size_t off, int *line, int *column)
{
    int l = 1, c = 1;
    for (size_t k = 0; k < off && k < len && text[k]; k++) {
        if (text[k] == '\n')
            l++, c = 1;
        else if (((unsigned char)text[k] & 0xC0) != 0x80)
            c++;
    }
    *line = l, *column = c;
}

int sz_set_at(struct sz_error *err, int line, int column)
{
    if (err != NULL && line > 0 && column > 0)
        err->line = line, err->column = column;
    return -1;
}

int sz_fail_pos(struct sz_error *err, const char *text, size_t len, size_t off)
{
    int line, column;
    if (text == NULL)
        return -1;
    sz_text_pos(text, len, off, &line, &column);
    return sz_set_at(err, line, column);
}

const char *sz_code_name(enum sz_code code)
{
    if ((unsigned)code >= sizeof code_table / sizeof code_table[0])
        code = SZ_INTERNAL;
    return code_table[code].name;
}

int sz_code_status(enum sz_code code)
{
    if ((unsigned)code >= sizeof code_table / sizeof code_table[0])
        code = SZ_INTERNAL;
    return code_table[code].status;
}
