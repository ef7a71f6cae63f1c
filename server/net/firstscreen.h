/* firstscreen.h - the main page's first screen written by the server: the
 * page's template (static/index.html, which marks where with <!--fs:NAME-->
 * ... <!--/fs--> and data-fs="NAME") filled in for the state of the URL's
 * query, so that the first paint already shows the readout, the verdict and
 * the tiles that the page's JS then takes over.
 *
 * It must not compute a model fact: every number comes from the API's own
 * answers (api_handle: /api/swizzle, /api/presets, /api/access), and every
 * word is the one the page's JS writes for them (static/js/index/readout.js,
 * verdictline.js, verdict.js, slotrule.js, elements.js; kit/maplayout.js). */
#ifndef SZ_FIRSTSCREEN_H
#define SZ_FIRSTSCREEN_H
#include <stddef.h>

#include "api/api.h"
#include "base/buf.h"
#include "base/error.h"

/* A query whose keys and values together pass this many bytes gets the plain
 * page (no state the page renders is that long). */
#define FIRSTSCREEN_MAX_QUERY 2048
/* Tiles larger than this edge (in units) are left to the JS: the page's
 * output stays bounded (16 x 16 cells and their labels, ~40 KiB). */
#define FIRSTSCREEN_MAX_TILE 16
/* Templates are read whole: an HTML file larger than this is sent as it is. */
#define FIRSTSCREEN_MAX_TEMPLATE ((size_t)256 << 10)

/* 1 when `tmpl` (len bytes) holds a first-screen marker (only such a file is
 * rendered: any other HTML file goes out untouched), else 0. */
int firstscreen_is_template(const char *tmpl, size_t len);

/* Append to `out` the page of template `tmpl` (len bytes) for the query
 * arguments args[0..nargs) (decoded; the first of a repeated key counts, as
 * URLSearchParams.get does; nargs < 0: a query too long to read, the plain
 * page).  Where the state is one the server renders and
 * the API answers it, each marker is replaced by its content; otherwise
 * (custom offsets, a lesson, predict, embed, a selection or traced column,
 * .trans, physical offsets, a tile past FIRSTSCREEN_MAX_TILE, a query past
 * FIRSTSCREEN_MAX_QUERY, any parameter the API refuses) by what the template
 * holds there without the server: today's page, which the JS draws.
 * Returns 1 (rendered), 0 (the plain page), or -1 with `err` when memory ran
 * out (out->oom). */
int firstscreen_render(const char *tmpl, size_t len, const struct api_arg *args, int nargs,
                       struct buf *out, struct sz_error *err);

#endif
