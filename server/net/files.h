/* files.h - the static files the server may serve: which URL paths are safe,
 * where they lead under the static root, their MIME type and their ETag.
 *
 * Plain file-system work, no HTTP library (http.c sends what this opens).  It
 * must never open a file outside the root: every path is checked, resolved
 * through symlinks and contained before it is opened. */
#ifndef SZ_FILES_H
#define SZ_FILES_H

#include <stddef.h>
#include <sys/stat.h>

#include "base/error.h"

/* Static paths here are short; a longer one is refused as not found. */
#define FILES_MAX_PATH 1024
/* A version (three hex numbers and two '-') and its NUL fit in this. */
#define FILES_VERSION_MAX 60

struct files_file {
    int fd;             /* open for reading, close-on-exec; the caller closes it */
    size_t size;
    const char *type;   /* the Content-Type, from the resolved name; static storage */
    char etag[64];      /* its version (files_version), quoted */
};

/* Resolve directory `dir` into `root` (PATH_MAX bytes: its realpath, no trailing
 * '/').  Fails with SZ_INVALID_ARGUMENT, field "static", when it is not a
 * readable directory. */
int files_root(const char *dir, char *root, struct sz_error *err);

/* Open the regular file that the decoded URL path `url` names under `root`
 * (from files_root); a trailing '/' names that directory's index.html.  Fails
 * with SZ_NOT_FOUND, field "path", for a path that is unsafe, missing, outside
 * root once symlinks are resolved, or not a regular file: never says which. */
int files_open(const char *root, const char *url, struct files_file *out,
               struct sz_error *err);

/* The version of the file files_open(root, url) would open now, into ver:
 * "<mtime>-<size>-<mtime ns>" in hex (only [0-9a-f-]: safe in a URL's query),
 * which changes with every write.  Opens nothing; fails as files_open does. */
int files_version(const char *root, const char *url, char ver[FILES_VERSION_MAX],
                  struct sz_error *err);

/* The version files_version gives for a file whose stat is `st`: for a caller
 * that reached a regular file of one link under root through real folders
 * only (no symlink: so files_open would open it) and need not resolve it. */
void files_version_stat(const struct stat *st, char ver[FILES_VERSION_MAX]);

#endif
