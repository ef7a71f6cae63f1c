/* api_presets.c - GET /api/presets: the named swizzles of presets.c, each with
 * its hardware modes (api_write.c's api_put_hardware, which every map answer's
 * names share), and the ranges the controls accept.  It names what presets.c
 * and bits.h say; it holds no table and no rule of its own. */
#include <stdio.h>

#include "base/bits.h"
#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "model/presets.h"
#include "model/swizzle.h"

int api_route_presets(const struct api_request *req, struct buf *out,
                      struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (api_args_check(req, known, err) < 0)
        return -1;
    buf_puts(out, "{\"presets\":[");
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        buf_puts(out, i ? ",{" : "{");
        api_put_key(out, "id");
        buf_json_str(out, p->id);
        buf_putc(out, ',');
        api_put_key(out, "label");
        buf_json_str(out, p->label);
        buf_printf(out, ",\"b\":%d,\"m\":%d,\"s\":%d,\"name\":\"Swizzle<%d,%d,%d>\",",
                   p->b, p->m, p->s, p->b, p->m, p->s);
        api_put_key(out, "hardware");
        api_put_hardware(out, p);
        buf_putc(out, '}');
    }
    /* The ranges the map routes take (bits.h's, each once), so that a
     * client's controls need no copy of them: min, max and whether only
     * powers of two. */
    buf_printf(out, "],\"limits\":{\"b\":{\"min\":0,\"max\":%d},\"m\":{\"min\":0,\"max\":%d},"
               "\"s\":{\"min\":%d,\"max\":%d},"
               "\"bank_bytes\":{\"min\":1,\"max\":%u,\"pow2\":true},"
               "\"banks\":{\"min\":1,\"max\":%u,\"pow2\":true},"
               "\"rows\":{\"min\":1,\"max\":%u},\"bytes\":{\"min\":1,\"max\":%u,\"pow2\":true}}}",
               SZ_MAP_B_MAX, SZ_SWZ_M_MAX, -SZ_SWZ_S_MAX, SZ_SWZ_S_MAX, SZ_MAX_BANK_BYTES,
               SZ_MAX_BANKS, SWZ_MAX_CELLS, SZ_MAX_LANE_BYTES);
    return 0;
}
