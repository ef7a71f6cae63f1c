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
