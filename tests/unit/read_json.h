/* read_json.h - a test's data files (tests/data/...) read and parsed: one by
 * path (read_json), or every one whose name starts with a prefix (data_each).
 * Header-only, for the tests that replay measured rows (test_access, test_tma);
 * it checks nothing itself: the callers' CHECKs say what a file must hold. */
#ifndef SZ_TEST_READ_JSON_H
#define SZ_TEST_READ_JSON_H

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

/* The file at `path` parsed, or NULL (unreadable, or not JSON); the caller
 * frees with cJSON_Delete. */
static cJSON *read_json(const char *path)
{
    char *text = client_slurp(path);
    if (text == NULL)
        return NULL;
    cJSON *j = cJSON_Parse(text);
    free(text);
    return j;
}

/* The file at `path` parsed once a process and kept to its end: the replay
 * tests walk the same files again for every kind and metric (test_access
 * parsed 79 MB of JSON in 225 reads of 120 files, most of its time under the
 * sanitizers).  NULL when unreadable or not JSON.  The caller must not free
 * or change it; what it holds stays reachable, so LeakSanitizer is quiet. */
static const cJSON *read_json_kept(const char *path)
{
    static struct kept { char *path; cJSON *j; } *kept;
    static size_t n, cap;
    for (size_t i = 0; i < n; i++)
        if (strcmp(kept[i].path, path) == 0)
            return kept[i].j;
    size_t len = strlen(path) + 1;
    char *copy = malloc(len);
    struct kept *grown = n < cap ? kept : realloc(kept, (cap = 2 * cap + 64) * sizeof *kept);
    if (copy == NULL || grown == NULL) {
        fprintf(stderr, "read_json_kept: out of memory for %s\n", path);
        exit(1);
    }
    kept = grown;
    kept[n].path = memcpy(copy, path, len);
    kept[n].j = read_json(path);
    return kept[n++].j;
}

/* One data file: its name in tests/data, its path, its JSON (NULL when
 * unreadable or not JSON; read_json_kept's, which the call must leave as it
 * is).  Returns 0 to go on to the next file, nonzero to stop. */
typedef int data_fn(const char *name, const char *path, const cJSON *j, void *ctx);

/* Calls fn for every tests/data/<prefix>*.json in directory order (prefix ""
 * takes every .json; "a_|b_" takes either prefix) until fn returns nonzero.
 * Returns how many files fn was handed (0 when tests/data cannot be opened:
 * run the tests from the repository root). */
static int data_each(const char *prefix, data_fn *fn, void *ctx)
{
    DIR *d = opendir("tests/data");
    struct dirent *de;
    int files = 0, stop = 0;
    while (d && !stop && (de = readdir(d)) != NULL) {
        int match = 0;
        for (const char *p = prefix; !match; p++) {
            size_t n = strcspn(p, "|");
            match = strncmp(de->d_name, p, n) == 0;
            p += n;
            if (*p == '\0')
                break;
        }
        if (!match || !strstr(de->d_name, ".json"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/data/%s", de->d_name);
        stop = fn(de->d_name, path, read_json_kept(path), ctx);
        files++;
    }
    if (d)
        closedir(d);
    return files;
}

#endif
