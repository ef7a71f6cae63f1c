/* test_crosscheck.c - one table of instruction bodies and three judges that
 * must agree on every row, accept or refuse and the field named: the server's
 * POST /api/measure with no tool (400 naming the field, or 503
 * gpu_unavailable), the tool's input code built here (cuda/input.c, what the
 * tool runs on its --json stdin), and the real tool binary where make built it
 * (exit 2 naming the field; a valid body exits 3 without a GPU, 0 with one).
 * Rows are device-independent: what they refuse, no GPU can run. */
#define _GNU_SOURCE 1
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cuda/input.h"
#include "api/api.h"
#include "base/proc.h"
#include "check.h"
#include "client.h"
#include "gpu/lanes.h"

/* The offsets' shorthands (LIN, ROWS, L31, R31, NUL31) are gpu/lanes.h's. */
static const struct {
    const char *body;
    const char *field;      /* NULL: valid, the GPU can run it */
} rows[] = {
    /* valid: every op, width and .xN (instr.c: instr_check_shape) */
    {"{\"op\":\"ld\",\"offsets\":LIN}", NULL},
    {"{\"op\":\"ld\",\"bytes\":1,\"offsets\":LIN}", NULL},
    {"{\"op\":\"ld\",\"bytes\":2,\"offsets\":LIN}", NULL},
    {"{\"op\":\"ld\",\"bytes\":8,\"offsets\":ROWS}", NULL},
    {"{\"op\":\"ld\",\"bytes\":16,\"offsets\":ROWS}", NULL},
    {"{\"op\":\"st\",\"bytes\":4,\"offsets\":LIN,\"bank_bytes\":4,\"banks\":32}", NULL},
    {"{\"op\":\"ldmatrix\",\"offsets\":ROWS}", NULL},
    {"{\"op\":\"ldmatrix\",\"matrices\":2,\"trans\":true,\"offsets\":ROWS}", NULL},
    {"{\"op\":\"stmatrix\",\"matrices\":4,\"bytes\":16,\"offsets\":ROWS}", NULL},
    /* lanes past 8 x matrices may be inactive (PTX: their addresses are unused) */
    {"{\"op\":\"ldmatrix\",\"matrices\":1,\"offsets\":[0,16,32,48,64,80,96,112,null,null,null,"
     "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
     "null,null,null,null]}", NULL},
    {"{\"op\":\"ld\",\"offsets\":[0NUL31]}", NULL},
    {"{\"op\":\"ld\",\"offsets\":[4096L31]}", NULL},
    {"{\"op\":\"ld\",\"bytes\":1e0,\"offsets\":LIN}", NULL},
    /* what no GPU runs (instr_check_gpu) */
    {"{\"op\":\"ld\",\"offsets\":[nullNUL31]}", "offsets"},
    {"{\"op\":\"st\",\"bytes\":16,\"offsets\":[nullNUL31]}", "offsets"},
    {"{\"op\":\"ld\",\"offsets\":[1000000L31]}", "offsets[0]"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,8,12,16,233472,24,28,32,36,40,44,48,52,56,60,64,68,72,"
     "76,80,84,88,92,96,100,104,108,112,116,120,124]}", "offsets[5]"},
    {"{\"op\":\"ld\",\"bytes\":16,\"offsets\":[233472R31]}", "offsets[0]"},
    {"{\"op\":\"ldmatrix\",\"offsets\":[232576R31]}", "offsets[0]"},
    {"{\"op\":\"stmatrix\",\"offsets\":[0,16,32,232592,64,80,96,112,128,144,160,176,192,208,"
     "224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496]}", "offsets[3]"},
    {"{\"op\":\"ld\",\"banks\":16,\"offsets\":LIN}", "banks"},
    {"{\"op\":\"ld\",\"bank_bytes\":8,\"offsets\":LIN}", "bank_bytes"},
    /* the model's rules (instr_check): alignment, warp-wide matrix ops */
    {"{\"op\":\"ld\",\"offsets\":[2L31]}", "offsets[0]"},
    {"{\"op\":\"ld\",\"bytes\":16,\"offsets\":[0,8,32,48,64,80,96,112,128,144,160,176,192,208,"
     "224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496]}", "offsets[1]"},
    {"{\"op\":\"ldmatrix\",\"offsets\":[8R31]}", "offsets[0]"},
    {"{\"op\":\"ldmatrix\",\"matrices\":2,\"offsets\":[0,16,32,48,64,80,96,112,null,144,160,"
     "176,192,208,224,240,null,null,null,null,null,null,null,null,null,null,null,null,null,"
     "null,null,null]}", "offsets[8]"},
    {"{\"op\":\"ldmatrix\",\"bytes\":8,\"offsets\":ROWS}", "bytes"},
    {"{\"op\":\"ldmatrix\",\"bytes\":4,\"offsets\":ROWS}", "bytes"},
    {"{\"op\":\"ldmatrix\",\"matrices\":3,\"offsets\":ROWS}", "matrices"},
    {"{\"op\":\"ld\",\"bytes\":3,\"offsets\":LIN}", "bytes"},
    {"{\"op\":\"ld\",\"bytes\":32,\"offsets\":LIN}", "bytes"},
    {"{\"op\":\"ld\",\"matrices\":2,\"offsets\":LIN}", "matrices"},
    {"{\"op\":\"ld\",\"trans\":true,\"offsets\":LIN}", "trans"},
    {"{\"op\":\"ldmatrix\",\"trans\":\"yes\",\"offsets\":ROWS}", "trans"},
    /* the reader (api_read_instr): names, types, counts */
    {"{\"op\":\"lds\",\"offsets\":LIN}", "op"},
    {"{\"op\":1,\"offsets\":LIN}", "op"},
    {"{\"offsets\":LIN}", "op"},
    {"{\"op\":\"ld\"}", "offsets"},
    {"{\"op\":\"ld\",\"offsets\":{}}", "offsets"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,8]}", "offsets"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,"
     "80,84,88,92,96,100,104,108,112,116,120,124,128]}", "offsets"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,8,12,-4,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,"
     "80,84,88,92,96,100,104,108,112,116,120,124]}", "offsets[4]"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,8,12,1.5,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,"
     "80,84,88,92,96,100,104,108,112,116,120,124]}", "offsets[4]"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,\"8\",12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,"
     "76,80,84,88,92,96,100,104,108,112,116,120,124]}", "offsets[2]"},
    {"{\"op\":\"ld\",\"offsets\":[0,4,2147483648,12,16,20,24,28,32,36,40,44,48,52,56,60,64,"
     "68,72,76,80,84,88,92,96,100,104,108,112,116,120,124]}", "offsets[2]"},
    /* unknown and repeated fields ("name" is left out: the tool takes it, the API not) */
    {"{\"op\":\"ld\",\"offsets\":LIN,\"opp\":1}", "opp"},
    {"{\"op\":\"ld\",\"bankbytes\":8,\"offsets\":LIN}", "bankbytes"},
    {"{\"op\":\"ld\",\"op\":\"ld\",\"offsets\":LIN}", "op"},
    /* atomics: the forms ptxas accepts for sm_90 (instr.c), native or not */
    {"{\"op\":\"atom\",\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"func\":\"max\",\"type\":\"s32\",\"offsets\":[0NUL31]}", NULL},
    {"{\"op\":\"atom\",\"func\":\"cas\",\"type\":\"b64\",\"offsets\":ROWS}", NULL},
    {"{\"op\":\"atom\",\"func\":\"add\",\"type\":\"f32\",\"bytes\":4,\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"func\":\"add\",\"type\":\"f64\",\"offsets\":ROWS}", NULL},
    {"{\"op\":\"atom\",\"offsets\":[231676L31]}", NULL},
    {"{\"op\":\"atom\",\"offsets\":[231680L31]}", "offsets[0]"},
    {"{\"op\":\"atom\",\"offsets\":[nullNUL31]}", "offsets"},
    {"{\"op\":\"atom\",\"func\":\"min\",\"type\":\"f32\",\"offsets\":LIN}", "type"},
    {"{\"op\":\"atom\",\"type\":\"u16\",\"offsets\":LIN}", "type"},
    {"{\"op\":\"red\",\"func\":\"exch\",\"type\":\"b32\",\"offsets\":LIN}", "func"},
    {"{\"op\":\"atom\",\"func\":\"exch\",\"type\":\"b64\",\"offsets\":LIN}", "offsets[1]"},
    {"{\"op\":\"atom\",\"type\":\"u64\",\"bytes\":4,\"offsets\":ROWS}", "bytes"},
    {"{\"op\":\"atom\",\"matrices\":2,\"offsets\":LIN}", "matrices"},
    {"{\"op\":\"ld\",\"type\":\"u32\",\"offsets\":LIN}", "type"},
    {"{\"op\":\"st\",\"func\":\"add\",\"offsets\":LIN}", "func"},
    /* atomics as people write them (issue 23): the operand and guard the tool's
     * kernels hold (instr.c: instr_check_tool_atomic), and what they do not */
    {"{\"op\":\"red\",\"value\":1,\"guard\":\"none\",\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"value\":1,\"offsets\":[0NUL31]}", NULL},
    {"{\"op\":\"atom\",\"value\":2,\"guard\":\"none\",\"offsets\":LIN}", NULL},
    {"{\"op\":\"atom\",\"type\":\"s32\",\"value\":-1,\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"func\":\"inc\",\"value\":4294967295,\"guard\":\"none\","
     "\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"func\":\"dec\",\"value\":\"uniform\",\"offsets\":LIN}", NULL},
    {"{\"op\":\"red\",\"func\":\"xor\",\"type\":\"b32\",\"guard\":\"none\",\"offsets\":LIN}",
     NULL},
    {"{\"op\":\"atom\",\"func\":\"cas\",\"type\":\"b64\",\"guard\":\"none\",\"offsets\":ROWS}",
     NULL},
    {"{\"op\":\"red\",\"value\":1,\"guard\":\"none\",\"offsets\":[0NUL31]}", "guard"},
    {"{\"op\":\"atom\",\"guard\":\"none\",\"offsets\":[nullL31]}", "guard"},
    {"{\"op\":\"red\",\"value\":7,\"offsets\":LIN}", "value"},
    {"{\"op\":\"red\",\"value\":0,\"guard\":\"none\",\"offsets\":LIN}", "value"},
    {"{\"op\":\"red\",\"func\":\"xor\",\"type\":\"b32\",\"value\":1,\"offsets\":LIN}", "value"},
    {"{\"op\":\"atom\",\"func\":\"exch\",\"type\":\"b32\",\"value\":\"uniform\","
     "\"offsets\":LIN}", "value"},
    {"{\"op\":\"red\",\"value\":\"x\",\"offsets\":LIN}", "value"},
    {"{\"op\":\"red\",\"guard\":\"never\",\"offsets\":LIN}", "guard"},
    {"{\"op\":\"ld\",\"value\":1,\"offsets\":LIN}", "value"},
    /* not one JSON object (api_json_parse) */
    {"", "body"},
    {"5", "body"},
    {"[]", "body"},
    {"{\"op\":\"ld\",\"offsets\":LIN,}", "body"},
    {"{\"op\":\"ld\",\"offsets\":[01L31]}", "body"},
    {"{\"op\":\"ld\",\"offsets\":LIN} x", "body"},
    {"{\"op\":\"ld\",\"offsets\":LIN", "body"},
    {"{\"op\":\"l\xc3\x28\",\"offsets\":LIN}", "body"},
    {"{'op':\"ld\",\"offsets\":LIN}", "body"},
};

/* A verdict: accepted, or refused on a field. */
struct verdict {
    int ok;             /* 1 accepted, 0 refused, -1 the judge itself failed */
    char field[40];
    char how[160];      /* what it said, for the failure message */
};

static void error_field(const char *json, struct verdict *v)
{
    cJSON *j = cJSON_Parse(json ? json : "");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
    if (cJSON_IsString(f))
        snprintf(v->field, sizeof v->field, "%s", f->valuestring);
    else
        v->ok = -1;
    cJSON_Delete(j);
}

static struct verdict by_server(const char *body)
{
    struct verdict v = {0};
    struct api_response r = client_api_call("POST", "/api/measure", NULL, "application/json",
                                            body, strlen(body));
    snprintf(v.how, sizeof v.how, "%d %.140s", r.status, r.body ? r.body : "");
    if (r.status == 503 && r.body && strstr(r.body, "\"gpu_unavailable\""))
        v.ok = 1;
    else if (r.status == 400)
        error_field(r.body, &v);
    else
        v.ok = -1;
    free(r.body);
    return v;
}

static struct verdict by_input(const char *body)
{
    static struct input_pattern pats[4];
    struct verdict v = {0};
    struct sz_error err = {0};
    char where[INPUT_WHERE_MAX];
    int n = input_parse(body, strlen(body), 1, pats, 4, &err, where);
    v.ok = n == 1;
    snprintf(v.field, sizeof v.field, "%s", n == 1 ? "" : err.field);
    snprintf(v.how, sizeof v.how, "%d %s: %.100s", n, err.field, err.message);
    return v;
}

static const char *tool_path(void)
{
    const char *t = getenv("SWZ_MEASURE");
    return t && *t ? t : "build/swizzlescope-measure";
}

/* The binary checks its input before it looks for a GPU: exit 2 with the
 * field on a bad body; a good one reaches the GPU (exit 0) or finds none (3). */
static struct verdict by_tool(const char *body)
{
    struct verdict v = {0};
    char *argv[] = {(char *)tool_path(), "--json", "--no-ncu", "--iters", "16", "--reps", "1",
                    NULL};
    struct proc_spec spec = {.argv = argv, .input = body, .input_len = strlen(body),
                             .out_cap = 1 << 16, .err_cap = 400, .err_tail = 1,
                             .own_group = 1};
    struct proc p;
    struct sz_error err;
    if (proc_run(&spec, 60.0, &p, &err) < 0) {
        v.ok = -1;
        snprintf(v.how, sizeof v.how, "%s", err.message);
        proc_free(&p);
        return v;
    }
    snprintf(v.how, sizeof v.how, "exit %d %.140s", p.exit_code, p.out);
    if (p.exit_code == 0 || p.exit_code == 3)
        v.ok = 1;
    else if (p.exit_code == 2)
        error_field(p.out, &v);
    else
        v.ok = -1;
    proc_free(&p);
    return v;
}

static int same(const struct verdict *a, const struct verdict *b)
{
    return a->ok >= 0 && a->ok == b->ok && (a->ok || strcmp(a->field, b->field) == 0);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    struct api_config cfg = {.measure_tool = NULL};
    api_configure(&cfg);
    int with_tool = access(tool_path(), X_OK) == 0;
    int n = (int)(sizeof rows / sizeof rows[0]), valid = 0, agree = 0;
    for (int i = 0; i < n; i++) {
        char body[4096];
        lanes_expand(rows[i].body, 1, body, sizeof body);
        struct verdict want = {.ok = rows[i].field == NULL};
        snprintf(want.field, sizeof want.field, "%s", rows[i].field ? rows[i].field : "");
        struct verdict s = by_server(body), in = by_input(body);
        CHECK(same(&s, &want), "row %d %s: server says %s, want %s", i, rows[i].body, s.how,
              want.ok ? "503" : want.field);
        CHECK(same(&in, &want), "row %d %s: tool input code says %s, want %s", i,
              rows[i].body, in.how, want.ok ? "accepted" : want.field);
        int all = same(&s, &want) && same(&in, &want);
        if (with_tool) {
            struct verdict t = by_tool(body);
            CHECK(same(&t, &want), "row %d %s: tool binary says %s, want %s", i, rows[i].body,
                  t.how, want.ok ? "exit 0 or 3" : want.field);
            all = all && same(&t, &want);
        }
        valid += want.ok;
        agree += all;
    }
    printf("crosscheck: %d bodies (%d valid, %d refused): server /api/measure, tool input "
           "code%s agree on %d\n", n, valid, n - valid,
           with_tool ? ", tool binary" : "", agree);
    if (!with_tool)
        printf("crosscheck: %s not built (no nvcc): the binary's judge did not run\n",
               tool_path());
    return check_summary("test_crosscheck");
}
