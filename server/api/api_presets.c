/* api_presets.c - GET /api/presets (the named swizzles of presets.c and the
 * ranges the controls accept) and the names every map answer carries: the
 * hardware modes of the swizzle and its element-unit forms.  It names what
 * presets.c and swizzle.c say; it holds no table and no rule of its own. */
#include <stdio.h>

#include "base/bits.h"
#include "api_read.h"
#include "api_routes.h"
#include "model/presets.h"
#include "model/swizzle.h"

/* The widest element the answer gives a form for: 2^3 = 8 bytes (fp64). */
#define ELEM_LOG_MAX 3

static void put_hardware(struct buf *out, const struct preset *p)
{
    buf_puts(out, "{\"preset\":");
    buf_json_str(out, p->id);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma", p->tma);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma_cuda", p->tma_cuda);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma_status", p->tma_status);
    buf_printf(out, ",\"gmma\":%d,", p->gmma);
    api_put_str_or_null(out, "gmma_name", p->gmma_name);
    buf_putc(out, ',');
    api_put_str_or_null(out, "gmma_atom", p->gmma_atom);
    buf_printf(out, ",\"umma\":%d,", p->umma);
    api_put_str_or_null(out, "umma_name", p->umma_name);
    buf_putc(out, ',');
    api_put_str_or_null(out, "umma_words", p->umma_words);
    buf_putc(out, '}');
}

void api_put_names(struct buf *out, const struct swz *z)
{
    const struct preset *p = presets_find(z->b, z->m, z->s);
    buf_puts(out, "\"hardware\":");
    if (p)
        put_hardware(out, p);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"elements\":[");
    for (int k = 0; k <= ELEM_LOG_MAX; k++) {
        struct swz e;
        buf_printf(out, "%s{\"bytes\":%u,\"log2\":%d,", k ? "," : "", 1u << k, k);
        if (swz_on_elements(z, k, &e, NULL) == 0)
            buf_printf(out, "\"ok\":true,\"b\":%d,\"m\":%d,\"s\":%d,"
                       "\"name\":\"Swizzle<%d,%d,%d>\"}", e.b, e.m, e.s, e.b, e.m, e.s);
        else
            buf_printf(out, "\"ok\":false,\"needs_m\":%d}", k);
    }
    buf_putc(out, ']');
}

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
        put_hardware(out, p);
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
