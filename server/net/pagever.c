/* pagever.c - versioned URLs in a page (pagever.h): the js/ folder walked at
 * every page (a stat per module: the versions are read when the page is sent,
 * so they can never be stale), the map written and hashed for the CSP, and
 * the page's own script and stylesheet URLs given their versions.
 * Must not read a module's bytes, nor map a file files_open would refuse. */
#define _GNU_SOURCE 1   /* scandir, alphasort, lstat, PATH_MAX under -std=c11 */
#include "pagever.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/base64.h"
#include "base/sha256.h"
#include "files.h"

/* A URL path this file writes into the page as it is: no quoting, escaping or
 * resolving needed in HTML, JSON or a URL. */
static int plain_path(const char *p, size_t n)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/.-_";
    size_t i = 0;
    while (i < n && p[i] && strchr(plain, p[i]))
        i++;
    return n > 0 && i == n;
}

/* One "url":"url?v=X" pair for every module under the folder at URL path `at`
 * (ending in '/'); stops adding at PAGEVER_MAX_MODULES (*count).  `real`: every
 * folder from root to here is a folder, no symlink, so a regular file of one
 * link here is one files_open would open, and its lstat gives its version
 * (the full check, files_version, resolves every name: measured 1.1 ms of
 * the server's CPU per page for static/'s 67 modules).  Else each module
 * gets the full check. */
static void map_dir(const char *root, const char *at, int depth, int real, struct buf *map,
                    int *count)
{
    char full[PATH_MAX];
    int rl = snprintf(full, sizeof full, "%s%s", root, at);
    if (depth > PAGEVER_MAX_DEPTH || rl >= (int)sizeof full)
        return;
    struct dirent **names;
    int n = scandir(full, &names, NULL, alphasort);   /* sorted: the same map, the same hash */
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        size_t nl = strlen(name);
        char url[FILES_MAX_PATH + 2], ver[FILES_VERSION_MAX];
        struct stat st;
        struct sz_error e;
        /* a name starting with '.' is never served (files.c), nor mapped */
        if (name[0] != '.' && plain_path(name, nl) && *count < PAGEVER_MAX_MODULES &&
            snprintf(url, sizeof url, "%s%s", at, name) < FILES_MAX_PATH &&
            snprintf(full + rl, sizeof full - (size_t)rl, "%s", name) < (int)(sizeof full) - rl &&
            lstat(full, &st) == 0) {
            int js = nl > 3 && strcmp(name + nl - 3, ".js") == 0;
            if (S_ISDIR(st.st_mode) || (S_ISLNK(st.st_mode) && !js)) {
                strcat(url, "/");
                map_dir(root, url, depth + 1, real && S_ISDIR(st.st_mode), map, count);
            } else if (js) {
                int ok;
                if (real && S_ISREG(st.st_mode)) {
                    ok = st.st_nlink == 1;          /* files_open refuses a hard link */
                    if (ok)
                        files_version_stat(&st, ver);
                } else {
                    ok = files_version(root, url, ver, &e) == 0;
                }
                if (ok) {
                    buf_printf(map, "%s\"%s\":\"%s?v=%s\"", *count ? "," : "", url, url, ver);
                    ++*count;
                }
            }
        }
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

/* 1 when root's js/ is a folder, not a symlink to one. */
static int js_real(const char *root)
{
    char full[PATH_MAX];
    struct stat st;
    return snprintf(full, sizeof full, "%s/js", root) < (int)sizeof full && lstat(full, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

/* The value of attribute `name` inside the tag [t, end): its start and length,
 * or NULL.  Our pages quote every value ("..." or '...'). */
static const char *attr(const char *t, const char *end, const char *name, size_t *n)
{
    size_t nl = strlen(name);
    for (const char *p = t + 1; p + nl + 2 < end; p++) {
        if ((p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t') && strncasecmp(p, name, nl) == 0 &&
            p[nl] == '=' && (p[nl + 1] == '"' || p[nl + 1] == '\'')) {
            const char *v = p + nl + 2, *q = memchr(v, p[nl + 1], (size_t)(end - v));
            if (q == NULL)
                return NULL;
            *n = (size_t)(q - v);
            return v;
        }
    }
    return NULL;
}

static int attr_is(const char *t, const char *end, const char *name, const char *want)
{
    size_t n;
    const char *v = attr(t, end, name, &n);
    return v && n == strlen(want) && strncasecmp(v, want, n) == 0;
}

/* Write the URL [v, v+n) of the page at `url`, with ?v= when it names a file
 * under root by a plain relative or absolute path. */
static void put_url(const char *root, const char *url, const char *v, size_t n, struct buf *out)
{
    buf_put(out, v, n);
    if (!plain_path(v, n) || (n > 1 && v[0] == '/' && v[1] == '/'))
        return;
    char path[FILES_MAX_PATH + 2], ver[FILES_VERSION_MAX];
    size_t dir = v[0] == '/' ? 0 : (size_t)(strrchr(url, '/') - url) + 1;
    if (dir + n > FILES_MAX_PATH)
        return;
    memcpy(path, url, dir);
    memcpy(path + dir, v, n);
    path[dir + n] = '\0';
    struct sz_error e;
    if (files_version(root, path, ver, &e) == 0)
        buf_printf(out, "?v=%s", ver);
}

int pagever_render(const char *root, const char *url, const char *html, size_t len,
                   struct buf *out, char hash[PAGEVER_HASH_MAX], struct sz_error *err)
{
    hash[0] = '\0';
    const char *p = html, *end = html + len;
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        if (lt == NULL)
            break;
        /* a comment may mention a tag: it is copied as it is */
        if (end - lt >= 4 && memcmp(lt, "<!--", 4) == 0) {
            const char *c = memmem(lt + 4, (size_t)(end - lt - 4), "-->", 3);
            const char *to = c ? c + 3 : end;
            buf_put(out, p, (size_t)(to - p));
            p = to;
            continue;
        }
        int script = end - lt > 8 && strncasecmp(lt, "<script", 7) == 0 &&
                     (lt[7] == ' ' || lt[7] == '\n');
        int link = end - lt > 6 && strncasecmp(lt, "<link", 5) == 0 && (lt[5] == ' ' || lt[5] == '\n');
        const char *gt = (script || link) ? memchr(lt, '>', (size_t)(end - lt)) : NULL;
        const char *which = NULL;
        size_t vn = 0;
        const char *v = NULL;
        if (gt && script && attr_is(lt, gt, "type", "module")) {
            which = "src";
            if (hash[0] == '\0') {
                /* the map must come before the first module script is parsed */
                struct buf map = {0};
                int count = 0;
                buf_puts(&map, "{\"imports\":{");
                map_dir(root, "/js/", 0, js_real(root), &map, &count);
                buf_puts(&map, "}}");
                if (map.oom) {
                    free(map.p);
                    out->oom = 1;
                    return sz_fail(err, SZ_INTERNAL, "", "out of memory");
                }
                unsigned char d[SHA256_BYTES];
                sha256_digest(map.p, map.len, d);
                memcpy(hash, "'sha256-", 8);
                size_t b = base64_encode(d, sizeof d, hash + 8);
                memcpy(hash + 8 + b, "'", 2);
                buf_put(out, p, (size_t)(lt - p));
                buf_puts(out, "<script type=\"importmap\">");
                buf_put(out, map.p, map.len);
                buf_puts(out, "</script>\n");
                free(map.p);
                p = lt;
            }
        } else if (gt && link && (attr_is(lt, gt, "rel", "stylesheet") ||
                                  attr_is(lt, gt, "rel", "modulepreload"))) {
            which = "href";
        }
        if (which)
            v = attr(lt, gt, which, &vn);
        if (v == NULL) {
            buf_put(out, p, (size_t)(lt + 1 - p));
            p = lt + 1;
            continue;
        }
        buf_put(out, p, (size_t)(v - p));
        put_url(root, url, v, vn, out);
        p = v + vn;
    }
    buf_put(out, p, (size_t)(end - p));
    if (out->oom)
        return sz_fail(err, SZ_INTERNAL, "", "out of memory");
    return 0;
}
