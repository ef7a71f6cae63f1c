/* test_ncu.c - POST /api/ncu/explain on the public threads' own numbers
 * (each case cites its thread; where a thread lacks a number the case says
 * so and asserts only what its numbers show), the raw-page CSV and the
 * Details lines, the arbitration split, and every malformed text a 4xx
 * naming its field (and the column). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ncu_text.h"
#include "check.h"
#include "client.h"
#include "jtest.h"
#include "utf8_check.h"

static cJSON *explain(const char *ncu, const char *access, const char *extra, int *status)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "ncu", ncu);
    cJSON_AddItemToObject(b, "access", cJSON_Parse(access));
    char *body = cJSON_PrintUnformatted(b);
    cJSON_Delete(b);
    size_t n = strlen(body) + (extra ? strlen(extra) : 0) + 2;
    char *full = malloc(n);
    snprintf(full, n, "%.*s%s}", (int)strlen(body) - 1, body, extra ? extra : "");
    free(body);
    cJSON *j = jtest_post("/api/ncu/explain", full, status);
    free(full);
    return j;
}

#define num jtest_num
#define str jtest_str

/* 32 lanes at byte stride `stride` from 0: "[0,s,2s,...]" */
static const char *lanes(int stride)
{
    static char buf[512];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k, "[");
    for (int t = 0; t < 32; t++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", t ? "," : "", t * stride);
    snprintf(buf + k, sizeof buf - k, "]");
    return buf;
}

static char access_buf[1024];
static const char *access_of(const char *op, int bytes, int stride)
{
    snprintf(access_buf, sizeof access_buf, "{\"op\":\"%s\",\"bytes\":%d,\"offsets\":%s}", op,
             bytes, lanes(stride));
    return access_buf;
}

/* The Details header and metric line of NVIDIA/cutlass#1882's two runs
 * (the value is appended). */
#define CUTLASS_1882                                                                              \
    "  void copy_kernel_vectorized<half_t, half_t, Layout<tuple<C<8>, C<32>>, tuple<C<32>, "    \
    "C<1>>>, Layout<tuple<C<1>, C<1>>, tuple<C<0>, C<0>>>>(const T1 *, const T2 *, T3, T4) "     \
    "(1024, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 8.6\n"                          \
    "    Section: Command line profiler metrics\n"                                               \
    "    -------------------------------------------------------- ----------- ------------\n"    \
    "    Metric Name                                              Metric Unit Metric Value\n"    \
    "    -------------------------------------------------------- ----------- ------------\n"    \
    "    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum                "

/* The worked examples: each thread's own numbers, and what the explainer
 * must make of them (-1: not asserted). */
static const struct worked {
    const char *source, *ncu, *op;
    int bytes, stride;              /* the access: 32 lanes `stride` bytes apart */
    const char *extra;
    const char *verdict;
    double instructions, predicted, remainder;
    const char *command_has;
} worked[] = {
    /* NVIDIA-developer-blog/code-samples#48 (lix19937, 2023-08-10): kernel2,
     * grid(2,1) x block(32,1), `__shared__ float shm[256]`, `out[idx] =
     * shm[idx*4]`: lane t reads byte 16 t, so lanes t, t+8, t+16, t+24 share
     * a bank: 4 wavefronts, ideal 1.  "From ncu, Memory Workload Analysis,
     * total bank conflicts is 6 ... How to get this number?"  Two warps (two
     * blocks of 32) load once each: 2 x (4 - 1) = 6.  The thread quotes only
     * the section's total, given here as the all-ops counter (the store
     * shm[idx] = in[idx] is conflict-free and adds none). */
    {"code-samples#48", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum    6\n", "ld", 4, 16,
     ",\"instructions\":2", "reproduced", 2, 6, 0, NULL},
    /* forums.developer.nvidia.com/t/clarification-bank-conflicts-metric-vs-
     * wavefronts-for-shared-memory-lds-128/359822: LDS.128, v10 (bad layout)
     * and v11: sass__inst_executed_shared_loads 8,844,480 in both; wavefronts
     * 283,023,360 and 35,377,920; conflicts 247,645,440 and 0 (its table,
     * written as metric lines).  It gives no layouts, only 32 and 4 wavefronts
     * per instruction: the accesses here are LDS.128 patterns with those
     * counts (lanes 128 bytes apart: each quarter-warp phase in one bank
     * group, 8 x 4 = 32; lanes 16 bytes apart: 4).  8,844,480 x 28. */
    {"forum 359822 v10",
     "sass__inst_executed_shared_loads                     8,844,480\n"
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld     283,023,360\n"
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld 247,645,440\n",
     "ld", 16, 128, NULL, "reproduced", 8844480, 247645440, 0, NULL},
    {"forum 359822 v11",
     "sass__inst_executed_shared_loads                     8,844,480\n"
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld     35,377,920\n"
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld 0\n",
     "ld", 16, 16, NULL, "reproduced", 8844480, 0, 0, NULL},
    /* NVIDIA/cutlass#1882 (seanxwzhang): the same tiled_copy binary under ncu
     * gave 0 and then 5,713,107.  An address pattern's conflicts are the same
     * every run and the counter counts at least them, so the first run bounds
     * them by 0: the access is conflict-free, whatever its lanes (the thread's
     * kernel is cut off before its store loop; the lanes here are a
     * conflict-free 2-byte store standing for it).  The second run's
     * 5,713,107 are all left over: collect the arbitration counter, for the
     * kernel the Details header names. */
    {"cutlass#1882 run 1", CUTLASS_1882 "        0\n", "st", 2, 2, NULL, "reproduced", -1, 0, 0,
     "-k regex:copy_kernel_vectorized"},
    {"cutlass#1882 run 2", CUTLASS_1882 "5,713,107\n", "st", 2, 2, NULL, "unexplained", -1, 0,
     5713107, "l1tex__data_bank_conflicts_type_arbitration.sum"},
    /* accel-sim/accel-sim-framework#231 (barnes88): "For the ubench without
     * bank conflicts: HW: 2484, Simulator 0".  Whatever the instruction count
     * (not given), a conflict-free access predicts 0: all 2,484 are left over.
     * (Its conflicting ubench, HW 260,593 against the simulator's 253,952,
     * needs the kernel's lanes and count, which the thread does not give.)
     * The counter is the all-ops one: the thread says only "bank conflicts". */
    {"accel-sim#231", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum  2,484\n", "ld", 4, 4,
     NULL, "unexplained", -1, 0, 2484, NULL},
};

static void test_worked_examples(void)
{
    for (size_t i = 0; i < sizeof worked / sizeof worked[0]; i++) {
        const struct worked *w = &worked[i];
        int st;
        cJSON *j = explain(w->ncu, access_of(w->op, w->bytes, w->stride), w->extra, &st);
        CHECK(st == 200 && strcmp(str(j, "verdict"), w->verdict) == 0 &&
                  (w->instructions < 0 || num(j, "instructions") == w->instructions) &&
                  num(j, "predicted") == w->predicted && num(j, "remainder") == w->remainder &&
                  (!w->command_has || strstr(str(j, "command"), w->command_has)),
              "%s: %s, predicted %.0f, left over %.0f: %d %s / %s", w->source, w->verdict,
              w->predicted, w->remainder, st, str(j, "message"), str(j, "command"));
        cJSON_Delete(j);
    }
}

/* code-samples#48's kernel2 measured here on an H100 (tests/data/
 * ncu_k48_h100.json, provenance inside): ncu's own raw-page CSV (three runs,
 * the program's output around it) and its Details text.  Each reproduces the
 * thread's 6: 2 ld.shared x (4 - 1), arbitration 0, and the Source page's
 * 8 wavefronts less 2 x 1 ideal are the same 6. */
static void test_measured_h100(void)
{
    char *txt = client_slurp("tests/data/ncu_k48_h100.json");
    cJSON *d = txt ? cJSON_Parse(txt) : NULL;
    CHECK(d != NULL, "tests/data/ncu_k48_h100.json reads");
    const cJSON *csv = cJSON_GetObjectItemCaseSensitive(d, "csv");
    int n = 0;
    for (const cJSON *c = csv ? csv->child : NULL; c; c = c->next, n++) {
        int st;
        cJSON *j = explain(c->valuestring, access_of("ld", 4, 16), NULL, &st);
        CHECK(st == 200 && strcmp(str(j, "source"), "csv") == 0 &&
                  strcmp(str(j, "verdict"), "reproduced") == 0 && num(j, "measured") == 6 &&
                  num(j, "instructions") == 2 && num(j, "arbitration") == 0 &&
                  num(j, "source_conflicts") == 6 &&
                  strcmp(str(j, "kernel"), "kernel2(const float *, float *)") == 0,
              "H100 run %d (ncu's CSV): 6 reproduced, arbitration 0: %d %s", n + 1, st,
              str(j, "message"));
        cJSON_Delete(j);
    }
    int st;
    cJSON *j = explain(str(d, "details"), access_of("ld", 4, 16), NULL, &st);
    CHECK(n == 3 && st == 200 && strcmp(str(j, "source"), "lines") == 0 &&
              strcmp(str(j, "verdict"), "reproduced") == 0 && num(j, "instructions") == 2 &&
              strcmp(str(j, "kernel"), "kernel2") == 0,
          "H100 Details text: 6 reproduced: %d %s", st, str(j, "message"));
    cJSON_Delete(j);
    cJSON_Delete(d);
    free(txt);
}

/* Arbitration measured here on an H100 (tests/data/ncu_arbitration_h100.json):
 * 540,672 conflict-free ld.shared.b32 (264 x 32 warps x 64) beside L1 fills.
 * The Source page's wavefronts are exactly one per instruction (no address
 * conflict, as the model says), yet the hardware counter reads 654 and then
 * 692 on the same binary, within l1tex__data_bank_conflicts_type_arbitration
 * (7,006 and 6,841): the answer says so. */
static void test_arbitration_h100(void)
{
    char *txt = client_slurp("tests/data/ncu_arbitration_h100.json");
    cJSON *d = txt ? cJSON_Parse(txt) : NULL;
    const cJSON *csv = cJSON_GetObjectItemCaseSensitive(d, "csv");
    static const double conflicts[] = {654, 692}, arbitration[] = {7006, 6841};
    int n = 0;
    for (const cJSON *c = csv ? csv->child : NULL; c && n < 2; c = c->next, n++) {
        int st;
        cJSON *j = explain(c->valuestring, access_of("ld", 4, 4), NULL, &st);
        CHECK(st == 200 && num(j, "instructions") == 540672 && num(j, "predicted") == 0 &&
                  num(j, "source_conflicts") == 0 && num(j, "measured") == conflicts[n] &&
                  num(j, "remainder") == conflicts[n] && num(j, "arbitration") == arbitration[n] &&
                  strcmp(str(j, "verdict"), "arbitration_partly") == 0,
              "H100 arbitration run %d: %.0f left over within arbitration %.0f: %d %s", n + 1,
              conflicts[n], arbitration[n], st, str(j, "message"));
        cJSON_Delete(j);
    }
    CHECK(n == 2, "tests/data/ncu_arbitration_h100.json holds 2 runs (%d)", n);
    cJSON_Delete(d);
    free(txt);
}

/* The raw page's CSV, as `ncu --csv --page raw` prints it (header, units,
 * one row per launch), and the arbitration split: the model's 6, the
 * counter's 6 + 40, arbitration 40 (constructed for the arithmetic). */
static void test_csv_and_arbitration(void)
{
    static const char csv[] =
        "==PROF== Connected to process 1 (./app)\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
        "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
        "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
        "\"l1tex__data_bank_conflicts_type_arbitration.sum\","
        "\"smsp__inst_executed_op_shared_ld.sum\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\"\n"
        "\"0\",\"1\",\"app\",\"127.0.0.1\",\"kernel2(const float *, float *)\",\"1\",\"7\","
        "\"(32, 1, 1)\",\"(2, 1, 1)\",\"0\",\"8.6\",\"46\",\"40\",\"2\"\n";
    int st;
    cJSON *j = explain(csv, access_of("ld", 4, 16), NULL, &st);
    CHECK(st == 200 && strcmp(str(j, "source"), "csv") == 0 && num(j, "instructions") == 2 &&
              num(j, "predicted") == 6 && num(j, "remainder") == 40 &&
              strcmp(str(j, "verdict"), "arbitration") == 0 &&
              strcmp(str(j, "kernel"), "kernel2(const float *, float *)") == 0,
          "CSV: 6 address conflicts + 40 arbitration: %d %s", st, str(j, "message"));
    cJSON_Delete(j);
    /* two launches: "kernel" picks one; without it, a 400 naming kernel */
    char two[2048];
    snprintf(two, sizeof two, "%s\"1\",\"1\",\"app\",\"127.0.0.1\",\"other()\",\"1\",\"7\","
             "\"(32, 1, 1)\",\"(2, 1, 1)\",\"0\",\"8.6\",\"0\",\"0\",\"2\"\n", csv);
    j = explain(two, access_of("ld", 4, 16), NULL, &st);
    CHECK(st == 400 && strcmp(str(cJSON_GetObjectItemCaseSensitive(j, "error"), "field"),
                              "kernel") == 0, "two launches without kernel: %d", st);
    cJSON_Delete(j);
    j = explain(two, access_of("ld", 4, 16), ",\"kernel\":\"other\"", &st);
    CHECK(st == 200 && num(j, "measured") == 0, "kernel picks the launch: %d", st);
    cJSON_Delete(j);
    /* a tiled copy's whole tile is the unit: 4 ldmatrix.x4 of 8-way rows */
    static const char tiled[] =
        "{\"layout\":\"(_32,_64):(_64,_1)\",\"thread\":\"% Layout S TV: ArithTuple(_0,_0) o "
        "((_16,_2,_2,_2),(_8,_1)):((_1@0,_8@1,_16@0,_0),(_1@1,_0))\",\"op\":\"ldmatrix\"}";
    j = explain("smsp__inst_executed_op_ldsm.sum 400\n"
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 11200\n", tiled, NULL,
                &st);
    CHECK(st == 200 && num(j, "predicted") == 100 * 4 * 28 &&
              strcmp(str(j, "verdict"), "reproduced") == 0,
          "tiled copy: 400 ldmatrix = 100 tiles x 4 x (32 - 4): %d %s", st, str(j, "message"));
    cJSON_Delete(j);
}

static void test_errors(void)
{
    static const struct { const char *ncu, *access, *extra, *field, *has; } cases[] = {
        {"hello", "{\"op\":\"ld\",\"offsets\":[0]}", NULL, "ncu", "looked for"},
        {"\"ID\",\"Kernel Name\",\"l1tex__x.sum\n\"0\",\"k\",\"1\"\n", NULL, NULL, "ncu",
         "line 1, column 20"},
        {"\"ID\",\"Kernel Name\",\"l1tex__x.sum\"\n\"0\",\"k\"\n", NULL, NULL, "ncu", "line 2"},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 1", "{\"op\":\"ld\"}", NULL,
         "access", "give the access"},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 1",
         "{\"layout\":\"(_8,_8):(_8\",\"atom\":\"row_walk_32\"}", NULL, "access.layout", ""},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 1", NULL,
         ",\"instructions\":-1", "instructions", ""},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 1", NULL, ",\"extra\":1",
         "extra", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int st;
        const char *acc = cases[i].access ? cases[i].access : access_of("ld", 4, 4);
        cJSON *j = explain(cases[i].ncu, acc, cases[i].extra, &st);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
        CHECK(st == 400 && strcmp(str(e, "field"), cases[i].field) == 0 &&
                  strstr(str(e, "message"), cases[i].has),
              "case %zu: 400 naming %s ('%s'): %d %s: %s", i, cases[i].field, cases[i].has, st,
              str(e, "field"), str(e, "message"));
        cJSON_Delete(j);
    }
    /* issue 37: a CSV error inside the pasted text carries "at" (line, column) */
    int st;
    cJSON *j = explain("\"ID\",\"Kernel Name\",\"l1tex__x.sum\"\n\"0\",\"k\",\"1\" x\n",
                       access_of("ld", 4, 4), NULL, &st);
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "error"), "at");
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(at, "line");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(at, "column");
    CHECK(st == 400 && cJSON_IsNumber(l) && cJSON_IsNumber(c) && l->valueint == 2 &&
              c->valueint == 12,
          "the CSV error on line 2 is at 2:12: %d %s", st, at ? "(at)" : "(no at)");
    cJSON_Delete(j);
}

/* A Kernel Name longer than the 127 bytes kept is cut on a character
 * boundary: "kernel" and "command" stay UTF-8 (issue 36 item 5). */
static void test_long_kernel_name(void)
{
    char name[160], csv[1024];
    memset(name, 'k', 126);
    snprintf(name + 126, sizeof name - 126, "\xc3\xa9(int)");
    snprintf(csv, sizeof csv, "\"ID\",\"Kernel Name\","
             "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\"\n"
             "\"0\",\"%s\",\"6\"\n", name);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "ncu", csv);
    cJSON_AddItemToObject(b, "access", cJSON_Parse(access_of("ld", 4, 16)));
    cJSON_AddNumberToObject(b, "instructions", 2);
    char *body = cJSON_PrintUnformatted(b);
    struct api_response r = client_api_call("POST", "/api/ncu/explain", NULL, "application/json",
                                            body, 0);
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    CHECK(r.status == 200 && r.body && utf8_ok((const unsigned char *)r.body, r.len) &&
              strlen(str(j, "kernel")) == 126 && strstr(str(j, "command"), "regex:kkk"),
          "a Kernel Name cut inside a character: 200, valid UTF-8, 126 whole bytes: %d %s",
          r.status, str(j, "kernel"));
    cJSON_Delete(j);
    free(r.body);
    free(body);
    cJSON_Delete(b);
}

int main(void)
{
    test_worked_examples();
    test_measured_h100();
    test_arbitration_h100();
    test_csv_and_arbitration();
    test_errors();
    test_long_kernel_name();
    return check_summary("test_ncu");
}
