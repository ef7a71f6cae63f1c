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
    [SZ_INTERNAL]           = {"internal", 500},
};

/* Truncation may cut a multi-byte UTF-8 character in two; the error body must
 * stay valid UTF-8, so drop an incomplete sequence at the end. */
static void utf8_trim(char *s)
{
    size_t n = strlen(s), i = n;
    while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
        i--;                        /* back over continuation bytes */
    if (i == 0 || (unsigned char)s[i - 1] < 0x80)
        return;
    unsigned lead = (unsigned char)s[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (n - (i - 1) < need)
        s[i - 1] = '\0';
}

int sz_fail(struct sz_error *err, enum sz_code code, const char *field,
            const char *fmt, ...)
{
    if (err == NULL)
        return -1;
    err->code = code;
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    utf8_trim(err->field);
    utf8_trim(err->message);
    return -1;
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
