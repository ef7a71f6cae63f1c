/* firstscreen.c - the main page's first screen written into its template for
 * the URL's state (firstscreen.h): the controls' values and menus, the
 * readout, stats, bit strip, verdict sentence, colour legend and the two
 * tiles as SVG, so that the first paint shows them before any module loads.
 *
 * It must not compute a model fact nor word one differently from the page:
 * it asks the API (api_handle, the very routes the page asks) and prints the
 * answers as the page's JS prints them, byte for byte once parsed
 * (tests/browser/firstscreen_checks.mjs holds the two to each other).
 *
 * Design notes:
 * - It reads the API's answers as the page does, parsed (cJSON), never the
 *   model's structs: what the page shows first is what /api/ answers.  It
 *   builds no JSON.  The three answers come from the API's cache after the
 *   first time (about 0.5 ms for the page here; the plain file, 0.35 ms).
 * - The JS takes over as on a plain page: it writes the same markup (dom.js
 *   then leaves it alone), refills the menus, and mapview.js replaces a
 *   tile's SVG with its canvas on its first draw (el.innerHTML).
 * - The tiles are laid out as maplayout.js's gridLayout lays them out at a
 *   1440 x 900 window (TILE_AVAIL below: the tile box widths measured there);
 *   in another window the JS's first draw moves them to its own sizes.  The
 *   SVG is at least an 8 x 8 tile's height, the min-height maps.js gives the
 *   box, so that nothing below moves when the JS draws.
 * - No inline style or script (the page's CSP): SVG attributes and the
 *   classes style.css has for exports (.cell, .lbl, k0..k15).
 * - A state it does not render gets the template with every marker replaced
 *   by what the page holds without the server: the page as it was. */
#include "firstscreen.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* An /api/ answer larger than this is not parsed here (a grid of many rows):
 * the plain page. The first screen needs a few KiB of it. */
#define FS_MAX_ANSWER ((size_t)512 << 10)

/* The markers: content markers "<!--fs:NAME-->DEFAULT<!--/fs-->" keep
 * DEFAULT on the plain page; attribute markers ` data-fs="NAME"` become
 * `plain` there.  The order is the enum's. */
enum fs_mark {
    FS_HTML, FS_THEME, FS_PALETTE, FS_PRESENT, FS_SIDE, FS_PRESET, FS_B, FS_M, FS_S,
    FS_BANK_BYTES, FS_BANKS, FS_BANK_ROW, FS_ROWS, FS_MATCH, FS_ELEM, FS_ELEM_CLASS,
    FS_ELEM_TEXT, FS_SHOW, FS_READOUT, FS_STATS, FS_VERDICT_CLASS, FS_VERDICT, FS_LEGEND,
    FS_BITSTRIP, FS_TILE_PLAIN, FS_TILE_SWZ, FS_XBAR, FS_N
};
static const struct { const char *name, *plain; } marks[FS_N] = {
    [FS_HTML] = {"html", ""}, [FS_THEME] = {"theme", NULL}, [FS_PALETTE] = {"palette", NULL},
    [FS_PRESENT] = {"present", ""}, [FS_SIDE] = {"side", " checked"},
    [FS_PRESET] = {"preset", NULL}, [FS_B] = {"b", ""}, [FS_M] = {"m", ""}, [FS_S] = {"s", ""},
    [FS_BANK_BYTES] = {"bank_bytes", NULL}, [FS_BANKS] = {"banks", NULL},
    [FS_BANK_ROW] = {"bank-row", NULL}, [FS_ROWS] = {"rows", ""}, [FS_MATCH] = {"match", ""},
    [FS_ELEM] = {"elem", NULL}, [FS_ELEM_CLASS] = {"elem-class", " class=\"help\""},
    [FS_ELEM_TEXT] = {"elem-swizzle", NULL}, [FS_SHOW] = {"show", NULL},
    [FS_READOUT] = {"readout", NULL}, [FS_STATS] = {"stats", NULL},
    [FS_VERDICT_CLASS] = {"verdict-class", " class=\"verdict-line\""},
    [FS_VERDICT] = {"verdict-line", NULL}, [FS_LEGEND] = {"legend", NULL},
    [FS_BITSTRIP] = {"bitstrip", NULL}, [FS_TILE_PLAIN] = {"tile-plain", NULL},
    [FS_TILE_SWZ] = {"tile-swz", NULL}, [FS_XBAR] = {"xbar", NULL},
};
static const char OPEN[] = "<!--fs:", CLOSE[] = "<!--/fs-->", ATTR[] = " data-fs=\"";

/* The element types of the page's menu (elements.js ELEMENT_TYPES: notation). */
static const struct { const char *id, *label; int bytes; const char *name; } elem_types[] = {
    {"", "Units", 0, ""}, {"fp32", "fp32 (4 B)", 4, "fp32"}, {"fp16", "fp16 / bf16 (2 B)", 2, "fp16/bf16"},
    {"fp8", "fp8 (1 B)", 1, "fp8"}, {"bytes", "Raw bytes", 1, "byte"},
};
#define N_ELEM_TYPES (sizeof elem_types / sizeof elem_types[0])

/* The tile box's width at a 1440 x 900 window (maps.js availWidth: the
 * figure's clientWidth), by [presenter][controls hidden]; measured with the
 * page: 497 / 667 px, and 477 / 667 px in presenter mode. */
static const int TILE_AVAIL[2][2] = {{497, 667}, {477, 667}};

/* The page state as state.js's fromSearch reads it (the part drawn here). */
struct fs_state {
    const char *b, *m, *s, *bank_bytes, *banks, *rows, *pat;
    int match, dark, present, cb, hide, elem, show_row;
    long step;
    char pool[FIRSTSCREEN_MAX_QUERY + 64];   /* trimmed copies */
    size_t used;
};

struct fs_ctx {
    struct fs_state st;
    const cJSON *d, *presets, *limits, *acc;
    int bad;                        /* an answer lacked a member: the plain page */
    struct buf part[FS_N];
};

/* ---- reading the query ---------------------------------------------------- */

static const char *arg(const struct api_arg *a, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(a[i].key, key) == 0)
            return a[i].value;
    return NULL;
}

static int yes(const char *v)
{
    return v && (strcasecmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
                 strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0);
}

static int is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* v trimmed (String.trim on ASCII whitespace), copied into the state's pool. */
static const char *trimmed(struct fs_state *st, const char *v)
{
    while (is_space(*v))
        v++;
    size_t n = strlen(v);
    while (n && is_space(v[n - 1]))
        n--;
    if (st->used + n + 1 > sizeof st->pool)
        return NULL;
    char *p = st->pool + st->used;
    memcpy(p, v, n);
    p[n] = '\0';
    st->used += n + 1;
    return p;
}

/* state.js parseCount: /^\d{1,9}$/ or dflt. */
static long count_of(const char *v, long dflt)
{
    size_t n = v ? strlen(v) : 0;
    if (n < 1 || n > 9 || strspn(v, "0123456789") != n)
        return dflt;
    return strtol(v, NULL, 10);
}

/* Fill st from the query; 0, or -1 for a state the server leaves to the JS. */
static int read_state(struct fs_state *st, const struct api_arg *a, int n)
{
    size_t total = 0;
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++)
        total += strlen(a[i].key) + strlen(a[i].value) + 2;
    if (total > FIRSTSCREEN_MAX_QUERY)
        return -1;
    const char *acc = arg(a, n, "acc");
    if ((acc && (strcmp(acc, "custom") == 0 || strcmp(acc, "expr") == 0)) || arg(a, n, "lesson") ||
        yes(arg(a, n, "predict")) || yes(arg(a, n, "embed")) || arg(a, n, "sel") || arg(a, n, "tcol") ||
        yes(arg(a, n, "trans")) || (arg(a, n, "space") && strcmp(arg(a, n, "space"), "physical") == 0))
        return -1;
    static const char *const keys[] = {"b", "m", "s", "bank_bytes", "banks", "rows", "pat"};
    static const char *const dflt[] = {"2", "4", "3", "4", "32", "", "col_read"};
    const char **to[] = {&st->b, &st->m, &st->s, &st->bank_bytes, &st->banks, &st->rows, &st->pat};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *v = arg(a, n, keys[k]);
        *to[k] = v ? trimmed(st, v) : dflt[k];
        if (*to[k] == NULL)
            return -1;
    }
    const char *th = arg(a, n, "theme"), *el = arg(a, n, "elem");
    st->match = yes(arg(a, n, "match"));
    st->dark = th && strcmp(th, "dark") == 0;
    st->present = (th && strcmp(th, "presenter") == 0) || yes(arg(a, n, "present"));
    st->cb = arg(a, n, "palette") && strcmp(arg(a, n, "palette"), "cb") == 0;
    st->hide = arg(a, n, "side") && strcmp(arg(a, n, "side"), "hide") == 0;
    st->show_row = arg(a, n, "show") && strcmp(arg(a, n, "show"), "row") == 0;
    st->elem = 0;
    for (size_t k = 1; el && k < N_ELEM_TYPES; k++)
        if (strcmp(el, elem_types[k].id) == 0)
            st->elem = (int)k;
    st->step = count_of(arg(a, n, "step"), 0);
    return 0;
}

/* ---- the API's answers ------------------------------------------------------ */

static cJSON *ask(const char *path, const struct api_arg *a, int n)
{
    struct api_request req = {.method = "GET", .path = path, .args = a, .nargs = n};
    struct api_response r = {0};
    api_handle(&req, &r);
    cJSON *j = NULL;
    if (r.status == 200 && r.body && r.len <= FS_MAX_ANSWER)
        j = cJSON_ParseWithLength(r.body, r.len);
    free(r.body);
    return j;
}

static const cJSON *get(struct fs_ctx *c, const cJSON *o, const char *k)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
    if (v == NULL)
        c->bad = 1;
    return v;
}

/* A number member as the page prints it (${x}: integers here). */
static long long num(struct fs_ctx *c, const cJSON *o, const char *k)
{
    const cJSON *v = get(c, o, k);
    if (!cJSON_IsNumber(v)) {
        c->bad = 1;
        return 0;
    }
    return (long long)v->valuedouble;
}

static const char *str(struct fs_ctx *c, const cJSON *o, const char *k)
{
    const cJSON *v = get(c, o, k);
    if (!cJSON_IsString(v)) {
        c->bad = 1;
        return "";
    }
    return v->valuestring;
}

/* ---- writing ---------------------------------------------------------------- */

/* esc.js: & < > " ' as entities. */
static void esc(struct buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': buf_puts(b, "&amp;"); break;
        case '<': buf_puts(b, "&lt;"); break;
        case '>': buf_puts(b, "&gt;"); break;
        case '"': buf_puts(b, "&quot;"); break;
        case '\'': buf_puts(b, "&#39;"); break;
        default: buf_putc(b, *s);
        }
    }
}

/* A coordinate as JavaScript prints it (integers and halves here). */
static void coord(struct buf *b, double v) { buf_printf(b, "%.10g", v); }

static void option(struct buf *b, const char *value, const char *text, int selected)
{
    buf_puts(b, "<option value=\"");
    esc(b, value);
    buf_puts(b, selected ? "\" selected>" : "\">");
    esc(b, text);
    buf_puts(b, "</option>");
}

/* ---- the controls ------------------------------------------------------------- */

/* display.js apply(): <html>'s data attributes and the display controls. */
static void render_display(struct fs_ctx *c)
{
    const struct fs_state *st = &c->st;
    buf_printf(&c->part[FS_HTML], " data-theme=\"%s\" data-present=\"%s\" data-palette=\"%s\""
               " data-side=\"%s\" data-embed=\"\" data-predict=\"\"", st->dark ? "dark" : "light",
               st->present ? "1" : "0", st->cb ? "cb" : "standard", st->hide ? "hide" : "show");
    option(&c->part[FS_THEME], "", "Light", !st->dark);
    option(&c->part[FS_THEME], "dark", "Dark", st->dark);
    option(&c->part[FS_PALETTE], "", "Standard", !st->cb);
    option(&c->part[FS_PALETTE], "cb", "Colour-blind safe", st->cb);
    buf_puts(&c->part[FS_PRESENT], st->present ? " checked aria-checked=\"true\"" : " aria-checked=\"false\"");
    buf_puts(&c->part[FS_SIDE], st->hide ? "" : " checked");
}

/* limits.js fillPow2Select, then app.js setSelect (a value not listed is added). */
static void pow2_menu(struct fs_ctx *c, struct buf *b, const char *field, const char *value)
{
    const cJSON *l = get(c, c->limits, field);
    long long lo = num(c, l, "min"), hi = num(c, l, "max");
    int found = 0;
    char v[24];
    for (long long x = lo; x >= 1 && x <= hi; x *= 2) {
        snprintf(v, sizeof v, "%lld", x);
        found |= strcmp(v, value) == 0;
        option(b, v, v, strcmp(v, value) == 0);
    }
    if (!found)
        option(b, value, value, 1);
}

/* A number input's value, min and max (applyLimits). */
static void number_input(struct fs_ctx *c, struct buf *b, const char *field, const char *value)
{
    const cJSON *l = get(c, c->limits, field);
    buf_puts(b, " value=\"");
    esc(b, value);
    buf_printf(b, "\" min=\"%lld\" max=\"%lld\"", num(c, l, "min"), num(c, l, "max"));
}

static void render_controls(struct fs_ctx *c)
{
    const struct fs_state *st = &c->st;
    const cJSON *p;
    char id_sel[64] = "custom";
    cJSON_ArrayForEach(p, c->presets) {
        char b[16], m[16], s[16];
        snprintf(b, sizeof b, "%lld", num(c, p, "b"));
        snprintf(m, sizeof m, "%lld", num(c, p, "m"));
        snprintf(s, sizeof s, "%lld", num(c, p, "s"));
        if (strcmp(b, st->b) == 0 && strcmp(m, st->m) == 0 && strcmp(s, st->s) == 0 && strcmp(id_sel, "custom") == 0)
            snprintf(id_sel, sizeof id_sel, "%s", str(c, p, "id"));
    }
    cJSON_ArrayForEach(p, c->presets) {
        const cJSON *lab = cJSON_GetObjectItemCaseSensitive(p, "label");
        const char *id = str(c, p, "id");
        char text[160];
        snprintf(text, sizeof text, "%s <%lld,%lld,%lld>",
                 cJSON_IsString(lab) && lab->valuestring[0] ? lab->valuestring : id,
                 num(c, p, "b"), num(c, p, "m"), num(c, p, "s"));
        option(&c->part[FS_PRESET], id, text, strcmp(id, id_sel) == 0);
    }
    option(&c->part[FS_PRESET], "custom", "Custom", strcmp(id_sel, "custom") == 0);
    number_input(c, &c->part[FS_B], "b", st->b);
    number_input(c, &c->part[FS_M], "m", st->m);
    number_input(c, &c->part[FS_S], "s", st->s);
    pow2_menu(c, &c->part[FS_BANK_BYTES], "bank_bytes", st->bank_bytes);
    pow2_menu(c, &c->part[FS_BANKS], "banks", st->banks);
    if (st->rows[0]) {
        buf_puts(&c->part[FS_ROWS], " value=\"");
        esc(&c->part[FS_ROWS], st->rows);
        buf_putc(&c->part[FS_ROWS], '"');
    }
    buf_printf(&c->part[FS_ROWS], " placeholder=\"%lld\"", num(c, get(c, c->d, "params"), "rows"));
    buf_puts(&c->part[FS_MATCH], st->match ? " checked" : "");
    for (size_t k = 0; k < N_ELEM_TYPES; k++)
        option(&c->part[FS_ELEM], elem_types[k].id, elem_types[k].label, (int)k == st->elem);
    option(&c->part[FS_SHOW], "", "Logical column", !st->show_row);
    option(&c->part[FS_SHOW], "row", "Logical row", st->show_row);
}

/* app.js renderElem + elements.js elementSwizzle: the element type's line. */
static void render_elem(struct fs_ctx *c)
{
    const struct fs_state *st = &c->st;
    const char *shows = st->show_row ? "cells show logical row numbers, coloured by row."
                      : st->elem ? "cells show the first element index of each unit."
                      : "cells show logical column numbers.";
    struct buf *b = &c->part[FS_ELEM_TEXT];
    int ok = 1;
    if (!st->elem) {
        buf_putc(b, (char)(shows[0] - 'a' + 'A'));
        esc(b, shows + 1);
    } else {
        int eb = elem_types[st->elem].bytes;
        const char *en = elem_types[st->elem].name;
        const cJSON *f = NULL, *x;
        cJSON_ArrayForEach(x, get(c, c->d, "elements"))
            if (f == NULL && num(c, x, "bytes") == eb)
                f = x;
        char text[320];
        if (f == NULL) {
            ok = 0;
            snprintf(text, sizeof text, "no element form for %d-byte elements in the answer; %s", eb, shows);
        } else if (!cJSON_IsTrue(get(c, f, "ok"))) {
            ok = 0;
            snprintf(text, sizeof text, "no element form: a %lld-byte unit splits a %d-byte %s element "
                     "(needs M >= %lld); %s", num(c, get(c, c->d, "unit"), "bytes"), eb, en,
                     num(c, f, "needs_m"), shows);
        } else {
            snprintf(text, sizeof text, "%s on %s element indices (M %lld - log2(%d) = %lld); %s",
                     str(c, f, "name"), en, num(c, get(c, c->d, "params"), "m"), eb, num(c, f, "m"), shows);
        }
        esc(b, text);
    }
    buf_puts(&c->part[FS_ELEM_CLASS], ok ? " class=\"help\"" : " class=\"help warn\"");
}

/* ---- the hero panel ----------------------------------------------------------- */

/* readout.js renderReadout (nothing being typed). */
static void render_readout(struct fs_ctx *c)
{
    const cJSON *p = get(c, c->d, "params");
    long long b = num(c, p, "b"), m = num(c, p, "m"), s = num(c, p, "s");
    const char *name = str(c, c->d, "name");
    char want[96];
    snprintf(want, sizeof want, "Swizzle<%lld,%lld,%lld>", b, m, s);
    struct buf *o = &c->part[FS_READOUT];
    if (strcmp(name, want) != 0)
        esc(o, name);
    else
        buf_printf(o, "Swizzle&lt;<span data-p=\"b\">%lld</span>,<span data-p=\"m\">%lld</span>,"
                   "<span data-p=\"s\">%lld</span>&gt;", b, m, s);
}

static void stat(struct buf *o, const char *label, const char *value, const char *sub, const char *id)
{
    buf_printf(o, "<div><dt>%s</dt><dd id=\"%s\">%s", label, id, value);
    if (sub[0])
        buf_printf(o, " <small>%s</small>", sub);
    buf_puts(o, "</dd></div>");
}

/* readout.js renderStats. */
static void render_stats(struct fs_ctx *c)
{
    const cJSON *u = get(c, c->d, "unit"), *g = get(c, c->d, "grid"), *t = get(c, c->d, "tile");
    const cJSON *p = get(c, c->d, "params"), *mk = get(c, c->d, "masks");
    long long T = num(c, t, "size"), per = num(c, u, "per_bank"), span = num(c, u, "banks_spanned");
    long long tr = num(c, g, "tile_rows"), brb = num(c, c->d, "bank_row_bytes");
    char v[64], s[64];
    struct buf *o = &c->part[FS_STATS];
    snprintf(v, sizeof v, "%lld B", num(c, u, "bytes"));
    if (per > 1)
        snprintf(s, sizeof s, "1/%lld bank", per);
    else
        snprintf(s, sizeof s, "%lld bank%s", span, span > 1 ? "s" : "");
    stat(o, "Unit", v, s, "stat-unit");
    snprintf(v, sizeof v, "%lld&times;%lld", T, T);
    snprintf(s, sizeof s, "%lld B", num(c, t, "bytes"));
    stat(o, "Tile", v, s, "stat-tile");
    snprintf(v, sizeof v, "%lld&times;%lld", num(c, g, "rows"), num(c, g, "cols"));
    snprintf(s, sizeof s, "%lld B", num(c, g, "bytes"));
    stat(o, "Grid", v, s, "stat-grid");
    snprintf(v, sizeof v, "%lld", num(c, g, "tiles_per_row"));
    snprintf(s, sizeof s, "%lld tile row%s", tr, tr > 1 ? "s" : "");
    stat(o, "Tiles per row", v, s, "stat-tiles");
    snprintf(v, sizeof v, "%lld B", num(c, g, "row_bytes"));
    snprintf(s, sizeof s, "%lld units", num(c, g, "cols"));
    stat(o, "Row width", v, s, "stat-row");
    snprintf(v, sizeof v, "%lld B", brb);
    snprintf(s, sizeof s, "%lld&times;%lld B", num(c, p, "banks"), num(c, p, "bank_bytes"));
    stat(o, "Bank row", v, s, "stat-bankrow");
    snprintf(v, sizeof v, "%lld", num(c, get(c, c->d, "banks_view"), "rows"));
    stat(o, "Bank rows", v, "", "stat-bankrows");
    snprintf(v, sizeof v, "0x%llx", (unsigned long long)num(c, mk, "yyy"));
    snprintf(s, sizeof s, "0x%llx", (unsigned long long)num(c, mk, "zzz"));
    stat(o, "Masks", v, s, "stat-masks");
    buf_printf(&c->part[FS_BANK_ROW], "%lld B", brb);
}

/* readout.js renderBitstrip, with slotrule.js fieldWords. */
static void render_bitstrip(struct fs_ctx *c)
{
    const cJSON *mk = get(c, c->d, "masks");
    long long m = num(c, get(c, c->d, "params"), "m");
    long long ylo = num(c, mk, "yyy_lo"), yhi = num(c, mk, "yyy_hi");
    long long zlo = num(c, mk, "zzz_lo"), zhi = num(c, mk, "zzz_hi");
    long long top = yhi > zhi ? yhi : zhi;
    if (m > top)
        top = m;
    top += 2;
    if (top < 12)   /* readout.js BITS_SHOWN: bits 11..0 at least */
        top = 12;
    if (top > 31)
        top = 31;
    struct buf *o = &c->part[FS_BITSTRIP];
    buf_puts(o, "<div class=\"bits\">");
    char prev = 0;
    for (long long bit = top - 1; bit >= 0; bit--) {
        const char *cls = "";
        char role = 'x';
        if (bit >= ylo && bit < yhi)
            cls = " yyy", role = 'Y';
        else if (bit >= zlo && bit < zhi)
            cls = " zzz", role = 'Z';
        else if (bit < m)
            cls = " unit", role = 'u';
        buf_printf(o, "<div class=\"bit%s%s\" title=\"bit %lld\"><b>%c</b>%lld</div>", cls,
                   prev && role != prev ? " gap4" : "", bit, role, bit);
        prev = role;
    }
    buf_puts(o, "</div>");
    const char *rule = str(c, c->d, "slot_rule");
    const char *wy = "the source bits", *wz = "XORed with YYY";
    if (strcmp(rule, "col_xor_row") == 0)
        wy = "row in tile", wz = "column in tile, XORed with YYY";
    else if (strcmp(rule, "row_xor_col") == 0)
        wy = "column in tile", wz = "row in tile, XORed with YYY";
    char yr[64] = "none", zr[64] = "none";
    if (yhi > ylo)
        snprintf(yr, sizeof yr, "bits [%lld, %lld)", ylo, yhi);
    if (zhi > zlo)
        snprintf(zr, sizeof zr, "bits [%lld, %lld)", zlo, zhi);
    buf_printf(o, "<div class=\"legend\"><span class=\"yyy\">YYY %s: %s</span><span class=\"zzz\">"
               "ZZZ %s: %s</span><span class=\"unit\">bits [0, %lld): byte in unit, never moved</span></div>",
               yr, wy, zr, wz, m);
}

/* verdict.js verdict(): {cls, text} of one cost answer; 0, or -1 (bad). */
static int verdict_words(struct fs_ctx *c, const cJSON *cost, const char **cls, char *text, size_t cap)
{
    long long wf = num(c, cost, "wavefronts"), ideal = num(c, cost, "ideal_wavefronts");
    const char *vc = str(c, cost, "verdict_class");
    char w[48];
    snprintf(w, sizeof w, "%lld %s", wf, wf == 1 ? "wavefront" : "wavefronts");
    *cls = "bad";
    if (strcmp(vc, "not_native") == 0)
        snprintf(text, cap, "not native (%s): no exact count", str(c, get(c, cost, "atomic"), "sass"));
    else if (strcmp(vc, "serialization") == 0)
        snprintf(text, cap, "same-address serialization: %s, ideal %lld", w, ideal);
    else if (strcmp(vc, "conflict_and_serialization") == 0)
        snprintf(text, cap, "bank conflict and same-address serialization: %s, ideal %lld", w, ideal);
    else if (strcmp(vc, "conflict_free") == 0)
        *cls = "ok", snprintf(text, cap, "conflict-free: %s (ideal %lld)", w, ideal);
    else if (strcmp(vc, "conflict_free_broadcast") == 0)
        *cls = "ok", snprintf(text, cap, "conflict-free with broadcast: %s (ideal %lld)", w, ideal);
    else if (strcmp(vc, "conflict") == 0) {
        long long ways = num(c, cost, "ways");
        if (ways > 1)
            snprintf(text, cap, "%lld-way conflict: %s, ideal %lld", ways, w, ideal);
        else
            snprintf(text, cap, "bank conflict: %s, ideal %lld", w, ideal);
    } else
        snprintf(text, cap, "no verdict in the answer (%s)", vc);
    return c->bad ? -1 : 0;
}

/* verdictline.js update() for the access view's answer, and refresh()'s legend. */
static void render_verdict(struct fs_ctx *c)
{
    const char *cls, *ucls;
    char text[256], utext[256], label[160];
    if (verdict_words(c, get(c, c->acc, "cost"), &cls, text, sizeof text) < 0)
        return;
    /* the pattern in words first, then its name and step (verdictline.js) */
    snprintf(label, sizeof label, ", step r = %lld (", num(c, c->acc, "step"));
    buf_printf(&c->part[FS_VERDICT_CLASS], " class=\"verdict-line %s\"", cls);
    struct buf *o = &c->part[FS_VERDICT];
    buf_puts(o, "<b>");
    esc(o, str(c, c->acc, "label"));
    buf_puts(o, "</b>");
    buf_puts(o, label);
    esc(o, str(c, c->acc, "pattern"));
    buf_puts(o, ") on ");
    esc(o, str(c, c->d, "name"));
    buf_printf(o, ": <span class=\"verdict %s\" id=\"verdict-line-text\">", cls);
    esc(o, text);
    buf_puts(o, "</span>.");
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(c->acc, "compare");
    const cJSON *un = cmp ? cJSON_GetObjectItemCaseSensitive(cmp, "unswizzled") : NULL;
    if (un && !cJSON_IsNull(un) && verdict_words(c, un, &ucls, utext, sizeof utext) == 0) {
        buf_puts(o, " Without the swizzle: ");
        esc(o, utext);
        buf_putc(o, '.');
    }
    buf_puts(o, " <a href=\"#access\">Details</a>");

    long long cols = num(c, get(c, c->d, "grid"), "cols");
    struct buf *l = &c->part[FS_LEGEND];
    buf_printf(l, "<span class=\"maplegend-what\">Colour = %s%s:</span> ",
               c->st.show_row ? "logical row" : "logical column", cols > 16 ? " (mod 16)" : "");
    for (long long k = 0; k < cols && k < 16; k++)
        buf_printf(l, "<span class=\"maplegend-item\"><span class=\"swatch k%lld\"></span>%lld</span>", k, k);
}

/* ---- the tiles ------------------------------------------------------------------ */

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

/* maplayout.js fontFor: round(px * 0.42) within [9, 16 * scale]. */
static long font_for(long px, long scale) { return clampl((long)floor(px * 0.42 + 0.5), 9, 16 * scale); }

static long axis_step(long px, long min_px)
{
    long k = 1;
    while (k * px < min_px)
        k *= 2;
    return k;
}

struct tile_geom { long lw, th, cs, W, H; };

/* maplayout.js gridLayout for a T x T tile in a box avail px wide. */
static struct tile_geom tile_geom(long T, long avail, long scale)
{
    struct tile_geom g;
    char digits[24];
    g.lw = (12 + 7 * (long)snprintf(digits, sizeof digits, "%ld", T - 1)) * scale;
    g.th = 18 * scale;
    g.cs = clampl((long)floor((double)(avail - g.lw - 6) / (double)T), 8, 44 * scale);
    g.W = g.lw + T * g.cs + 3;
    g.H = g.th + T * g.cs + 3;
    return g;
}

/* One tile as mapview.js's export draws it (drawAll): the cells and their
 * labels, the axis labels, the frame.  log_of: NULL for the unswizzled tile. */
static void render_tile(struct fs_ctx *c, struct buf *o, long T, const cJSON *log_of)
{
    const struct fs_state *st = &c->st;
    long scale = st->present ? 2 : 1;
    long tw = TILE_AVAIL[st->present][st->hide];
    if (tw > 420 * scale)
        tw = 420 * scale;
    struct tile_geom g = tile_geom(T, tw, scale), g8 = tile_geom(8, tw, scale);
    long fs = font_for(g.cs, scale), afs = fs < 11 * scale ? fs : 11 * scale;   /* maplayout.js afs */
    /* label: elements.js cellLabel (element types) unless rows are shown */
    int eb = st->show_row ? 0 : elem_types[st->elem].bytes;
    long long ub = num(c, get(c, c->d, "unit"), "bytes");
    long label_min = eb ? 22 : 15;
    int labelled = g.cs >= label_min && g.cs >= 14;
    long H = g.H > g8.H ? g.H : g8.H;   /* the box's min-height (maps.js) */
    /* "served": laid out for a 1440 px window; style.css scales it down to a
     * narrower box until the JS draws the map at its own size */
    buf_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map tile served\" width=\"%ld\" height=\"%ld\" "
               "viewBox=\"0 0 %ld %ld\"><g class=\"band\" font-size=\"%ld\">", g.W, H, g.W, H, fs);
    long keys[FIRSTSCREEN_MAX_TILE * FIRSTSCREEN_MAX_TILE];
    for (long p = 0; p < T * T; p++) {
        long l = p;
        if (log_of) {
            const cJSON *v = cJSON_GetArrayItem(log_of, (int)p);
            if (!cJSON_IsNumber(v)) {
                c->bad = 1;
                return;
            }
            l = (long)v->valuedouble;
        }
        long col = l % T, key = st->show_row ? l / T : col;
        keys[p] = key;
        buf_printf(o, "<rect class=\"cell k%ld\" x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" "
                   "data-p=\"%ld\" data-l=\"%ld\" data-c=\"%ld\"/>", key % 16, g.lw + (p % T) * g.cs,
                   g.th + (p / T) * g.cs, g.cs, g.cs, p, l, col);
    }
    for (long r = 0; labelled && r < T; r++) {
        buf_puts(o, "<text class=\"lbls\" y=\"");
        coord(o, (double)(g.th + r * g.cs) + (double)g.cs / 2);
        buf_puts(o, "\">");
        for (long cc = 0; cc < T; cc++) {
            long p = r * T + cc;
            buf_puts(o, "<tspan class=\"lbl\" x=\"");
            coord(o, (double)(g.lw + cc * g.cs) + (double)g.cs / 2);
            buf_printf(o, "\" data-p=\"%ld\">%lld</tspan>", p,
                       eb ? (long long)keys[p] * ub / eb : (long long)keys[p]);
        }
        buf_puts(o, "</text>");
    }
    buf_printf(o, "</g><g class=\"band-extra\"><g class=\"axis-g\" font-size=\"%ld\">", afs);
    long cstep = axis_step(g.cs, 18 * scale), rstep = axis_step(g.cs, 13 * scale);
    for (long cc = 0; cc < T; cc += cstep) {
        buf_puts(o, "<text class=\"axis\" x=\"");
        coord(o, (double)(g.lw + cc * g.cs) + (double)g.cs / 2);
        buf_puts(o, "\" y=\"");
        coord(o, (double)g.th / 2);
        buf_printf(o, "\">%ld</text>", cc);
    }
    for (long r = 0; r < T; r += rstep) {
        buf_printf(o, "<text class=\"axis row\" x=\"%ld\" y=\"", g.lw - 5);
        coord(o, (double)(g.th + r * g.cs) + (double)g.cs / 2);
        buf_printf(o, "\">%ld</text>", r);
    }
    /* a tile holds no inner tile lines: its path is empty, its frame fixed */
    buf_printf(o, "</g></g><path class=\"tiles\" d=\"\"/><g class=\"fixed\"><path class=\"tiles\" "
               "d=\"M%ld %ldh%ldv%ldh%ldZ\"/></g></svg>", g.lw, g.th, T * g.cs, T * g.cs, -T * g.cs);
}

static void render_tiles(struct fs_ctx *c)
{
    const cJSON *t = get(c, c->d, "tile");
    long long T = num(c, t, "size");
    const cJSON *log_of = get(c, t, "log_of");
    if (c->bad || T < 1 || T > FIRSTSCREEN_MAX_TILE || cJSON_GetArraySize(log_of) != T * T)
        return;
    render_tile(c, &c->part[FS_TILE_PLAIN], (long)T, NULL);
    render_tile(c, &c->part[FS_TILE_SWZ], (long)T, log_of);
    /* the tiles' export buttons (export.js addExport wires these): the
     * caption keeps its height when the JS takes over */
    static const char *const kinds[][2] = {{"svg", "SVG"}, {"png", "PNG"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        buf_printf(&c->part[FS_XBAR], "<button type=\"button\" class=\"export\" data-export=\"%s\" "
                   "title=\"Download this view as %s\">%s</button>", kinds[k][0], kinds[k][1], kinds[k][1]);
}

/* ---- the template ------------------------------------------------------------------ */

static int mark_of(const char *name, size_t n)
{
    for (int k = 0; k < FS_N; k++)
        if (strlen(marks[k].name) == n && memcmp(marks[k].name, name, n) == 0)
            return k;
    return -1;
}

static const char *find(const char *p, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (; p + n <= end; p++)
        if (*p == *needle && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

int firstscreen_is_template(const char *tmpl, size_t len)
{
    return find(tmpl, tmpl + len, OPEN) != NULL;
}

/* Copy tmpl to out with each marker replaced: by part[k] when `parts` (a
 * content marker whose part is empty keeps the template's: a tile left to the
 * JS), else by the plain page's text. */
static void fill(const char *tmpl, size_t len, const struct buf *parts, struct buf *out)
{
    const char *p = tmpl, *end = tmpl + len;
    while (p < end) {
        const char *a = find(p, end, OPEN), *b = find(p, end, ATTR);
        const char *at = a && (!b || a < b) ? a : b;
        if (at == NULL) {
            buf_put(out, p, (size_t)(end - p));
            return;
        }
        buf_put(out, p, (size_t)(at - p));
        if (at == a) {
            const char *name = a + sizeof OPEN - 1, *ne = find(name, end, "-->");
            const char *inner = ne ? ne + 3 : NULL, *close = inner ? find(inner, end, CLOSE) : NULL;
            if (close == NULL) {    /* not a marker after all */
                buf_put(out, a, (size_t)(end - a));
                return;
            }
            int k = mark_of(name, (size_t)(ne - name));
            if (parts && k >= 0 && parts[k].len)
                buf_put(out, parts[k].p, parts[k].len);
            else
                buf_put(out, inner, (size_t)(close - inner));
            p = close + sizeof CLOSE - 1;
        } else {
            const char *name = b + sizeof ATTR - 1, *ne = find(name, end, "\"");
            if (ne == NULL) {
                buf_put(out, b, (size_t)(end - b));
                return;
            }
            int k = mark_of(name, (size_t)(ne - name));
            if (parts && k >= 0)
                buf_put(out, parts[k].p ? parts[k].p : "", parts[k].len);
            else if (k >= 0)
                buf_puts(out, marks[k].plain ? marks[k].plain : "");
            p = ne + 1;
        }
    }
}

/* The API's answers for the state: 0, or -1 when one is refused. */
static int ask_all(struct fs_ctx *c, cJSON **sw, cJSON **pr, cJSON **ac)
{
    const struct fs_state *st = &c->st;
    struct api_arg q[12];
    int n = 0;
    q[n++] = (struct api_arg){"b", st->b};
    q[n++] = (struct api_arg){"m", st->m};
    q[n++] = (struct api_arg){"s", st->s};
    q[n++] = (struct api_arg){"bank_bytes", st->bank_bytes};
    q[n++] = (struct api_arg){"banks", st->banks};
    if (st->rows[0])    /* api.js clean(): an empty value is not sent */
        q[n++] = (struct api_arg){"rows", st->rows};
    q[n++] = (struct api_arg){"match_bank_row", st->match ? "1" : "0"};
    if ((*sw = ask("/api/swizzle", q, n)) == NULL || (*pr = ask("/api/presets", NULL, 0)) == NULL)
        return -1;
    c->d = *sw;
    c->presets = get(c, *pr, "presets");
    c->limits = get(c, *pr, "limits");
    /* the access view's first question (api.js startup): compare= every preset */
    struct buf cmp = {0};
    const cJSON *p;
    cJSON_ArrayForEach(p, c->presets)
        buf_printf(&cmp, "%s%lld,%lld,%lld", cmp.len ? ";" : "", num(c, p, "b"), num(c, p, "m"), num(c, p, "s"));
    char step[24];
    snprintf(step, sizeof step, "%ld", st->step);
    q[n++] = (struct api_arg){"pattern", st->pat};
    q[n++] = (struct api_arg){"step", step};
    q[n++] = (struct api_arg){"fit", "1"};
    if (cmp.len)
        q[n++] = (struct api_arg){"compare", cmp.p};
    *ac = cmp.oom || c->bad ? NULL : ask("/api/access", q, n);
    free(cmp.p);
    c->acc = *ac;
    /* an access that does not fit shows no verdict (access.js): the JS's page */
    return *ac && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(*ac, "fits")) ? 0 : -1;
}

int firstscreen_render(const char *tmpl, size_t len, const struct api_arg *args, int nargs,
                       struct buf *out, struct sz_error *err)
{
    struct fs_ctx *c = calloc(1, sizeof *c);
    cJSON *sw = NULL, *pr = NULL, *ac = NULL;
    int rendered = 0;
    if (c && read_state(&c->st, args, nargs) == 0 && ask_all(c, &sw, &pr, &ac) == 0) {
        render_display(c);
        render_controls(c);
        render_elem(c);
        render_readout(c);
        render_stats(c);
        render_bitstrip(c);
        render_verdict(c);
        render_tiles(c);
        rendered = !c->bad;
        for (int k = 0; k < FS_N; k++)
            if (c->part[k].oom)
                rendered = 0;
    }
    fill(tmpl, len, rendered ? c->part : NULL, out);
    cJSON_Delete(sw);
    cJSON_Delete(pr);
    cJSON_Delete(ac);
    if (c)
        for (int k = 0; k < FS_N; k++)
            free(c->part[k].p);
    free(c);
    if (out->oom)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    return rendered;
}
