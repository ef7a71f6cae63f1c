/* read_json.h - a test's data file (tests/data/...) read and parsed, or NULL.
 * Header-only, for the tests that replay measured rows (test_access, test_tma);
 * the caller frees with cJSON_Delete. */
#ifndef SZ_TEST_READ_JSON_H
#define SZ_TEST_READ_JSON_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

static cJSON *read_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    size_t got = fread(text, 1, (size_t)n, f);
    fclose(f);
    text[got] = '\0';
    cJSON *j = cJSON_Parse(text);
    free(text);
    return j;
}

#endif
