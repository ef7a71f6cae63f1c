/* files.c - static files: the URL path check, containment under the root
 * (symlinks included; hard links refused), the MIME table and the ETag.
 * Must not include microhttpd.h or write a response (http.c does), and must
 * not open anything it has not first contained under the root. */
#define _GNU_SOURCE 1   /* O_CLOEXEC, realpath, st_mtim under -std=c11 */
#include "files.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *content_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
        {".md", "text/plain; charset=utf-8"},
        {".ptx", "text/plain; charset=utf-8"},   /* the kernel page's examples */
        {".cu", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"},
    };
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcmp(dot, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

/* The URL path was decoded exactly once (by http.c's unescape).  Refuse what
 * could climb out or name something odd: any segment starting with '.' (covers
 * "..", "." and dotfiles), backslashes, control bytes (decoded %00 included),
 * empty segments. */
static int path_safe(const char *p)
{
    if (p[0] != '/' || strlen(p) > FILES_MAX_PATH)
        return 0;
    for (const char *q = p; *q; q++) {
        unsigned char ch = (unsigned char)*q;
        if (ch < 0x20 || ch == 0x7F || ch == '\\')
            return 0;
        if (ch == '/' && (q[1] == '.' || (q[1] == '/')))
            return 0;
    }
    return 1;
}

int files_root(const char *dir, char *root, struct sz_error *err)
{
    struct stat st;
    if (realpath(dir, root) == NULL || stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "static",
                       "static directory '%s' is not a readable directory", dir);
    return 0;
}

/* Resolve url under root to the regular file it names (realpath in `real`,
 * PATH_MAX bytes; its stat in st), or fail as files_open does. */
static int resolve(const char *root, const char *url, char *real, struct stat *st,
                   struct sz_error *err)
{
    if (!path_safe(url))
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    char rel[FILES_MAX_PATH + 16];
    snprintf(rel, sizeof rel, "%s%s", url, url[strlen(url) - 1] == '/' ? "index.html" : "");
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s%s", root, rel) >= (int)sizeof full)
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    /* realpath resolves symlinks: a link that points outside static/ ends up
     * outside root and is refused like a "..". */
    if (realpath(full, real) == NULL)
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    size_t rl = strlen(root);
    if (strncmp(real, root, rl) != 0 || real[rl] != '/')
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    /* Only regular files.  Opening a FIFO for reading blocks until a writer
     * comes, which holds a worker thread (and every connection it serves) for
     * ever, and opening a device may do anything: look before opening (the
     * caller opens without blocking in case the name changed in between, and
     * checks what it opened).  Directories are never listed. */
    if (stat(real, st) != 0 || !S_ISREG(st->st_mode))
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    return 0;
}

/* The page may be edited while the server runs: the version must change with
 * any write, and a same-second edit of the same size still moves the ns. */
void files_version_stat(const struct stat *st, char ver[FILES_VERSION_MAX])
{
    snprintf(ver, FILES_VERSION_MAX, "%llx-%llx-%lx", (unsigned long long)st->st_mtime,
             (unsigned long long)st->st_size, (long)st->st_mtim.tv_nsec);
}

int files_open(const char *root, const char *url, struct files_file *out,
               struct sz_error *err)
{
    char real[PATH_MAX];
    struct stat st;
    if (resolve(root, url, real, &st, err) < 0)
        return -1;
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    /* A hard link is a second name for a file that may live outside static/
     * (realpath cannot see that): only files with one name are served. */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        close(fd);
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    }
    out->fd = fd;
    out->size = (size_t)st.st_size;
    out->type = content_type(real);
    char v[FILES_VERSION_MAX];
    files_version_stat(&st, v);
    snprintf(out->etag, sizeof out->etag, "\"%s\"", v);
    return 0;
}

int files_version(const char *root, const char *url, char ver[FILES_VERSION_MAX],
                  struct sz_error *err)
{
    char real[PATH_MAX];
    struct stat st;
    if (resolve(root, url, real, &st, err) < 0)
        return -1;
    if (st.st_nlink != 1)       /* files_open would refuse it */
        return sz_fail(err, SZ_NOT_FOUND, "path", "no such file");
    files_version_stat(&st, ver);
    return 0;
}
