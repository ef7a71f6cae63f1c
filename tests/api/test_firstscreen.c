/* test_firstscreen.c - the main page's first screen written by the server
 * (server/net/firstscreen.c): the page's own template rendered for a few states
 * holds the API's numbers in the page's words, a 1x1 tile, escaped text; a
 * state it does not render (invalid, predict, a query too long, a tile past
 * 16x16) gets the plain page; a file without markers goes out untouched.
 * Byte-for-byte agreement with the page's JS is the browser test's
 * (tests/browser/firstscreen_checks.mjs). */
#define _POSIX_C_SOURCE 200809L   /* strdup, strtok_r under -std=c11 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "net/firstscreen.h"
#include "check.h"
#include "client.h"

static char *tmpl;
static size_t tmpl_len;

/* Render the page template for query "k=v&k=v" (no decoding needed here);
 * returns the page (caller frees) and the return code in *rc. */
static char *render_q(const char *query, int *rc)
{
    struct api_arg args[32];
    char *q = strdup(query), *save = NULL;
    int n = 0;
    for (char *kv = strtok_r(q, "&", &save); kv && n < 32; kv = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(kv, '=');
        if (eq)
            *eq = '\0';
        args[n++] = (struct api_arg){kv, eq ? eq + 1 : ""};
    }
    struct buf out = {0};
    struct sz_error err;
    *rc = firstscreen_render(tmpl, tmpl_len, args, n, &out, &err);
    free(q);
    buf_putc(&out, '\0');
    return out.p;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Each of `want` (NULL-terminated pairs: text, what it is) is in `page`. */
static void contains(const char *page, const char *const want[][2])
{
    for (int i = 0; want[i][0]; i++)
        CHECK(strstr(page, want[i][0]) != NULL, "%s: %s", want[i][1], want[i][0]);
}

static int no_markers(const char *page) { return !strstr(page, "<!--fs:") && !strstr(page, "<!--/fs-->") && !strstr(page, "data-fs="); }

/* The plain page: the template with each marker replaced by its default. */
static char *plain_page(void)
{
    int rc;
    char *p = render_q("b=9", &rc);   /* an invalid state */
    CHECK(rc == 0, "b=9 is not rendered (%d)", rc);
    return p;
}

/* The API's cost for the default access view of a state, for the verdict. */
static cJSON *api_json(const char *path, const char *query)
{
    struct api_response r = client_api_call("GET", path, query, NULL, NULL, 0);
    cJSON *j = r.status == 200 ? cJSON_ParseWithLength(r.body, r.len) : NULL;
    free(r.body);
    return j;
}

static void test_default_state(void)
{
    int rc;
    char *p = render_q("b=3&m=4&s=3", &rc);
    CHECK(rc == 1, "rendered (%d)", rc);
    CHECK(no_markers(p), "no marker left");
    CHECK(strstr(p, "<div id=\"readout\" class=\"readout\">Swizzle&lt;<span data-p=\"b\">3</span>,"
                    "<span data-p=\"m\">4</span>,<span data-p=\"s\">3</span>&gt;</div>") != NULL, "readout");
    /* the stats are the API's numbers */
    cJSON *d = api_json("/api/swizzle", "b=3&m=4&s=3&bank_bytes=4&banks=32&match_bank_row=0");
    CHECK(d != NULL, "the API answers");
    if (d) {
        const cJSON *t = cJSON_GetObjectItem(d, "tile"), *mk = cJSON_GetObjectItem(d, "masks");
        char want[160];
        snprintf(want, sizeof want, "<dd id=\"stat-tile\">%d&times;%d <small>%d B</small></dd>",
                 cJSON_GetObjectItem(t, "size")->valueint, cJSON_GetObjectItem(t, "size")->valueint,
                 cJSON_GetObjectItem(t, "bytes")->valueint);
        CHECK(strstr(p, want) != NULL, "tile stat %s", want);
        snprintf(want, sizeof want, "<dd id=\"stat-masks\">0x%x <small>0x%x</small></dd>",
                 cJSON_GetObjectItem(mk, "yyy")->valueint, cJSON_GetObjectItem(mk, "zzz")->valueint);
        CHECK(strstr(p, want) != NULL, "masks stat %s", want);
        CHECK(count(p, "title=\"bit ") == cJSON_GetObjectItem(mk, "yyy_hi")->valueint + 2,
              "one bit per address bit up to two past YYY");
    }
    cJSON_Delete(d);
    cJSON *a = api_json("/api/access", "b=3&m=4&s=3&bank_bytes=4&banks=32&match_bank_row=0&pattern=col_read&step=0");
    if (a) {
        const cJSON *c = cJSON_GetObjectItem(a, "cost");
        char want[160];
        int wf = cJSON_GetObjectItem(c, "wavefronts")->valueint;
        snprintf(want, sizeof want, "id=\"verdict-line-text\">conflict-free with broadcast: %d wavefront%s (ideal %d)</span>",
                 wf, wf == 1 ? "" : "s", cJSON_GetObjectItem(c, "ideal_wavefronts")->valueint);
        CHECK(strcmp(cJSON_GetObjectItem(c, "verdict_class")->valuestring, "conflict_free_broadcast") == 0 && strstr(p, want),
              "verdict %s", want);
    }
    cJSON_Delete(a);
    /* the verdict, escaped preset label, selected preset, the limits' menus */
    static const char *const want[][2] = {
        {"<p id=\"verdict-line\" class=\"verdict-line ok\"", "verdict class"},
        {"<b>ld.b32: lane t reads word r of row t (a column walk)</b>, step r = 0 (col_read) on "
         "Swizzle&lt;3,4,3&gt;:", "verdict: the pattern in words, then its name and step (issue 40.7)"},
        {"Without the swizzle: 8-way conflict: 8 wavefronts, ideal 1.", "the unswizzled cost"},
        {"<option value=\"128B\" selected>128B &lt;3,4,3&gt;</option>", "preset menu"},
        {"<option value=\"custom\">Custom</option>", "Custom last, not selected"},
        {"<option value=\"4\" selected>4</option>", "bank bytes"},
        {"<option value=\"32\" selected>32</option>", "banks"},
        {"<html lang=\"en\" data-theme=\"light\" data-present=\"0\" data-palette=\"standard\" data-side=\"show\"", "<html> data"},
        {NULL, NULL},
    };
    contains(p, want);
    CHECK(strstr(p, "data-fs") == NULL && strstr(p, "placeholder=\"8\"") != NULL, "rows placeholder");
    /* the tiles: 8x8 cells each, the layout's 374 x 373 with axes */
    CHECK(count(p, "<rect class=\"cell k") == 128, "2 x 64 cells (%d)", count(p, "<rect class=\"cell k"));
    CHECK(count(p, "class=\"map tile served\" width=\"374\" height=\"373\" viewBox=\"0 0 374 373\"") == 2, "tile size");
    CHECK(strstr(p, "<rect class=\"cell k1\" x=\"19\" y=\"62\" width=\"44\" height=\"44\" data-p=\"8\" data-l=\"9\" data-c=\"1\"/>") != NULL,
          "swizzled slot 8 holds logical unit 9 (the API's tile.log_of)");
    CHECK(count(p, "<button type=\"button\" class=\"export\"") == 4, "the tiles' export buttons");
    free(p);
}

static void test_one_unit_tile(void)
{
    int rc;
    char *p = render_q("b=0&m=4&s=3&theme=dark&present=1", &rc);
    CHECK(rc == 1, "rendered (%d)", rc);
    CHECK(count(p, "<rect class=\"cell k0\"") == 2, "a 1x1 tile each (%d)", count(p, "<rect class=\"cell"));
    /* presenter mode: 2x scale, a 477 px box: lw 38, th 36, one 88 px cell; an 8x8 tile's height */
    static const char *const want[][2] = {
        {"class=\"map tile served\" width=\"129\" height=\"471\"", "1x1 tile geometry"},
        {"data-theme=\"dark\" data-present=\"1\"", "dark presenter"},
        {"<option value=\"dark\" selected>Dark</option>", "theme menu"},
        {" checked aria-checked=\"true\"", "presenter box"},
        {NULL, NULL},
    };
    contains(p, want);
    free(p);
}

static void test_not_rendered(void)
{
    char *plain = plain_page();
    CHECK(no_markers(plain), "no marker on the plain page");
    static const char *const want[][2] = {
        {"<div id=\"readout\" class=\"readout\">Swizzle&lt;&hellip;&gt;</div>", "the template's readout"},
        {"<dl id=\"stats\" class=\"stats\"></dl>", "no stats"},
        {"<p id=\"verdict-line\" class=\"verdict-line\" aria-live=\"polite\"></p>", "no verdict"},
        {"<input id=\"side\" type=\"checkbox\" checked>", "controls shown"},
        {"<p class=\"help\" id=\"elem-swizzle\">Cells show logical column numbers.</p>", "element line"},
        {"<html lang=\"en\">", "<html> as it was"},
        {NULL, NULL},
    };
    contains(plain, want);
    static const char *const q[] = {
        "b=3&m=4&s=3&predict=1", "b=3&m=4&s=3&acc=custom", "b=3&m=4&s=3&acc=expr", "b=3&m=4&s=3&lesson=0",
        "b=3&m=4&s=3&embed=1", "b=3&m=4&s=3&sel=1,2", "b=3&m=4&s=3&tcol=2", "b=3&m=4&s=3&trans=1",
        "b=3&m=4&s=3&space=physical", "b=3&m=4&s=3&pat=nonesuch", "b=3&m=4&s=3&rows=8\"><script>x</script>",
        "b=3&m=4&s=3&pat=<script>", "b=3&m=4&s=3&step=9999", "b=3&m=4&s=-1", "bank_bytes=3",
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        int rc;
        char *p = render_q(q[i], &rc);
        CHECK(rc == 0 && strcmp(p, plain) == 0, "%s: the plain page (%d)", q[i], rc);
        CHECK(strstr(p, "<script>") == NULL, "%s: nothing of the query in the page", q[i]);
        free(p);
    }
    /* a query too long, and one with too many arguments (nargs < 0) */
    char *longq = malloc(FIRSTSCREEN_MAX_QUERY + 64);
    snprintf(longq, FIRSTSCREEN_MAX_QUERY + 64, "b=3&m=4&s=3&pad=%0*d", FIRSTSCREEN_MAX_QUERY, 0);
    int rc;
    char *p = render_q(longq, &rc);
    CHECK(rc == 0 && strcmp(p, plain) == 0, "a long query: the plain page");
    free(p);
    free(longq);
    struct buf out = {0};
    struct sz_error err;
    rc = firstscreen_render(tmpl, tmpl_len, NULL, -1, &out, &err);
    buf_putc(&out, '\0');
    CHECK(rc == 0 && strcmp(out.p, plain) == 0, "too many arguments: the plain page");
    free(out.p);
    /* a 32x32 tile: the rest of the first screen, the tiles left to the JS */
    p = render_q("b=5&m=4&s=5", &rc);
    CHECK(rc == 1 && count(p, "<rect class=\"cell") == 0 && strstr(p, "<span data-p=\"b\">5</span>"), "32x32: no tile cells");
    free(p);
    free(plain);
}

static void test_not_a_template(void)
{
    static const char peer[] = "<!doctype html><html><head><style>.a{}</style></head><body><!-- a comment -->"
                               "<div data-x=\"1\">x</div><script>render()</script></body></html>";
    CHECK(firstscreen_is_template(peer, sizeof peer - 1) == 0, "the peer's page is no template");
    CHECK(firstscreen_is_template(tmpl, tmpl_len) == 1, "static/index.html is one");
    struct buf out = {0};
    struct sz_error err;
    struct api_arg a[] = {{"b", "3"}, {"m", "4"}, {"s", "3"}};
    int rc = firstscreen_render(peer, sizeof peer - 1, a, 3, &out, &err);
    CHECK(rc >= 0 && out.len == sizeof peer - 1 && memcmp(out.p, peer, out.len) == 0, "a file without markers: byte for byte");
    free(out.p);
}

int main(void)
{
    tmpl = client_slurp("static/index.html");
    CHECK(tmpl != NULL, "static/index.html (run from the repository root)");
    if (!tmpl)
        return check_summary("test_firstscreen");
    tmpl_len = strlen(tmpl);
    test_default_state();
    test_one_unit_tile();
    test_not_rendered();
    test_not_a_template();
    free(tmpl);
    return check_summary("test_firstscreen");
}
