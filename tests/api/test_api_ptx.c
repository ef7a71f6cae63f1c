/* test_api_ptx.c - POST /api/ptx through api_handle: a transpose's answer
 * (totals, lines, the worst access's offsets and banks) equal to the
 * interpreter's own numbers (32 wavefronts a warp for the column read), and
 * each bad request refused with a 4xx naming its field (and, for malformed
 * PTX, the line and column); CUDA source compiled by nvcc.  POST
 * /api/ptx/measure without a GPU: refused with 503 without a tool, 400 before
 * the tool for a bad body, a fake tool replaying the H200's answer
 * (tests/data/ptx/measure_replay) given the launch the analysis ran, 409 while
 * one runs, killed at its limit.  Each answer's parameters (the .param list
 * with the mangled name's C++ types).  No network. */
#define _GNU_SOURCE 1   /* mkdtemp, setenv under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "api/api.h"
#include "check.h"
#include "client.h"

#define KERNEL ".version 9.0\n.target sm_90a\n.address_size 64\n" \
    ".visible .entry t(.param .u64 out, .param .u32 n)\n{\n" \
    "\t.reg .b32 %r<12>;\n\t.reg .f32 %f<3>;\n" \
    "\t.shared .align 4 .b8 tile[4096];\n" \
    "\t.loc 1 4 5\n" \
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r5, tile;\n" \
    "\tshl.b32 %r3, %r2, 7;\n\tadd.u32 %r6, %r5, %r3;\n\tshl.b32 %r7, %r1, 2;\n" \
    "\tadd.u32 %r8, %r6, %r7;\n\tst.shared.f32 [%r8], %f1;\n" \
    "\tbar.sync 0;\n" \
    "\t.loc 1 6 5\n" \
    "\tshl.b32 %r9, %r1, 7;\n\tadd.u32 %r10, %r5, %r9;\n\tshl.b32 %r11, %r2, 2;\n" \
    "\tadd.u32 %r4, %r10, %r11;\n\tld.shared.f32 %f2, [%r4];\n" \
    "\tret;\n}\n\t.file 1 \"t.cu\"\n"

static cJSON *post(const char *fmt_extra, int *status)
{
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "ptx", KERNEL);
    char *text = cJSON_PrintUnformatted(body);
    /* splice the extra members in before the closing brace */
    size_t n = strlen(text);
    char *full = malloc(n + strlen(fmt_extra) + 2);
    memcpy(full, text, n - 1);
    strcpy(full + n - 1, fmt_extra);
    strcat(full, "}");
    struct api_response r = client_api_call("POST", "/api/ptx", "", "application/json", full, 0);
    *status = r.status;
    cJSON *a = r.body ? cJSON_Parse(r.body) : NULL;
    free(r.body);
    free(full);
    free(text);
    cJSON_Delete(body);
    return a;
}

/* Whether o's member k is the string want (absent or null: no). */
static int str_is(const cJSON *o, const char *k, const char *want)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
    return v && !strcmp(v, want);
}

static double at(const cJSON *o, const char *path)
{
    /* "a.b.c": members one after another */
    char key[64];
    const char *p = path;
    while (o && *p) {
        size_t k = strcspn(p, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, p);
        o = cJSON_GetObjectItemCaseSensitive(o, key);
        p += k + (p[k] == '.');
    }
    return o ? cJSON_GetNumberValue(o) : -1;
}

static void a_transpose(void)
{
    int status;
    cJSON *a = post(",\"block\":[32,32],\"params\":[null,32]", &status);
    CHECK(status == 200 && a, "status %d", status);
    CHECK(at(a, "totals.ld.executions") == 32 && at(a, "totals.ld.wavefronts") == 1024 &&
          at(a, "totals.ld.ideal") == 32 && at(a, "totals.st.wavefronts") == 32,
          "totals: ld %g wavefronts", at(a, "totals.ld.wavefronts"));
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(a, "lines");
    const cJSON *first = cJSON_GetArrayItem(lines, 0);
    CHECK(cJSON_GetArraySize(lines) == 2 && at(first, "line") == 6 && at(first, "excess") == 992 &&
          !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "file")), "t.cu"),
          "lines");
    const cJSON *ins = cJSON_GetObjectItemCaseSensitive(a, "instructions");
    const cJSON *ld = cJSON_GetArrayItem(ins, 1);
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(ld, "worst"), "offsets");
    const cJSON *banks = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(ld, "worst"), "banks");
    CHECK(cJSON_GetArraySize(offs) == 32 && cJSON_GetNumberValue(cJSON_GetArrayItem(offs, 31)) ==
          31 * 128 && cJSON_GetNumberValue(cJSON_GetArrayItem(banks, 31)) == 0,
          "worst access: lane 31 at 3968, bank 0");
    CHECK(at(ld, "line") == 6 && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ld, "file")), "t.cu"),
          "an instruction names its source line, as lines files it");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "exact")), "exact");
    /* an entry not mangled (extern "C"): its .param list, no C++ type */
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(a, "params");
    const cJSON *p1 = cJSON_GetArrayItem(ps, 1);
    CHECK(cJSON_GetArraySize(ps) == 2 && str_is(p1, "name", "n") && str_is(p1, "type", "u32") &&
          at(p1, "bytes") == 4 && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p1, "c_type")),
          "params: out .u64, n .u32, no C++ types for an unmangled entry");
    /* the column read is the recommender's col_read of the row_store tile:
     * its fix is asked for that pair; the conflict-free store has none */
    const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(a, "tiles");
    const cJSON *t0 = cJSON_GetArrayItem(tiles, 0);
    CHECK(cJSON_GetArraySize(tiles) == 1 && at(t0, "line") == 6 && at(t0, "rows") == 32 &&
          at(t0, "row_bytes") == 128 && at(t0, "base") == 0 &&
          str_is(t0, "write", "row_store") && str_is(t0, "read", "col_read"),
          "tiles: line 6 reads the row_store tile as col_read (32 rows of 128 bytes)");
    cJSON_Delete(a);
}

static void refusals(void)
{
    static const struct {
        const char *extra;
        int status;
        const char *field, *says;
    } cases[] = {
        {"", 400, "block", "1 to 3"},
        {",\"block\":[32,33]", 400, "block", "1..1024"},
        {",\"block\":[32],\"params\":[null]", 400, "params", "takes 2"},
        {",\"block\":[32],\"params\":[null,\"x\"]", 400, "params[1]", "a number"},
        {",\"block\":[32],\"kernel\":\"nope\"", 400, "kernel", "no entry"},
        {",\"block\":[32],\"cuda\":\"__global__ void k(){}\"", 400, "cuda", "not both"},
        {",\"block\":[32],\"arch\":\"sm_80\"", 400, "arch", "only with"},
        {",\"block\":[32],\"budget\":1e12", 400, "budget", "0..100000000"},
        {",\"block\":[32],\"dynamic_shared\":300000", 400, "dynamic_shared", "0..233472"},
        {",\"block\":[32],\"bogus\":1", 400, "bogus", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status;
        cJSON *a = post(cases[i].extra, &status);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(a, "error");
        const char *field = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "field"));
        const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
        CHECK(status == cases[i].status && field && !strcmp(field, cases[i].field) && msg &&
              strstr(msg, cases[i].says), "case %zu: %d %s: %s", i, status, field ? field : "-",
              msg ? msg : "-");
        cJSON_Delete(a);
    }
    /* malformed PTX: 400 pointing at the line and column */
    const char *bad = "{\"ptx\":\".version 9.0\\n.target sm_90a\\n.visible .entry k()\\n{\\n"
                      "\\tbra NOWHERE;\\n}\\n\",\"block\":[1]}";
    struct api_response r = client_api_call("POST", "/api/ptx", "", "application/json", bad, 0);
    CHECK(r.status == 400 && r.body && strstr(r.body, "\"at\":{\"line\":5,\"column\":6}") &&
          strstr(r.body, "no label"), "malformed: %d %s", r.status, r.body ? r.body : "-");
    free(r.body);
    /* a budget too small: 200 with partial */
    int status;
    cJSON *a = post(",\"block\":[32,32],\"budget\":100", &status);
    CHECK(status == 200 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "partial")) &&
          cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a, "exact")), "partial: %d", status);
    cJSON_Delete(a);
}

/* "cuda": the user's nvcc compiles it and the PTX is answered as PTX is,
 * each line of kernel.cu with its source text; without nvcc, 503 saying
 * what to install.  (base/nvcc.c's own cases: test_nvcc.) */
static void from_cuda(void)
{
    static const char body[] =
        "{\"cuda\":\"__global__ void tr(float *out)\\n{\\n"
        "    __shared__ float t[32][32];\\n"
        "    t[threadIdx.y][threadIdx.x] = threadIdx.x;\\n"
        "    __syncthreads();\\n"
        "    out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];\\n}\\n\","
        "\"block\":[32,32]}";
    struct api_response r = client_api_call("POST", "/api/ptx", "", "application/json", body, 0);
    cJSON *a = r.body ? cJSON_Parse(r.body) : NULL;
    if (r.status == 503) {
        CHECK(r.body && strstr(r.body, "compiler_unavailable") && strstr(r.body, "install"),
              "no nvcc: %s", r.body ? r.body : "-");
        printf("test_api_ptx: no nvcc here: the compiled answer is not checked\n");
    } else {
        const cJSON *lines = cJSON_GetObjectItemCaseSensitive(a, "lines");
        const cJSON *ld = NULL;
        for (const cJSON *l = lines ? lines->child : NULL; l; l = l->next)
            if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "kind")), "ld"))
                ld = l;
        const char *src = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ld, "source"));
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ld, "file"));
        CHECK(r.status == 200 && at(a, "totals.ld.wavefronts") == 32 * 32 &&
              at(a, "totals.ld.ideal") == 32 && file && !strcmp(file, "kernel.cu") &&
              at(ld, "line") == 6 && src && strstr(src, "t[threadIdx.x][threadIdx.y]") &&
              !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                  cJSON_GetObjectItemCaseSensitive(a, "compiled"), "arch")), "sm_90a") &&
              !strstr(r.body, "swizzlescope-nvcc-"),
              "compiled: %d, ld %.0f wavefronts (want 1024), line %.0f, file %s, source %s",
              r.status, at(a, "totals.ld.wavefronts"), at(ld, "line"), file ? file : "-",
              src ? src : "-");
        /* the parameters for CUDA too: the .param list's, with the C++ type the
         * mangled name (_Z2trPf) gives */
        const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(a, "params"), 0);
        const char *ct = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p0, "c_type"));
        const char *fn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "function"));
        CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "params")) == 1 && ct &&
              !strcmp(ct, "float *") && at(p0, "bytes") == 8 && fn && !strcmp(fn, "tr") &&
              str_is(p0, "type", "u64"),
              "the compiled kernel's parameter: %s %s", fn ? fn : "-", ct ? ct : "-");
        /* and the kernel named as the source names it */
        static const char named[] =
            "{\"cuda\":\"__global__ void a(int *o) { o[0] = 1; }\\n"
            "__global__ void b(float *o, int n) { __shared__ float s[64]; s[threadIdx.x] = n; "
            "__syncthreads(); o[threadIdx.x] = s[63 - threadIdx.x]; }\\n\","
            "\"kernel\":\"b\",\"block\":[64],\"params\":[null,3]}";
        struct api_response r2 = client_api_call("POST", "/api/ptx", "", "application/json",
                                                 named, 0);
        cJSON *b = r2.body ? cJSON_Parse(r2.body) : NULL;
        const cJSON *p1 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(b, "params"), 1);
        CHECK(r2.status == 200 && str_is(b, "kernel", "_Z1bPfi") && str_is(p1, "c_type", "int"),
              "\"kernel\":\"b\" picks _Z1bPfi of two: %d %.200s", r2.status, r2.body);
        cJSON_Delete(b);
        free(r2.body);
    }
    cJSON_Delete(a);
    free(r.body);
}

/* ---- POST /api/ptx/measure ---------------------------------------------- */

static char fdir[] = "/tmp/swz-ptxm-XXXXXX";

/* A fake tool: --info names a GPU; a --ptx run keeps its arguments, the PTX
 * it was given and the folder that held it, sleeps $FAKE_SLEEP, then prints
 * the file $FAKE_ANSWER (an answer the real tool gave on the H200). */
static const char *fake_tool(void)
{
    static char path[300];
    snprintf(path, sizeof path, "%s/tool", fdir);
    FILE *f = fopen(path, "w");
    fprintf(f, "#!/bin/sh\n"
               "if [ \"$1\" = --info ]; then echo '{\"ok\":true,\"device\":{\"name\":\"Fake H200\","
               "\"cc\":\"9.0\"}}'; exit 0; fi\n"
               "echo \"$*\" > %s/args\ncp \"$2\" %s/seen.ptx\ndirname \"$2\" > %s/tmpdir\n"
               "sleep ${FAKE_SLEEP:-0}\ncat \"$FAKE_ANSWER\"\n", fdir, fdir, fdir);
    fclose(f);
    chmod(path, 0755);
    return path;
}

static char *fake_file(const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", fdir, name);
    return client_slurp(path);
}

/* The corpus launch `name` (tests/data/ptx/corpus.json's) as a request body,
 * with `grid` instead of its own when given. */
static char *corpus_body(const char *name, const char *grid)
{
    char *cj = client_slurp("tests/data/ptx/corpus.json");
    cJSON *corpus = cj ? cJSON_Parse(cj) : NULL, *body = cJSON_CreateObject();
    free(cj);
    for (const cJSON *k = corpus ? corpus->child : NULL; k; k = k->next) {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "name")), name))
            continue;
        char path[300];
        snprintf(path, sizeof path, "tests/data/ptx/%s",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(k, "ptx")));
        char *ptx = client_slurp(path);
        cJSON_AddStringToObject(body, "ptx", ptx ? ptx : "");
        free(ptx);
        static const char *const keep[] = {"kernel", "block", "grid", "params", "dynamic_shared"};
        for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
            cJSON_AddItemToObject(body, keep[i], cJSON_Duplicate(
                cJSON_GetObjectItemCaseSensitive(k, keep[i]), 1));
    }
    if (grid)
        cJSON_ReplaceItemInObjectCaseSensitive(body, "grid", cJSON_Parse(grid));
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    cJSON_Delete(corpus);
    return text;
}

static cJSON *post_measure(const char *body, int *status, char **raw)
{
    struct api_response r = client_api_call("POST", "/api/ptx/measure", "", "application/json",
                                            body, strlen(body));
    *status = r.status;
    cJSON *a = r.body ? cJSON_Parse(r.body) : NULL;
    if (raw)
        *raw = r.body;
    else
        free(r.body);
    return a;
}

static const char *err_code(const cJSON *a)
{
    const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(a, "error"), "code"));
    return c ? c : "";
}

static void measure_refusals(void)
{
    char *body = corpus_body("transpose_naive", NULL);
    struct api_config cfg = {.measure_tool = NULL};
    api_configure(&cfg);
    int st;
    char *raw = NULL;
    cJSON *a = post_measure(body, &st, &raw);
    CHECK(st == 503 && !strcmp(err_code(a), "gpu_unavailable") &&
          strstr(raw, "no GPU measurement here: no measurement tool configured"),
          "no tool: 503 saying so, got %d %s", st, raw);
    cJSON_Delete(a);
    free(raw);
    cfg.measure_tool = "/nonexistent/swizzlescope-measure";
    api_configure(&cfg);
    a = post_measure(body, &st, &raw);
    CHECK(st == 503 && strstr(raw, "not built"), "a tool that is not there: %d %s", st, raw);
    cJSON_Delete(a);
    free(raw);

    /* A body the analysis refuses never reaches the tool. */
    cfg.measure_tool = fake_tool();
    api_configure(&cfg);
    static const char *const bad[][2] = {
        {"{\"ptx\":\".version 9.0\\n.target sm_90a\\n.entry k()\\n{\\n\\tret;\\n}\\n\"}", "block"},
        {"{\"ptx\":\".version 9.0\\n.target sm_90a\\n.entry k(\\n\",\"block\":[32]}", "ptx"},
        {"{\"ptx\":\"x\",\"block\":[32],\"extra\":1}", "extra"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        a = post_measure(bad[i][0], &st, &raw);
        const char *field = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(a, "error"), "field"));
        char *args = fake_file("args");
        CHECK(st == 400 && field && !strcmp(field, bad[i][1]) && !args,
              "bad body %zu: 400 on %s before the tool, got %d %s (tool ran: %s)", i,
              bad[i][1], st, raw, args ? args : "no");
        free(args);
        cJSON_Delete(a);
        free(raw);
    }
    free(body);
}

static const cJSON *line_of(const cJSON *lines, int line, const char *kind)
{
    for (const cJSON *l = lines ? lines->child : NULL; l; l = l->next)
        if (at(l, "line") == line &&
            !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(l, "kind")), kind))
            return l;
    return NULL;
}

static void measure_replayed(void)
{
    setenv("FAKE_ANSWER", "tests/data/ptx/measure_replay/transpose_naive.json", 1);
    struct api_config cfg = {.measure_tool = fake_tool(), .measure_timeout_ms = 20000};
    api_configure(&cfg);
    char *body = corpus_body("transpose_naive", NULL);
    int st;
    char *raw = NULL;
    cJSON *a = post_measure(body, &st, &raw);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(a, "compare");
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(c, "lines");
    CHECK(st == 200 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "agree")) &&
          at(c, "lines_agree") == 2 && at(c, "lines_total") == 2,
          "the H200's transpose_naive beside the analysis: every line agrees: %d %.600s", st,
          raw);
    const cJSON *ld = line_of(lines, 16, "ld");
    CHECK(ld && at(ld, "predicted.wavefronts") == 4096 && at(ld, "measured.wavefronts") == 4096 &&
          at(ld, "measured.executions") == 128 &&
          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ld, "agree")),
          "line 16's column read: 4096 wavefronts predicted and measured");
    CHECK(at(a, "predicted.totals.ld.wavefronts") == 4096 &&
          at(a, "measured.launch.global_bytes") == 16384 && at(c, "buffer_bytes") == 16384 &&
          !cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "measured"), "ptx"),
          "the answer holds the prediction, the tool's answer (less its file) and the "
          "buffers: 64 x 64 floats, what the analysis saw touched");
    free(raw);
    cJSON_Delete(a);
    /* The tool got the launch the analysis ran, and the very PTX. */
    char *args = fake_file("args"), *seen = fake_file("seen.ptx"), *tmp = fake_file("tmpdir");
    char *ptx = client_slurp("tests/data/ptx/corpus/transpose_naive.ptx");
    CHECK(args && strstr(args, "--kernel _Z15transpose_naivePfPKfi --block 32,8,1 --grid 2,2,1 "
                               "--dynamic-shared 0 --global-bytes 16384") &&
          strstr(args, "--json --param null --param null --param 0x40"),
          "the tool's arguments: %s", args ? args : "(none)");
    CHECK(seen && ptx && !strcmp(seen, ptx), "the tool read the request's PTX");
    if (tmp)
        tmp[strcspn(tmp, "\n")] = '\0';
    CHECK(tmp && access(tmp, F_OK) != 0, "the PTX's private folder %s is gone",
          tmp ? tmp : "?");
    free(args);
    free(seen);
    free(tmp);
    free(ptx);

    /* The same measurement beside another launch: every line differs, and
     * says so (one block's counts against four blocks'). */
    char *one = corpus_body("transpose_naive", "[1,1,1]");
    a = post_measure(one, &st, NULL);
    c = cJSON_GetObjectItemCaseSensitive(a, "compare");
    ld = line_of(cJSON_GetObjectItemCaseSensitive(c, "lines"), 16, "ld");
    CHECK(st == 200 && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(c, "agree")) &&
          at(c, "lines_agree") == 0 && ld && at(ld, "predicted.wavefronts") == 1024 &&
          at(ld, "measured.wavefronts") == 4096 &&
          cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ld, "agree")),
          "a launch that differs: each line flagged (predicted 1024, measured 4096)");
    cJSON_Delete(a);
    free(one);
    free(body);
}

static void *measure_in_thread(void *arg)
{
    int st;
    cJSON *a = post_measure((const char *)arg, &st, NULL);
    cJSON_Delete(a);
    return (void *)(intptr_t)st;
}

static void measure_one_at_a_time(void)
{
    setenv("FAKE_ANSWER", "tests/data/ptx/measure_replay/transpose_naive.json", 1);
    setenv("FAKE_SLEEP", "1", 1);
    struct api_config cfg = {.measure_tool = fake_tool(), .measure_timeout_ms = 20000};
    api_configure(&cfg);
    char *body = corpus_body("transpose_naive", NULL);
    pthread_t t;
    pthread_create(&t, NULL, measure_in_thread, body);
    struct timespec ts = {0, 400 * 1000 * 1000};
    nanosleep(&ts, NULL);
    int st;
    cJSON *a = post_measure(body, &st, NULL);
    CHECK(st == 409 && !strcmp(err_code(a), "busy"), "a second measurement while one runs: "
          "409 busy, got %d %s", st, err_code(a));
    cJSON_Delete(a);
    void *first;
    pthread_join(t, &first);
    CHECK((intptr_t)first == 200, "the first one: 200, got %d", (int)(intptr_t)first);

    /* Killed at its limit, and its folder removed all the same. */
    setenv("FAKE_SLEEP", "20", 1);
    cfg.measure_timeout_ms = 700;
    api_configure(&cfg);
    char *raw = NULL;
    a = post_measure(body, &st, &raw);
    char *tmp = fake_file("tmpdir");
    if (tmp)
        tmp[strcspn(tmp, "\n")] = '\0';
    CHECK(st == 502 && strstr(raw, "did not finish in time") && tmp && access(tmp, F_OK) != 0,
          "a tool past its limit: 502 saying so, its folder gone: %d %s", st, raw);
    free(tmp);
    free(raw);
    cJSON_Delete(a);
    unsetenv("FAKE_SLEEP");
    free(body);
}

int main(void)
{
    a_transpose();
    refusals();
    from_cuda();
    if (mkdtemp(fdir)) {
        measure_refusals();
        measure_replayed();
        measure_one_at_a_time();
        /* what the fake tool left: its script and its three notes */
        static const char *const left[] = {"tool", "args", "seen.ptx", "tmpdir"};
        for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
            char path[300];
            snprintf(path, sizeof path, "%s/%s", fdir, left[i]);
            unlink(path);
        }
        CHECK(rmdir(fdir) == 0, "the fake tool's folder removed, nothing else in it");
    }
    return check_summary("test_api_ptx");
}
