/* a14_dump.c - calibration tooling (issue 41), not part of the server: prints
 * what /api/conflicts answers (cycles, cycles_exact) for every row of the
 * atomic_warps_*.json files named on the command line, through the server's
 * own readers and rules, so that a14.py --c can check that its copy of A14
 * gives the same on every row.  It models nothing itself.  Build, from the
 * repository root after `make build/test/test_access` (which builds the
 * server's objects under build/asan; its main.o, which make test also builds
 * there, is left out: this file has its own main):
 *   cc -std=c11 -Iserver -Itests -I/usr/include/cjson -fsanitize=address,undefined \
 *      -o build/a14_dump tests/calib/atomics_warps/a14_dump.c build/test/client.o \
 *      $(find build/asan -name '*.o' ! -name main.o) -lmicrohttpd -lcjson -lm -lpthread
 *   build/a14_dump tests/data/atomic_warps_*.json > DUMP; a14.py --c DUMP
 * Output, one row a line: file name warps iters wavefronts floor16 cycles exact
 * measured|bound. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "api/api_read.h"
#include "model/access.h"
#include "model/atomic_warps.h"
#include "unit/read_json.h"

static const cJSON *field(const cJSON *p, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(p, k);
}

int main(int argc, char **argv)
{
    static const char *const req[] = {"op", "func", "type", "value", "guard", "offsets"};
    static const char *const extra[] = {"warps", NULL};
    (void)data_each;   /* read_json.h's other reader: the files are named here */
    for (int a = 1; a < argc; a++) {
        cJSON *j = read_json(argv[a]);
        if (!j) {
            fprintf(stderr, "%s: cannot read\n", argv[a]);
            return 1;
        }
        const cJSON *p;
        cJSON_ArrayForEach(p, field(j, "patterns")) {
            int warps = field(p, "warps")->valueint;
            cJSON *body = cJSON_CreateObject();
            for (int k = 0; k < 6; k++)
                cJSON_AddItemToObject(body, req[k], cJSON_Duplicate(field(p, req[k]), 1));
            cJSON_AddNumberToObject(body, "warps", warps);
            struct instr in;
            struct acc_result r;
            struct sz_error err;
            uint32_t w = 0;
            int bad = api_read_instr(body, extra, &in, &err) || api_read_warps(body, &in, &w, &err);
            cJSON_Delete(body);
            if (bad) {
                fprintf(stderr, "%s: %s: %s\n", argv[a], err.field, err.message);
                cJSON_Delete(j);
                return 1;
            }
            acc_cost(&in, &r);
            double floor16 = r.atomic.cycles;
            atomic_warps_apply(&in, w, &r);
            printf("%s %s %d %d %u %.6f %.10f %d %.4f|%s\n", argv[a], field(p, "name")->valuestring,
                   warps, field(p, "iters") ? field(p, "iters")->valueint : 0, r.wavefronts,
                   floor16, r.atomic.cycles, r.atomic.cycles_exact, field(p, "cycles")->valuedouble,
                   r.atomic.warps_bound);
        }
        cJSON_Delete(j);
    }
    return 0;
}
