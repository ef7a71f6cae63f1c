/* swizzle.c - validation of Swizzle<B,M,S> and of the grid it is drawn on, the
 * tile / grid / bank maps, and the inspector's view of one cell.  Pure: no I/O,
 * no allocation, callers own the buffers; the per-offset formula itself is the
 * inline in swizzle.h, and everything here is read off what it computes. */
#include "swizzle.h"

int swz_init(struct swz *z, int b, int m, int s, struct sz_error *err)
{
    /* Field ranges first, so the message names the one field that is wrong;
     * then the joint rules, which name the field a user most likely changed. */
    if (b < 0 || b > SZ_SWZ_B_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "b",
                       "BBits must be in 0..%d, got %d", SZ_SWZ_B_MAX, b);
    if (m < 0 || m > SZ_SWZ_M_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                       "MBase must be in 0..%d, got %d", SZ_SWZ_M_MAX, m);
    if (s < -SZ_SWZ_S_MAX || s > SZ_SWZ_S_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "s",
                       "SShift must be in %d..%d, got %d", -SZ_SWZ_S_MAX, SZ_SWZ_S_MAX, s);
    int abs_s = s < 0 ? -s : s;
    if (abs_s < b)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "s",
                       "|SShift| must be >= BBits (%d), got %d: the YYY and ZZZ "
                       "fields would overlap", b, s);
    if (m + abs_s + b > 31)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                       "MBase + |SShift| + BBits must be <= 31 (offsets are below "
                       "2^31), got %d + %d + %d = %d", m, abs_s, b, m + abs_s + b);
    uint32_t ones = (1u << b) - 1;
    z->b = b;
    z->m = m;
    z->s = s;
    z->yyy_lo = m + (s > 0 ? s : 0);
    z->zzz_lo = m - (s < 0 ? s : 0);
    z->yyy_msk = ones << z->yyy_lo;
    z->zzz_msk = ones << z->zzz_lo;
    return 0;
}

int swz_period_bits(const struct swz *z)
{
    if (z->b == 0)
        return z->m;
    int abs_s = z->s < 0 ? -z->s : z->s;
    /* The higher of the two fields ends at M + |S| + B.  Both fields must lie
     * inside one aligned block for apply to permute that block onto itself. */
    return z->m + abs_s + z->b;
}

int swz_on_elements(const struct swz *z, int elem_log, struct swz *e, struct sz_error *err)
{
    /* An element index is the byte offset >> elem_log: the fields move down
     * by elem_log, which keeps them whole only while the unit holds whole
     * elements. */
    if (z->m < elem_log)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                       "a %u-byte unit splits a %u-byte element (needs M >= %d)",
                       1u << z->m, 1u << elem_log, elem_log);
    return swz_init(e, z->b, z->m - elem_log, z->s, err);
}

int swz_geom_init(struct swz_geom *g, const struct swz *z, uint32_t bank_bytes,
                  uint32_t banks, uint32_t rows, int match_bank_row,
                  struct sz_error *err)
{
    if (!bits_is_pow2(bank_bytes) || bank_bytes > SZ_MAX_BANK_BYTES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bank_bytes",
                       "bytes per bank must be a power of two in 1..%u, got %u",
                       SZ_MAX_BANK_BYTES, bank_bytes);
    if (!bits_is_pow2(banks) || banks > SZ_MAX_BANKS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "number of banks must be a power of two in 1..%u, got %u",
                       SZ_MAX_BANKS, banks);
    uint32_t unit = 1u << z->m;
    uint32_t bank_row = bank_bytes * banks;
    int abs_s = z->s < 0 ? -z->s : z->s;
    uint32_t cols;
    if (match_bank_row) {
        if (unit > bank_row)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "match_bank_row",
                           "a unit of 2^M = %u bytes is wider than the bank row "
                           "(%u bytes): lower M or widen the banks", unit, bank_row);
        cols = bank_row / unit;
    } else {
        if (abs_s > 20)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "s",
                           "a grid row of 2^|S| units must be at most 2^20 cells: "
                           "|S| in 0..20, got %d", z->s);
        cols = 1u << abs_s;
    }
    if (rows == 0)
        rows = 1u << z->b;
    if (rows > SWZ_MAX_CELLS || (uint64_t)rows * cols > SWZ_MAX_CELLS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                       "a map is at most %u cells; %u rows x %u units is too many: "
                       "rows in 1..%u", SWZ_MAX_CELLS, rows, cols, SWZ_MAX_CELLS / cols);
    uint64_t row_bytes = (uint64_t)cols * unit;
    uint64_t bytes = row_bytes * rows;
    if (bytes > SZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                       "the grid is %llu bytes; offsets end at 2^31: use fewer rows "
                       "or a smaller M", (unsigned long long)bytes);
    uint64_t period = (uint64_t)1 << swz_period_bits(z);
    if (bytes % period != 0) {
        uint64_t step = period > row_bytes ? period / row_bytes : 1;
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                       "the swizzle permutes blocks of %llu bytes and a grid row is "
                       "%llu bytes, so rows must be a multiple of %llu, got %u",
                       (unsigned long long)period, (unsigned long long)row_bytes,
                       (unsigned long long)step, rows);
    }
    g->bank_bytes = bank_bytes;
    g->banks = banks;
    g->unit_bytes = unit;
    g->rows = rows;
    g->cols = cols;
    g->cells = rows * cols;
    g->tile = 1u << z->b;
    g->tile_bytes = (uint64_t)g->tile * g->tile * unit;
    g->match_bank_row = match_bank_row;
    g->row_bytes = (uint32_t)row_bytes;
    g->bytes = (uint32_t)bytes;
    g->tiles_per_row = cols >= g->tile ? cols / g->tile : 1;
    g->tile_rows = (rows + g->tile - 1) / g->tile;
    g->bank_row_bytes = bank_row;
    g->bank_rows = (uint32_t)((bytes + bank_row - 1) / bank_row);
    g->units_per_bank_row = unit <= bank_row ? bank_row / unit : 0;
    g->bank_rows_per_unit = unit > bank_row ? unit / bank_row : 0;
    return 0;
}

uint32_t swz_unit_banks(const struct swz_geom *g)
{
    if (g->unit_bytes <= g->bank_bytes)
        return 1;
    uint32_t n = g->unit_bytes / g->bank_bytes;
    return n < g->banks ? n : g->banks;
}

uint32_t swz_units_per_bank(const struct swz_geom *g)
{
    return g->unit_bytes < g->bank_bytes ? g->bank_bytes / g->unit_bytes : 1;
}

uint32_t swz_slot_banks(const struct swz_geom *g, uint32_t slot, uint32_t *out)
{
    /* A unit is aligned to its size and banks are powers of two, so its bytes
     * cover consecutive banks from the first one (wrapping past the last). */
    uint32_t first = swz_bank_of(slot * g->unit_bytes, g->bank_bytes, g->banks);
    uint32_t n = swz_unit_banks(g);
    for (uint32_t i = 0; i < n; i++)
        out[i] = (first + i) % g->banks;
    return n;
}

void swz_grid_maps(const struct swz *z, const struct swz_geom *g, uint32_t *log_of,
                   uint32_t *phys_of, uint32_t *bank_of)
{
    /* Units are aligned and the swizzle moves only bits >= M, so a unit maps to
     * a whole unit: p = apply(l * unit) / unit. */
    for (uint32_t l = 0; l < g->cells; l++) {
        uint32_t p = swz_apply(z, l << z->m) >> z->m;
        if (log_of)
            log_of[p] = l;
        if (phys_of)
            phys_of[l] = p;
    }
    if (bank_of)
        for (uint32_t p = 0; p < g->cells; p++)
            bank_of[p] = swz_bank_of(p << z->m, g->bank_bytes, g->banks);
}

void swz_tile_maps(const struct swz *z, uint32_t *log_of, uint32_t *phys_of)
{
    uint32_t t = 1u << z->b;
    int row_shift = z->s < 0 ? -z->s : z->s;    /* a swizzle row is 2^|S| units */
    uint32_t col_mask = (1u << row_shift) - 1;
    for (uint32_t r = 0; r < t; r++) {
        for (uint32_t c = 0; c < t; c++) {
            uint32_t u = (r << row_shift) | c;
            uint32_t p = swz_apply(z, u << z->m) >> z->m;
            uint32_t pos = (p >> row_shift) * t + (p & col_mask);
            if (log_of)
                log_of[pos] = r * t + c;
            if (phys_of)
                phys_of[r * t + c] = pos;
        }
    }
}

/* apply is an involution that permutes the grid (swz_geom_init), so the
 * slot of unit l and the unit at slot l are the same number. */
void swz_grid_range(const struct swz *z, const struct swz_geom *g, uint32_t from,
                    uint32_t n, uint32_t *log_of, uint32_t *phys_of, uint32_t *bank_of)
{
    /* One loop per array asked for, the swizzle's constants and the bank's
     * shift and mask out of it: bank_bytes and banks are powers of two
     * (swz_geom_init), so swz_bank_of's two divisions are a shift and a mask.
     * These fills are half the time of streaming a million-cell map. */
    int m = z->m, s = z->s;
    uint32_t yyy = z->yyy_msk;
    uint32_t *maps[2] = {log_of, phys_of};
    for (int k = 0; k < 2; k++) {
        uint32_t *out = maps[k];
        if (out == NULL)
            continue;
        if (s >= 0)
            for (uint32_t i = 0; i < n; i++) {
                uint32_t a = (from + i) << m;
                out[i] = (a ^ ((a & yyy) >> s)) >> m;
            }
        else
            for (uint32_t i = 0; i < n; i++) {
                uint32_t a = (from + i) << m;
                out[i] = (a ^ ((a & yyy) << -s)) >> m;
            }
    }
    if (bank_of) {
        int shift = __builtin_ctz(g->bank_bytes);
        uint32_t mask = g->banks - 1;
        for (uint32_t i = 0; i < n; i++)
            bank_of[i] = (((from + i) << m) >> shift) & mask;
    }
}

/* As swz_tile_maps: tile position (r, c) is unit (r << |S|) | c; the unit at a
 * position is found by the same involution. */
void swz_tile_range(const struct swz *z, uint32_t from, uint32_t n, uint32_t *log_of,
                    uint32_t *phys_of)
{
    int b = z->b, row_shift = z->s < 0 ? -z->s : z->s, m = z->m, s = z->s;
    uint32_t t_mask = (1u << b) - 1, col_mask = (1u << row_shift) - 1, yyy = z->yyy_msk;
    uint32_t *maps[2] = {log_of, phys_of};
    for (int j = 0; j < 2; j++) {   /* one loop per array, the sign of S out of it */
        uint32_t *out = maps[j];
        for (uint32_t i = 0; out && i < n; i++) {
            uint32_t k = from + i;
            uint32_t a = (((k >> b) << row_shift) | (k & t_mask)) << m;
            uint32_t p = (a ^ (s >= 0 ? (a & yyy) >> s : (a & yyy) << -s)) >> m;
            out[i] = ((p >> row_shift) << b) + (p & col_mask);
        }
    }
}

int swz_addr_bits(const struct swz *z, const struct swz_geom *g)
{
    int width = swz_period_bits(z);
    uint64_t top = (uint64_t)g->cells << z->m;
    while (width < 31 && ((uint64_t)1 << width) < top)
        width++;
    return width < 1 ? 1 : width;
}


/* A unit's address on a grid of 2^k columns:
 *
 *   bit:  ... | M+k+B-1 .. M+k | ... | M+B-1 .. M | M-1 .. 0
 *             |  row mod 2^B   |     | col mod 2^B | in unit
 *
 * The slot moves inside its row by col ^= row exactly when ZZZ is the
 * column's low B bits and YYY the row's (zzz_lo = M, yyy_lo = M + k); the
 * other way round it moves inside its column.  Any other placement mixes. */
enum swz_slot_rule swz_slot_rule(const struct swz *z, const struct swz_geom *g)
{
    if (z->b == 0)
        return SWZ_RULE_IDENTITY;
    int col_lo = z->m, row_lo = z->m + bits_log2_floor(g->cols);
    if (z->zzz_lo == col_lo && z->yyy_lo == row_lo)
        return SWZ_RULE_COL_XOR_ROW;
    if (z->yyy_lo == col_lo && z->zzz_lo == row_lo)
        return SWZ_RULE_ROW_XOR_COL;
    return SWZ_RULE_GENERAL;
}

const char *swz_slot_rule_name(enum swz_slot_rule r)
{
    static const char *const names[] = {"identity", "col_xor_row", "row_xor_col", "general"};
    return (unsigned)r < 4 ? names[r] : "?";
}

static struct swz_addr addr_of(const struct swz *z, const struct swz_geom *g, uint32_t addr)
{
    struct swz_addr a;
    a.addr = addr;
    a.unit = addr >> z->m;
    a.row = a.unit / g->cols;
    a.col = a.unit % g->cols;
    return a;
}

void swz_inspect(const struct swz *z, const struct swz_geom *g, uint32_t row, uint32_t col,
                 struct swz_cell *c)
{
    uint32_t t = g->tile, ones = t - 1;
    c->logical = addr_of(z, g, (row * g->cols + col) << z->m);
    c->physical = addr_of(z, g, swz_apply(z, c->logical.addr));
    c->bits = swz_addr_bits(z, g);
    c->tile_row = c->logical.row / t;
    c->tile_col = c->logical.col / t;
    c->row_in_tile = c->logical.row % t;
    c->col_in_tile = c->logical.col % t;
    c->row_mod = c->logical.row & ones;
    c->phys_row_in_tile = c->physical.row % t;
    c->phys_col_in_tile = c->physical.col % t;
    c->slot = c->phys_col_in_tile;
    c->yyy = (c->logical.addr >> z->yyy_lo) & ones;
    c->zzz = (c->logical.addr >> z->zzz_lo) & ones;
    c->zzz_swizzled = (c->physical.addr >> z->zzz_lo) & ones;
    c->nbanks = swz_slot_banks(g, c->physical.unit, c->bank);
}

static struct swz_byte_place place_of(const struct swz_geom *g, uint32_t addr, uint32_t n)
{
    struct swz_byte_place b;
    b.bank = swz_bank_of(addr, g->bank_bytes, g->banks);
    b.bank_row = addr / g->bank_row_bytes;
    b.word_lo = addr % g->bank_bytes;
    b.word_hi = b.word_lo + n;
    return b;
}

int swz_inspect_byte(const struct swz_geom *g, const struct swz_cell *c, uint32_t bank,
                     long bank_row, int plain, uint32_t elem_bytes, struct swz_byte *out,
                     struct sz_error *err)
{
    /*   the unit's bytes [P, P+U) on the map asked about, bank words of bb bytes:
     *   word w holds bytes [w*bb, (w+1)*bb), in bank w % banks, bank row w / banks.
     * The unit's words are w0..w1; the cell asked for is the one of those in
     * `bank` (and `bank_row`), and its bytes are the overlap of word and unit.
     * Units and words are both aligned powers of two, so the overlap is the
     * whole word or the whole unit, on either map. */
    uint64_t p = plain ? c->logical.addr : c->physical.addr;
    uint64_t u = g->unit_bytes, bb = g->bank_bytes, nb = g->banks;
    uint64_t w0 = p / bb, w1 = (p + u - 1) / bb, w;
    if (bank_row < 0) {
        w = w0 + (bank + nb - w0 % nb) % nb;
        if (w > w1)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bank",
                           "bank %u holds no byte of this unit (its banks: %llu..%llu)", bank,
                           (unsigned long long)(w0 % nb),
                           (unsigned long long)(w1 - w0 >= nb ? (w0 + nb - 1) % nb : w1 % nb));
    } else {
        w = (uint64_t)bank_row * nb + bank;
        if (w < w0 || w > w1)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bank_row",
                           "bank %u of bank row %ld holds no byte of this unit (it lies in "
                           "bank rows %llu..%llu)", bank, bank_row,
                           (unsigned long long)(w0 / nb), (unsigned long long)(w1 / nb));
    }
    uint64_t lo = w * bb > p ? w * bb : p, hi = (w + 1) * bb < p + u ? (w + 1) * bb : p + u;
    uint32_t n = (uint32_t)(hi - lo);
    out->unit_lo = (uint32_t)(lo - p);
    out->unit_hi = out->unit_lo + n;
    out->phys_lo = c->physical.addr + out->unit_lo;
    out->logical_lo = c->logical.addr + out->unit_lo;
    out->plain = place_of(g, out->logical_lo, n);
    out->swizzled = place_of(g, out->phys_lo, n);
    out->elem_bytes = elem_bytes;
    out->elem_first = out->elem_last = out->elem_byte_lo = 0;
    if (elem_bytes > 0) {
        /* the bytes' place in their logical row, counted in elements */
        uint32_t in_row = out->logical_lo - c->logical.row * g->row_bytes;
        out->elem_first = in_row / elem_bytes;
        out->elem_last = (in_row + n - 1) / elem_bytes;
        out->elem_byte_lo = in_row % elem_bytes;
    }
    return 0;
}

void swz_unit_byte_word(const struct swz_geom *g, const struct swz_cell *c, uint32_t byte,
                        int plain, uint32_t *bank, uint32_t *bank_row)
{
    struct swz_byte_place p = place_of(g, (plain ? c->logical.addr : c->physical.addr) + byte, 1);
    *bank = p.bank;
    *bank_row = p.bank_row;
}
