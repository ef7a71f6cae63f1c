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

/* One data file: its name in tests/data, its path, its JSON (NULL when
 * unreadable or not JSON; data_each frees it after the call).  Returns 0 to
 * go on to the next file, nonzero to stop. */
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
        cJSON *j = read_json(path);
        stop = fn(de->d_name, path, j, ctx);
        files++;
        cJSON_Delete(j);
    }
    if (d)
        closedir(d);
    return files;
}

#endif
