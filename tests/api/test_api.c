/* test_api.c - the JSON API through api_handle, without sockets: a table of
 * good and malformed requests, each with its status and a piece of the body it
 * must contain; and the map routes cross-checked against the core. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/buf.h"
#include "base/cache.h"
#include "model/presets.h"
#include "model/swizzle.h"
#include "api_cases.h"
#include "check.h"
#include "client.h"
#include "jtest.h"

static void every_case_of_api_cases_h(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct api_case *c = &cases[i];
        struct api_response r =
            client_api_call(c->method, c->path, c->query, c->ctype, c->body, 0);
        CHECK(r.status == c->status, "case %zu %s %s?%s: status %d, want %d: %.200s", i,
              c->method, c->path, c->query, r.status, c->status, r.body ? r.body : "");
        CHECK(r.body && strstr(r.body, c->want), "case %zu %s %s?%s: body lacks '%s': %.200s",
              i, c->method, c->path, c->query, c->want, r.body ? r.body : "(null)");
        /* Every body is one valid JSON object; errors have the three fields. */
        cJSON *j = r.body ? cJSON_ParseWithLength(r.body, r.len) : NULL;
        CHECK(cJSON_IsObject(j), "case %zu: body is not a JSON object", i);
        if (r.status >= 400) {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
            CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "code")) &&
                  cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "field")) &&
                  cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message")),
                  "case %zu: error body lacks code/field/message", i);
        }
        CHECK(r.status < 500, "case %zu: a 5xx for client input", i);
        cJSON_Delete(j);
        free(r.body);
    }
    printf("api table: %zu requests\n", sizeof cases / sizeof cases[0]);
}

/* The maps the page draws must be exactly the core's, for every preset. */
static void test_maps_match_core(void)
{
    /* every preset (presets.c's table), then a negative shift */
    int bms[16][3], nk = 0;
    for (size_t k = 0; k < presets_count && nk < 15; k++, nk++)
        bms[nk][0] = presets[k].b, bms[nk][1] = presets[k].m, bms[nk][2] = presets[k].s;
    bms[nk][0] = 2, bms[nk][1] = 4, bms[nk][2] = -3, nk++;
    for (int k = 0; k < nk; k++) {
        char q[128];
        snprintf(q, sizeof q, "b=%d&m=%d&s=%d&rows=64", bms[k][0], bms[k][1], bms[k][2]);
        struct api_response r = client_api_call("GET", "/api/swizzle", q, NULL, NULL, 0);
        CHECK(r.status == 200, "%s: %d", q, r.status);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *grid = cJSON_GetObjectItemCaseSensitive(j, "grid");
        const cJSON *log_of = cJSON_GetObjectItemCaseSensitive(grid, "log_of");
        const cJSON *bank_of = cJSON_GetObjectItemCaseSensitive(grid, "bank_of");
        int cols = cJSON_GetObjectItemCaseSensitive(grid, "cols")->valueint;
        struct swz z;
        swz_init(&z, bms[k][0], bms[k][1], bms[k][2], NULL);
        int n = cJSON_GetArraySize(log_of), bad = 0;
        CHECK(n == 64 * cols, "%s: %d cells", q, n);
        for (int p = 0; p < n; p++) {
            uint32_t l = (uint32_t)cJSON_GetArrayItem(log_of, p)->valuedouble;
            uint32_t want_p = swz_apply(&z, l << z.m) >> z.m;
            uint32_t bank = (uint32_t)cJSON_GetArrayItem(bank_of, p)->valuedouble;
            if (want_p != (uint32_t)p || bank != ((uint32_t)p << z.m) / 4 % 32)
                bad++;
        }
        CHECK(bad == 0, "%s: %d cells disagree with the core", q, bad);
        cJSON_Delete(j);
        free(r.body);
    }
}

static long jint(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

/* The slot rule and the inspector's physical cell on the contract's examples
 * (CONTRACT.md sec. 3, issue 13), read field by field; -1: not checked. */
static void test_slot_rule_examples(void)
{
    static const struct {
        const char *path, *query, *rule;
        long prow, pcol, phys_row_in_tile, phys_col_in_tile, slot;
        const char *why;
    } rule_cases[] = {
        {"/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2", "col_xor_row", 1, 3, 1, 3, 3,
         "addr 144 ^ (1 << 4) = 176: row 1, col 2 ^ 1"},
        {"/api/inspect", "b=2&m=4&s=-3&rows=4&row=1&col=2", "row_xor_col", 3, 2, 3, 2, 2,
         "addr 160 ^ (32 << 3) = 416 = unit 26: row 3, col 2 (it said slot 3: col ^ row_mod)"},
        {"/api/inspect", "b=3&m=2&s=3&rows=8&match_bank_row=1&row=1&col=8", "general", 1, 13,
         1, 5, 5, "32 columns of 4 B; addr 160 has YYY (bits 5-7) = 5, ZZZ (bits 2-4) ^= 5: "
         "180 = unit 45, col 13"},
        {"/api/swizzle", "b=3&m=4&s=-3&rows=8", "row_xor_col", -1, -1, -1, -1, -1,
         "rows of 2^3 units: bits 4-6 (the column) into bits 7-9 (the row)"},
        {"/api/swizzle", "b=0&m=4&s=3&rows=2", "identity", -1, -1, -1, -1, -1, "B = 0"},
        {"/api/swizzle", "b=3&m=2&s=3&rows=8&match_bank_row=1", "general", -1, -1, -1, -1, -1,
         "YYY at bits 5-7 mixes column bits 3-4 and row bit 0"},
    };
    for (size_t i = 0; i < sizeof rule_cases / sizeof rule_cases[0]; i++) {
        struct api_response r = client_api_call("GET", rule_cases[i].path, rule_cases[i].query, NULL,
                                                NULL, 0);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *rule = cJSON_GetObjectItemCaseSensitive(j, "slot_rule");
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(j, "physical");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "tile");
        CHECK(r.status == 200 && cJSON_IsString(rule) &&
              strcmp(rule->valuestring, rule_cases[i].rule) == 0,
              "%s?%s: slot_rule %s, want %s (%s)", rule_cases[i].path, rule_cases[i].query,
              cJSON_IsString(rule) ? rule->valuestring : "none", rule_cases[i].rule, rule_cases[i].why);
        if (rule_cases[i].slot >= 0)
            CHECK(jint(ph, "row") == rule_cases[i].prow && jint(ph, "col") == rule_cases[i].pcol &&
                  jint(t, "phys_row_in_tile") == rule_cases[i].phys_row_in_tile &&
                  jint(t, "phys_col_in_tile") == rule_cases[i].phys_col_in_tile &&
                  jint(t, "slot") == rule_cases[i].slot,
                  "%s: physical (%ld,%ld) in tile (%ld,%ld) slot %ld: %s", rule_cases[i].query,
                  jint(ph, "row"), jint(ph, "col"), jint(t, "phys_row_in_tile"),
                  jint(t, "phys_col_in_tile"), jint(t, "slot"), rule_cases[i].why);
        cJSON_Delete(j);
        free(r.body);
    }
}

/* /api/inspect serializes swz_inspect: every cell of a few grids, every field
 * (test_swizzle checks swz_inspect itself against a bit-by-bit oracle). */
static void test_inspect_matches_core(void)
{
    static const struct { int b, m, s, match; uint32_t rows; } grids[] = {
        {3, 4, 3, 0, 8}, {2, 4, -3, 0, 4}, {3, 2, 3, 1, 8}, {2, 5, 2, 1, 8}, {1, 1, 2, 0, 4}};
    int bad = 0, n = 0;
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) {
        struct swz z;
        struct swz_geom g;
        swz_init(&z, grids[k].b, grids[k].m, grids[k].s, NULL);
        swz_geom_init(&g, &z, 4, 32, grids[k].rows, grids[k].match, NULL);
        const char *rule = swz_slot_rule_name(swz_slot_rule(&z, &g));
        for (uint32_t r = 0; r < g.rows; r++)
            for (uint32_t c = 0; c < g.cols; c++, n++) {
                char q[160];
                snprintf(q, sizeof q, "b=%d&m=%d&s=%d&rows=%u&match_bank_row=%d&row=%u&col=%u",
                         z.b, z.m, z.s, g.rows, g.match_bank_row, r, c);
                struct api_response resp = client_api_call("GET", "/api/inspect", q, NULL, NULL, 0);
                cJSON *j = cJSON_ParseWithLength(resp.body, resp.len);
                const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "tile");
                const cJSON *ph = cJSON_GetObjectItemCaseSensitive(j, "physical");
                const cJSON *zz = cJSON_GetObjectItemCaseSensitive(j, "zzz");
                const cJSON *bk = cJSON_GetObjectItemCaseSensitive(j, "banks");
                const cJSON *sr = cJSON_GetObjectItemCaseSensitive(j, "slot_rule");
                struct swz_cell want;
                swz_inspect(&z, &g, r, c, &want);
                if (resp.status != 200 || jint(t, "slot") != (long)want.slot ||
                    jint(t, "phys_row_in_tile") != (long)want.phys_row_in_tile ||
                    jint(t, "phys_col_in_tile") != (long)want.phys_col_in_tile ||
                    jint(t, "row") != (long)want.tile_row || jint(t, "col") != (long)want.tile_col ||
                    jint(ph, "row") != (long)want.physical.row ||
                    jint(ph, "col") != (long)want.physical.col ||
                    jint(ph, "addr") != (long)want.physical.addr ||
                    jint(zz, "swizzled") != (long)want.zzz_swizzled ||
                    jint(bk, "first") != (long)want.bank[0] ||
                    jint(bk, "count") != (long)want.nbanks ||
                    jint(j, "bits") != want.bits ||
                    !cJSON_IsString(sr) || strcmp(sr->valuestring, rule) != 0)
                    bad++;
                cJSON_Delete(j);
                free(resp.body);
            }
    }
    CHECK(bad == 0 && n > 300, "%d of %d inspected cells disagree with swz_inspect", bad, n);
}

/* /api/trace's shape and costs on hand-derived columns. */
static void test_trace_examples(void)
{
    static const struct {
        const char *query;
        long rows, bytes, per_bank, plain_wf, swizzled_wf;
        const char *why;
    } trace_cases[] = {
        {"b=3&m=4&s=3&rows=8&col=0", 8, 16, 1, 8, 1,
         "unswizzled the 8 rows' units all sit on banks 0-3 (8-way); <3,4,3> moves row "
         "r's to column r, banks 4r..4r+3: one wavefront"},
        {"b=2&m=4&s=-3&rows=4&col=2", 4, 16, 1, 4, 4,
         "a negative S moves units between rows of the same column: banks 8-11 either way"},
        {"b=1&m=1&s=2&bank_bytes=8&banks=16&rows=2&col=1", 2, 2, 4, 1, 1,
         "2-byte units, 4 to an 8-byte bank word: 2-byte reads at 2 and 10 (plain) or 8 "
         "(swizzled), words 0 and 1 on banks 0 and 1"},
        {"b=0&m=4&s=3&rows=8&col=0", 8, 16, 1, 8, 8,
         "issue 27.1: at B = 0 a tile is one row, yet the grid's 8 rows all put column 0 "
         "on banks 0-3: the trace reads all 8 rows, 8 wavefronts either way"},
        {"b=3&m=4&s=3&rows=16&col=0", 16, 16, 1, 16, 2,
         "two tiles of <3,4,3>: rows r and r+8 share banks, 2 wavefronts swizzled"},
        {"b=6&m=2&s=6&rows=64&col=0", 32, 4, 1, 32, 1,
         "a 64-row tile is traced over 32 rows, one lane each; 256-byte rows put column "
         "0 on bank 0 in every row, <6,2,6> moves row r to word r"},
    };
    for (size_t i = 0; i < sizeof trace_cases / sizeof trace_cases[0]; i++) {
        struct api_response r = client_api_call("GET", "/api/trace", trace_cases[i].query,
                                                NULL, NULL, 0);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *pl = cJSON_GetObjectItemCaseSensitive(j, "plain");
        const cJSON *sw = cJSON_GetObjectItemCaseSensitive(j, "swizzled");
        CHECK(r.status == 200 && jint(j, "rows") == trace_cases[i].rows &&
              jint(j, "bytes") == trace_cases[i].bytes &&
              jint(j, "per_bank") == trace_cases[i].per_bank &&
              jint(pl, "wavefronts") == trace_cases[i].plain_wf &&
              jint(sw, "wavefronts") == trace_cases[i].swizzled_wf,
              "trace %s: rows %ld bytes %ld per_bank %ld, %ld -> %ld wavefronts (%s)",
              trace_cases[i].query, jint(j, "rows"), jint(j, "bytes"), jint(j, "per_bank"),
              jint(pl, "wavefronts"), jint(sw, "wavefronts"), trace_cases[i].why);
        cJSON_Delete(j);
        free(r.body);
    }
}

/* /api/trace against the core's maps: every column of a few grids, each row's
 * slots from swz_grid_maps, and both costs equal to /api/conflicts on the bodies
 * the page used to build itself (lane r reads the first min(unit, 16) bytes of
 * row r's unit, r < min(rows, 32): every drawn row, issue 27.1). */
static void test_trace_matches_maps(void)
{
    static const struct { int b, m, s, match; uint32_t rows, bank_bytes, banks; } grids[] = {
        {3, 4, 3, 0, 8, 4, 32}, {2, 4, -3, 0, 4, 4, 32}, {3, 2, 3, 1, 8, 4, 32},
        {1, 1, 2, 0, 2, 8, 16}, {2, 5, 2, 1, 8, 4, 32}, {0, 4, 3, 0, 2, 4, 32},
        {3, 6, 3, 0, 16, 1, 128}};
    int bad = 0, n = 0;
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++) {
        struct swz z;
        struct swz_geom g;
        swz_init(&z, grids[k].b, grids[k].m, grids[k].s, NULL);
        if (swz_geom_init(&g, &z, grids[k].bank_bytes, grids[k].banks, grids[k].rows,
                          grids[k].match, NULL) < 0) {
            CHECK(0, "grid %zu refused", k);
            continue;
        }
        uint32_t *phys_of = malloc(g.cells * sizeof *phys_of);
        uint32_t *bank_of = malloc(g.cells * sizeof *bank_of);
        swz_grid_maps(&z, &g, NULL, phys_of, bank_of);
        uint32_t R = g.rows < 32 ? g.rows : 32, bytes = 16;
        while (bytes > g.unit_bytes)
            bytes /= 2;
        for (uint32_t c = 0; c < g.cols; c++, n++) {
            char q[200];
            snprintf(q, sizeof q, "b=%d&m=%d&s=%d&rows=%u&match_bank_row=%d&bank_bytes=%u"
                     "&banks=%u&col=%u", z.b, z.m, z.s, g.rows, g.match_bank_row,
                     g.bank_bytes, g.banks, c);
            struct api_response resp = client_api_call("GET", "/api/trace", q, NULL, NULL, 0);
            cJSON *j = cJSON_ParseWithLength(resp.body, resp.len);
            const cJSON *cells = cJSON_GetObjectItemCaseSensitive(j, "cells");
            int ok = resp.status == 200 && jint(j, "rows") == (long)R &&
                     jint(j, "bytes") == (long)bytes && cJSON_GetArraySize(cells) == (int)R;
            char plain[1024], swz[1024];
            size_t pl = (size_t)snprintf(plain, sizeof plain, "{\"op\":\"ld\",\"bytes\":%u,"
                                         "\"bank_bytes\":%u,\"banks\":%u,\"offsets\":[",
                                         bytes, g.bank_bytes, g.banks);
            size_t sl = (size_t)snprintf(swz, sizeof swz, "%s", plain);
            for (uint32_t r = 0; r < 32; r++) {
                uint32_t l = r * g.cols + c;
                const char *sep = r ? "," : "";
                if (r >= R) {
                    pl += (size_t)snprintf(plain + pl, sizeof plain - pl, "%snull", sep);
                    sl += (size_t)snprintf(swz + sl, sizeof swz - sl, "%snull", sep);
                    continue;
                }
                pl += (size_t)snprintf(plain + pl, sizeof plain - pl, "%s%u", sep,
                                       l * g.unit_bytes);
                sl += (size_t)snprintf(swz + sl, sizeof swz - sl, "%s%u", sep,
                                       phys_of[l] * g.unit_bytes);
                const cJSON *cell = cJSON_GetArrayItem(cells, (int)r);
                const cJSON *cp = cJSON_GetObjectItemCaseSensitive(cell, "plain");
                const cJSON *cs = cJSON_GetObjectItemCaseSensitive(cell, "swizzled");
                const cJSON *banks = cJSON_GetObjectItemCaseSensitive(cs, "banks");
                ok = ok && jint(cell, "row") == (long)r && jint(cp, "slot") == (long)l &&
                     jint(cp, "row") == (long)r && jint(cp, "col") == (long)c &&
                     jint(cs, "slot") == (long)phys_of[l] &&
                     jint(cs, "row") == (long)(phys_of[l] / g.cols) &&
                     jint(cs, "col") == (long)(phys_of[l] % g.cols) &&
                     cJSON_GetArraySize(banks) == (int)swz_unit_banks(&g) &&
                     cJSON_GetArrayItem(banks, 0)->valuedouble == bank_of[phys_of[l]];
            }
            snprintf(plain + pl, sizeof plain - pl, "]}");
            snprintf(swz + sl, sizeof swz - sl, "]}");
            struct api_response rp = client_api_call("POST", "/api/conflicts", "", JSON, plain, 0);
            struct api_response rs = client_api_call("POST", "/api/conflicts", "", JSON, swz, 0);
            cJSON *jp = cJSON_ParseWithLength(rp.body, rp.len);
            cJSON *js = cJSON_ParseWithLength(rs.body, rs.len);
            ok = ok && rp.status == 200 && rs.status == 200 &&
                 cJSON_Compare(jp, cJSON_GetObjectItemCaseSensitive(j, "plain"), 1) &&
                 cJSON_Compare(js, cJSON_GetObjectItemCaseSensitive(j, "swizzled"), 1);
            CHECK_QUIET(bad, ok, "trace %s disagrees with the maps: %.300s", q, resp.body);
            cJSON_Delete(jp);
            cJSON_Delete(js);
            free(rp.body);
            free(rs.body);
            cJSON_Delete(j);
            free(resp.body);
        }
        free(phys_of);
        free(bank_of);
    }
    CHECK(bad == 0 && n >= 60, "%d of %d traced columns disagree with the maps", bad, n);
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;    /* xorshift64 */
    return (uint32_t)(rng >> 16);
}

static uint32_t lane_count(uint32_t mask)
{
    uint32_t n = 0;
    for (; mask; mask &= mask - 1)
        n++;
    return n;
}

/* The offsets form and its cells on random instructions: the cost must be
 * /api/conflicts' answer for the same offsets, and the cells what a byte-by-byte
 * walk finds: each active lane's bytes [o, o + width) in slot byte / unit, the
 * logical unit from swz_grid_maps, the phase from the lane detail, entries in
 * order of first touch, lanes starting past the grid counted outside. */
static void test_access_cells(void)
{
    static const struct { int b, m, s, match; uint32_t rows, bank_bytes, banks; } grids[] = {
        {3, 4, 3, 0, 8, 4, 32}, {2, 4, -3, 0, 4, 4, 32}, {3, 2, 3, 1, 8, 4, 32},
        {1, 1, 2, 0, 4, 8, 16}, {2, 5, 2, 1, 8, 4, 32}, {0, 0, 0, 0, 64, 1, 8}};
    static const char *const ops[] = {"ld", "st", "ldmatrix", "stmatrix"};
    int bad = 0, n = 0;
    for (int trial = 0; trial < 1200; trial++) {
        size_t k = (size_t)trial % (sizeof grids / sizeof grids[0]);
        struct swz z;
        struct swz_geom g;
        swz_init(&z, grids[k].b, grids[k].m, grids[k].s, NULL);
        swz_geom_init(&g, &z, grids[k].bank_bytes, grids[k].banks, grids[k].rows,
                      grids[k].match, NULL);
        uint32_t *log_of = malloc(g.cells * sizeof *log_of);
        swz_grid_maps(&z, &g, log_of, NULL, NULL);
        int op = (int)(rnd() % 4), matrix = op >= 2;
        uint32_t w = matrix ? 16 : 1u << (rnd() % 5);
        uint32_t offs[32];
        char q[1024], body[1024];
        int ql = snprintf(q, sizeof q, "b=%d&m=%d&s=%d&rows=%u&match_bank_row=%d&bank_bytes=%u"
                          "&banks=%u&op=%s&bytes=%u&offsets=", z.b, z.m, z.s, g.rows,
                          g.match_bank_row, g.bank_bytes, g.banks, ops[op], w);
        int bl = snprintf(body, sizeof body, "{\"op\":\"%s\",\"bytes\":%u,\"bank_bytes\":%u,"
                          "\"banks\":%u,\"offsets\":[", ops[op], w, g.bank_bytes, g.banks);
        for (uint32_t t = 0; t < 32; t++) {
            int idle = !matrix && rnd() % 6 == 0;  /* matrix ops: every lane */
            offs[t] = idle ? UINT32_MAX : (rnd() % (g.bytes + g.bytes / 4 + 1)) / w * w;
            if (idle) {
                ql += snprintf(q + ql, sizeof q - (size_t)ql, "%s%s", t ? "," : "",
                               rnd() % 2 ? "-" : "null");
                bl += snprintf(body + bl, sizeof body - (size_t)bl, "%snull", t ? "," : "");
            } else {
                ql += snprintf(q + ql, sizeof q - (size_t)ql, "%s%u", t ? "," : "", offs[t]);
                bl += snprintf(body + bl, sizeof body - (size_t)bl, "%s%u", t ? "," : "",
                               offs[t]);
            }
        }
        snprintf(body + bl, sizeof body - (size_t)bl, "]}");
        struct api_response ra = client_api_call("GET", "/api/access", q, NULL, NULL, 0);
        struct api_response rc = client_api_call("POST", "/api/conflicts", "", JSON, body, 0);
        cJSON *ja = cJSON_ParseWithLength(ra.body, ra.len);
        cJSON *jc = cJSON_ParseWithLength(rc.body, rc.len);
        int ok = ra.status == 200 && rc.status == 200 &&
                 cJSON_Compare(jc, cJSON_GetObjectItemCaseSensitive(ja, "cost"), 1);
        /* the walk */
        uint32_t slot[512], first[512], lanes[512], ns = 0, outside = 0;
        const cJSON *lane_detail = cJSON_GetObjectItemCaseSensitive(jc, "lanes");
        for (uint32_t t = 0; ok && t < 32; t++) {
            const cJSON *ld = cJSON_GetArrayItem(lane_detail, (int)t);
            if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ld, "active")))
                continue;
            if (offs[t] / g.unit_bytes >= g.cells) {
                outside++;
                continue;
            }
            for (uint32_t byte = offs[t]; byte < offs[t] + w; byte++) {
                uint32_t p = byte / g.unit_bytes, i = 0;
                if (p >= g.cells)
                    break;
                while (i < ns && slot[i] != p)
                    i++;
                if (i == ns) {
                    slot[ns] = p, first[ns] = t, lanes[ns++] = 0;
                }
                lanes[i] |= 1u << t;
            }
        }
        const cJSON *cells = cJSON_GetObjectItemCaseSensitive(ja, "cells");
        const cJSON *slots = cJSON_GetObjectItemCaseSensitive(cells, "slots");
        ok = ok && jint(cells, "outside") == (long)outside &&
             cJSON_GetArraySize(slots) == (int)ns;
        for (uint32_t i = 0; ok && i < ns; i++) {
            const cJSON *e = cJSON_GetArrayItem(slots, (int)i);
            const cJSON *el = cJSON_GetObjectItemCaseSensitive(e, "lanes");
            const cJSON *fl = cJSON_GetArrayItem(lane_detail, (int)first[i]);
            uint32_t mask = 0, count = 0;
            const cJSON *it;
            cJSON_ArrayForEach(it, el) {
                mask |= 1u << it->valueint;
                count++;
            }
            ok = jint(e, "slot") == (long)slot[i] && jint(e, "logical") == (long)log_of[slot[i]] &&
                 jint(e, "phase") == jint(fl, "phase") && mask == lanes[i] &&
                 count == lane_count(lanes[i]);
        }
        CHECK_QUIET(bad, ok, "offsets form %s: %.300s", q, ra.body);
        n++;
        cJSON_Delete(ja);
        cJSON_Delete(jc);
        free(ra.body);
        free(rc.body);
        free(log_of);
    }
    CHECK(bad == 0, "%d of %d random accesses: cells or cost disagree", bad, n);
}

/* Limits: 65536 offsets pass, 65537 are refused with 413. */
static void test_apply_limits(void)
{
    for (int n = 65536; n <= 65537; n++) {
        size_t cap = (size_t)n * 8 + 64;
        char *body = malloc(cap);
        size_t len = (size_t)snprintf(body, cap, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[");
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(body + len, cap - len, i ? ",%d" : "%d", i * 16);
        len += (size_t)snprintf(body + len, cap - len, "]}");
        struct api_response r = client_api_call("POST", "/api/apply", "", JSON, body, len);
        if (n == 65536) {
            cJSON *j = cJSON_ParseWithLength(r.body, r.len);
            const cJSON *sw = cJSON_GetObjectItemCaseSensitive(j, "swizzled");
            CHECK(r.status == 200 && cJSON_GetArraySize(sw) == n, "65536 offsets: %d",
                  r.status);
            /* offset 16*i: i = 8 is offset 128 -> 144 */
            CHECK(cJSON_GetArrayItem(sw, 8)->valueint == 144, "offset 128 -> 144");
            cJSON_Delete(j);
        } else {
            CHECK(r.status == 413 && strstr(r.body, "at most 65536"), "65537 offsets: %d",
                  r.status);
        }
        free(r.body);
        free(body);
    }
}

/* The whole of `path` as a string (NULL, with a failed check, when it cannot
 * be read: the tests run from the repository root). */
static char *slurp(const char *path)
{
    char *text = client_slurp(path);
    CHECK(text != NULL, "%s not found (run the tests from the repository root)", path);
    return text;
}

/* Whether `text` has a table row for the route: a line starting with
 * "| `METHOD /path`" (the closing backtick: /api/layout is not
 * /api/layout/access). */
static int has_route_row(const char *text, const char *method, const char *path)
{
    char want[128];
    int n = snprintf(want, sizeof want, "| `%s %s`", method, path);
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        if (strncmp(line, want, (size_t)n) == 0)
            return 1;
    return 0;
}

/* Route rows: lines starting "| `GET /" or "| `POST /". */
static int route_rows(const char *text)
{
    int rows = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
        rows += strncmp(line, "| `GET /", 8) == 0 || strncmp(line, "| `POST /", 9) == 0;
    return rows;
}

/* Every route in the table has a row in the README's API table: a line
 * starting with "| `METHOD /path`" (issue 13: a route nobody documented fails here). */
static void test_routes_in_readme(void)
{
    char *text = slurp("README.md");
    if (text == NULL)
        return;
    int rows = route_rows(text);
    CHECK(rows >= 9, "the README's API table has %d route rows", rows);
    for (int i = 0; i < api_route_count(); i++) {
        const char *method, *path = api_route_path(i, &method);
        CHECK(has_route_row(text, method, path), "route %s %s has no row in the README's API "
              "table (want a line starting with \"| `%s %s`\")", method, path, method, path);
    }
    CHECK(api_route_path(api_route_count(), NULL) == NULL, "past the table's end");
    free(text);
}

/* docs/api.md holds the long rows (issue 22): every route of api.c's table
 * has its row there, so a route added without its documentation fails here. */
static void every_route_is_documented_in_docs_api_md(void)
{
    char *text = slurp("docs/api.md");
    if (text == NULL)
        return;
    for (int i = 0; i < api_route_count(); i++) {
        const char *method, *path = api_route_path(i, &method);
        CHECK(has_route_row(text, method, path), "route %s %s has no row in docs/api.md "
              "(want a line starting with \"| `%s %s`\")", method, path, method, path);
    }
    free(text);
}

/* ...and documents no route the server lacks: each route row of docs/api.md
 * names a method and path of the table (a row may add words after the
 * backtick, as "(atomics)" does). */
static void docs_api_md_names_only_routes_that_exist(void)
{
    char *text = slurp("docs/api.md");
    if (text == NULL)
        return;
    int rows = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
        if (strncmp(line, "| `GET /", 8) != 0 && strncmp(line, "| `POST /", 9) != 0)
            continue;
        rows++;
        const char *end = strchr(line + 3, '`');
        int known = 0;
        for (int i = 0; i < api_route_count() && end && !known; i++) {
            const char *method, *path = api_route_path(i, &method);
            char name[128];
            int n = snprintf(name, sizeof name, "%s %s", method, path);
            known = end - (line + 3) == n && strncmp(line + 3, name, (size_t)n) == 0;
        }
        CHECK(known, "docs/api.md documents a route the server does not have: %.60s", line);
    }
    CHECK(rows == route_rows(text) && rows >= api_route_count(),
          "docs/api.md has %d route rows for %d routes", rows, api_route_count());
    free(text);
}

/* The 413 message prints the limit from the constant, not a copy of it. */
static void body_limit_text_is_the_constant(void)
{
    char *end;
    unsigned long mib = strtoul(API_MAX_BODY_TEXT, &end, 10);
    CHECK(mib * 1024 * 1024 == API_MAX_BODY && strcmp(end, " MiB") == 0,
          "API_MAX_BODY_TEXT \"%s\" for API_MAX_BODY %u", API_MAX_BODY_TEXT, API_MAX_BODY);
}

/* The row matcher can say no: a route missing from a text is missing, and a
 * longer path that starts with it does not stand in for it. */
static void route_row_check_fails_for_a_missing_route(void)
{
    const char *doc = "| route | answer |\n|---|---|\n| `POST /api/layout/access` | x |\n";
    CHECK(!has_route_row(doc, "POST", "/api/layout"), "/api/layout/access stood in for /api/layout");
    CHECK(!has_route_row(doc, "GET", "/api/layout/access"), "the method was not compared");
    CHECK(has_route_row(doc, "POST", "/api/layout/access"), "a present row was not found");
}

/* The verdict class (verdict.c) of one answer per class: what the extra
 * wavefronts are.  The page words each class and classifies nothing. */
static void test_verdict_classes(void)
{
    char z[200], w[200], c[200], h[200];
    int n = 0, m = 0, k = 0, l = 0;
    for (int t = 0; t < 32; t++) {
        n += snprintf(z + n, sizeof z - n, "%s0", t ? "," : "");
        m += snprintf(w + m, sizeof w - m, "%s%d", t ? "," : "", 4 * t);
        k += snprintf(c + k, sizeof c - k, "%s%d", t ? "," : "", 128 * t);
        l += snprintf(h + l, sizeof h - l, "%s%d", t ? "," : "", t < 16 ? 0 : 128);
    }
    const struct { const char *op, *offsets, *cls; } t[] = {
        {"\"ld\"", w, "conflict_free"},            /* a word per bank */
        {"\"ld\"", z, "conflict_free_broadcast"},  /* one word for all */
        {"\"ld\"", c, "conflict"},                 /* a 128-byte column: 32-way */
        {"\"atom\"", z, "serialization"},          /* one word: same-address lanes */
        {"\"atom\"", h, "conflict_and_serialization"}, /* two words on one bank */
        {"\"red\"", w, "conflict_free"},
        {"\"atom\",\"type\":\"f32\"", w, "not_native"},  /* a CAS loop on sm_90 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char body[512];
        snprintf(body, sizeof body, "{\"op\":%s,\"offsets\":[%s]}", t[i].op, t[i].offsets);
        struct api_response r = client_api_call("POST", "/api/conflicts", "", "application/json",
                                                body, 0);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "verdict_class");
        CHECK(r.status == 200 && cJSON_IsString(v) && strcmp(v->valuestring, t[i].cls) == 0,
              "%s: %d %s, want %s", body, r.status, cJSON_IsString(v) ? v->valuestring : "?",
              t[i].cls);
        cJSON_Delete(j);
        free(r.body);
    }
}

/* What names a map (presets.c, swizzle.c): /api/swizzle's hardware modes,
 * CuTe's Swizzle -> TMA map (get_tma_swizzle_bits / _base) for <2,5,2>, none
 * for <1,6,1> (no source names it); and its element-unit forms,
 * Swizzle<B, M - log2(element bytes), S> where a unit holds whole elements. */
static void test_swizzle_names(void)
{
    static const struct {
        const char *q, *preset, *tma;
        int gmma, umma;
    } hw[] = {
        {"b=3&m=4&s=3", "128B", "CU_TENSOR_MAP_SWIZZLE_128B", 1, 2},
        {"b=1&m=4&s=3", "32B", "CU_TENSOR_MAP_SWIZZLE_32B", 3, 6},
        {"b=2&m=5&s=2&rows=4", "128B-32Bunit", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", -1, 1},
        {"b=0&m=2&s=5&rows=2", "none", "CU_TENSOR_MAP_SWIZZLE_NONE", 0, 0},
        {"b=1&m=6&s=1&rows=2", NULL, NULL, 0, 0},
        {"b=2&m=4&s=-4", NULL, NULL, 0, 0},
    };
    for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
        struct api_response r = client_api_call("GET", "/api/swizzle", hw[i].q, NULL, NULL, 0);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "hardware");
        if (hw[i].preset == NULL) {
            CHECK(cJSON_IsNull(h), "%s: a mode named", hw[i].q);
        } else {
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(h, "preset");
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(h, "tma");
            const cJSON *g = cJSON_GetObjectItemCaseSensitive(h, "gmma");
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(h, "umma");
            CHECK(cJSON_IsString(p) && strcmp(p->valuestring, hw[i].preset) == 0 &&
                  cJSON_IsString(t) && strcmp(t->valuestring, hw[i].tma) == 0 &&
                  cJSON_IsNumber(g) && g->valueint == hw[i].gmma && cJSON_IsNumber(u) &&
                  u->valueint == hw[i].umma, "%s: hardware %.200s", hw[i].q, r.body);
        }
        cJSON_Delete(j);
        free(r.body);
    }
    static const struct {
        const char *q;
        int bytes, ok, m, needs_m;
    } el[] = {
        {"b=3&m=4&s=3", 2, 1, 3, 0},    /* fp16 on 16-byte units: Swizzle<3,3,3> */
        {"b=2&m=4&s=3", 4, 1, 2, 0},    /* fp32: Swizzle<2,2,3> */
        {"b=3&m=4&s=-3", 1, 1, 4, 0},   /* bytes: the byte swizzle itself */
        {"b=1&m=1&s=1&rows=2", 4, 0, 0, 2},   /* a 2-byte unit splits an fp32 */
    };
    for (size_t i = 0; i < sizeof el / sizeof el[0]; i++) {
        struct api_response r = client_api_call("GET", "/api/swizzle", el[i].q, NULL, NULL, 0);
        cJSON *j = cJSON_ParseWithLength(r.body, r.len);
        const cJSON *e, *found = NULL;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "elements"))
            if (cJSON_GetObjectItemCaseSensitive(e, "bytes")->valueint == el[i].bytes)
                found = e;
        const cJSON *ok = cJSON_GetObjectItemCaseSensitive(found, "ok");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(found, el[i].ok ? "m" : "needs_m");
        CHECK(found && cJSON_IsBool(ok) && cJSON_IsTrue(ok) == el[i].ok && cJSON_IsNumber(v) &&
              v->valueint == (el[i].ok ? el[i].m : el[i].needs_m),
              "%s: %d-byte elements", el[i].q, el[i].bytes);
        cJSON_Delete(j);
        free(r.body);
    }
}

/* ---- GET /api/ops: the instruction-kind table -------------------------- */

/* GET `path` (no query) parsed, or NULL. */
static cJSON *get_json(const char *path)
{
    struct api_response r = client_api_call("GET", path, "", NULL, NULL, 0);
    cJSON *j = r.status == 200 && r.body ? cJSON_ParseWithLength(r.body, r.len) : NULL;
    free(r.body);
    return j;
}

/* tests/data/ops.json is what the page's node tests and the calibration
 * scripts read instead of a list of their own: it must be GET /api/ops's
 * answer exactly.  When a row changes, this writes the new answer to
 * build/ops.json (copy it over tests/data/ops.json). */
static void the_ops_fixture_is_the_ops_answer(void)
{
    cJSON *got = get_json("/api/ops"), *want = NULL;
    CHECK(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(got, "ops")), "GET /api/ops: no ops");
    char *pretty = got ? cJSON_Print(got) : NULL;
    FILE *out = pretty ? fopen("build/ops.json", "wb") : NULL;
    if (out) {
        fprintf(out, "%s\n", pretty);
        fclose(out);
    }
    free(pretty);
    FILE *f = fopen("tests/data/ops.json", "rb");
    if (f) {
        static char text[1 << 16];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        want = cJSON_Parse(text);
    }
    CHECK(want && cJSON_Compare(got, want, 1), "tests/data/ops.json is not GET /api/ops's "
          "answer: cp build/ops.json tests/data/ops.json");
    cJSON_Delete(got);
    cJSON_Delete(want);
}

/* Every kind's /api/conflicts answer names its row's metrics, and null where
 * the row names none (atom and red: no bank-conflict counter was measured;
 * the answer named l1tex__..._op_atom before the table). */
static void conflicts_names_the_rows_metrics(void)
{
    cJSON *ops = get_json("/api/ops");
    const cJSON *k;
    int kinds = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(ops, "ops")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(k, "name")->valuestring;
        /* each lane its own access of the kind's default width (a matrix row: 16 B) */
        int width = (int)cJSON_GetObjectItemCaseSensitive(k, "default_bytes")->valuedouble;
        char body[512];
        int len = snprintf(body, sizeof body, "{\"op\":\"%s\",\"offsets\":[", name);
        for (int t = 0; t < 32; t++)
            len += snprintf(body + len, sizeof body - (size_t)len, "%s%d", t ? "," : "",
                            width * t);
        snprintf(body + len, sizeof body - (size_t)len, "]}");
        struct api_response r = client_api_call("POST", "/api/conflicts", "",
                                                "application/json", body, 0);
        cJSON *j = r.status == 200 ? cJSON_ParseWithLength(r.body, r.len) : NULL;
        CHECK(j != NULL, "%s: /api/conflicts answered %d", name, r.status);
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "ncu");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, "ncu");
        static const char *const pairs[][2] = {{"wavefronts_metric", "wavefronts"},
                                               {"conflicts_metric", "conflicts"},
                                               {"source_metric", "source"}};
        for (int i = 0; i < 3 && j; i++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(n, pairs[i][0]);
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(m, pairs[i][1]);
            CHECK(a && b && cJSON_Compare(a, b, 1), "%s: /api/conflicts' %s is not the row's",
                  name, pairs[i][0]);
        }
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k, "atomic")))
            CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(n, "conflicts_metric")),
                  "%s: a bank-conflict metric that no measurement read", name);
        kinds++;
        cJSON_Delete(j);
        free(r.body);
    }
    CHECK(kinds >= 6, "only %d kinds", kinds);
    cJSON_Delete(ops);
}

/* Issue 37: an error inside pasted text carries "at": {"line", "column"} in
 * the error body (1-based, the column in characters), the page's caret reads
 * it; an error about no place in a text carries no "at". */
static void errors_carry_their_position_in_the_text(void)
{
    static const struct {
        const char *path, *body, *field;
        int line, column;
    } pos[] = {
        {"/api/layout", "{\"layout\":\"#ttg.swizzled_shared<{vec = 8,\\n  perPhase = 1,\\n"
         "  maxPhase = x, order = [1, 0]}>\",\"element_bits\":16,\"shape\":[64,64]}",
         "layout", 3, 14},
        /* a thread layout (a Triton distributed encoding) on the layout page */
        {"/api/layout/access", "{\"layout\":\"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\","
         "\"element_bits\":16,\"origin\":[0,0],\"thread\":\"#ttg.blocked<{sizePerThread = "
         "[1, 8],\\n  threadsPerWarp = [4, x8], warpsPerCTA = [4, 1], order = [1, 0]}>\"}",
         "thread", 2, 24},
        /* a CuTe thread-value print in the same field */
        {"/api/layout/access", "{\"layout\":\"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\","
         "\"element_bits\":16,\"origin\":[0,0],\"thread\":\"% Layout S TV: "
         "ArithTuple(_0,_0) o (_16,_8):(_1@0,_1@1)\\nfoo bar\\n\"}", "thread", 2, 1},
        {"/api/layout", "{\"layout\":\"#ttg.nvmma_shared<{swizzlingByteWidth = 128,\\n  "
         "transposed = false, elementBitWidth = 16}>\",\"element_bits\":32,\"shape\":[64,64]}",
         "element_bits", 0, 0},
    };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        int status;
        cJSON *j = jtest_post(pos[i].path, pos[i].body, &status);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "at");
        int has = cJSON_IsObject(at);
        CHECK(status == 400 && strcmp(jtest_str(e, "field"), pos[i].field) == 0 &&
                  (pos[i].line == 0 ? !has
                                      : has && cJSON_GetArraySize(at) == 2 &&
                                            jtest_num(at, "line") == pos[i].line &&
                                            jtest_num(at, "column") == pos[i].column),
              "%s case %zu: want %s at %d:%d, got %d %s at %s%g:%g (%s)", pos[i].path, i,
              pos[i].field, pos[i].line, pos[i].column, status, jtest_str(e, "field"),
              has ? "" : "(none) ", jtest_num(at, "line"), jtest_num(at, "column"),
              jtest_str(e, "message"));
        cJSON_Delete(j);
    }
}

/* A reserve hook that records what it was asked and grants up to `grant`. */
struct reserve_probe {
    size_t grant, asked;
    int calls;
};

static int reserve_probe_cb(void *cls, size_t bytes)
{
    struct reserve_probe *p = cls;
    p->calls++;
    p->asked = bytes;
    return bytes <= p->grant ? 0 : -1;
}

/* The route `req` names asks the answer budget for at least its answer's
 * size before building it, once: refused (a budget one byte short of the
 * answer), it answers 503 overloaded and builds nothing; granted, the answer
 * is byte for byte the unbudgeted one.  The cache is emptied before each call
 * (a cached route's repeat is a hit, which builds nothing).  `what` names the
 * case; the unbudgeted answer's length must pass `min_len`.  Returns the
 * bytes it asked for. */
static size_t reserves_before(const char *what, struct api_request req, size_t min_len,
                              size_t *answer_len)
{
    struct api_response free_run = {0}, refused = {0}, granted = {0};
    cache_clear();
    api_handle(&req, &free_run);
    CHECK(free_run.status == 200 && free_run.len > min_len, "%s unbudgeted: %d, %zu bytes",
          what, free_run.status, free_run.len);
    struct reserve_probe p = {.grant = free_run.len - 1};
    req.reserve = reserve_probe_cb;
    req.reserve_cls = &p;
    cache_clear();
    api_handle(&req, &refused);
    CHECK(p.calls == 1 && p.asked >= free_run.len, "%s: asked once for at least the answer's "
          "%zu bytes: %d calls, %zu bytes", what, free_run.len, p.calls, p.asked);
    CHECK(refused.status == 503 && refused.body &&
          strstr(refused.body, "\"code\":\"overloaded\""), "%s refused: %d %.200s", what,
          refused.status, refused.body ? refused.body : "");
    size_t asked = p.asked;
    p = (struct reserve_probe){.grant = SIZE_MAX};
    cache_clear();
    api_handle(&req, &granted);
    CHECK(granted.status == 200 && granted.len == free_run.len &&
          memcmp(granted.body, free_run.body, free_run.len) == 0,
          "%s granted: the same answer, byte for byte", what);
    *answer_len = free_run.len;
    free(free_run.body);
    free(refused.body);
    free(granted.body);
    return asked;
}

/* reserves_before of a POST of `body` to `path`. */
static size_t reserves_before_building(const char *what, const char *path, const char *body,
                                       size_t min_len, size_t *answer_len)
{
    struct api_request req = {.method = "POST", .path = path,
                              .content_type = "application/json", .body = body,
                              .body_len = strlen(body)};
    return reserves_before(what, req, min_len, answer_len);
}

/* A small request of a route that reserves asks too, and is answered under a
 * budget of 1 MiB. */
static void small_asks_too(const char *what, const char *path, const char *body)
{
    struct api_request req = {.method = "POST", .path = path,
                              .content_type = "application/json", .body = body,
                              .body_len = strlen(body)};
    struct reserve_probe p = {.grant = 1u << 20};
    req.reserve = reserve_probe_cb;
    req.reserve_cls = &p;
    struct api_response sm = {0};
    api_handle(&req, &sm);
    CHECK(sm.status == 200 && p.calls == 1, "%s: %d, %d calls", what, sm.status, p.calls);
    free(sm.body);
}

/* Issue 36 item 3: a 2^20-element /api/layout answer (12.7 MB) was built whole
 * and only then turned away by the answer budget, so a hundred clients that
 * never read held 389 MB.  The route must ask the budget for at least its
 * answer's size before building it. */
static void layout_reserves_before_building(void)
{
    size_t len, asked = reserves_before_building(
        "a 2^20-element layout", "/api/layout",
        "{\"layout\":\"tma:CU_TENSOR_MAP_SWIZZLE_128B\",\"shape\":[1024,1024]}", API_STREAM_MIN,
        &len);
    /* the bound is close: a budget of 256 MiB holds 18 such answers, not 9 */
    CHECK(asked < 2 * len + (size_t)(13u << 20), "asked %zu bytes", asked);
    small_asks_too("a small layout", "/api/layout", "{\"layout\":\"(8,8):(1,8)\"}");
}

/* The same of every other route whose answer passes API_STREAM_MIN: they
 * built it whole before the budget saw it.  /api/apply: 65,536 offsets answer
 * 0.7 MB; /api/layout/access holds a 2^20-element layout's offsets (12 MB)
 * while it lists a tiled copy's 4,096 instructions (0.4 MB); /api/ttgir
 * repeats each op's answer (512 ops: 0.9 MB); /api/linear/evaluate's bank
 * view lists 65,536 elements (0.5 MB); /api/recommend lists up to 1,024
 * candidates (617: 0.26 MB). */
static void routes_reserve_before_building(void)
{
    struct buf b = {0};
    buf_puts(&b, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[");
    for (int i = 0; i < API_MAX_OFFSETS; i++)
        buf_printf(&b, "%s%d", i ? "," : "", 2147483647 - i);
    buf_puts(&b, "]}");
    size_t len, asked = reserves_before_building("65,536 offsets", "/api/apply", b.p,
                                                 API_STREAM_MIN, &len);
    CHECK(asked < 2 * len, "apply: asked %zu bytes for %zu", asked, len);
    small_asks_too("one offset", "/api/apply", "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[16]}");
    buf_free(&b);
    /* 1,024 threads of 128 4-byte values each on a 1024 x 1024 tile of f32:
     * 32 warps x 128 steps = 4,096 warp instructions */
    static const char tiled[] =
        "{\"layout\":\"(_1024,_1024):(_1,_1024)\",\"element_bits\":32,\"op\":\"st\","
        "\"thread\":\"TiledCopy\\n  Tiler_MN:       (_1024,_128)\\n  TiledLayout_TV: "
        "(_1024,_128):(_1,_1024)\\nCopy_Atom\\n  ThrID:        _1:_0\\n  ValLayoutSrc: "
        "(_1,_1):(_0,_1)\\n  ValLayoutDst: (_1,_1):(_0,_1)\\n  ValLayoutRef: (_1,_1):(_0,_1)\\n"
        "  ValueType:    32b\\n\"}";
    asked = reserves_before_building("a 4,096-instruction tiled copy on 2^20 elements",
                                     "/api/layout/access", tiled, API_STREAM_MIN, &len);
    CHECK(asked >= (size_t)12 << 20 && asked < 2 * len + (size_t)(13u << 20),
          "layout/access: asked %zu bytes for a %zu-byte answer and 12 MiB of offsets", asked,
          len);
    small_asks_too("a small access", "/api/layout/access",
                   "{\"layout\":\"(_16,_64):(_64,_1)\",\"element_bits\":16,"
                   "\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[0,0]}");
    /* 512 loads, each through its own (identical) swizzled alias, so that
     * none shares another's answer */
    static const char op[] = "%%%d = ttg.local_load %%0 : !ttg.memdesc<64x64xf16, #s%d, #smem> "
                             "-> tensor<64x64xf16, #b>\\n";
    buf_puts(&b, "{\"text\":\"#smem = #ttg.shared_memory\\n#b = #ttg.blocked<{sizePerThread = "
                 "[1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\\n");
    for (int i = 0; i < 512; i++)
        buf_printf(&b, "#s%d = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                   "order = [1, 0]}>\\n", i);
    for (int i = 0; i < 512; i++)
        buf_printf(&b, op, i + 1, i);
    buf_puts(&b, "\"}");
    asked = reserves_before_building("a 512-op dump", "/api/ttgir", b.p, API_STREAM_MIN, &len);
    CHECK(asked < 3 * len, "ttgir: asked %zu bytes for %zu", asked, len);
    buf_free(&b);
    small_asks_too("a one-op dump", "/api/ttgir",
                   "{\"text\":\"#smem = #ttg.shared_memory\\n%1 = ttg.local_load %0 : "
                   "!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                   "maxPhase = 8, order = [1, 0]}>, #smem> -> tensor<64x64xf16, "
                   "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                   "warpsPerCTA = [4, 1], order = [1, 0]}>>\\n\"}");
    static const char lin[] =
        "{\"shape\":[4096,4096],\"bitwidth\":8,\"A\":{\"layout\":\"#ttg.blocked<{sizePerThread = "
        "[1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\"},\"B\":{"
        "\"layout\":\"#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], "
        "warpsPerCTA = [1, 4], order = [0, 1]}>\"},\"triton\":{\"vec\":8,\"per_phase\":1,"
        "\"max_phase\":8}}";
    asked = reserves_before_building("a 4096 x 4096 bank view", "/api/linear/evaluate", lin,
                                     API_STREAM_MIN, &len);
    CHECK(asked < 3 * len, "linear/evaluate: asked %zu bytes for %zu", asked, len);
    /* the recommender's candidates (617 distinct swizzles here: 0.26 MB) */
    static const struct api_arg rec[] = {{"b", "3"}, {"m", "4"}, {"s", "3"}, {"rows", "1024"},
                                         {"bank_bytes", "4"}, {"banks", "64"},
                                         {"write", "col_read"}, {"read", "row_load_32"}};
    struct api_request get = {.method = "GET", .path = "/api/recommend", .args = rec,
                              .nargs = (int)(sizeof rec / sizeof rec[0])};
    asked = reserves_before("617 candidates", get, 200000, &len);
    CHECK(asked < 3 * len + (size_t)(3u << 19),
          "recommend: asked %zu bytes for %zu and the search's 1.2 MB of work", asked, len);
}

int main(void)
{
    every_case_of_api_cases_h();
    test_maps_match_core();
    test_verdict_classes();
    test_swizzle_names();
    test_slot_rule_examples();
    test_inspect_matches_core();
    test_trace_examples();
    test_trace_matches_maps();
    test_access_cells();
    test_routes_in_readme();
    every_route_is_documented_in_docs_api_md();
    docs_api_md_names_only_routes_that_exist();
    route_row_check_fails_for_a_missing_route();
    body_limit_text_is_the_constant();
    test_apply_limits();
    the_ops_fixture_is_the_ops_answer();
    conflicts_names_the_rows_metrics();
    errors_carry_their_position_in_the_text();
    layout_reserves_before_building();
    routes_reserve_before_building();
    cache_clear();  /* so that valgrind sees every byte returned */
    return check_summary("test_api");
}
