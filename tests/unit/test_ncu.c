/* test_ncu.c - POST /api/ncu/explain on the public threads' own numbers
 * (each case cites its thread; where a thread lacks a number the case says
 * so and asserts only what its numbers show), the raw-page CSV and the
 * Details lines, the details page of sections as ncu 2025.3 wrote it
 * (tests/data/ncu_details: its answer is the raw page's), thousands
 * separators in every form, the arbitration split, and every malformed text a 4xx
 * naming its field (and the column). */
#define _POSIX_C_SOURCE 200809L   /* strdup, strndup, mkdtemp */
#include <cjson/cJSON.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "model/instr.h"
#include "model/ncu_csv.h"
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
     "-k 'regex:^copy_kernel_vectorized$'"},
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

/* A CSV of kernel2's ld.shared launch whose counters say 46 conflicts, 40
 * of them arbitration, over 2 instructions: the model's 6 and 40 left. */
static void six_and_forty(const char *csv, const char *what)
{
    int st;
    cJSON *j = explain(csv, access_of("ld", 4, 16), NULL, &st);
    CHECK(st == 200 && strcmp(str(j, "source"), "csv") == 0 && num(j, "instructions") == 2 &&
              num(j, "predicted") == 6 && num(j, "remainder") == 40 &&
              strcmp(str(j, "verdict"), "arbitration") == 0 &&
              strcmp(str(j, "kernel"), "kernel2(const float *, float *)") == 0,
          "%s: 6 address conflicts + 40 arbitration: %d %s", what, st, str(j, "message"));
    cJSON_Delete(j);
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
    six_and_forty(csv, "CSV");
    cJSON *j;
    /* two launches: "kernel" picks one; without it, a 400 naming kernel */
    char two[2048];
    snprintf(two, sizeof two, "%s\"1\",\"1\",\"app\",\"127.0.0.1\",\"other()\",\"1\",\"7\","
             "\"(32, 1, 1)\",\"(2, 1, 1)\",\"0\",\"8.6\",\"0\",\"0\",\"2\"\n", csv);
    j = explain(two, access_of("ld", 4, 16), NULL, &st);
    CHECK(st == 400 && strcmp(str(cJSON_GetObjectItemCaseSensitive(j, "error"), "field"),
                              "launch") == 0, "two launches without launch or kernel: %d", st);
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
        /* a Source page's header and no row (libFuzzer, fuzz_api: a NULL "kernel" was
         * printed into the message, UBSan in sz_utf8_prec) */
        {"\"Address\",\"Source\",\"Instructions Executed\",\"Predicated-On Thread Instructions "
         "Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n", NULL, NULL, "ncu",
         "no instruction's row"},
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

/* A Kernel Name of non-ASCII text past 127 bytes comes back whole (issue 39
 * item 5: names are spans of the text, not cut), "kernel" and "command"
 * valid UTF-8 (issue 36 item 5). */
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
              strcmp(str(j, "kernel"), name) == 0 &&
              strstr(str(j, "command"), "regex:^kkk") &&
              strstr(str(j, "command"), "k\xc3\xa9\\(int\\)$'"),
          "a Kernel Name of 133 bytes: 200, valid UTF-8, whole: %d %s",
          r.status, str(j, "kernel"));
    cJSON_Delete(j);
    free(r.body);
    free(body);
    cJSON_Delete(b);
}

/* ---- the reader of ncu's CSV (model/ncu_csv.h), both forms ------------------- */

/* What the reader handed on, as text: "L<index>@<line>:<id>|<kernel>;" per
 * launch and "<name>[<unit>]=<value>@<line>;" per metric whose name is a
 * counter's (it holds "__": the wide form's launch columns are left out). */
struct record {
    char s[2048];
    int stop_after;                 /* stop reading after this many metrics; 0: never */
    int metrics;
};

static void rec_put(struct record *r, const struct ncu_field *f)
{
    size_t len = strlen(r->s);
    ncu_field_copy(f, r->s + len, sizeof r->s - len);
}

static int rec_launch(void *ctx, const struct ncu_launch *l)
{
    struct record *r = ctx;
    size_t len = strlen(r->s);
    snprintf(r->s + len, sizeof r->s - len, "L%d@%d:", l->index, l->line);
    rec_put(r, &l->id);
    strncat(r->s, "|", sizeof r->s - strlen(r->s) - 1);
    rec_put(r, &l->kernel);
    strncat(r->s, ";", sizeof r->s - strlen(r->s) - 1);
    return 0;
}

/* "<a><sep><b>[<c>]@<line>;" (c: NULL for none) */
static void rec_row(struct record *r, const struct ncu_field *a, const char *sep,
                    const struct ncu_field *b, const char *close, const struct ncu_field *c, int line)
{
    rec_put(r, a);
    strncat(r->s, sep, sizeof r->s - strlen(r->s) - 1);
    rec_put(r, b);
    if (c) {
        strncat(r->s, close, sizeof r->s - strlen(r->s) - 1);
        rec_put(r, c);
    }
    size_t len = strlen(r->s);
    snprintf(r->s + len, sizeof r->s - len, "@%d;", line);
}

static int rec_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct record *r = ctx;
    char name[128];
    (void)l;
    ncu_field_copy(&m->name, name, sizeof name);
    if (m->rule.len) {          /* a rule's row: "rule <name>:<text>" */
        strncat(r->s, "rule ", sizeof r->s - strlen(r->s) - 1);
        rec_row(r, &m->rule, ":", &m->description, NULL, NULL, m->line);
    }
    if (!strstr(name, "__"))
        return 0;
    rec_row(r, &m->name, "[", &m->unit, "]=", &m->value, m->line);
    return ++r->metrics == r->stop_after;
}

/* The long form's header as ncu 2023-2025 writes it for --csv (the details
 * page), and a row of it for launch `id` of kernel `k`. */
#define LONG_HEAD                                                                                 \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","          \
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","                \
    "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define LONG_ROW(id, k, name, unit, value)                                                       \
    "\"" id "\",\"4242\",\"app\",\"127.0.0.1\",\"" k "\",\"1\",\"7\",\"(256, 1, 1)\","          \
    "\"(64, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" name "\",\"" unit       \
    "\",\"" value "\"\n"
#define CONF_LD "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define INST_LD "smsp__inst_executed_op_shared_ld.sum"
#define ARB_SUM "l1tex__data_bank_conflicts_type_arbitration.sum"

static const struct csv_case {
    const char *what, *text;
    int rc, form, launches, stop_after;
    const char *events;             /* rc 0: what the callbacks saw */
    int line, column;               /* rc -1: where the error points */
    const char *has;
} csv_cases[] = {
    {"wide: ==PROF== lines, the program's output, a units row, two launches, a Kernel Name "
     "with commas and a doubled quote, thousands separators, n/a",
     "==PROF== Connected to process 4242 (/tmp/app)\n"
     "kernel2: no error\n"
     "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
     "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"" CONF_LD "\",\"" INST_LD
     "\",\"" ARB_SUM "\"\n"
     "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\",\"\"\n"
     "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"void k<8, \"\"a\"\">(float *, int)\",\"1\",\"7\","
     "\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"1,536\",\"512\",\"n/a\"\n"
     "==PROF== Disconnected from process 4242\n"
     "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"other()\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\","
     "\"0\",\"9.0\",\"0\",\"1,024\",\"12\"\n",
     0, NCU_CSV_WIDE, 2, 0,
     "L0@5:0|void k<8, \"a\">(float *, int);" CONF_LD "[]=1,536@5;" INST_LD "[inst]=512@5;"
     ARB_SUM "[]=n/a@5;L1@7:1|other();" CONF_LD "[]=0@7;" INST_LD "[inst]=1,024@7;" ARB_SUM
     "[]=12@7;", 0, 0, NULL},
    {"wide without a units row, CRLF line ends",
     "\"ID\",\"Kernel Name\",\"" CONF_LD "\"\r\n\"0\",\"k\",\"6\"\r\n", 0, NCU_CSV_WIDE, 1, 0,
     "L0@2:0|k;" CONF_LD "[]=6@2;", 0, 0, NULL},
    {"long (--csv --metrics): one launch of three metrics is one launch",
     "==PROF== Connected to process 4242 (/tmp/app)\n" LONG_HEAD
     LONG_ROW("0", "kernel2(const float *, float *)", CONF_LD, "", "46")
     LONG_ROW("0", "kernel2(const float *, float *)", ARB_SUM, "", "40")
     LONG_ROW("0", "kernel2(const float *, float *)", INST_LD, "inst", "2"),
     0, NCU_CSV_LONG, 1, 0,
     "L0@3:0|kernel2(const float *, float *);" CONF_LD "[]=46@3;" ARB_SUM "[]=40@4;" INST_LD
     "[inst]=2@5;", 0, 0, NULL},
    {"long: two launches, thousands separators and n/a, the program's output between",
     LONG_HEAD LONG_ROW("0", "a(int)", CONF_LD, "", "5,713,107")
     "a: done\n"
     LONG_ROW("0", "a(int)", INST_LD, "inst", "n/a")
     LONG_ROW("1", "b<\"\"x\"\">(int)", CONF_LD, "", "0"),
     0, NCU_CSV_LONG, 2, 0,
     "L0@2:0|a(int);" CONF_LD "[]=5,713,107@2;" INST_LD "[inst]=n/a@4;L1@5:1|b<\"x\">(int);"
     CONF_LD "[]=0@5;", 0, 0, NULL},
    {"long, older ncu (Kernel Time, no Block Size) with the rules' columns",
     "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\","
     "\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
     "\"Rule Name\",\"Rule Type\",\"Rule Description\"\n"
     "\"3\",\"1\",\"app\",\"h\",\"k\",\"2024-Jan-01 00:00:00\",\"1\",\"7\",\"Memory Workload "
     "Analysis\",\"" CONF_LD "\",\"\",\"2,484\",\"\",\"\",\"\"\n",
     0, NCU_CSV_LONG, 1, 0, "L0@2:3|k;" CONF_LD "[]=2,484@2;", 0, 0, NULL},
    {"a callback that has what it wants stops the read",
     LONG_HEAD LONG_ROW("0", "k", CONF_LD, "", "1") LONG_ROW("0", "k", INST_LD, "inst", "2")
     LONG_ROW("1", "k", CONF_LD, "", "3"),
     0, NCU_CSV_LONG, 1, 1, "L0@2:0|k;" CONF_LD "[]=1@2;", 0, 0, NULL},
    {"no header: the Details page's lines are no CSV",
     "    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum    6\n", 1, 0, 0, 0, "", 0, 0,
     NULL},
    {"unterminated quote", "\"ID\",\"Kernel Name\",\"l1tex__x.sum\n\"0\",\"k\",\"1\"\n", -1, 0, 0,
     0, NULL, 1, 20, "unterminated quoted field"},
    {"text after a closing quote",
     "==PROF== x\n\"ID\",\"Kernel Name\",\"l1tex__x.sum\"\n\"0\",\"k\",\"1\" x\n", -1, 0, 0, 0,
     NULL, 3, 12, "expected ',' or the end of the line after a field"},
    {"a long row of another column count", LONG_HEAD "\"0\",\"1\",\"app\"\n", -1, 0, 0, 0, NULL,
     2, 1, "this row's column count differs from the header's"},
    {"details of sections: a metric's row stops after its value (a trailing ','), a rule's "
     "row leaves the metric's columns empty",
     "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\","
     "\"Rule Description\"\n\"0\",\"k\",\"" CONF_LD "\",\"\",\"1,024\",\n"
     "\"0\",\"k\",\"\",\"\",\"\",\"R\",\"text\"\n",
     0, NCU_CSV_LONG, 1, 0, "L0@2:0|k;" CONF_LD "[]=1,024@2;rule R:text@3;", 0, 0, NULL},
    {"details of sections: a row that stops before the metric's value",
     "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\"\n"
     "\"0\",\"k\",\"" CONF_LD "\",\"\"\n", -1, 0, 0, 0, NULL, 2, 1,
     "this row's column count differs from the header's"},
    {"details of sections: a row longer than the header",
     "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\"\n"
     "\"0\",\"k\",\"" CONF_LD "\",\"\",\"1\",\"R\",\"x\"\n", -1, 0, 0, 0, NULL, 2, 1,
     "this row's column count differs from the header's"},
};

static void test_csv_reader(void)
{
    for (size_t i = 0; i < sizeof csv_cases / sizeof csv_cases[0]; i++) {
        const struct csv_case *c = &csv_cases[i];
        struct record r = {"", c->stop_after, 0};
        struct ncu_csv_sink sink = {&r, rec_launch, rec_metric};
        struct ncu_csv info;
        struct sz_error e = {0};
        int rc = ncu_csv_read(c->text, &sink, &info, &e);
        if (c->rc >= 0)
            CHECK(rc == c->rc && (rc == 1 || ((int)info.form == c->form &&
                                              info.launches == c->launches)) &&
                      strcmp(r.s, c->events) == 0,
                  "%s: rc %d form %d, %d launches, saw %s", c->what, rc, (int)info.form,
                  info.launches, r.s);
        else
            CHECK(rc == -1 && strcmp(e.field, "ncu") == 0 && e.line == c->line &&
                      e.column == c->column && strstr(e.message, c->has),
                  "%s: refused at %d:%d saying '%s': rc %d at %d:%d %s", c->what, c->line,
                  c->column, c->has, rc, e.line, e.column, e.message);
    }
    /* fields: doubled quotes read as one; a copy cut short keeps whole characters */
    static const char q[] = "a \"\"b\"\" \xc3\xa9";
    struct ncu_field f = {q, sizeof q - 1, 0};
    char small[8];
    CHECK(ncu_field_is(&f, "a \"b\" \xc3\xa9") && !ncu_field_is(&f, "a \"\"b\"\" \xc3\xa9") &&
              ncu_field_copy(&f, small, sizeof small) == 6 && strcmp(small, "a \"b\" ") == 0,
          "a doubled quote is one; a cut copy ends before a character: '%s'", small);
    /* numbers as ncu prints them */
    static const struct { const char *s; int ok; double v; } nums[] = {
        {"5,713,107", 1, 5713107}, {" 6 ", 1, 6}, {"1.5", 1, 1.5}, {"1e3", 1, 1000},
        {"n/a", 0, 0}, {"", 0, 0}, {"12 MB", 0, 0},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        double v = -1;
        int ok = ncu_number(nums[i].s, strlen(nums[i].s), &v);
        CHECK_QUIET(bad, ok == nums[i].ok && (!ok || v == nums[i].v), "'%s': %d %g", nums[i].s,
                    ok, v);
    }
    CHECK(bad == 0, "numbers: thousands separators, blanks, n/a");
}

/* ---- the table reader (ncu_table_read): the Source page's shape ------------ */

/* What the table reader handed on: "<line>#<fields>:<f0>|<f1>|<f2>|<f3>;" per
 * row; stop_at: the row count at which the callback stops (1) or, negated,
 * fails (-1) the read. */
struct rows {
    char s[1024];
    int n, stop_at;
};

static int rows_put(void *ctx, const struct ncu_row *r)
{
    struct rows *x = ctx;
    static const int cols[4] = {0, 1, 2, 3};
    struct ncu_field f[4];
    size_t len = strlen(x->s);
    ncu_row_pick(r, cols, 4, f);
    snprintf(x->s + len, sizeof x->s - len, "%d#%d:", r->line, r->fields);
    for (int k = 0; k < 4; k++) {
        len = strlen(x->s);
        ncu_field_copy(&f[k], x->s + len, sizeof x->s - len);
        strncat(x->s, k < 3 ? "|" : ";", sizeof x->s - strlen(x->s) - 1);
    }
    if (++x->n == -x->stop_at)
        return -1;
    return x->n == x->stop_at;
}

/* The cuda,sass view as ncu 2025.3 writes it (tests/data/ptx/ncu_csv/), cut to five
 * columns, with CRLF line ends: source lines quoted with their own quotes undoubled
 * ("r"(a)), one with doubled quotes (read as one), and one where a quote stands before
 * a ',' (there the split cannot be told from the text: the row has a field more). */
#define SRC_HEAD "\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions Executed\"\r\n"
static const char source_page[] =
    "==PROF== Connected to process 7 (/tmp/app)\r\n"
    "\"File Path\",\"/src/k.cu\"\r\n"
    "\"Function Name\",\"k\"\r\n" SRC_HEAD
    "\"7\",\"asm(\"st.shared.u32 [%0], %1;\" :: \"r\"(a), \"r\"(b));\",\"\",\"\",\"8\"\r\n"
    "\"\",\"\",\"0x7f0010\",\"      STS [R2], R3\",\"8\"\r\n"
    "\"9\",\"s = \"\"x\"\";\",\"\",\"\",\"1,024\"\r\n"
    "\"12\",\"printf(\"%d\", x);\",\"\",\"\",\"n/a\"\r\n";

static const struct table_case {
    const char *what, *text;
    int bare, stop_at, rc;
    const char *rows;               /* what the callback saw */
    int line, column;               /* rc -1 from the reader: where the error points */
    const char *has;
} table_cases[] = {
    {"the Source page: name/value lines, a header, quotes in source lines, CRLF", source_page, 1,
     0, 0,
     "2#2:File Path|/src/k.cu||;3#2:Function Name|k||;4#5:Line No|Source|Address|Source;"
     "5#5:7|asm(\"st.shared.u32 [%0], %1;\" :: \"r\"(a), \"r\"(b));||;"
     "6#5:||0x7f0010|      STS [R2], R3;7#5:9|s = \"x\";||;8#6:12|printf(\"%d| x);\"|;",
     0, 0, NULL},
    {"a callback that has what it wants stops the read", source_page, 1, 2, 0,
     "2#2:File Path|/src/k.cu||;3#2:Function Name|k||;", 0, 0, NULL},
    {"a callback's failure fails the read", source_page, 1, -1, -1,
     "2#2:File Path|/src/k.cu||;", 0, 0, NULL},
    {"an unterminated quote, with bare quotes: at its opening quote",
     "\"Address\",\"Source\"\r\n\"0x10\",\"  LDS R1, [R2]\r\n\"0x20\",\"x\"\r\n", 1, 0, -1,
     "1#2:Address|Source||;",
     2, 8, "unterminated quoted field"},
    {"without bare quotes, an undoubled quote is text after a closing one",
     "\"Line No\",\"Source\"\n\"7\",\"asm(\"ld.shared.u32 %0, [%1];\" : \"=r\"(v));\"\n", 0,
     0, -1, "1#2:Line No|Source||;", 2, 11, "expected ',' or the end of the line after a field"},
};

static void test_table_reader(void)
{
    for (size_t i = 0; i < sizeof table_cases / sizeof table_cases[0]; i++) {
        const struct table_case *c = &table_cases[i];
        struct rows x = {"", 0, c->stop_at};
        struct ncu_table_sink sink = {&x, c->bare, rows_put};
        struct sz_error e = {0};
        int rc = ncu_table_read(c->text, &sink, &e);
        CHECK(rc == c->rc && strcmp(x.s, c->rows) == 0, "%s: rc %d, saw %s", c->what, rc, x.s);
        if (c->has)
            CHECK(strcmp(e.field, "ncu") == 0 && e.line == c->line && e.column == c->column &&
                      strstr(e.message, c->has),
                  "%s: refused at %d:%d saying '%s': at %d:%d %s", c->what, c->line, c->column,
                  c->has, e.line, e.column, e.message);
    }
    /* a header's columns by name, and a row's fields under them */
    struct ncu_row head = {SRC_HEAD, 0, 1, 5, 1};
    CHECK(ncu_row_column(&head, "Address") == 2 && ncu_row_column(&head, "Source") == 1 &&
              ncu_row_column(&head, "Instructions Executed") == 4 &&
              ncu_row_column(&head, "Kernel Name") == -1,
          "columns by name: the first of a name");
    static const char row_text[] = "\"9\",\"s = \"\"x\"\";\",\"\",\"\",\"1,024\"\r\n";
    struct ncu_row row = {row_text, 0, 1, 5, 1};
    int cols[3] = {4, 0, 7};
    struct ncu_field f[3];
    double v = 0;
    ncu_row_pick(&row, cols, 3, f);
    CHECK(ncu_number(f[0].s, f[0].len, &v) && v == 1024 && ncu_field_is(&f[1], "9") &&
              f[2].len == 0 && f[2].at == 0,
          "picked: 1,024, 9, and an empty field for a column the row lacks");
    /* a row refused by its caller points at the row's start */
    struct sz_error e = {0};
    CHECK(ncu_row_fail(&row, &e, "no such column") == -1 && e.line == 1 && e.column == 1 &&
              strstr(e.message, "at line 1, column 1: no such column"),
          "ncu_row_fail: %d:%d %s", e.line, e.column, e.message);
}

/* Issue 39 item 5, the part the one reader brings: `ncu --csv --metrics`
 * (the long form) of one launch is that launch, explained as the wide form
 * of the same numbers is (test_csv_and_arbitration's 6 + 40). */
static void test_long_form_explained(void)
{
    static const char long_csv[] =
        "==PROF== Connected to process 1 (./app)\n" LONG_HEAD
        LONG_ROW("0", "kernel2(const float *, float *)", CONF_LD, "", "46")
        LONG_ROW("0", "kernel2(const float *, float *)", ARB_SUM, "", "40")
        LONG_ROW("0", "kernel2(const float *, float *)", INST_LD, "inst", "2");
    six_and_forty(long_csv, "the long form of one launch");
}

/* ---- issue 39 item 5: what ncu writes, as it writes it -------------------- */

/* The three launches whose raw page, Source page (sass) and cuda,sass view
 * ncu 2025.3.1 wrote on an H200 (tests/data/ptx/ncu_csv/, kept by the tool's
 * --keep; measured_h200.json's totals).  Each page, explained for each kind
 * the launch ran, gives that kind's executions, wavefronts and ideal: the
 * raw page by its counters, the Source page by its rows summed (an inlined
 * instruction once, though cuda,sass lists it under each line).  The Source
 * page counts a warp whose threads were all predicated off: hist_lane's
 * `@!P0 STS` runs 16 warps of which 4 have no thread on, so its st is 32
 * there against the counter's 20 (measured_h200.json's source_totals). */
static void test_real_pages(void)
{
    static const struct {
        const char *launch, *kind, *op;
        double executions, wavefronts, ideal, page_executions;
    } runs[] = {
        {"cp_async_pipeline", "ld", "ld", 64, 192, 160, 64},
        {"cp_async_pipeline", "ldgsts", "cp.async", 64, 160, 160, 64},
        {"hist_lane", "ld", "ld", 8, 20, 8, 8},
        {"hist_lane", "st", "st", 20, 20, 20, 32},
        {"hist_lane", "atom", "atom", 80, 128, 80, 80},
        {"inline_ptx", "ld", "ld", 16, 24, 24, 16},
        {"inline_ptx", "st", "st", 16, 24, 24, 16},
    };
    static const char *const pages[] = {"raw", "sass", "cuda_sass"};
    char *meas = client_slurp("tests/data/ptx/measured_h200.json");
    cJSON *md = meas ? cJSON_Parse(meas) : NULL;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        /* the table's numbers are the measured file's */
        const cJSON *tot = NULL;
        for (const cJSON *l = md ? cJSON_GetObjectItemCaseSensitive(md, "launches")->child : NULL;
             l; l = l->next)
            if (strcmp(str(l, "name"), runs[i].launch) == 0)
                tot = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(l, "totals"), runs[i].kind);
        CHECK(num(tot, "executions") == runs[i].executions &&
                  num(tot, "wavefronts") == runs[i].wavefronts && num(tot, "ideal") == runs[i].ideal,
              "%s %s: the table is measured_h200.json's totals", runs[i].launch, runs[i].kind);
        char acc[512];
        snprintf(acc, sizeof acc, "{\"op\":\"%s\",\"bytes\":4,\"offsets\":%s}", runs[i].op,
                 lanes(4));
        for (int p = 0; p < 3; p++) {
            char path[160];
            snprintf(path, sizeof path, "tests/data/ptx/ncu_csv/%s/%s.csv", runs[i].launch, pages[p]);
            char *text = client_slurp(path);
            int st;
            cJSON *j = explain(text ? text : "", acc, NULL, &st);
            int source = p > 0;
            CHECK(st == 200 && strcmp(str(j, "form"), source ? "source" : "wide") == 0 &&
                      num(j, "instructions") ==
                          (source ? runs[i].page_executions : runs[i].executions) &&
                      num(j, "source_wavefronts") == runs[i].wavefronts &&
                      (!source || num(j, "source_ideal") == runs[i].ideal) &&
                      strcmp(str(j, "verdict"), "no_count") != 0 &&
                      strstr(str(j, "kernel"), runs[i].launch) == str(j, "kernel"),
                  "%s, %s page, %s: %.0f instructions, %.0f wavefronts, ideal %.0f: %d %s %s",
                  runs[i].launch, pages[p], runs[i].op,
                  source ? runs[i].page_executions : runs[i].executions, runs[i].wavefronts,
                  runs[i].ideal, st, str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"),
                  str(j, "message"));
            cJSON_Delete(j);
            free(text);
        }
    }
    cJSON_Delete(md);
    free(meas);
}

/* Every kind the kinds' table names an ncu counter for is explained (the
 * atomics and cp.async have no bank-conflict counter: their Source-page
 * wavefronts less the ideal are the conflicts), from the long form of
 * `ncu --csv --metrics` with the kind's own names.  Lanes 4 bytes apart are
 * one wavefront for every kind that takes them; 100 instructions of 3
 * wavefronts each leave 200 above the ideal. */
static void test_every_kind(void)
{
    int kinds = 0;
    for (int k = 0; k < INSTR_NOPS; k++) {
        const struct instr_kind *kd = &instr_kinds[k];
        if (!kd->ncu.source && !kd->ncu.conflicts)
            continue;
        kinds++;
        char acc[600], csv[2048];
        if (kd->flags & INSTR_F_MATRIX)
            snprintf(acc, sizeof acc, "{\"op\":\"%s\",\"matrices\":4,\"offsets\":%s}", kd->name,
                     lanes(16));
        else
            snprintf(acc, sizeof acc, "{\"op\":\"%s\",\"bytes\":4,\"offsets\":%s}", kd->name,
                     lanes(4));
        int st;
        cJSON *model = jtest_post("/api/conflicts", acc, &st);
        double wf = num(model, "wavefronts"), ideal = num(model, "ideal_wavefronts");
        cJSON_Delete(model);
        size_t len = (size_t)snprintf(csv, sizeof csv, "%s", LONG_HEAD);
        if (kd->ncu.source)
            len += (size_t)snprintf(csv + len, sizeof csv - len,
                                    LONG_ROW("0", "k(int)", "%s", "", "%.0f"), kd->ncu.source,
                                    100 * (wf + 2));
        if (kd->ncu.conflicts)
            len += (size_t)snprintf(csv + len, sizeof csv - len,
                                    LONG_ROW("0", "k(int)", "%s", "", "%.0f"), kd->ncu.conflicts,
                                    100 * (wf + 2 - ideal));
        /* stmatrix has no executed counter (instr.c): the Source page's twin */
        snprintf(csv + len, sizeof csv - len, LONG_ROW("0", "k(int)", "%s", "inst", "100"),
                 kd->ncu.executed ? kd->ncu.executed : kd->ncu.sass_executed);
        cJSON *j = explain(csv, acc, NULL, &st);
        CHECK(st == 200 && num(j, "instructions") == 100 && num(j, "measured") == 200 &&
                  strcmp(str(j, "verdict"), "unexplained") == 0,
              "%s: 100 instructions, 200 conflicts measured against the model's %.0f: %d %s %s",
              kd->name, 100 * (wf - ideal), st,
              str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"), str(j, "message"));
        cJSON_Delete(j);
    }
    CHECK(kinds == INSTR_NOPS, "every kind has a counter in the table (%d of %d)", kinds, INSTR_NOPS);
}

/* `ncu --csv --metrics` of 11 launches whose names are longer than 40
 * characters: "list" names every launch in full, a text of several launches
 * needs "launch" (or a "kernel" that names one), and the launch picked is
 * the one explained. */
static void test_launches(void)
{
    char text[16384];
    size_t len = (size_t)snprintf(text, sizeof text, "%s", LONG_HEAD);
    char names[11][160];
    for (int k = 0; k < 11; k++) {
        snprintf(names[k], sizeof names[k], "void gemm_kernel<cutlass::half_t, %d, "
                 "cute::Layout<cute::tuple<cute::C<%d>, cute::C<64>>>>(const T *, T *, int)",
                 k, 8 * (k + 1));
        len += (size_t)snprintf(text + len, sizeof text - len,
                                LONG_ROW("%d", "%s", CONF_LD, "", "%d")
                                LONG_ROW("%d", "%s", INST_LD, "inst", "2"),
                                k, names[k], 6 * k, k, names[k]);
    }
    int st;
    cJSON *j = explain(text, "{}", ",\"list\":true", &st);
    const cJSON *listed = cJSON_GetObjectItemCaseSensitive(j, "listed");
    int ok = st == 200 && num(j, "launches") == 11 && cJSON_GetArraySize(listed) == 11 &&
             strcmp(str(j, "form"), "long") == 0;
    for (int k = 0; ok && k < 11; k++)
        ok = strcmp(str(cJSON_GetArrayItem(listed, k), "kernel"), names[k]) == 0 &&
             num(cJSON_GetArrayItem(listed, k), "index") == k;
    CHECK(ok, "list: 11 launches by their full names (%zu characters): %d %.300s",
          strlen(names[10]), st, str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"));
    cJSON_Delete(j);
    j = explain(text, access_of("ld", 4, 16), NULL, &st);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    CHECK(st == 400 && strcmp(str(e, "field"), "launch") == 0 &&
              strstr(str(e, "message"), "11 launches"),
          "11 launches and none picked: 400 naming launch: %d %s %s", st, str(e, "field"),
          str(e, "message"));
    cJSON_Delete(j);
    j = explain(text, access_of("ld", 4, 16), ",\"launch\":7", &st);
    CHECK(st == 200 && num(j, "launch") == 7 && num(j, "measured") == 42 &&
              num(j, "instructions") == 2 && strcmp(str(j, "kernel"), names[7]) == 0 &&
              cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "listed")) == 11,
          "launch 7: its 42 conflicts and its full name: %d %s", st, str(j, "kernel"));
    cJSON_Delete(j);
    j = explain(text, access_of("ld", 4, 16), ",\"launch\":11", &st);
    e = cJSON_GetObjectItemCaseSensitive(j, "error");
    CHECK(st == 400 && strcmp(str(e, "field"), "launch") == 0, "launch 11 of 0..10: 400 %s",
          str(e, "message"));
    cJSON_Delete(j);
    j = explain(text, access_of("ld", 4, 16), ",\"kernel\":\"cute::C<80>\"", &st);
    CHECK(st == 200 && num(j, "launch") == 9 && num(j, "measured") == 54,
          "a kernel that names one launch picks it: %d %.0f", st, num(j, "launch"));
    cJSON_Delete(j);
}

/* A whole raw page of 498 KB and more (the issue's was refused as "longer
 * than 262144 bytes"): ncu's own header and units row (cp_async_pipeline's)
 * and the three launches' rows again and again; what is kept is one launch,
 * so any length the body admits is read, and launch 61 is explained as its
 * own file is. */
static void test_big_csv(void)
{
    static const char *const names[3] = {"cp_async_pipeline", "hist_lane", "inline_ptx"};
    char *row[3] = {0}, *head = NULL;
    for (int k = 0; k < 3; k++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/ptx/ncu_csv/%s/raw.csv", names[k]);
        char *t = client_slurp(path);
        char *l2 = t ? strchr(strchr(t, '\n') + 1, '\n') + 1 : NULL;   /* header, units, row */
        if (k == 0 && t)
            head = strndup(t, (size_t)(l2 - t));
        row[k] = l2 ? strdup(strchr(l2, ',')) : NULL;      /* the row less its ID */
        free(t);
    }
    struct buf b = {0};
    buf_puts(&b, head);
    int n = 0;
    while (b.len < 498 * 1000)
        buf_printf(&b, "\"%d\"%s", n, row[n % 3]), n++;
    CHECK(b.len > 498000 && n > 61, "a raw page of %zu bytes, %d launches", b.len, n);
    char acc[512];
    snprintf(acc, sizeof acc, "{\"op\":\"atom\",\"offsets\":%s}", lanes(4));
    int st;
    cJSON *j = explain(b.p, acc, ",\"launch\":61", &st);     /* 61 % 3: hist_lane */
    CHECK(st == 200 && num(j, "launches") == n && num(j, "launch") == 61 &&
              num(j, "instructions") == 80 && num(j, "source_wavefronts") == 128 &&
              strcmp(str(j, "kernel"), "hist_lane(unsigned int *, int)") == 0,
          "launch 61 of %zu bytes: hist_lane's 80 atomics, 128 wavefronts: %d %s", b.len, st,
          str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"));
    cJSON_Delete(j);
    buf_free(&b);
    free(head);
    for (int k = 0; k < 3; k++)
        free(row[k]);
}

/* The suggested command runs as printed: a shell given it (with a fake ncu
 * first on PATH that prints its arguments one a line) hands ncu a -k of
 * "regex:" and a regex that a real regex engine (POSIX ERE, regcomp) finds
 * to match the launch's whole demangled name and none of its neighbours. */
static void test_command_runs(void)
{
    static const char *const kernels[] = {
        "cp_async_pipeline(float *, const float4 *, const float *, int)",
        "void cute::kernel<cute::Layout<cute::tuple<cute::C<8>>>, (int)3>(float *, int &, "
        "float (*)[4], int const *) [with T = $x|y^z {1} + 2? \\\\ it's]",
        "kernel2",
    };
    char dir[] = "/tmp/swz_ncu_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "a folder for the fake ncu");
    char fake[64];
    snprintf(fake, sizeof fake, "%s/ncu", dir);
    FILE *f = fopen(fake, "w");
    if (f) {
        fputs("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n", f);
        fclose(f);
    }
    chmod(fake, 0700);
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        /* the CSV doubles a quote in a field */
        char field[512], csv[2048];
        size_t k = 0;
        for (const char *c = kernels[i]; *c && k + 2 < sizeof field; c++) {
            if (*c == '"')
                field[k++] = '"';
            field[k++] = *c;
        }
        field[k] = '\0';
        snprintf(csv, sizeof csv, "\"ID\",\"Kernel Name\",\"" CONF_LD "\"\n\"0\",\"%s\",\"6\"\n",
                 field);
        int st;
        cJSON *j = explain(csv, access_of("ld", 4, 16), ",\"instructions\":2", &st);
        const char *cmd = str(j, "command");
        char sh[4096], out[4096] = "";
        snprintf(sh, sizeof sh, "PATH='%s':\"$PATH\" %s", dir, cmd);
        pid_t pid = -1;
        int fd[2];
        size_t got = 0;
        if (pipe(fd) == 0 && (pid = fork()) == 0) {
            dup2(fd[1], 1);
            close(fd[0]);
            execl("/bin/sh", "sh", "-c", sh, (char *)NULL);
            _exit(127);
        }
        close(fd[1]);
        for (ssize_t r; (r = read(fd[0], out + got, sizeof out - 1 - got)) > 0;)
            got += (size_t)r;
        out[got] = '\0';
        close(fd[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        /* the argument after -k */
        char *karg = strstr(out, "\n-k\n");
        char re[2048] = "";
        if (karg) {
            karg += 4;
            size_t n = strcspn(karg, "\n");
            snprintf(re, sizeof re, "%.*s", (int)n, karg);
        }
        regex_t rx;
        int comp = strncmp(re, "regex:", 6) == 0 ? regcomp(&rx, re + 6, REG_EXTENDED | REG_NOSUB) : -1;
        char other[600];
        int whole = comp == 0 && regexec(&rx, kernels[i], 0, NULL, 0) == 0, none = comp == 0;
        for (int v = 0; none && v < 3; v++) {
            snprintf(other, sizeof other, v == 0 ? "%sx" : v == 1 ? "x%s" : "%s", kernels[i]);
            if (v == 2)
                other[strlen(other) / 2] ^= 1;      /* one character changed */
            none = regexec(&rx, other, 0, NULL, 0) != 0;
        }
        if (comp == 0)
            regfree(&rx);
        CHECK(st == 200 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                  strstr(out, "--kernel-name-base\ndemangled\n") && whole && none,
              "the command for '%s' runs (%d) and its regex matches the name and nothing "
              "else: %s => %s", kernels[i], status, cmd, re);
        cJSON_Delete(j);
    }
    unlink(fake);
    rmdir(dir);
}


/* ---- issue 39 item 5: the details page of sections ------------------------- */

/* One launch (tests/data/ncu_details: a 32x32 float tile stored by rows and
 * read by columns on an H200, ncu 2025.3.1) written three ways: the raw
 * page, the details page of sections with --print-details all (raw names in
 * "Metric Name", "1,024", metric rows 17 fields under a header of 21) and
 * without (no table, only the rules' text).  The column read is lanes 128
 * bytes apart: 32 wavefronts, ideal 1; the row store, 4 apart: 1, ideal 1. */
#define DETAILS "tests/data/ncu_details/"

/* Whether a and b are the same answer but for what the text's form decides
 * (form, the launches' lines, the counters kept, the re-run command). */
static int same_answer(const cJSON *a, const cJSON *b, char *why, size_t cap)
{
    static const char *const skip[] = {"form", "listed", "metrics", "rerun", NULL};
    int n = 0;
    for (const cJSON *x = a ? a->child : NULL; x; x = x->next) {
        int skipped = 0;
        for (int k = 0; skip[k]; k++)
            skipped |= strcmp(x->string, skip[k]) == 0;
        if (skipped)
            continue;
        n++;
        if (!cJSON_Compare(x, cJSON_GetObjectItemCaseSensitive(b, x->string), 1)) {
            char *va = cJSON_PrintUnformatted(x);
            char *vb = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(b, x->string));
            snprintf(why, cap, "%s: %.200s against %.200s", x->string, va, vb ? vb : "(none)");
            free(va);
            free(vb);
            return 0;
        }
    }
    /* the counters both keep have one value */
    const cJSON *ma = cJSON_GetObjectItemCaseSensitive(a, "metrics");
    const cJSON *mb = cJSON_GetObjectItemCaseSensitive(b, "metrics");
    for (const cJSON *x = ma ? ma->child : NULL; x; x = x->next) {
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(mb, x->string);
        if (y && y->valuedouble != x->valuedouble) {
            snprintf(why, cap, "metric %s: %g against %g", x->string, x->valuedouble, y->valuedouble);
            return 0;
        }
    }
    snprintf(why, cap, "%d members", n);
    return n > 10;
}

static void test_details_sections(void)
{
    char *raw = client_slurp(DETAILS "raw_sections.csv");
    char *all = client_slurp(DETAILS "details_all.csv");
    char *def = client_slurp(DETAILS "details_sections.csv");
    CHECK(raw && all && def, "the three captures are there");
    if (!raw || !all || !def)
        return;
    char why[512], ld[1024], st_acc[1024];
    snprintf(ld, sizeof ld, "%s", access_of("ld", 4, 128));
    snprintf(st_acc, sizeof st_acc, "%s", access_of("st", 4, 4));
    int s1, s2, s3;
    /* --print-details all: the raw page's answer, member for member */
    cJSON *r = explain(raw, ld, NULL, &s1), *a = explain(all, ld, NULL, &s2);
    CHECK(s1 == 200 && s2 == 200 && strcmp(str(a, "form"), "details") == 0 &&
              num(r, "measured") == 992 && num(r, "instructions") == 32 &&
              num(r, "predicted") == 992 && strcmp(str(r, "verdict"), "reproduced") == 0 &&
              same_answer(r, a, why, sizeof why) && same_answer(a, r, why, sizeof why),
          "details --print-details all answers as the raw page (992 of 32 x 31): %d %d %s %s", s1,
          s2, why, str(cJSON_GetObjectItemCaseSensitive(a, "error"), "message"));
    /* what the rule text says equals the table's counters of the same launch */
    const cJSON *am = cJSON_GetObjectItemCaseSensitive(a, "metrics");
    cJSON *d = explain(def, ld, NULL, &s3);
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(d, "rule");
    CHECK(s3 == 200 && strcmp(str(d, "form"), "details") == 0 &&
              strcmp(str(rule, "name"), "SharedMemoryConflicts") == 0 && num(rule, "line") == 8 &&
              num(rule, "bank_conflicts") == num(am, CONF_LD) &&
              num(rule, "wavefronts") == num(am, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") &&
              num(rule, "requests") == num(am, "smsp__sass_inst_executed_op_shared_ld.sum") &&
              num(d, "measured") == num(r, "measured") && num(d, "predicted") == num(r, "predicted") &&
              num(d, "instructions") == num(r, "instructions") &&
              strcmp(str(d, "verdict"), str(r, "verdict")) == 0 &&
              strcmp(str(d, "instructions_from"), "rule") == 0 &&
              strstr(str(d, "message"), "rule text") && strstr(str(d, "message"), "SharedMemoryConflicts") &&
              strcmp(str(d, "command"), str(r, "command")) == 0 &&
              strstr(str(d, "rerun"), "ncu --section MemoryWorkloadAnalysis_Tables --print-details all "
                     "--csv --page details --kernel-name-base demangled -k 'regex:^column_read\\(float "
                     "\\*, const float \\*\\)$' ./your_app") == str(d, "rerun"),
          "the default details page: the rule's 32 requests, 992 conflicts, 1024 wavefronts (the "
          "table's counters), the raw page's verdict, said to be the rule's: %d %s | %s", s3,
          str(d, "message"), str(cJSON_GetObjectItemCaseSensitive(d, "error"), "message"));
    cJSON_Delete(r);
    cJSON_Delete(a);
    cJSON_Delete(d);
    /* the row store: counted by the table, and by no rule (ncu wrote none) */
    r = explain(raw, st_acc, NULL, &s1);
    a = explain(all, st_acc, NULL, &s2);
    d = explain(def, st_acc, NULL, &s3);
    CHECK(s1 == 200 && s2 == 200 && strcmp(str(r, "verdict"), "reproduced") == 0 &&
              num(r, "predicted") == 0 && same_answer(r, a, why, sizeof why),
          "the store, --print-details all: as the raw page: %s", why);
    CHECK(s3 == 200 && strcmp(str(d, "verdict"), "no_count") == 0 &&
              cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d, "conflicts_metric")) &&
              strstr(str(d, "message"), "--print-details all") && strstr(str(d, "rerun"), "--print-details all"),
          "the store, default details page: no count, saying how to print one: %d %s", s3,
          str(d, "message"));
    cJSON_Delete(r);
    cJSON_Delete(a);
    cJSON_Delete(d);
    free(raw);
    free(all);
    free(def);
}

/* Two launches in each details form (the capture's, and a copy as launch 1
 * of another kernel whose conflicts read 496): list names both, none picked
 * is a 400 naming launch, launch 1 is explained with its own numbers. */
static char *second_launch(const char *text, const char *from, const char *to)
{
    size_t n = strlen(text);
    char *out = malloc(3 * n + 1);
    memcpy(out, text, n);
    size_t k = n;
    const char *head = strstr(text, "\"ID\",");
    for (const char *l = strchr(head, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
        const char *e = strchr(l, '\n');
        if (strncmp(l, "\"0\",", 4) == 0) {
            /* "1", another kernel, another count */
            char row[8192];
            size_t len = (size_t)(e - l);
            memcpy(row, l, len);
            row[len] = '\0';
            char *p;
            row[1] = '1';
            if ((p = strstr(row, "column_read(")) != NULL)
                memcpy(p, "column_rea2(", 12);
            if ((p = strstr(row, from)) != NULL) {
                memmove(p + strlen(to), p + strlen(from), strlen(p + strlen(from)) + 1);
                memcpy(p, to, strlen(to));
            }
            k += (size_t)sprintf(out + k, "%s\n", row);
        }
        if (!e)
            break;
    }
    out[k] = '\0';
    return out;
}

static void test_details_launches(void)
{
    static const struct { const char *file, *from, *to; } forms[] = {
        {DETAILS "details_all.csv", "_op_ld.sum\",\"\",\"992\"", "_op_ld.sum\",\"\",\"496\""},
        {DETAILS "details_sections.csv", "results in 992 bank", "results in 496 bank"},
    };
    for (int f = 0; f < 2; f++) {
        char *one = client_slurp(forms[f].file);
        char *two = one ? second_launch(one, forms[f].from, forms[f].to) : NULL;
        int st;
        cJSON *j = explain(two ? two : "", "{}", ",\"list\":true", &st);
        const cJSON *listed = cJSON_GetObjectItemCaseSensitive(j, "listed");
        CHECK(st == 200 && num(j, "launches") == 2 && strcmp(str(j, "form"), "details") == 0 &&
                  strcmp(str(cJSON_GetArrayItem(listed, 1), "kernel"),
                         "column_rea2(float *, const float *)") == 0,
              "%s twice: list names 2 launches: %d %s", forms[f].file, st,
              str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"));
        cJSON_Delete(j);
        j = explain(two ? two : "", access_of("ld", 4, 128), NULL, &st);
        CHECK(st == 400 && strcmp(str(cJSON_GetObjectItemCaseSensitive(j, "error"), "field"),
                                  "launch") == 0,
              "%s twice, none picked: 400 naming launch: %d", forms[f].file, st);
        cJSON_Delete(j);
        j = explain(two ? two : "", access_of("ld", 4, 128), ",\"launch\":1", &st);
        CHECK(st == 200 && num(j, "launch") == 1 && num(j, "measured") == 496 &&
                  num(j, "predicted") == 992 && strcmp(str(j, "verdict"), "model_above") == 0 &&
                  strcmp(str(j, "kernel"), "column_rea2(float *, const float *)") == 0,
              "%s, launch 1: its own 496: %d %.0f %s", forms[f].file, st, num(j, "measured"),
              str(j, "message"));
        cJSON_Delete(j);
        j = explain(two ? two : "", access_of("ld", 4, 128), ",\"launch\":0", &st);
        CHECK(st == 200 && num(j, "measured") == 992 && strcmp(str(j, "verdict"), "reproduced") == 0,
              "%s, launch 0: its 992: %d", forms[f].file, st);
        cJSON_Delete(j);
        free(two);
        free(one);
    }
}

/* Thousands separators in every form ncu writes (default locale: "1,000"):
 * 1,000 column reads (31,000 conflicts), as the raw page, the long form, the
 * details page of sections with and without its table, the Source page and
 * the Details lines; each gives the same count. */
#define RULES_HEAD                                                                                \
    "\"ID\",\"Kernel Name\",\"Section Name\",\"Body Item Label\",\"Metric Name\",\"Metric Unit\","  \
    "\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\"\n"
#define RULE_ROW                                                                                  \
    "\"0\",\"k(int)\",\"MemoryWorkloadAnalysis_Tables\",\"\",\"\",\"\",\"\","                    \
    "\"SharedMemoryConflicts\",\"OPT\",\"The memory access pattern for shared loads might not "    \
    "be optimal and causes on average a 32.0 - way bank conflict across all 1,000 shared load "  \
    "requests.This results in 31,000 bank conflicts,  which represent 96.88% of the overall "    \
    "32,000 wavefronts for shared loads.\"\n"
static void test_thousands_everywhere(void)
{
    static const struct { const char *form, *text; } texts[] = {
        {"wide", "\"ID\",\"Kernel Name\",\"" CONF_LD "\",\"" INST_LD "\"\n"
                 "\"0\",\"k(int)\",\"31,000\",\"1,000\"\n"},
        {"long", LONG_HEAD LONG_ROW("0", "k(int)", CONF_LD, "", "31,000")
                 LONG_ROW("0", "k(int)", INST_LD, "inst", "1,000")},
        {"details", RULES_HEAD
                    "\"0\",\"k(int)\",\"Memory Workload Analysis Tables\",\"Shared Memory\",\""
                    CONF_LD "\",\"\",\"31,000\",\n"
                    "\"0\",\"k(int)\",\"Memory Workload Analysis Tables\",\"Shared Memory\",\""
                    INST_LD "\",\"inst\",\"1,000\",\n" RULE_ROW},
        {"details", RULES_HEAD RULE_ROW},
        {"source", "\"Kernel Name\",\"k(int)\",\n\"Address\",\"Source\",\"Instructions Executed\","
                   "\"Predicated-On Thread Instructions Executed\",\"L1 Wavefronts Shared\","
                   "\"L1 Wavefronts Shared Ideal\"\n"
                   "\"0x7f0010\",\"      LDS R9, [R6]\",\"1,000\",\"32,000\",\"32,000\",\"1,000\"\n"},
        {"lines", "  k(int) (1, 1, 1)x(1024, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n"
                  "    " CONF_LD "                 31,000\n"
                  "    " INST_LD "      inst        1,000\n"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        int st;
        cJSON *j = explain(texts[i].text, access_of("ld", 4, 128), NULL, &st);
        CHECK(st == 200 && strcmp(str(j, "form"), texts[i].form) == 0 &&
                  num(j, "measured") == 31000 && num(j, "instructions") == 1000 &&
                  num(j, "predicted") == 31000 && strcmp(str(j, "verdict"), "reproduced") == 0,
              "%s (%zu): 1,000 instructions and 31,000 conflicts read: %d %s %s", texts[i].form,
              i, st, str(j, "message"), str(cJSON_GetObjectItemCaseSensitive(j, "error"), "message"));
        cJSON_Delete(j);
    }
}

int main(void)
{
    test_worked_examples();
    test_measured_h100();
    test_arbitration_h100();
    test_csv_and_arbitration();
    test_errors();
    test_long_kernel_name();
    test_csv_reader();
    test_table_reader();
    test_long_form_explained();
    test_real_pages();
    test_every_kind();
    test_launches();
    test_big_csv();
    test_command_runs();
    test_details_sections();
    test_details_launches();
    test_thousands_everywhere();
    return check_summary("test_ncu");
}
