/* test_tma.c - the TMA placement model (layout.c's tma: forms) against every
 * box the copy engine placed on a GPU (tests/data/tma_placement_*.json, issue
 * 23 part 2): for each configuration the driver encoded, every 16-byte chunk
 * of the box sits where /api/layout's evaluator says, and its elements follow
 * in order; the modes the driver refused are refused by the model too.  It
 * reads the data and the model only: no GPU, no server. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "check.h"
#include "read_json.h"


static int mode_modelled(const char *mode)
{
    static const char *const m[] = {"CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B",
                                    "CU_TENSOR_MAP_SWIZZLE_64B", "CU_TENSOR_MAP_SWIZZLE_128B"};
    for (int i = 0; i < 4; i++)
        if (strcmp(mode, m[i]) == 0)
            return 1;
    return 0;
}

/* One accepted configuration: 1 if every chunk is where the model puts it. */
static int check_box(const char *mode, uint32_t eb, const uint32_t *box, const cJSON *slots,
                     uint32_t *out, char *why, size_t cap)
{
    char text[80];
    snprintf(text, sizeof text, "tma:%s", mode);
    struct lay l;
    struct sz_error err = {0};
    int rank = box[2] > 1 ? 3 : 2;
    if (lay_parse(text, (int)(eb * 8), box, rank, &l, &err) < 0) {
        snprintf(why, cap, "model refuses: %s", err.message);
        return 0;
    }
    lay_eval(&l, out);
    uint32_t per = 16 / eb, cpr = box[0] * eb / 16, i = 0;
    const cJSON *s;
    cJSON_ArrayForEach(s, slots) {
        uint32_t z = i / (cpr * box[1]), y = i / cpr % box[1], x = i % cpr;
        uint32_t e = (z * box[1] + y) * box[0] + x * per;   /* the chunk's first element */
        for (uint32_t k = 0; k < per; k++)
            if (out[e + k] != (uint32_t)s->valueint * 16 + k * eb) {
                snprintf(why, cap, "chunk %u (plane %u row %u chunk %u): element %u at %u, "
                         "measured %d", i, z, y, x, k, out[e + k], s->valueint * 16);
                return 0;
            }
        i++;
    }
    return 1;
}

/* One tma_placement_ file; `out` is lay_eval's scratch (256 x 256 x 8). */
static int placement_file(const char *file, const char *path, const cJSON *j, void *out_)
{
    uint32_t *out = out_;
    char why[200];
    const cJSON *c;
    int placed = 0, refused = 0, failures = 0, three_d = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "configurations")) {
        const char *mode = cJSON_GetObjectItemCaseSensitive(c, "mode")->valuestring;
        uint32_t eb = (uint32_t)cJSON_GetObjectItemCaseSensitive(c, "elem_bytes")->valueint;
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "box");
        uint32_t box[3] = {(uint32_t)cJSON_GetArrayItem(b, 0)->valueint,
                           (uint32_t)cJSON_GetArrayItem(b, 1)->valueint,
                           (uint32_t)cJSON_GetArrayItem(b, 2)->valueint};
        int enc = cJSON_GetObjectItemCaseSensitive(c, "encode")->valueint;
        const cJSON *slots = cJSON_GetObjectItemCaseSensitive(c, "slots");
        if (enc != 0) {
            /* the driver refused it: only the 128B_ATOM_* modes, which the
             * model does not take either */
            refused++;
            struct lay l;
            struct sz_error err = {0};
            char text[80];
            snprintf(text, sizeof text, "tma:%s", mode);
            CHECK_QUIET(failures, !mode_modelled(mode) &&
                        lay_parse(text, (int)(eb * 8), box, 2, &l, &err) < 0,
                        "%s %u B x [%u,%u,%u]: refused by the driver (%d), taken by the model",
                        mode, eb, box[0], box[1], box[2], enc);
            continue;
        }
        int n = cJSON_GetArraySize(slots);
        CHECK_QUIET(failures, n == (int)(box[0] * eb / 16 * box[1] * box[2]) &&
                    cJSON_GetObjectItemCaseSensitive(c, "written")->valueint == n,
                    "%s [%u,%u,%u]: %d slots", mode, box[0], box[1], box[2], n);
        int ok = check_box(mode, eb, box, slots, out, why, sizeof why);
        CHECK_QUIET(failures, ok, "%s %u-byte [%u,%u,%u]: %s", mode, eb, box[0], box[1], box[2],
                    why);
        placed += ok;
        three_d += ok && box[2] > 1;
    }
    CHECK(failures == 0 && placed >= 860 && refused >= 690,
          "%s: %d configurations disagree", path, failures);
    printf("tma %s: %d boxes placed as the model says (%d 3-D), %d refused by the driver "
           "and the model (128B_ATOM_*)\n", file, placed, three_d, refused);
    return 0;
}

static void test_placement(void)
{
    uint32_t *out = malloc(sizeof *out * 256 * 256 * 8);
    int files = data_each("tma_placement_", placement_file, out);
    free(out);
    CHECK(files >= 1, "no tests/data/tma_placement_*.json found");
}

int main(void)
{
    test_placement();
    return check_summary("test_tma");
}
