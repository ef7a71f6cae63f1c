/* api_tensor.c - the tensor-layout routes: POST /api/layout (a pasted CuTe,
 * Triton or TMA layout -> byte offsets, equivalents, validators), POST
 * /api/layout/access (a thread layout on that layout: lanes, a named atom, a
 * thread form's text or a tiled copy's print -> the /api/conflicts answer)
 * and GET /api/atoms.  Reads with api_read.c and api_read_layout.c, computes
 * with layout.c, rosetta.c, thread.c and access.c; holds no layout arithmetic. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/access.h"
#include "api_read.h"
#include "api_read_layout.h"
#include "api_routes.h"
#include "api_write.h"
#include "layout/atoms.h"
#include "layout/layout.h"
#include "layout/rosetta.h"
#include "layout/wgmma.h"
#include "layout/thread.h"

#define LAYOUT_FIELDS "layout", "element_bits", "shape", "base", "descriptor", "descriptor_arch"

static void put_swz(struct buf *out, const struct swz *z, const char *name)
{
    buf_printf(out, "{\"b\":%d,\"m\":%d,\"s\":%d,\"text\":\"%s<%d,%d,%d>\"}", z->b, z->m, z->s,
               name, z->b, z->m, z->s);
}

static void put_equivalents(struct buf *out, const struct lay *l, const struct ros_equiv *q)
{
    static const char *const dom[] = {"none", "elements", "bytes"};
    buf_printf(out, ",\"swizzle_domain\":\"%s\",\"swizzle\":", dom[l->domain]);
    if (q->has_swizzle) {
        buf_puts(out, "{\"bytes\":");
        put_swz(out, &q->bytes, "Swizzle");
        buf_puts(out, ",\"elements\":");
        if (q->elements_ok)
            put_swz(out, &q->elems, "Sw");
        else
            buf_puts(out, "null");
        buf_putc(out, '}');
    } else {
        buf_puts(out, "null");
    }
    buf_printf(out, ",\"alignment_bytes\":%u,\"equivalents\":{\"tma\":", q->alignment);
    const char *tma = q->tma >= 0 ? ros_tma_name(q->tma) : q->tma_enum;
    if (tma)
        buf_json_str(out, tma);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"tma_status\":");
    if (tma && q->tma_status)
        buf_json_str(out, q->tma_status);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"gmma_layout_type\":");
    if (q->gmma >= 0)
        buf_printf(out, "{\"value\":%d,\"name\":\"%s\"}", q->gmma, ros_gmma_name(q->gmma));
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"umma_layout_type\":");
    if (q->umma >= 0)
        buf_printf(out, "{\"value\":%d,\"name\":\"%s\"}", q->umma, ros_umma_name(q->umma));
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"f2_linear\":%s,\"contiguous_dim\":%d,\"cute_bytes\":",
               q->linear ? "true" : "false", q->contiguous_dim);
    if (q->cute)
        buf_printf(out, "\"Swizzle<%d,%d,%d>\"", q->cb, q->cm, q->cs);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"triton_swizzled\":");
    if (q->triton)
        buf_printf(out, "\"#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, "
                   "order = [%d, %d]}>\"", q->vec, q->per_phase, q->max_phase, q->order[0],
                   q->order[1]);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"triton_nvmma\":");
    if (q->nvmma)
        buf_printf(out, "\"#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, "
                   "elementBitWidth = %d}>\"", q->nvmma_bytes,
                   q->nvmma_transposed ? "true" : "false", l->element_bits);
    else
        buf_puts(out, "null");
    buf_putc(out, '}');
}

static void put_desc(struct buf *out, const struct ros_desc *d)
{
    const char *name = d->sm100 ? ros_umma_name(d->layout_type) : ros_gmma_name(d->layout_type);
    buf_printf(out, ",\"descriptor\":{\"arch\":\"%s\",\"start_address\":%u,"
               "\"leading_byte_offset\":%u,\"stride_byte_offset\":%u,\"base_offset\":%d,"
               "\"layout_type\":%d,\"layout_name\":\"%s\",\"swizzle_bytes\":%d,"
               "\"tma\":\"%s\",\"pattern_bytes\":%u",
               d->sm100 ? "sm100" : "sm90", d->start, d->lbo, d->sbo, d->base_offset,
               d->layout_type, name ? name : "?", d->swizzle_bytes,
               ros_tma_name(d->swizzle_bytes), d->pattern);
    if (d->sm100)
        buf_printf(out, ",\"version\":%d,\"lbo_mode\":%d", d->version, d->lbo_mode);
    buf_putc(out, '}');
}

/* "wgmma": what a warpgroup wgmma spends reading this tile through the
 * descriptor (the measured rule, wgmma.h), and, when the descriptor's swizzle
 * is not the layout's, which elements it reads instead */
static void put_wgmma(struct buf *out, const struct lay *l, const uint32_t *off,
                      const struct ros_equiv *q, uint32_t base, const struct ros_desc *d)
{
    uint32_t tile = l->size * ((uint32_t)l->element_bits / 8);
    buf_printf(out, ",\"wgmma\":{\"measured\":true,\"tile_bytes\":%u,\"tile_wavefronts\":%u,"
               "\"bytes_per_wavefront\":%u,\"conflicts\":0,\"arbitration\":0,\"rule\":",
               tile, wgmma_wavefronts(tile), WGMMA_BYTES_PER_WAVEFRONT);
    buf_json_str(out, "a warpgroup wgmma reads its shared operands in (A bytes + B bytes) / 128 "
                 "wavefronts per instruction with 0 bank conflicts and 0 arbitration, on every "
                 "layout type (interleave, 32B, 64B, 128B), K- and MN-major, 16-bit, tf32 and "
                 "8-bit, N 8 to 256, A from registers or shared memory; a descriptor that "
                 "disagrees with the data (mode, LBO, SBO, base offset) costs the same: it reads "
                 "the wrong elements, it is not slower");
    buf_puts(out, ",\"data\":");
    buf_json_str(out, WGMMA_DATA);
    struct wgmma_misread m;
    wgmma_misread(l, off, q, base, d, &m);
    buf_puts(out, ",\"misread\":");
    if (!m.applies) {
        buf_puts(out, "null}");
        return;
    }
    buf_printf(out, "{\"descriptor_swizzle\":\"%s\",\"layout_swizzle\":\"%s\",\"wrong\":%u,"
               "\"of\":%u,\"cells\":[", ros_tma_name(d->swizzle_bytes), ros_tma_name(q->tma),
               m.wrong, l->size);
    for (int i = 0; i < m.ncells; i++) {
        buf_printf(out, "%s{\"index\":%u,\"coords\":", i ? "," : "", m.cell[i].index);
        api_put_coords(out, l, m.cell[i].index);
        buf_printf(out, ",\"expected\":%u,\"read\":%u,\"reads_coords\":", m.cell[i].expected,
                   m.cell[i].read);
        if (m.cell[i].read_index == UINT32_MAX)
            buf_puts(out, "null");
        else
            api_put_coords(out, l, m.cell[i].read_index);
        buf_putc(out, '}');
    }
    buf_puts(out, "]}}");
}

/* A tensor print's pointer (CuTe's smem_ptr / swizzle_ptr): the alignment its
 * value gives, the swizzle's span, and how many elements the pointer's low
 * bits move (t->sorted is free scratch by now, the banks overwrite it next:
 * the same layout at an aligned pointer). */
static void put_address(struct buf *out, struct api_tensor *t)
{
    const struct lay *l = &t->l;
    if (l->form != &lay_form_cute || !l->a.cute.has_address)
        return;
    uint64_t a = l->a.cute.address;
    uint64_t align = a ? a & (~a + 1) : 0;
    uint32_t eb = (uint32_t)l->element_bits / 8, span = 0, moved = 0;
    if (l->domain != LAY_SWZ_NONE && l->z.b > 0) {
        int hi = (l->z.yyy_lo > l->z.zzz_lo ? l->z.yyy_lo : l->z.zzz_lo) + l->z.b;
        span = (1u << hi) * (l->domain == LAY_SWZ_ELEMENTS ? eb : 1);
    }
    if (l->addr) {
        struct lay aligned = *l;
        aligned.addr = 0;
        lay_eval(&aligned, t->sorted);
        for (uint32_t i = 0; i < l->size; i++)
            moved += t->sorted[i] != t->off[i];
    }
    buf_printf(out, ",\"address\":{\"value\":\"0x%llx\",\"alignment_bytes\":%llu,"
               "\"swizzle_span_bytes\":%u,\"aligned_to_span\":%s,\"swizzle_reads_address\":%s,"
               "\"moved\":%u,\"note\":", (unsigned long long)a, (unsigned long long)align, span,
               span == 0 || a % span == 0 ? "true" : "false",
               l->domain == LAY_SWZ_BYTES && l->z.b > 0 ? "true" : "false", moved);
    char note[320];
    if (l->domain == LAY_SWZ_BYTES && l->z.b > 0)
        snprintf(note, sizeof note, "the swizzle acts on the full address (swizzle_ptr): offsets "
                 "are Z(pointer + x) - pointer, so a pointer off the %u-byte span moves %u of "
                 "%u elements (tilelang#2379's bug when the kernel assumed an aligned base)",
                 span, moved, l->size);
    else if (span)
        snprintf(note, sizeof note, "the swizzle acts on element offsets from the pointer: the "
                 "offsets do not depend on it, but the banks do unless it is %u-byte aligned",
                 span);
    else
        snprintf(note, sizeof note, "no swizzle: offsets are from the pointer");
    buf_json_str(out, note);
    buf_putc(out, '}');
}

/* Bytes of /api/layout's answer, at most, for `size` elements whose largest
 * offset is `max_off`: its offsets (digits and a comma each), actual_offsets
 * when `moved` (any 32-bit value), banks ("31,") and chunks ("7,"), and 64 KiB
 * for the rest (validators, moved_cells, equivalents: each bounded apart from
 * the size).  A 2^20-element TMA layout's bound is 13.7 MB for 12.7 MB. */
static size_t layout_answer_bound(uint32_t size, uint32_t max_off, int moved)
{
    size_t digits = 1;
    for (uint32_t v = max_off; v >= 10; v /= 10)
        digits++;
    size_t per = (digits + 1) + (moved ? 11 : 0) + 3 + 2;
    return (size_t)size * per + ((size_t)64 << 10);
}

int api_route_layout(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const fields[] = {LAYOUT_FIELDS, NULL};
    cJSON *root;
    struct api_tensor t;
    if (api_tensor_body(req, fields, &root, &t, err) < 0)
        return -1;
    const struct lay *l = &t.l;
    struct ros_equiv q;
    ros_equivalents(l, t.off, t.collisions == 0, &q);
    struct ros_flags f;
    uint32_t *actual = t.tmp;       /* free once sorted */
    ros_validate(l, t.off, &q, t.base, t.has_desc ? &t.desc : NULL, t.collisions, &f, actual);
    /* The answer's size is known before it is built: take it, and the scratch
     * held meanwhile (12 bytes an element), from the answer budget first, and
     * build into one allocation of that size.  Counting only the answer left
     * 100 clients that never read at 300 MB: 256 MB of answers, and 4 workers'
     * scratch on top. */
    size_t bound = layout_answer_bound(l->size, t.sorted[l->size - 1], f.moved != 0);
    if (api_reserve(req, bound + (size_t)l->size * 3 * sizeof *t.off, err) < 0 ||
        buf_reserve(out, bound) < 0) {
        api_tensor_free(&t);
        cJSON_Delete(root);
        return out->oom ? sz_fail(err, SZ_INTERNAL, NULL, "out of memory") : -1;
    }
    uint32_t eb = (uint32_t)l->element_bits / 8;
    buf_printf(out, "{\"form\":\"%s\",\"element_bits\":%d,\"element_bytes\":%u,\"rank\":%d,"
               "\"shape\":", l->form->name, l->element_bits, eb, l->rank);
    buf_u32_array(out, l->shape, (size_t)l->rank);
    buf_printf(out, ",\"size\":%u,\"units\":{\"offsets\":\"bytes\",\"shape\":\"elements\","
               "\"alignment_bytes\":\"bytes\"},\"order\":\"first coordinate fastest\","
               "\"span_bytes\":%u,\"one_to_one\":%s,\"collisions\":%u,\"shared\":",
               l->size, t.sorted[l->size - 1] + eb, t.collisions ? "false" : "true",
               t.collisions);
    if (t.collisions) {
        uint32_t first = UINT32_MAX, second = UINT32_MAX;
        for (uint32_t i = 0; i < l->size && second == UINT32_MAX; i++)
            if (t.off[i] == t.dup) {
                if (first == UINT32_MAX)
                    first = i;
                else
                    second = i;
            }
        buf_printf(out, "{\"offset\":%u,\"coords\":[", t.dup);
        api_put_coords(out, l, first);
        buf_putc(out, ',');
        api_put_coords(out, l, second);
        buf_puts(out, "]}");
    } else {
        buf_puts(out, "null");
    }
    put_equivalents(out, l, &q);
    if (t.has_desc) {
        put_desc(out, &t.desc);
        put_wgmma(out, l, t.off, &q, t.base, &t.desc);
    }
    put_address(out, &t);
    buf_printf(out, ",\"base\":%u,\"validators\":[", t.base);
    for (int i = 0; i < f.n; i++) {
        buf_printf(out, "%s{\"code\":\"%s\",\"severity\":\"%s\",\"message\":", i ? "," : "",
                   f.flag[i].code, f.flag[i].severity);
        buf_json_str(out, f.flag[i].message);
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"moved\":%u,\"moved_cells\":[", f.moved);
    for (int i = 0; i < f.ncells; i++) {
        buf_printf(out, "%s{\"index\":%u,\"coords\":", i ? "," : "", f.cells[i].index);
        api_put_coords(out, l, f.cells[i].index);
        buf_printf(out, ",\"expected\":%u,\"actual\":%u}", f.cells[i].expected, f.cells[i].actual);
    }
    buf_puts(out, "],\"offsets\":");
    buf_u32_array(out, t.off, l->size);
    if (f.moved) {
        buf_puts(out, ",\"actual_offsets\":");
        buf_u32_array(out, actual, l->size);
    }
    /* the page colours by bank and 16-byte chunk of the NVIDIA geometry (32
     * banks x 4 bytes, so 8 chunks a 128-byte row); it is told how many of
     * each there are, and keeps no copy of the geometry */
    enum { BANKS = 32, BANK_BYTES = 4, CHUNK_BYTES = 16, CHUNKS = BANKS * BANK_BYTES / CHUNK_BYTES };
    for (uint32_t i = 0; i < l->size; i++)
        t.sorted[i] = t.off[i] / BANK_BYTES % BANKS;
    buf_printf(out, ",\"num_banks\":%d,\"banks\":", BANKS);
    buf_u32_array(out, t.sorted, l->size);
    for (uint32_t i = 0; i < l->size; i++)
        t.sorted[i] = t.off[i] / CHUNK_BYTES % CHUNKS;
    buf_printf(out, ",\"num_chunks\":%d,\"chunks\":", CHUNKS);
    buf_u32_array(out, t.sorted, l->size);
    buf_putc(out, '}');
    api_tensor_free(&t);
    cJSON_Delete(root);
    return 0;
}

/* ---- access on a layout ------------------------------------------------------ */

/* The thread layout of an access: "lanes" ([[c0, c1], ... 32, null for idle],
 * read here), or a thread form's text, "atom" (a named atom) or "thread"
 * (any row of thread.c's table), placed at "origin".  *src is the field
 * given, which the lane errors name. */
static int read_thread(const cJSON *root, const struct lay *l, struct thr *t, const char **src,
                       int64_t *o, struct sz_error *err)
{
    const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(root, "lanes");
    const cJSON *an = cJSON_GetObjectItemCaseSensitive(root, "atom");
    const cJSON *th = cJSON_GetObjectItemCaseSensitive(root, "thread");
    const cJSON *org = cJSON_GetObjectItemCaseSensitive(root, "origin");
    if ((lanes != NULL) + (an != NULL) + (th != NULL) != 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, th ? "thread" : lanes ? "atom" : "lanes",
                       "give either \"lanes\" (32 coordinates) or \"atom\" and \"origin\"%s",
                       th ? " (or \"thread\", a thread layout's text, and \"origin\")" : "");
    *src = lanes ? "lanes" : an ? "atom" : "thread";
    if (lanes) {
        if (org)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "origin", "goes with \"atom\" or \"thread\" only");
        if (!cJSON_IsArray(lanes) || cJSON_GetArraySize(lanes) != INSTR_LANES)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "lanes",
                           "must be 32 coordinates [c0, ...] of rank %d, or null", l->rank);
        memset(t, 0, sizeof *t);
        t->kind = THR_LANES;
        t->rank = l->rank;
        t->lanes = INSTR_LANES;
        int k = 0;
        for (const cJSON *it = lanes->child; it; it = it->next, k++) {
            char f[24];
            snprintf(f, sizeof f, "lanes[%d]", k);
            t->lane[k][0] = THR_IDLE;
            if (cJSON_IsNull(it))
                continue;
            if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != l->rank)
                return sz_fail(err, SZ_INVALID_ARGUMENT, f,
                               "must be a coordinate of rank %d or null", l->rank);
            int d = 0;
            for (const cJSON *v = it->child; v; v = v->next, d++)
                if (api_num_int(v, f, 0, (double)l->shape[d] - 1, &t->lane[k][d], err) < 0)
                    return sz_fail(err, SZ_INVALID_ARGUMENT, f,
                                   "coordinate %d must be in 0..%u (the shape)", d,
                                   l->shape[d] - 1);
        }
        return 0;
    }
    struct thr_ctx ctx = {*src, l->element_bits, l->rank, l->shape};
    if (an) {       /* the atom row only */
        if (!cJSON_IsString(an) || !thr_form_atom.match(an->valuestring))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "atom", "unknown atom (see GET /api/atoms)");
        memset(t, 0, sizeof *t);
        t->form = &thr_form_atom;
        if (thr_form_atom.parse(an->valuestring, &ctx, t, err) < 0)
            return -1;
    } else if (!cJSON_IsString(th)) {
        return sz_fail(err, SZ_INVALID_ARGUMENT, "thread", "must be a thread layout's text");
    } else if (thr_parse(th->valuestring, &ctx, t, err) < 0) {
        return -1;
    }
    if (org) {
        if (!cJSON_IsArray(org) || cJSON_GetArraySize(org) != l->rank)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "origin", "must be a coordinate of rank %d",
                           l->rank);
        int d = 0;
        for (const cJSON *v = org->child; v; v = v->next, d++)
            if (api_num_int(v, "origin", 0, (double)l->shape[d] - 1, &o[d], err) < 0)
                return -1;
    }
    /* TMA lists the innermost extent first (the box's dim 0 is contiguous): a
     * named atom's (row, contiguous) lanes follow the box's order */
    if (t->kind == THR_LANES && t->form == &thr_form_atom && l->form == &lay_form_tma &&
        l->rank >= 2) {
        for (int k = 0; k < t->lanes; k++)
            if (t->lane[k][0] != THR_IDLE) {
                int64_t x = t->lane[k][0];
                t->lane[k][0] = t->lane[k][1], t->lane[k][1] = x;
            }
        t->swapped = 1;
    }
    if (t->kind == THR_TV)         /* a tiled copy: tiled_instr places each instruction */
        return 0;
    if (t->kind != THR_LANES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, *src,
                       "this thread layout has several instructions; /api/layout/access "
                       "costs one");
    return thr_place(t, o, l->shape, l->rank, err);
}

/* The instruction of an access: the thread form's (which the body may not
 * override) or the body's op, bytes, matrices, trans; the banks the body's. */
static int read_access_instr(const cJSON *root, const struct thr *t, struct instr *in,
                             struct sz_error *err)
{
    static const char *const fixed[] = {"op", "bytes", "matrices", "trans"};
    if (!t->has_instr)
        return api_read_instr_fields(root, 0, in, err);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(root, fixed[i]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, fixed[i], "is set by the atom %s", t->name);
    instr_defaults(in, t->op);
    in->bytes = t->bytes;
    if (instr_is_matrix(t->op)) {
        in->matrices = t->matrices;
        in->trans = t->trans;
    }
    return api_read_instr_fields(root, 1, in, err);
}

/* fit=true on a thread layout that reaches past a CuTe layout's shape: 200
 * {"fits":false,"why":...,"fix":{"field":"layout","value": CuTe's
 * tile_to_shape(layout, shape) text, "shape", "label"}} (fix null when the
 * layout is not CuTe's or does not tile). */
static void put_tile_fix(struct buf *out, const char *text, const struct lay *l,
                         const struct thr *th, const int64_t *origin, const struct sz_error *why)
{
    int64_t ext[LAY_MAX_RANK];
    uint32_t target[LAY_MAX_RANK];
    thr_extent(th, ext);
    for (int d = 0; d < l->rank; d++) {
        uint64_t need = (uint64_t)(origin[d] + (d < 2 ? ext[d] : 1));
        uint64_t r = (need + l->shape[d] - 1) / l->shape[d];
        target[d] = (uint32_t)(l->shape[d] * (r ? r : 1));
    }
    buf_puts(out, "{\"fits\":false,\"why\":");
    api_put_error(out, why);
    buf_puts(out, ",\"fix\":");
    char *fixed = malloc(LAY_MAX_TEXT + 1);
    struct sz_error e2 = {0};
    if (fixed && lay_cute_tile_to_shape(text, l, target, l->rank, fixed, LAY_MAX_TEXT + 1, &e2) == 0) {
        buf_puts(out, "{\"field\":\"layout\",\"value\":");
        buf_json_str(out, fixed);
        buf_puts(out, ",\"shape\":");
        buf_u32_array(out, target, (size_t)l->rank);
        char label[96];
        int k = snprintf(label, sizeof label, "tile_to_shape(layout, (%u", target[0]);
        for (int d = 1; d < l->rank && k > 0 && (size_t)k < sizeof label; d++)
            k += snprintf(label + k, sizeof label - (size_t)k, ", %u", target[d]);
        if (k > 0 && (size_t)k < sizeof label)
            snprintf(label + k, sizeof label - (size_t)k, "))");
        buf_puts(out, ",\"label\":");
        buf_json_str(out, label);
        buf_putc(out, '}');
    } else {
        buf_puts(out, "null");
    }
    free(fixed);
    buf_putc(out, '}');
}

/* One instruction's lanes (THR_LANES) on the layout: each lane's offset, its
 * bytes the tensor's next elements; then instr_check, errors naming the
 * thread field (`src`) and the lane. */
static int lane_offsets(const struct api_tensor *t, const struct thr *th, const char *src,
                        struct instr *in, int64_t c[][LAY_MAX_RANK], struct sz_error *err)
{
    thr_instr(th, 0, 0, c);
    uint32_t lane_bytes = instr_lane_bytes(in), eb = (uint32_t)t->l.element_bits / 8;
    for (int k = 0; k < INSTR_LANES; k++) {
        if (c[k][0] == THR_IDLE)
            continue;
        uint32_t cc[LAY_MAX_RANK];
        for (int d = 0; d < LAY_MAX_RANK; d++)
            cc[d] = (uint32_t)c[k][d];
        uint32_t o = t->off[lay_index(&t->l, cc)];
        for (uint32_t b = eb; b < lane_bytes; b += eb)
            if (!lay_has_offset(t->sorted, t->l.size, o + b)) {
                char f[24];
                snprintf(f, sizeof f, th->form ? "%s" : "%s[%d]", src, k);
                return sz_fail(err, SZ_INVALID_ARGUMENT, f,
                               "lane %d's %u bytes from offset %u are not the tensor's next "
                               "elements in memory (offset %u holds none)", k, lane_bytes, o,
                               o + b);
            }
        in->offsets[k] = o;
    }
    if (instr_check(in, err) < 0) {
        if (strncmp(err->field, "offsets", 7) == 0) {   /* the lanes the caller named */
            char f[sizeof err->field];
            snprintf(f, sizeof f, "%s%.20s", src, th->form ? "" : err->field + 7);
            memcpy(err->field, f, sizeof f);
        }
        return -1;
    }
    return 0;
}

/* ---- a tiled copy: every warp instruction of the tile ----------------------- */

/* A CuTe tiled copy (or an MMA operand's thread-value layout) costed on the
 * pasted layout: one warp instruction per (warp, instruction index), each with
 * its wavefronts, and the chosen one for the picture.  The (thread, value) ->
 * (m, n) map is thread_cute.c's, the cost access.c's. */
#define TILED_MAX_INSTR 4096        /* a 128x128 tile of 16-bit values by 4-byte lanes */

/* The instruction: the atom's when the print fixes it (ldmatrix/stmatrix),
 * else the request's op, with a one-thread atom's width as its bytes. */
static int tiled_op(const cJSON *root, const struct thr *th, struct instr *in,
                    struct sz_error *err)
{
    static const char *const fixed[] = {"op", "bytes", "matrices", "trans"};
    if (th->has_instr) {
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            if (cJSON_GetObjectItemCaseSensitive(root, fixed[i]))
                return sz_fail(err, SZ_INVALID_ARGUMENT, fixed[i],
                               "is set by the copy atom (%s)", th->name);
        instr_defaults(in, th->op);
        in->bytes = 16;
        in->matrices = th->matrices;
        in->trans = th->trans;
        return api_read_instr_fields(root, 1, in, err);
    }
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(root, "op");
    enum instr_op o;
    if (op == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "required: %s name no instruction; give ld or ldmatrix (shared memory "
                       "is the source, S) or st, stmatrix or cp.async (the destination, D)",
                       th->tv.atom == THR_ATOM_ONE_THREAD ?
                       "the one-thread copy atom's layouts (UniversalCopy, cp.async)" :
                       th->tv.atom == THR_ATOM_MMA ? "an MMA's layout lines" : "print_latex's TV lines");
    if (instr_op_parse(cJSON_IsString(op) ? op->valuestring : NULL, &o, err) < 0)
        return -1;
    instr_defaults(in, o);
    if (th->tv.atom == THR_ATOM_ONE_THREAD && !instr_is_matrix(o))
        in->bytes = th->tv.atom_bytes;      /* the print says the width */
    else if (!instr_is_matrix(o) && (instr_kinds[o].widths & (instr_kinds[o].widths - 1)) &&
             !cJSON_GetObjectItemCaseSensitive(root, "bytes")) {
        /* print_latex's lines say no width, and a default of 4 bytes drew a
         * 16-byte cp.async's lanes as a 4-way conflict (issue 39 item 6) */
        char w[64] = "";
        for (uint32_t b = 1; b <= 16; b <<= 1)
            if (instr_kinds[o].widths & (1u << b))
                snprintf(w + strlen(w), sizeof w - strlen(w), "%s%u", w[0] ? ", " : "", b);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes", "required: %s say no instruction "
                       "width; give the bytes a lane of the %s moves (%s)",
                       th->tv.atom == THR_ATOM_MMA ? "an MMA's layout lines" :
                       "print_latex's TV lines", instr_op_name(o), w);
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "global_offsets"))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "global_offsets", "a tiled copy's lanes read "
                       "global memory one after another: give the global side to /api/conflicts");
    return api_read_instr_fields(root, 1, in, err) < 0 ? -1 : api_read_copy(root, in, err);
}

/* The instruction of `root` (op, bytes, matrices, trans, banks: the print's
 * atom fixes what it says), every warp instruction of th (THR_TV) placed at
 * `origin` on layout l (offsets `off`), each costed into `tiled` as the JSON
 * member `,"tiled":{...}`; the one of index `instruction` (default 0) into
 * *in (offsets set, instr_check passed) and its lane coordinates into c.
 * Errors name "thread", "instruction", "op", "bytes" or "origin". */
static int tiled_instr(const cJSON *root, const struct lay *l, const uint32_t *off, struct thr *th,
                       const int64_t *origin, struct instr *in, int64_t c[][LAY_MAX_RANK],
                       struct buf *tiled, struct sz_error *err)
{
    struct thr_tv *tv = &th->tv;
    if (tiled_op(root, th, in, err) < 0 || instr_check_shape(in, err) < 0 ||
        thr_tv_side(th, in->op, instr_lane_bytes(in), l->element_bits, "thread", err) < 0)
        return -1;
    if (l->rank < 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "thread",
                       "a tiled copy's (m, n) needs a layout of rank 2 or more");
    uint64_t n = thr_instructions(th, 0);
    if (n > TILED_MAX_INSTR)
        return sz_fail(err, SZ_TOO_LARGE, "thread", "%llu warp instructions, more than %d",
                       (unsigned long long)n, TILED_MAX_INSTR);
    int64_t sel = 0;
    const cJSON *js = cJSON_GetObjectItemCaseSensitive(root, "instruction");
    if (js && api_num_int(js, "instruction", 0, (double)n - 1, &sel, err) < 0)
        return -1;
    int side = tv->side;
    uint32_t g = (uint32_t)tv->group, groups = tv->values[side] / g;
    uint32_t eb = (uint32_t)l->element_bits / 8, used = instr_used_lanes(in);
    uint64_t wf = 0, ideal = 0, cyc = 0, worst = 0;
    buf_printf(tiled, ",\"tiled\":{\"form\":\"%s\",\"side\":\"%s\",\"label\":",
               th->form ? th->form->name : "?", side ? "D" : "S");
    buf_json_str(tiled, tv->label[side]);
    buf_printf(tiled, ",\"coords\":\"%s\",\"threads\":%u,\"values\":%u,"
               "\"values_per_instruction\":%u,\"warps\":%u,\"instructions\":%llu,"
               "\"origin\":", tv->coords, tv->threads[side], tv->values[side], g, (tv->threads[side] + 31) / 32,
               (unsigned long long)n);
    buf_printf(tiled, "[%lld", (long long)origin[0]);
    for (int d = 1; d < l->rank; d++)
        buf_printf(tiled, ",%lld", (long long)origin[d]);
    buf_puts(tiled, "],\"note\":");
    if (tv->atom == THR_ATOM_ONE_THREAD && tv->atom_bytes == 16 && in->op == INSTR_ST)
        buf_json_str(tiled, "a one-thread 16-byte atom is UniversalCopy<uint128_t> or cp.async "
                     "(SM80_CP_ASYNC_*): the print does not say which. Its shared-memory side is "
                     "costed as st.shared.v4 (16 bytes per lane); for cp.async give op cp.async "
                     "(and cache: .ca or .cg), whose cost also depends on the global addresses");
    else if (!tv->has[1 - side] && tv->atom != THR_ATOM_MMA)
        buf_json_str(tiled, "print_latex's lines name no atom: the instruction is the request's");
    else
        buf_puts(tiled, "null");
    buf_puts(tiled, ",\"list\":[");
    for (uint64_t k = 0; k < n; k++) {
        struct instr ik = *in;
        int64_t lc[THR_MAX_LANES][LAY_MAX_RANK];
        uint64_t warp = k / groups, grp = k % groups;
        for (int ln = 0; ln < INSTR_LANES; ln++) {
            uint64_t thread = warp * 32 + (uint64_t)ln;
            ik.offsets[ln] = INSTR_INACTIVE;
            lc[ln][0] = THR_IDLE;
            if (thread >= tv->threads[side] || (uint32_t)ln >= used)
                continue;
            uint32_t prev = 0;
            for (uint32_t j = 0; j < g; j++) {      /* the lane's values: consecutive bytes */
                int64_t p[LAY_MAX_RANK], m, nn;
                thr_tv_coord(tv, side, (uint32_t)thread, (uint32_t)(grp * g + j), &m, &nn);
                p[0] = m + origin[0], p[1] = nn + origin[1];
                uint32_t cc[LAY_MAX_RANK] = {0};
                for (int d = 0; d < l->rank; d++) {
                    if (d >= 2)
                        p[d] = origin[d];
                    if (p[d] < 0 || p[d] >= l->shape[d])
                        return sz_fail(err, SZ_INVALID_ARGUMENT, "origin",
                                       "thread %llu's value %llu is at (%lld, %lld) of the "
                                       "tile: coordinate %lld of dim %d is outside the shape "
                                       "(%u)", (unsigned long long)thread,
                                       (unsigned long long)(grp * g + j), (long long)m,
                                       (long long)nn, (long long)p[d], d, l->shape[d]);
                    cc[d] = (uint32_t)p[d];
                }
                uint32_t o = off[lay_index(l, cc)];
                if (j == 0) {
                    ik.offsets[ln] = o;
                    memcpy(lc[ln], p, sizeof p);
                } else if (o != prev + eb) {
                    return sz_fail(err, SZ_INVALID_ARGUMENT, "thread",
                                   "instruction %llu: thread %llu's values %llu..%llu are not "
                                   "consecutive in memory on this layout (value %llu at byte "
                                   "%u, not %u): a %u-byte %s cannot move them",
                                   (unsigned long long)k, (unsigned long long)thread,
                                   (unsigned long long)(grp * g),
                                   (unsigned long long)(grp * g + g - 1),
                                   (unsigned long long)(grp * g + j), o, prev + eb,
                                   instr_lane_bytes(in), instr_op_name(in->op));
                }
                prev = o;
            }
        }
        if (instr_check(&ik, err) < 0) {     /* the lane errors, said of this instruction */
            char msg[sizeof err->message];
            memcpy(msg, err->message, sizeof msg);
            msg[sizeof msg - 24] = '\0';
            return sz_fail(err, SZ_INVALID_ARGUMENT, "thread", "instruction %llu, %s",
                           (unsigned long long)k, msg);
        }
        struct acc_result r;
        acc_cost(&ik, &r);
        wf += r.wavefronts, ideal += r.ideal_wavefronts, cyc += r.cycles;
        worst = r.wavefronts > worst ? r.wavefronts : worst;
        buf_printf(tiled, "%s{\"index\":%llu,\"warp\":%llu,\"step\":%llu,\"wavefronts\":%u,"
                   "\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,\"cycles\":%u}", k ? "," : "",
                   (unsigned long long)k, (unsigned long long)warp, (unsigned long long)grp,
                   r.wavefronts, r.ideal_wavefronts, r.bank_conflicts, r.cycles);
        if ((int64_t)k == sel) {
            *in = ik;
            memcpy(c, lc, sizeof lc);
        }
    }
    buf_printf(tiled, "],\"selected\":%lld,\"totals\":{\"wavefronts\":%llu,"
               "\"ideal_wavefronts\":%llu,\"bank_conflicts\":%llu,\"cycles\":%llu,"
               "\"worst_wavefronts\":%llu}}", (long long)sel, (unsigned long long)wf,
               (unsigned long long)ideal, (unsigned long long)(wf - ideal),
               (unsigned long long)cyc, (unsigned long long)worst);
    return tiled->oom ? sz_fail(err, SZ_INTERNAL, NULL, "out of memory") : 0;
}

/* An MMA operand that wgmma reads by descriptor (thr_tv.by_descriptor: a
 * `% LayoutA:`/`% LayoutB:` line of an SM90 SS tiled MMA, whose threads all
 * see the whole tile): no lane addresses shared memory, so there is no lane
 * instruction to cost (a per-lane reading of it finds "values 0..1 are not
 * consecutive", issue 39 item 6).  Its cost is the measured wgmma rule
 * (wgmma.h): its bytes / 128 wavefronts per warpgroup instruction, no bank
 * conflict, whatever the layout; per warp instruction (what the Source page
 * and smsp__inst_executed_pipe_tensor_op_gmma count: 4 a warpgroup) a
 * quarter.  wgmma_reads_h200.json's f16_n64 rows: A and B 2 KB each, 32
 * wavefronts per warpgroup instruction, 16 warp instructions of 4 wgmma, so
 * 8 per warp instruction, 0 conflicts.  The tile must lie inside the layout. */
static int put_by_descriptor(struct buf *out, const cJSON *root, const struct lay *l,
                             const struct thr *th, const int64_t *origin, struct sz_error *err)
{
    static const char *const fixed[] = {"op", "bytes", "matrices", "trans", "instruction"};
    const struct thr_tv *tv = &th->tv;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(root, fixed[i]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, fixed[i], "wgmma reads this %s operand "
                           "through its descriptor, not by a lane instruction: leave %s out",
                           tv->label[0], fixed[i]);
    if (l->rank < 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "thread",
                       "an MMA operand's (m, k) needs a layout of rank 2 or more");
    int64_t hi[2] = {0, 0};
    for (uint32_t v = 0; v < tv->values[0]; v++) {
        int64_t m, n;
        thr_tv_coord(tv, 0, 0, v, &m, &n);
        int64_t p[2] = {m + origin[0], n + origin[1]};
        for (int d = 0; d < 2; d++) {
            if (p[d] < 0 || p[d] >= l->shape[d])
                return sz_fail(err, SZ_INVALID_ARGUMENT, "origin", "the operand's value %u is "
                               "at (%lld, %lld) of the tile: outside the layout's dim %d (%u)",
                               v, (long long)m, (long long)n, d, l->shape[d]);
            hi[d] = p[d] - origin[d] + 1 > hi[d] ? p[d] - origin[d] + 1 : hi[d];
        }
    }
    uint32_t bytes = tv->values[0] * (uint32_t)(l->element_bits / 8);
    uint32_t wg = wgmma_wavefronts(bytes);
    buf_printf(out, "{\"op\":\"wgmma\",\"by_descriptor\":true,\"operand\":");
    buf_json_str(out, tv->label[0]);
    buf_printf(out, ",\"tile\":[%lld,%lld],\"element_bits\":%d,\"bytes\":%u,"
               "\"warpgroup_wavefronts\":%u,\"wavefronts\":%.17g,\"ideal_wavefronts\":%.17g,"
               "\"bank_conflicts\":0,\"ways\":1,\"measured\":true,\"rule\":",
               (long long)hi[0], (long long)hi[1], l->element_bits, bytes, wg, wg / 4.0, wg / 4.0);
    buf_json_str(out, "wgmma reads its shared operands through their descriptors in (A bytes + "
                 "B bytes) / 128 wavefronts per warpgroup instruction, with no bank conflict "
                 "and no arbitration, on every layout type measured; a warp instruction (the "
                 "Source page's unit, 4 to a warpgroup) is a quarter of it: for m64n64k16 f16 "
                 "(A and B 2 KB each) 32 a warpgroup instruction, 8 a warp instruction");
    buf_puts(out, ",\"data\":");
    buf_json_str(out, WGMMA_DATA);
    buf_puts(out, ",\"note\":");
    buf_json_str(out, "no thread addresses this operand (every thread mode's stride is 0, as "
                 "CuTe's GMMA::ABLayout for an SS MMA): this is what the instruction reads of "
                 "it, not a lane access; the other operand's bytes add to the warpgroup's");
    buf_putc(out, '}');
    return out->oom ? sz_fail(err, SZ_INTERNAL, NULL, "out of memory") : 0;
}

/* Bytes of one entry of a tiled copy's list, at most: its keys and
 * punctuation (89), index, warp and step (below TILED_MAX_INSTR: 4 digits
 * each) and the four costs (32-bit: 10 each). */
#define TILED_ENTRY_MAX (89 + 3 * 4 + 4 * 10)
/* The rest of /api/layout/access's answer, at most: the cost object, 32
 * lanes' offsets and coordinates, the atom, the tiled copy's head and totals
 * (each bounded apart from the layout's size; the largest seen is 5 KB). */
#define ACCESS_ANSWER_REST ((size_t)64 << 10)

/* Before /api/layout/access builds its answer: take from the answer budget
 * the layout's scratch, held until the answer is written (12 bytes an
 * element: 12 MB for 2^20), and the answer's bound (a tiled copy lists up to
 * TILED_MAX_INSTR instructions: 0.5 MB), as /api/layout does (issue 36 item
 * 3: counted before it is taken, not after).  0, or -1 with SZ_OVERLOADED. */
static int access_reserve(const struct api_request *req, const struct api_tensor *t,
                          const struct thr *th, struct sz_error *err)
{
    uint64_t n = th->kind == THR_TV ? thr_instructions(th, 0) : 0;
    if (n > TILED_MAX_INSTR)
        n = 0;                  /* tiled_instr refuses it before writing */
    return api_reserve(req, (size_t)t->l.size * 3 * sizeof *t->off + ACCESS_ANSWER_REST +
                                (size_t)n * TILED_ENTRY_MAX, err);
}

int api_route_layout_access(const struct api_request *req, struct buf *out,
                            struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {LAYOUT_FIELDS, "lanes", "atom", "thread", "origin",
                                         "instruction", "fit", "op", "bytes", "matrices",
                                         "trans", "cache", "global_offsets", "bank_bytes",
                                         "banks", NULL};
    cJSON *root = NULL;
    struct api_tensor t = {0};
    struct thr *th = NULL;      /* 3 KB of lanes and bases: off the stack */
    struct buf tiled = {0};     /* a tiled copy's instructions (tiled_instr) */
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = -1;
    const char *src = "lanes";
    struct instr in;
    if (api_fields_check(root, fields, err) < 0 || api_tensor_read(root, &t, err) < 0)
        goto done;
    if ((th = calloc(1, sizeof *th)) == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    int64_t origin[LAY_MAX_RANK] = {0}, c[THR_MAX_LANES][LAY_MAX_RANK];
    const cJSON *fit = cJSON_GetObjectItemCaseSensitive(root, "fit");
    if (fit && !cJSON_IsBool(fit)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "fit", "must be true or false");
        goto done;
    }
    int placed = read_thread(root, &t.l, th, &src, origin, err) == 0;
    if (placed && access_reserve(req, &t, th, err) < 0)
        goto done;
    if (placed && th->kind == THR_TV && th->tv.by_descriptor) {
        rc = put_by_descriptor(out, root, &t.l, th, origin, err);
        goto done;
    }
    if (placed && th->kind == THR_TV)   /* every instruction of a tiled copy; `in` the chosen one */
        placed = tiled_instr(root, &t.l, t.off, th, origin, &in, c, &tiled, err) == 0;
    else if (placed && cJSON_GetObjectItemCaseSensitive(root, "instruction"))
        placed = sz_fail(err, SZ_INVALID_ARGUMENT, "instruction", "goes with a thread layout of "
                         "several instructions (a CuTe tiled copy's print)") == 0;
    else if (placed)
        placed = read_access_instr(root, th, &in, err) == 0 &&
                 lane_offsets(&t, th, src, &in, c, err) == 0;
    if (!placed) {
        /* a thread layout past the shape: with fit, offer CuTe's tile_to_shape */
        if (cJSON_IsTrue(fit) && strcmp(err->field, "origin") == 0 && th->form != NULL &&
            t.l.form == &lay_form_cute) {
            put_tile_fix(out, cJSON_GetObjectItemCaseSensitive(root, "layout")->valuestring,
                         &t.l, th, origin, err);
            rc = 0;
        }
        goto done;
    }
    struct acc_result r;
    acc_cost(&in, &r);
    struct buf cost = {0};
    api_put_cost(&cost, &in, &r);
    if (cost.oom || cost.len < 2) {
        buf_free(&cost);
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    buf_put(out, cost.p, cost.len - 1);     /* the cost object, left open */
    buf_free(&cost);
    buf_puts(out, ",\"offsets\":[");
    for (int k = 0; k < INSTR_LANES; k++) {
        if (k)
            buf_putc(out, ',');
        if (in.offsets[k] == INSTR_INACTIVE)
            buf_puts(out, "null");
        else
            buf_i64(out, in.offsets[k]);
    }
    buf_puts(out, "],\"coords\":[");
    for (int k = 0; k < INSTR_LANES; k++) {
        buf_puts(out, k ? "," : "");
        if (in.offsets[k] == INSTR_INACTIVE) {
            buf_puts(out, "null");
            continue;
        }
        uint32_t cc[LAY_MAX_RANK];
        for (int d = 0; d < LAY_MAX_RANK; d++)
            cc[d] = (uint32_t)c[k][d];
        buf_u32_array(out, cc, (size_t)t.l.rank);
    }
    buf_printf(out, "],\"element_bits\":%d,%s\"atom\":", t.l.element_bits,
               th->swapped ? "\"atom_axes\":\"swapped: the atom's (row, contiguous) "
               "coordinates as the box's (dim 1, dim 0), TMA lists the innermost extent "
               "first\"," : "");
    if (th->name)
        buf_json_str(out, th->name);
    else
        buf_puts(out, "null");
    if (tiled.len)
        buf_put(out, tiled.p, tiled.len);
    buf_putc(out, '}');
    rc = 0;
done:
    buf_free(&tiled);
    free(th);
    api_tensor_free(&t);
    cJSON_Delete(root);
    return rc;
}

int api_route_atoms(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (api_args_check(req, known, err) < 0)
        return -1;
    int n;
    const struct atom *a = atom_list(&n);
    buf_puts(out, "{\"atoms\":[");
    for (int i = 0; i < n; i++) {
        const char *const text[4][2] = {{"name", a[i].name}, {"label", a[i].label},
                                        {"coords", a[i].coords}, {"source", a[i].source}};
        buf_puts(out, i ? ",{" : "{");
        for (int k = 0; k < 4; k++) {     /* the strings, escaped */
            api_put_key(out, text[k][0]);
            buf_json_str(out, text[k][1]);
            buf_putc(out, ',');
        }
        buf_printf(out, "\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s}",
                   instr_op_name(a[i].op), a[i].bytes, a[i].matrices, a[i].trans ? "true" : "false");
    }
    buf_puts(out, "]}");
    return 0;
}
