/* read_json.h - a test's data file (tests/data/...) read and parsed, or NULL.
 * Header-only, for the tests that replay measured rows (test_access, test_tma);
 * the caller frees with cJSON_Delete. */
#ifndef SZ_TEST_READ_JSON_H
#define SZ_TEST_READ_JSON_H

#include <cjson/cJSON.h>
#include <stdlib.h>

#include "client.h"

static cJSON *read_json(const char *path)
{
    char *text = client_slurp(path);
    if (text == NULL)
        return NULL;
    cJSON *j = cJSON_Parse(text);
    free(text);
    return j;
}

#endif
