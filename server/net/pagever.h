/* pagever.h - an HTML page as sent, with versioned URLs: its module scripts
 * and stylesheets carry ?v=<the file's version>, and an import map sends every
 * module under the static root's js/ to its versioned URL, so that a browser
 * may keep them for ever (http.c) and still never run stale code.
 *
 * File-system reads only (stat, no file's bytes); no HTTP library.  It must
 * not change anything in the page but those URLs and the one map. */
#ifndef SZ_PAGEVER_H
#define SZ_PAGEVER_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"

/* A page's modules are at most this many folders deep under js/, and at most
 * this many: past them the rest go unmapped (fetched unversioned: revalidated,
 * never stale). */
#define PAGEVER_MAX_DEPTH 8
#define PAGEVER_MAX_MODULES 1024
/* The CSP hash-source of the map, "'sha256-<base64>'", and its NUL. */
#define PAGEVER_HASH_MAX 56

/* Append to `out` the page html[0..len), served at URL path `url` (e.g. "/" or
 * "/index.html") from static root `root` (files_root), with each
 * <script type="module" src>, <link rel="stylesheet" href> and
 * <link rel="modulepreload" href> naming a file under root given ?v=<its
 * files_version>, and, just before the first module script, a
 * <script type="importmap"> from each "/js/...js" to its versioned URL.
 * `hash` gets the map's CSP hash-source, or "" when the page has no module
 * script (and so no map).  0, or -1 with err when memory ran out (out->oom). */
int pagever_render(const char *root, const char *url, const char *html, size_t len,
                   struct buf *out, char hash[PAGEVER_HASH_MAX], struct sz_error *err);

#endif
