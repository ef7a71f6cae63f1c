/* api_layout.c - the layout routes: the swizzle's maps, the address
 * inspector and apply.  Reads with api_read.c, computes with swizzle.c,
 * writes JSON with buf.c (stream.c for a large map); it holds no model
 * arithmetic of its own. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "base/stream.h"
#include "model/swizzle.h"

static void put_masks(struct buf *out, const struct swz *z)
{
    buf_printf(out, "\"masks\":{\"yyy\":%u,\"zzz\":%u,\"yyy_lo\":%d,\"yyy_hi\":%d,"
               "\"zzz_lo\":%d,\"zzz_hi\":%d,\"period_bytes\":%llu}",
               z->yyy_msk, z->zzz_msk, z->yyy_lo, z->yyy_lo + z->b, z->zzz_lo,
               z->zzz_lo + z->b, 1ull << swz_period_bits(z));
}

/* The parameters, the name and the slot rule: how every map answer opens. */
static void put_params(struct buf *out, const struct swz *z, const struct swz_geom *g)
{
    buf_printf(out, "\"params\":{\"b\":%d,\"m\":%d,\"s\":%d,\"bank_bytes\":%u,"
               "\"banks\":%u,\"rows\":%u,\"match_bank_row\":%s},"
               "\"name\":\"Swizzle<%d,%d,%d>\",\"slot_rule\":\"%s\"",
               z->b, z->m, z->s, g->bank_bytes, g->banks, g->rows,
               g->match_bank_row ? "true" : "false", z->b, z->m, z->s,
               swz_slot_rule_name(swz_slot_rule(z, g)));
}

/* The swizzle and grid of a map request: every argument checked. */
static int swizzle_args(const struct api_request *req, struct swz *z, struct swz_geom *g,
                        struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks",
                                        "rows", "match_bank_row", NULL};
    if (api_args_check(req, known, err) < 0 || api_swz_args(req, z, err) < 0)
        return -1;
    /* The tile view draws (2^B)^2 cells: the same cell budget as the grid. */
    if (z->b > SZ_MAP_B_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "b",
                       "a tile of 2^B x 2^B units is drawn cell by cell and must be "
                       "at most 2^20 cells: B in 0..%d here, got %d", SZ_MAP_B_MAX, z->b);
    return api_geom_args(req, z, g, err);
}

/* A map answer up to its first array, the tile's log_of. */
static void put_map_head(struct buf *out, const struct swz *z, const struct swz_geom *g)
{
    buf_putc(out, '{');
    put_params(out, z, g);
    buf_putc(out, ',');
    put_masks(out, z);
    buf_putc(out, ',');
    api_put_names(out, z);   /* api_write.c */
    buf_printf(out, ",\"unit\":{\"bytes\":%u,\"banks_spanned\":%u,\"per_bank\":%u}",
               g->unit_bytes, swz_unit_banks(g), swz_units_per_bank(g));
    buf_printf(out, ",\"bank_row_bytes\":%u", g->bank_row_bytes);
    buf_printf(out, ",\"tile\":{\"size\":%u,\"bytes\":%llu,\"log_of\":", g->tile,
               (unsigned long long)g->tile_bytes);
}

/* From the tile's close to the grid's log_of. */
static void put_map_grid(struct buf *out, const struct swz_geom *g)
{
    buf_printf(out, "},\"grid\":{\"rows\":%u,\"cols\":%u,\"row_bytes\":%llu,"
               "\"bytes\":%llu,\"tiles_per_row\":%u,\"tile_rows\":%u,\"log_of\":",
               g->rows, g->cols, (unsigned long long)g->row_bytes,
               (unsigned long long)g->bytes, g->tiles_per_row, g->tile_rows);
}

/* After the grid's bank_of: the close. */
static void put_map_tail(struct buf *out, const struct swz_geom *g)
{
    buf_printf(out, "},\"banks_view\":{\"rows\":%u,\"units_per_row\":%u,"
               "\"rows_per_unit\":%u}}",
               g->bank_rows, g->units_per_bank_row, g->bank_rows_per_unit);
}

int api_route_swizzle(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    struct swz z;
    struct swz_geom g;
    if (swizzle_args(req, &z, &g, err) < 0)
        return -1;
    uint32_t tcells = g.tile * g.tile;
    uint32_t *mem = malloc(((size_t)g.cells * 3 + (size_t)tcells * 2) * sizeof *mem);
    if (mem == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    uint32_t *log_of = mem, *phys_of = mem + g.cells, *bank_of = mem + 2 * g.cells;
    uint32_t *tlog = mem + 3 * (size_t)g.cells, *tphys = tlog + tcells;
    swz_grid_maps(&z, &g, log_of, phys_of, bank_of);
    swz_tile_maps(&z, tlog, tphys);

    put_map_head(out, &z, &g);
    buf_u32_array(out, tlog, tcells);
    buf_puts(out, ",\"phys_of\":");
    buf_u32_array(out, tphys, tcells);
    put_map_grid(out, &g);
    buf_u32_array(out, log_of, g.cells);
    buf_puts(out, ",\"phys_of\":");
    buf_u32_array(out, phys_of, g.cells);
    buf_puts(out, ",\"bank_of\":");
    buf_u32_array(out, bank_of, g.cells);
    put_map_tail(out, &g);
    free(mem);
    return 0;
}

/* ---- the streamed map: the same bytes, its arrays filled window by window -- */

struct map_ctx {
    struct swz z;
    struct swz_geom g;
};

static void fill_tile_log(const void *c, uint32_t from, uint32_t n, uint32_t *out)
{
    swz_tile_range(&((const struct map_ctx *)c)->z, from, n, out, NULL);
}

static void fill_tile_phys(const void *c, uint32_t from, uint32_t n, uint32_t *out)
{
    swz_tile_range(&((const struct map_ctx *)c)->z, from, n, NULL, out);
}

static void fill_grid_log(const void *c, uint32_t from, uint32_t n, uint32_t *out)
{
    const struct map_ctx *m = c;
    swz_grid_range(&m->z, &m->g, from, n, out, NULL, NULL);
}

static void fill_grid_phys(const void *c, uint32_t from, uint32_t n, uint32_t *out)
{
    const struct map_ctx *m = c;
    swz_grid_range(&m->z, &m->g, from, n, NULL, out, NULL);
}

static void fill_grid_bank(const void *c, uint32_t from, uint32_t n, uint32_t *out)
{
    const struct map_ctx *m = c;
    swz_grid_range(&m->z, &m->g, from, n, NULL, NULL, out);
}

/* The text of `b` as the stream's next piece (a failed buf fails the stream);
 * b is emptied for the next. */
static void stream_buf(struct stream *st, struct buf *b)
{
    stream_text(st, b->oom ? NULL : b->p, b->oom ? 1 : b->len);
    b->len = 0;
}

int api_stream_swizzle(const struct api_request *req, struct stream **out,
                       struct sz_error *err)
{
    struct map_ctx m;
    if (swizzle_args(req, &m.z, &m.g, err) < 0)
        return -1;
    uint32_t tcells = m.g.tile * m.g.tile;
    /* every integer and its comma take 2 bytes at least */
    if (2 * (3 * (uint64_t)m.g.cells + 2 * (uint64_t)tcells) <= API_STREAM_MIN)
        return 0;
    struct stream *st = stream_new(&m, sizeof m);
    if (st == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    struct buf b = {0};
    put_map_head(&b, &m.z, &m.g);
    stream_buf(st, &b);
    /* A swizzle permutes each period; a tile, and a grid of whole periods (as
     * swz_geom_init requires), map onto themselves: their maps are
     * permutations, whose length needs no pass (stream.h). */
    stream_u32_perm(st, tcells, fill_tile_log);
    stream_puts(st, ",\"phys_of\":");
    stream_u32_perm(st, tcells, fill_tile_phys);
    put_map_grid(&b, &m.g);
    stream_buf(st, &b);
    stream_u32_perm(st, m.g.cells, fill_grid_log);
    stream_puts(st, ",\"phys_of\":");
    stream_u32_perm(st, m.g.cells, fill_grid_phys);
    stream_puts(st, ",\"bank_of\":");
    stream_u32_array(st, m.g.cells, fill_grid_bank);
    put_map_tail(&b, &m.g);
    stream_buf(st, &b);
    buf_free(&b);
    if (stream_finish(st) < 0) {
        stream_free(st);
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    }
    *out = st;
    return 1;
}

/* "0b..." of the low `width` bits of v, most significant first. */
static void put_bin(struct buf *out, uint32_t v, int width)
{
    char s[40];
    int n = 0;
    s[n++] = '"';
    for (int i = width - 1; i >= 0; i--)
        s[n++] = (char)('0' + ((v >> i) & 1));
    s[n++] = '"';
    buf_put(out, s, (size_t)n);
}

static void put_addr(struct buf *out, const char *key, const struct swz_addr *a, int width)
{
    buf_printf(out, "\"%s\":{\"row\":%u,\"col\":%u,\"unit\":%u,\"addr\":%u,"
               "\"hex\":\"0x%x\",\"bin\":", key, a->row, a->col, a->unit, a->addr, a->addr);
    put_bin(out, a->addr, width);
    buf_putc(out, '}');
}

/* "bank_cell": the bytes of the unit one bank word holds (swz_inspect_byte), and
 * that word on both maps. */
static void put_place(struct buf *out, const char *key, const struct swz_byte_place *p)
{
    buf_printf(out, ",\"%s\":{\"bank\":%u,\"bank_row\":%u,\"word\":{\"lo\":%u,\"hi\":%u}}",
               key, p->bank, p->bank_row, p->word_lo, p->word_hi);
}

static void put_bank_cell(struct buf *out, const struct swz_geom *g, const struct swz_byte *b,
                          int plain)
{
    uint32_t n = b->unit_hi - b->unit_lo;
    const struct swz_byte_place *at = plain ? &b->plain : &b->swizzled;
    buf_printf(out, ",\"bank_cell\":{\"map\":\"%s\",\"bank\":%u,\"bank_row\":%u,"
               "\"bank_bytes\":%u,\"unit_bytes\":%u,\"word\":{\"lo\":%u,\"hi\":%u},"
               "\"unit\":{\"lo\":%u,\"hi\":%u},\"physical\":{\"lo\":%u,\"hi\":%u},"
               "\"logical\":{\"lo\":%u,\"hi\":%u}",
               plain ? "plain" : "swizzled", at->bank, at->bank_row, g->bank_bytes,
               g->unit_bytes, at->word_lo, at->word_hi, b->unit_lo, b->unit_hi, b->phys_lo,
               b->phys_lo + n, b->logical_lo, b->logical_lo + n);
    put_place(out, "plain", &b->plain);
    put_place(out, "swizzled", &b->swizzled);
    if (b->elem_bytes > 0)
        buf_printf(out, ",\"elements\":{\"bytes\":%u,\"first\":%u,\"last\":%u,\"byte_lo\":%u}",
                   b->elem_bytes, b->elem_first, b->elem_last, b->elem_byte_lo);
    buf_putc(out, '}');
}

int api_route_inspect(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "row", "col", "bank", "bank_row",
                                        "elem_bytes", "map", "byte", NULL};
    struct swz z;
    struct swz_geom g;
    long row, col, bank, bank_row, elem, byte;
    if (api_args_check(req, known, err) < 0 || api_swz_args(req, &z, err) < 0 ||
        api_geom_args(req, &z, &g, err) < 0 ||
        api_arg_int(req, "row", 0, (long)g.rows - 1, 1, 0, &row, err) < 0 ||
        api_arg_int(req, "col", 0, (long)g.cols - 1, 1, 0, &col, err) < 0 ||
        api_arg_int(req, "bank", 0, (long)g.banks - 1, 0, -1, &bank, err) < 0 ||
        api_arg_int(req, "bank_row", 0, (long)g.bank_rows - 1, 0, -1, &bank_row, err) < 0 ||
        api_arg_int(req, "elem_bytes", 1, 8, 0, 0, &elem, err) < 0 ||
        api_arg_int(req, "byte", 0, (long)g.unit_bytes - 1, 0, -1, &byte, err) < 0)
        return -1;
    if (byte >= 0 && (bank >= 0 || bank_row >= 0))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "byte",
                       "names the bank cell by a byte of the unit: give it or bank (and "
                       "bank_row), not both");
    if (elem > 0 && !bits_is_pow2((uint64_t)elem))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "elem_bytes", "must be 1, 2, 4 or 8, got %ld",
                       elem);
    const char *map = api_arg(req, "map");
    int plain = map != NULL && strcmp(map, "plain") == 0;
    if (map != NULL && !plain && strcmp(map, "swizzled") != 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "map", "must be plain or swizzled");
    if ((bank_row >= 0 || elem > 0 || map != NULL) && bank < 0 && byte < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bank",
                       "(or byte) is required with bank_row, map and elem_bytes (the bank "
                       "cell they describe)");
    struct swz_cell c;
    swz_inspect(&z, &g, (uint32_t)row, (uint32_t)col, &c);
    if (byte >= 0) {
        uint32_t bk, br;
        swz_unit_byte_word(&g, &c, (uint32_t)byte, plain, &bk, &br);
        bank = bk, bank_row = br;
    }
    struct swz_byte by;
    if (bank >= 0 && swz_inspect_byte(&g, &c, (uint32_t)bank, bank_row, plain, (uint32_t)elem,
                                      &by, err) < 0)
        return -1;
    buf_putc(out, '{');
    put_params(out, &z, &g);
    buf_putc(out, ',');
    put_addr(out, "logical", &c.logical, c.bits);
    buf_putc(out, ',');
    put_addr(out, "physical", &c.physical, c.bits);
    buf_printf(out, ",\"bits\":%d,\"tile\":{\"row\":%u,\"col\":%u,\"row_in_tile\":%u,"
               "\"col_in_tile\":%u,\"row_mod\":%u,\"phys_row_in_tile\":%u,"
               "\"phys_col_in_tile\":%u,\"slot\":%u}",
               c.bits, c.tile_row, c.tile_col, c.row_in_tile, c.col_in_tile, c.row_mod,
               c.phys_row_in_tile, c.phys_col_in_tile, c.slot);
    buf_printf(out, ",\"yyy\":{\"lo\":%d,\"hi\":%d,\"value\":%u},"
               "\"zzz\":{\"lo\":%d,\"hi\":%d,\"value\":%u,\"swizzled\":%u}",
               z.yyy_lo, z.yyy_lo + z.b, c.yyy, z.zzz_lo, z.zzz_lo + z.b, c.zzz,
               c.zzz_swizzled);
    buf_printf(out, ",\"banks\":{\"first\":%u,\"count\":%u,\"per_bank\":%u,\"list\":",
               c.bank[0], c.nbanks, swz_units_per_bank(&g));
    buf_u32_array(out, c.bank, c.nbanks);
    buf_putc(out, '}');
    if (bank >= 0)
        put_bank_cell(out, &g, &by, plain);
    buf_putc(out, '}');
    return 0;
}

int api_route_apply(const struct api_request *req, struct buf *out,
                       struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const known[] = {"b", "m", "s", "offsets", NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = -1;
    int64_t b, m, s;
    struct swz z;
    uint32_t *offs = NULL;
    const cJSON *arr;
    if (api_fields_check(root, known, err) < 0 || api_field_int(root, "b", 0, SZ_SWZ_B_MAX, &b, err) < 0 ||
        api_field_int(root, "m", 0, SZ_SWZ_M_MAX, &m, err) < 0 ||
        api_field_int(root, "s", -SZ_SWZ_S_MAX, SZ_SWZ_S_MAX, &s, err) < 0 ||
        swz_init(&z, (int)b, (int)m, (int)s, err) < 0)
        goto done;
    arr = cJSON_GetObjectItemCaseSensitive(root, "offsets");
    if (!cJSON_IsArray(arr)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                "required, an array of byte offsets in 0..2147483647");
        goto done;
    }
    int n = cJSON_GetArraySize(arr);
    if (n > API_MAX_OFFSETS) {
        sz_fail(err, SZ_TOO_LARGE, "offsets", "at most %d offsets per request, got %d",
                API_MAX_OFFSETS, n);
        goto done;
    }
    /* The answer's bound (an offset below 2^31 swizzles to at most ten digits
     * and a comma: 0.7 MB for API_MAX_OFFSETS) and the offsets held while it
     * is built, from the answer budget before either is taken (issue 36 item
     * 3, as /api/layout does). */
    if (api_reserve(req, (size_t)n * (11 + sizeof *offs) + 64, err) < 0)
        goto done;
    offs = malloc(((size_t)n + 1) * sizeof *offs);
    if (offs == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    int i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        int64_t v;
        char field[32];
        snprintf(field, sizeof field, "offsets[%d]", i);
        if (api_num_int(it, field, 0, SZ_OFFSET_LIMIT - 1.0, &v, err) < 0)
            goto done;
        offs[i] = swz_apply(&z, (uint32_t)v);
    }
    buf_puts(out, "{\"swizzled\":");
    buf_u32_array(out, offs, (size_t)n);
    buf_printf(out, ",\"name\":\"Swizzle<%d,%d,%d>\"}", z.b, z.m, z.s);
    rc = 0;
done:
    free(offs);
    cJSON_Delete(root);
    return rc;
}
