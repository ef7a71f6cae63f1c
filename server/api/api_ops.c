/* api_ops.c - GET /api/ops: the instruction-kind table (instr.c) as
 * instr_json.c writes it, for every client (the page's op menu, ops.js and
 * hints.js read it; they keep no list of their own).  No query arguments. */
#include <stdlib.h>

#include "api_read.h"
#include "api_routes.h"
#include "instr_json.h"

int api_route_ops(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known[] = {NULL};
    char *text = NULL;
    if (api_args_check(req, known, err) < 0 || instr_json_kinds(&text, err) < 0)
        return -1;
    buf_puts(out, text);
    free(text);
    return 0;
}
