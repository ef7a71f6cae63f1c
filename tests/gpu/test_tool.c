/* test_tool.c - the measurement tool's host side without a GPU: its input
 * (cuda/input.c: JSON through the server's readers, the line format, both
 * into the one instruction schema), ncu's CSV (cuda/ncu.c) and the whole
 * counter pass against fake ncu programs (shell scripts) that answer, refuse
 * permission, fail, hang and print garbage.  Builds with any C compiler:
 * see the Makefile's build/test/test_tool rule (the C files of cuda/ and the server's
 * instr, api_read, error, swizzle and proc). */
#define _GNU_SOURCE 1
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cuda/input.h"
#include "../../cuda/ncu.h"
#include "../../cuda/ptxhost.h"
#include "base/proc.h"
#include "../check.h"
#include "lanes.h"

static struct input_pattern pats[300];

static const char lin32[] =
    "[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,"
    "112,116,120,124]";
static const char rows16[] =
    "[0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,"
    "368,384,400,416,432,448,464,480,496]";

static struct sz_error err;
static char where[INPUT_WHERE_MAX];

/* What the tool does with stdin in --json mode. */
static int parse(const char *text)
{
    memset(&err, 0, sizeof err);
    return input_parse(text, strlen(text), 1, pats, 300, &err, where);
}

static void test_json_good(void)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "{\"op\":\"ld\",\"offsets\":%s}", lin32);
    CHECK(parse(buf) == 1 && pats[0].in.op == INSTR_LD && pats[0].in.bytes == 4 &&
          pats[0].in.matrices == 1 && pats[0].in.offsets[0] == 0 &&
          pats[0].in.offsets[31] == 124 && strcmp(pats[0].name, "pattern0") == 0,
          "defaults: %s", err.message);
    snprintf(buf, sizeof buf, " [ {\"name\":\"a\\u00e9\\ud83d\\ude00\",\"op\":\"ldmatrix\","
             "\"trans\":true,\"offsets\":%s,\"bank_bytes\":4,\"banks\":32} ,\n"
             "{\"op\":\"st\",\"bytes\":16,\"matrices\":1,\"offsets\":[%s0,16%s]} ] ",
             rows16, "null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
             "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,",
             "");
    int n = parse(buf);
    CHECK(n == 2, "array: %d %s", n, err.message);
    CHECK(strcmp(pats[0].name, "a\xc3\xa9\xf0\x9f\x98\x80") == 0, "unicode name");
    CHECK(pats[0].in.op == INSTR_LDMATRIX && pats[0].in.bytes == 16 &&
          pats[0].in.matrices == 4 && pats[0].in.trans == 1, "matrix defaults");
    CHECK(strcmp(pats[1].name, "pattern1") == 0 && pats[1].in.op == INSTR_ST &&
          pats[1].in.bytes == 16 && pats[1].in.offsets[29] == INSTR_INACTIVE &&
          pats[1].in.offsets[30] == 0 && pats[1].in.offsets[31] == 16, "inactive lanes");
    uint32_t off[INSTR_LANES], active;
    input_lanes(&pats[1].in, off, &active);
    CHECK(active == 0xc0000000u && off[0] == 0 && off[31] == 16, "ld/st lanes: %08x", active);
    /* ldmatrix.x1: lanes 8.. may be null and take lane t%8's address. */
    snprintf(buf, sizeof buf, "{\"op\":\"ldmatrix\",\"matrices\":1,\"offsets\":[0,128,256,384,"
             "512,640,768,896,null,null,null,null,null,null,null,null,null,null,null,null,null,"
             "null,null,null,null,null,null,null,null,null,null,null]}");
    CHECK(parse(buf) == 1, "x1: %s", err.message);
    input_lanes(&pats[0].in, off, &active);
    CHECK(active == 0xffffffffu && off[9] == 128 && off[31] == 896, "x1 fill: %08x", active);
    snprintf(buf, sizeof buf, "{\"op\":\"ld\",\"bytes\":1.6e1,\"offsets\":[0,16,32,48,64,80,96,"
             "112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,"
             "432,448,464,480,4.96e2]}");
    CHECK(parse(buf) == 1 && pats[0].in.bytes == 16 && pats[0].in.offsets[31] == 496,
          "integral numbers in other spellings: %s", err.message);
}

/* Refused, on `field`, with `piece` in the message: JSON as --json reads its
 * stdin, and lines as the table and CSV modes do (offsets: lanes.h). */
enum { JSON = 1, LINES = 0 };

static void test_bad(void)
{
    static const struct {
        int json;
        const char *text, *field, *piece;
    } bad[] = {
        {JSON, "", "body", "neither '{' nor '['"},
        {JSON, "[]", "body", "holds no pattern"},
        {JSON, "[1]", "body", "expected a pattern object"},
        {JSON, "{}", "op", "required"},
        {JSON, "{\"op\":\"ld\"}", "offsets", "required"},
        {JSON, "{\"offsets\":LIN}", "op", "required"},
        {JSON, "{\"op\":\"ld\",\"offsets\":LIN,}", "body", "invalid JSON"},
        {JSON, "{\"op\":\"ld\",\"offsets\":LIN}x", "body", "trailing data"},
        {JSON, "{\"op\":\"ld\",\"offsets\":LIN}{}", "body", "trailing data"},
        {JSON, "{\"op\":\"ld\",\"op\":\"st\",\"offsets\":LIN}", "op", "more than once"},
        {JSON, "{\"op\":\"ld\",\"offsets\":LIN,\"opp\":1}", "opp", "unknown field"},
        {JSON, "{\"op\":\"LD\",\"offsets\":LIN}", "op", "one of"},
        {JSON, "{\"op\":3,\"offsets\":LIN}", "op", "one of"},
        {JSON, "{\"op\":\"ld\",\"bytes\":3,\"offsets\":LIN}", "bytes", "1, 2, 4, 8 or 16"},
        {JSON, "{\"op\":\"ld\",\"bytes\":\"4\",\"offsets\":LIN}", "bytes", "must be an integer"},
        {JSON, "{\"op\":\"ld\",\"bytes\":4.5,\"offsets\":LIN}", "bytes", "must be an integer"},
        {JSON, "{\"op\":\"ld\",\"trans\":true,\"offsets\":LIN}", "trans", ".trans"},
        {JSON, "{\"op\":\"ld\",\"trans\":1,\"offsets\":LIN}", "trans", "true or false"},
        {JSON, "{\"op\":\"ldmatrix\",\"bytes\":8,\"offsets\":ROWS}", "bytes", "16 bytes"},
        {JSON, "{\"op\":\"ldmatrix\",\"matrices\":3,\"offsets\":ROWS}", "matrices", "1, 2 or 4"},
        {JSON, "{\"op\":\"ld\",\"banks\":16,\"offsets\":LIN}", "banks", "32 banks"},
        {JSON, "{\"op\":\"ld\",\"bank_bytes\":8,\"offsets\":LIN}", "bank_bytes", "of 4 bytes"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[0,4]}", "offsets", "array of 32"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[0L31,128]}", "offsets", "array of 32"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[01L31]}", "body", "invalid JSON"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[-4L31]}", "offsets[0]", "must be in 0..2147483647"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[2L31]}", "offsets[0]", "4-byte aligned"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[1000000L31]}", "offsets[0]", "does not fit in 233472 bytes"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[nullNUL31]}", "offsets", "no active lane"},
        {JSON, "{\"name\":\"\",\"op\":\"ld\",\"offsets\":LIN}", "name", "non-empty"},
        {JSON, "{\"name\":7,\"op\":\"ld\",\"offsets\":LIN}", "name", "non-empty string"},
        {JSON, "{\"name\":\"a\\ud800\",\"op\":\"ld\",\"offsets\":LIN}", "body", "invalid JSON"},
        {JSON, "{\"name\":\"a\\x\",\"op\":\"ld\",\"offsets\":LIN}", "body", "invalid JSON"},
        {JSON, "{\"name\":\"a\tb\",\"op\":\"ld\",\"offsets\":LIN}", "name", "control character"},
        {JSON, "{\"name\":\"a\\nb\",\"op\":\"ld\",\"offsets\":LIN}", "name", "control character"},
        {JSON, "{\"name\":\"\xc3\x28\",\"op\":\"ld\",\"offsets\":LIN}", "body", "not valid UTF-8"},
        {JSON, "{\"name\":\"\xed\xa0\x80\",\"op\":\"ld\",\"offsets\":LIN}", "body", "not valid UTF-8"},
        {JSON, "[{\"op\":\"ld\",\"offsets\":LIN},]", "body", "invalid JSON"},
        {JSON, "[{\"op\":\"ld\",\"offsets\":LIN}", "body", "invalid JSON"},
        {JSON, "{\"op\":\"ld\",\"offsets\":LIN", "body", "invalid JSON"},
        {JSON, "{\"op\":\"ld\" \"offsets\":LIN}", "body", "invalid JSON"},
        {JSON, "{\"op\":\"ld\",\"offsets\":[nul,0]}", "body", "invalid JSON"},
        {JSON, "{'op':\"ld\"}", "body", "invalid JSON"},
        {JSON, "x ld 4 1 0 LIN", "body", "neither '{' nor '['"},
        {LINES, "x ld 4 1 0 0 4\n", "offsets", "expected 32"},
        {LINES, "x l 4 1 0 LIN", "op", "one of"},
        {LINES, "x ld four 1 0 LIN", "bytes", "1, 2, 4, 8 or 16"},
        {LINES, "x ld 3 1 0 LIN", "bytes", "1, 2, 4, 8 or 16"},
        {LINES, "x ld 4 2 0 LIN", "matrices", "only ldmatrix/stmatrix"},
        {LINES, "x ld 4 1 yes LIN", "trans", "0, 1, true or false"},
        {LINES, "x ld 4 1 1 LIN", "trans", ".trans"},
        {LINES, "x,y ld 4 1 0 LIN", "name", "only letters"},
        {LINES, "x ld 4 1 0 LIN 0", "offsets", "more than 32"},
        {LINES, "x ld 4 1 0 -1 L31", "offsets[0]", "'-'"},
        {LINES, "x ld 4 1 0 2 L31", "offsets[0]", "aligned"},
        {LINES, "x ld 4 1 0 1000000 L31", "offsets[0]", "does not fit"},
        {LINES, "x ldmatrix 16 4 0 232576 R31", "offsets[0]", "less 896"},
        {LINES, "x ld 4 1 0 -NUL31", "offsets", "no active lane"},
        /* atomics: the op token is the PTX form (instr_form_parse) */
        {LINES, "x atom.min.f32 4 1 0 LIN", "type", "u32, s32, u64, s64"},
        {LINES, "x red.cas.b32 4 1 0 LIN", "func", "use atom"},
        {LINES, "x atom.add.u64 4 1 0 ROWS", "bytes", "omit bytes"},
        {LINES, "x atom.add 4 1 0 LIN", "op", "op.func.type"},
        {LINES, "x ld.add.u32 4 1 0 LIN", "op", "only atom and red"},
        {LINES, "x atom 4 1 0 231680 L31", "offsets[0]", "less 1792"},
        {JSON, "{\"op\":\"atom\",\"func\":\"exch\",\"type\":\"f32\",\"offsets\":LIN}",
         "type", "b32, b64"},
        /* rows too long for one line */
        {JSON, "{\"op\":\"ld\",\"matrices\":2,\"offsets\":LIN}", "matrices",
         "only ldmatrix/stmatrix take"},
        {JSON, "{\"op\":\"ldmatrix\",\"matrices\":2,\"offsets\":[0,16,32,48,64,80,96,112,null,null,null,"
         "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
         "null,null,null,null]}", "offsets[8]", "warp-wide"},
        {JSON, "{\"name\":\"0123456789012345678901234567890123456789012345678901234567890123456789"
         "01234567890123456789012345678\",\"op\":\"ld\",\"offsets\":LIN}", "name", "longer than"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[4096];
        lanes_expand(bad[i].text, bad[i].json, text, sizeof text);
        memset(&err, 0, sizeof err);
        int rc = input_parse(text, strlen(text), bad[i].json, pats, 300, &err, where);
        CHECK(rc == -1 && strcmp(err.field, bad[i].field) == 0 &&
              strstr(err.message, bad[i].piece), "bad %zu (%s): rc %d, %s: '%s', want %s: '%s'",
              i, text, rc, err.field, err.message, bad[i].field, bad[i].piece);
    }
    /* The pattern an error is about is named. */
    char buf[1024];
    snprintf(buf, sizeof buf, "[{\"op\":\"ld\",\"offsets\":%s},{\"name\":\"second\",\"op\":\"ld\","
             "\"bytes\":8,\"offsets\":%s}]", lin32, lin32);
    CHECK(parse(buf) == -1 && strcmp(err.field, "offsets[1]") == 0 &&
          strcmp(where, "pattern 1 (\"second\")") == 0, "where: %s %s", where, err.field);
    const char *two = "# two lines\nx ld 4 1 0 0 4\n";
    CHECK(input_parse(two, strlen(two), 0, pats, 300, &err, where) == -1 &&
          strcmp(where, "line 2") == 0, "where: %s", where);
}

static void test_line_format(void)
{
    struct input_pattern p;
    uint32_t off[INSTR_LANES], active;
    CHECK(input_parse_line("x ldmatrix 16 1 1 0 16 32 48 64 80 96 112 - - - - - - - - - - - - "
                           "- - - - - - - - - - - -\n", &p, &err) == 1 && p.in.trans == 1 &&
          p.in.matrices == 1 && p.in.offsets[8] == INSTR_INACTIVE, "line x1: %s", err.message);
    input_lanes(&p.in, off, &active);
    CHECK(active == 0xffffffffu && off[8] == 0 && off[15] == 112, "line x1 fill");
    CHECK(input_parse_line("x red.max.s32 4 1 0 0 4 - 12 16 20 24 28 32 36 40 44 48 52 56 60 64 "
                           "68 72 76 80 84 88 92 96 100 104 108 112 116 120 124\n", &p, &err) == 1 &&
          p.in.op == INSTR_RED && p.in.func == INSTR_MAX && p.in.type == INSTR_S32 &&
          p.in.offsets[2] == INSTR_INACTIVE, "line red.max.s32: %s", err.message);
    char line[512];
    CHECK(input_format_line(&p, NULL, line, sizeof line) > 0 &&
          strncmp(line, "x red.max.s32 4 1 0 0 4 - 12 ", 29) == 0, "format: %s", line);
    /* an atomic's value and guard after its offsets (issue 23), read back the same */
    static const char *const forms[] = {"1 none", "-1 each", "2 none", "uniform none",
                                        "4294967295 none", "lane none", "uniform"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char in[512], back_line[512];
        struct input_pattern back;
        snprintf(in, sizeof in, "h red.add.u32 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 "
                 "56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124 %s\n", forms[i]);
        CHECK(input_parse_line(in, &p, &err) == 1 &&
              input_format_line(&p, NULL, back_line, sizeof back_line) > 0 &&
              input_parse_line(back_line, &back, &err) == 1 &&
              memcmp(&back.in, &p.in, sizeof back.in) == 0 &&
              p.in.value_kind == (forms[i][0] == 'u' ? INSTR_VALUE_UNIFORM
                                  : forms[i][0] == 'l' ? INSTR_VALUE_LANE : INSTR_VALUE_CONST) &&
              p.in.guard == (strstr(forms[i], "none") ? INSTR_GUARD_NONE : INSTR_GUARD_EACH),
              "line value/guard '%s': %s -> %s", forms[i], err.message, back_line);
    }
    CHECK(p.in.value_kind == INSTR_VALUE_UNIFORM && p.in.guard == INSTR_GUARD_EACH &&
          input_format_line(&p, NULL, line, sizeof line) > 0 && strstr(line, " 124 uniform each\n"),
          "format uniform: %s", line);
    /* what the tool's kernels do not hold: refused on the field, as the API does */
    static const struct { const char *tail, *field; } bad[] = {
        {"7 none", "value"}, {"1 never", "guard"}, {"x", "value"}, {"1 none more", "offsets"},
        {"4294967296", "value"}, {"-2147483649", "value"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char in[512];
        snprintf(in, sizeof in, "h red.add.u32 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 "
                 "56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124 %s\n", bad[i].tail);
        CHECK(input_parse_line(in, &p, &err) == -1 && strcmp(err.field, bad[i].field) == 0,
              "line tail '%s': want %s, got %s", bad[i].tail, bad[i].field, err.field);
    }
    CHECK(input_parse_line("h red.add.u32 4 1 0 - 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 "
                           "68 72 76 80 84 88 92 96 100 104 108 112 116 120 124 1 none\n", &p,
                           &err) == -1 && strcmp(err.field, "guard") == 0,
          "guard none with lane 0 idle: %s", err.field);
    CHECK(input_parse_line("# comment\n", &p, &err) == 0, "comment");
    CHECK(input_parse_line("   \r\n", &p, &err) == 0, "blank");
}

/* Both calibration suites read as JSON, and each pattern written as a line
 * (what the counter pass feeds the profiled run) reads back the same. */
static void test_suites(void)
{
    static const char *const files[] = {"tests/calib/patterns.json",
                                        "tests/calib/sweep_shared.json",
                                        "tests/calib/atomics/suite.json"};
    static struct input_pattern suite[4096];
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        FILE *fp = fopen(files[f], "rb");
        CHECK(fp != NULL, "open %s (run from the repository root)", files[f]);
        if (!fp)
            continue;
        static char text[4 << 20];
        size_t len = fread(text, 1, sizeof text - 1, fp);
        fclose(fp);
        int n = input_parse(text, len, 1, suite, 4096, &err, where);
        CHECK(n > 100, "%s: %d patterns: %s: %s %s", files[f], n, where, err.field, err.message);
        int same = 0;
        for (int i = 0; i < n; i++) {
            char line[1024];
            struct input_pattern back;
            if (input_format_line(&suite[i], NULL, line, sizeof line) > 0 &&
                input_parse_line(line, &back, &err) == 1 &&
                strcmp(back.name, suite[i].name) == 0 &&
                memcmp(&back.in, &suite[i].in, sizeof back.in) == 0)
                same++;
        }
        CHECK(n > 0 && same == n, "%s: %d of %d patterns read back from their line", files[f],
              same, n);
    }
    char small[8];
    CHECK(input_format_line(&suite[0], NULL, small, sizeof small) == -1, "too small a buffer");
}

/* ---- ncu --------------------------------------------------------------------- */

static const char csv_two[] =
    "==PROF== Connected to process 77 (/x/swizzlescope-measure)\n"
    "==PROF== Profiling \"probe_kernel\" - 0: 0%....50%....100% - 3 passes\n"
    "\"ID\",\"Process ID\",\"Kernel Name\","
    "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
    "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
    "\"smsp__inst_executed_op_shared_ld.sum\","
    "\"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
    "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\","
    "\"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"inst\",\"\",\"\",\"\"\n"
    "\"0\",\"77\",\"void probe_kernel<2>(ProbeArgs, int)\",\"1,536\",\"2,048\",\"512\",\"1,536\","
    "\"0\",\"0\"\n"
    "name,cycles_per_instr\n"
    "\"1\",\"77\",\"void probe_kernel<19>(ProbeArgs)\",\"0\",\"0\",\"0\",\"0\",\"2,275\",\"2048\"\n";

static void test_csv(void)
{
    struct ncu_counts c[2];
    memset(c, 0, sizeof c);
    CHECK(input_parse_line("a ld 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 "
                           "84 88 92 96 100 104 108 112 116 120 124", &pats[0], &err) == 1,
          "a: %s", err.message);
    CHECK(input_parse_line("b stmatrix 16 4 0 0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 "
                           "240 256 272 288 304 320 336 352 368 384 400 416 432 448 464 480 496",
                           &pats[1], &err) == 1, "b: %s", err.message);
    int rows = ncu_parse_csv(csv_two, pats, 2, 512, c);
    CHECK(rows == 2, "rows %d", rows);
    CHECK(c[0].has_src && c[0].has_hw && c[0].has_bc && fabs(c[0].wavefronts - 3.0) < 1e-9 &&
          fabs(c[0].wavefronts_hw - 4.0) < 1e-9 && fabs(c[0].bank_conflicts - 3.0) < 1e-9 &&
          c[0].instructions == 512, "ld row: %g %g %g %g", c[0].wavefronts, c[0].wavefronts_hw,
          c[0].bank_conflicts, c[0].instructions);
    /* stmatrix: no instruction metric, the launched count divides; its
     * bank-conflict metric (op_st) was not requested. */
    CHECK(c[1].has_src && fabs(c[1].wavefronts - 4.0) < 1e-9 && c[1].has_hw &&
          fabs(c[1].wavefronts_hw - 2275.0 / 512) < 1e-9 && !c[1].has_bc &&
          c[1].instructions == 512, "stsm row: %g %g", c[1].wavefronts, c[1].wavefronts_hw);
    CHECK(ncu_parse_csv("==PROF== nothing\n", pats, 2, 512, c) == -1, "no header");
    /* issue 23: the deterministic sm__sass_ twin and the arbitration counter,
     * per instruction; absent columns leave them unset */
    static const char csv_sm[] =
        "\"ID\",\"Process ID\",\"Kernel Name\",\"smsp__inst_executed_op_shared_ld.sum\","
        "\"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
        "\"l1tex__data_bank_conflicts_type_arbitration.sum\"\n"
        "\"0\",\"77\",\"void probe_kernel<2>(ProbeArgs, int)\",\"512\",\"1,024\",\"256\"\n";
    memset(c, 0, sizeof c);
    CHECK(ncu_parse_csv(csv_sm, pats, 1, 512, c) == 1 && c[0].has_sm && c[0].has_arb &&
          fabs(c[0].wavefronts_sm - 2.0) < 1e-9 && fabs(c[0].arbitration - 0.5) < 1e-9 &&
          !c[0].has_src, "sm__sass and arbitration: %g %g", c[0].wavefronts_sm, c[0].arbitration);
    memset(c, 0, sizeof c);
    ncu_parse_csv(csv_two, pats, 2, 512, c);
    CHECK(!c[0].has_sm && !c[0].has_arb, "no sm__sass or arbitration column: unset");
    /* the server's reader (model/ncu_csv.h) reads ncu's long form too: one
     * row per (launch, metric), a launch's rows sharing its ID; a malformed
     * CSV is no counters */
    static const char csv_long[] =
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\","
        "\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"77\",\"void probe_kernel<2>(ProbeArgs, int)\",\"Command line profiler "
        "metrics\",\"smsp__inst_executed_op_shared_ld.sum\",\"inst\",\"512\"\n"
        "\"0\",\"77\",\"void probe_kernel<2>(ProbeArgs, int)\",\"Command line profiler "
        "metrics\",\"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\","
        "\"1,536\"\n"
        "\"1\",\"77\",\"void probe_kernel<19>(ProbeArgs)\",\"Command line profiler "
        "metrics\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\",\"\",\"2,275\"\n";
    memset(c, 0, sizeof c);
    CHECK(ncu_parse_csv(csv_long, pats, 2, 512, c) == 2 && c[0].has_src && !c[0].has_hw &&
              fabs(c[0].wavefronts - 3.0) < 1e-9 && c[0].instructions == 512 && c[1].has_hw &&
              fabs(c[1].wavefronts_hw - 2275.0 / 512) < 1e-9,
          "the long form: 2 launches, %g and %g", c[0].wavefronts, c[1].wavefronts_hw);
    CHECK(ncu_parse_csv("\"ID\",\"Kernel Name\"\n\"0\",\"k\",\"1\"\n", pats, 2, 512, c) == -1,
          "a row of another column count: no counters");
}

static char dir[] = "/tmp/swz-tool-XXXXXX";

static char *script(const char *name, const char *body)
{
    static char paths[16][512];
    static int k;
    char *p = paths[k++ % 16];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    fprintf(f, "#!/bin/sh\n%s", body);
    fclose(f);
    chmod(p, 0755);
    return p;
}

/* A fake ncu: reads the pattern lines on stdin and answers one CSV row per
 * line, 1 wavefront (Source page) and 1.25 (hardware) per instruction;
 * FAKE_DROP drops the 48th row, FAKE_NO_SASS refuses smsp__sass_ metrics. */
static const char fake_ncu[] =
    "case \"$1\" in --version) echo 'NVIDIA (R) Nsight Compute'; echo 'Version 2099.1.0.0 "
    "(build 1)'; exit 0;; esac\n"
    "echo \"$@\" >> \"$(dirname \"$0\")/args.log\"\n"
    "if [ -n \"$FAKE_NO_SASS\" ] && echo \"$*\" | grep -q smsp__sass; then\n"
    "  echo '==ERROR== Failed to find metric smsp__sass_x' >&2; exit 1; fi\n"
    "echo '==PROF== Connected'\n"
    "echo '\"ID\",\"Kernel Name\",\"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\","
    "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"smsp__inst_executed_op_shared_ld.sum\"'\n"
    "i=0\n"
    "while read -r line; do\n"
    "  if [ -n \"$FAKE_NO_SASS\" ]; then s='n/a'; else s=512; fi\n"
    "  [ -n \"$FAKE_DROP\" ] && [ $i = 47 ] && continue\n"
    "  echo \"\\\"$i\\\",\\\"probe_kernel<2>\\\",\\\"$s\\\",\\\"640\\\",\\\"512\\\"\"\n"
    "  i=$((i+1))\n"
    "done\n";

static void profile(const char *ncu, int n, double budget, struct ncu_counts *c,
                    struct ncu_status *st)
{
    struct ncu_config cfg = {ncu, "/bin/true", 0, 16, 4, proc_now() + budget, 48};
    memset(st, 0, sizeof *st);
    ncu_profile(&cfg, pats, n, c, st);
}

static void test_profile(void)
{
    static struct ncu_counts c[300];
    struct ncu_status st;
    char path[512];
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    for (int i = 0; i < 100; i++)
        input_parse_line("a ld 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 "
                         "84 88 92 96 100 104 108 112 116 120 124", &pats[i], &err);
    const char *ok = script("ncu", fake_ncu);
    CHECK(ncu_find(ok, path, sizeof path) == 0 && strcmp(path, ok) == 0, "find override");
    CHECK(ncu_find("/nonexistent/ncu", path, sizeof path) < 0 && strstr(path, "not an executable"),
          "find missing: %s", path);

    profile(ok, 100, 20, c, &st);
    CHECK(st.used && st.profiled == 100 && st.reason[0] == '\0', "100 in chunks: %d '%s'",
          st.profiled, st.reason);
    CHECK(c[0].has_src && c[99].has_src && fabs(c[99].wavefronts - 1.0) < 1e-9 &&
          fabs(c[99].wavefronts_hw - 1.25) < 1e-9, "values");
    ncu_version_start(ok);
    ncu_version_finish(&st, proc_now() + 5);
    CHECK(strcmp(st.version, "2099.1.0.0") == 0, "version '%s'", st.version);

    setenv("FAKE_DROP", "1", 1);
    profile(ok, 100, 20, c, &st);
    unsetenv("FAKE_DROP");
    CHECK(st.used && st.profiled == 4 && !c[0].has_src && c[96].has_src &&
          strstr(st.reason, "47 profiled launches for 48"),
          "a short chunk is dropped, not misattributed: %d '%s'", st.profiled, st.reason);

    setenv("FAKE_NO_SASS", "1", 1);
    profile(ok, 3, 20, c, &st);
    unsetenv("FAKE_NO_SASS");
    CHECK(st.used && !c[0].has_src && c[0].has_hw && strstr(st.reason, "Source-page"),
          "no SASS metrics: hardware counters only: '%s'", st.reason);

    const char *perm = script("perm", "cat >/dev/null; echo '==ERROR== ERR_NVGPUCTRPERM - The user "
                              "does not have permission to access NVIDIA GPU Performance "
                              "Counters'; exit 0\n");
    profile(perm, 3, 20, c, &st);
    CHECK(!st.used && strstr(st.reason, "not permitted") && !c[0].has_src, "permission: '%s'",
          st.reason);

    const char *fail = script("fail", "cat >/dev/null; echo '==ERROR== something broke' >&2; "
                              "exit 7\n");
    profile(fail, 3, 20, c, &st);
    CHECK(!st.used && strstr(st.reason, "something broke") && strstr(st.reason, "exit 7"),
          "failure: '%s'", st.reason);

    const char *garbage = script("garbage", "cat >/dev/null; echo 'Segmentation fault'; exit 0\n");
    profile(garbage, 3, 20, c, &st);
    CHECK(!st.used && strstr(st.reason, "no counters"), "garbage: '%s'", st.reason);

    const char *hang = script("hang", "exec sleep 30\n");
    double t0 = proc_now();
    profile(hang, 3, 1.5, c, &st);
    CHECK(!st.used && strstr(st.reason, "did not finish") && proc_now() - t0 < 3.0,
          "hang: killed at the deadline: '%s' after %.1f s", st.reason, proc_now() - t0);
    profile(hang, 3, 0.5, c, &st);
    CHECK(!st.used && strstr(st.reason, "ran out"), "no time left: '%s'", st.reason);
}

/* ---- --ptx mode (issue 38): the command line, the entry's parameters, ncu's pages ---- */

static int ptx_args(struct ptxm_args *a, char *msg, const char *line)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "swizzlescope-measure %s", line);
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return ptxm_parse_args(argc, argv, a, msg, PTXM_MSG);
}

static void test_ptx_args(void)
{
    struct ptxm_args a;
    char msg[PTXM_MSG];
    int rc = ptx_args(&a, msg, "--ptx k.ptx --kernel _Z1kPf --block 32,8 --grid 2,2,1 "
                      "--param null --param 64 --param -1.5 --dynamic-shared 65536 --json");
    CHECK(rc == 0 && a.block[0] == 32 && a.block[1] == 8 && a.block[2] == 1 && a.grid[0] == 2 &&
          a.grid[2] == 1 && a.nparams == 3 && a.params[0].is_null && !a.params[1].is_null &&
          !strcmp(a.params[2].text, "-1.5") && a.dynamic_shared == 65536 && a.json &&
          a.global_bytes == 65536 && !strcmp(a.kernel, "_Z1kPf"), "good line: %s", msg);
    CHECK(ptx_args(&a, msg, "--ptx k.ptx --block 256") == 0 && a.grid[0] == 1 && !a.kernel &&
          a.block[0] == 256 && a.block[1] == 1, "defaults: %s", msg);
    static const struct { const char *line, *says; } bad[] = {
        {"--block 32", "--ptx needs a file"},
        {"--ptx k.ptx", "--block"},
        {"--ptx k.ptx --block 0", "positive"},
        {"--ptx k.ptx --block 32,x", "positive"},
        {"--ptx k.ptx --block 1,2,3,4", "positive"},
        {"--ptx k.ptx --block 2048", "1024 threads"},
        {"--ptx k.ptx --block 32 --grid 1,70000", "65535"},
        {"--ptx k.ptx --block 32 --dynamic-shared -1", "--dynamic-shared"},
        {"--ptx k.ptx --block 32 --global-bytes 0", "--global-bytes"},
        {"--ptx k.ptx --block 32 --frobnicate 1", "unknown option"},
        {"--ptx k.ptx --block 32 --param", "needs a value"},
        {"--ptx k.ptx --block 32 --timeout 0", "seconds"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        rc = ptx_args(&a, msg, bad[i].line);
        CHECK(rc < 0 && strstr(msg, bad[i].says), "'%s' -> %d '%s'", bad[i].line, rc, msg);
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static void test_ptx_entry(void)
{
    struct ptxm_param ps[PTXM_MAX_PARAMS];
    char name[256], msg[PTXM_MSG];
    int n = -1;
    /* the corpus's SGEMM (tests/data/ptx/corpus/sgemm_tiled.ptx): 3 pointers, 3 ints */
    char *ptx = slurp("tests/data/ptx/corpus/sgemm_tiled.ptx");
    CHECK(ptx != NULL, "the corpus PTX is readable from the repository root");
    if (ptx) {
        int rc = ptxm_find_entry(ptx, NULL, name, sizeof name, ps, PTXM_MAX_PARAMS, &n, msg,
                                 sizeof msg);
        CHECK(rc == 0 && !strcmp(name, "_Z11sgemm_tiledPKfS0_Pfiii") && n == 6 &&
              ps[0].size == 8 && !strcmp(ps[0].type, "u64") && ps[3].size == 4 &&
              !strcmp(ps[5].type, "u32") && strstr(ps[5].name, "param_5"),
              "sgemm: %d %s n=%d %s", rc, name, n, msg);
        rc = ptxm_find_entry(ptx, "sgemm_tiled", name, sizeof name, ps, PTXM_MAX_PARAMS, &n,
                             msg, sizeof msg);
        CHECK(rc < 0 && strstr(msg, "no entry named 'sgemm_tiled'") &&
              strstr(msg, "_Z11sgemm_tiledPKfS0_Pfiii"), "demangled name: %s", msg);
        free(ptx);
    }
    static const char two[] =
        ".version 8.8\n.target sm_90a\n.address_size 64\n"
        ".visible .entry first(\n\t.param .align 16 .b8 first_param_0[24],\n"
        "\t.param .f32 first_param_1,\n\t.param .u64 .ptr .global .align 4 first_param_2\n)\n{ ret; }\n"
        ".visible .entry second\n{ ret; }\n"
        "// .entry inside a comment is still found; a name is what follows\n";
    int rc = ptxm_find_entry(two, "first", name, sizeof name, ps, PTXM_MAX_PARAMS, &n, msg,
                             sizeof msg);
    CHECK(rc == 0 && n == 3 && ps[0].size == 24 && !strcmp(ps[0].type, "b8") &&
          ps[1].size == 4 && !strcmp(ps[1].type, "f32") && ps[2].size == 8 &&
          !strcmp(ps[2].name, "first_param_2"), "aggregate, f32, .ptr: %d n=%d %s", rc, n, msg);
    rc = ptxm_find_entry(two, "second", name, sizeof name, ps, PTXM_MAX_PARAMS, &n, msg, sizeof msg);
    CHECK(rc == 0 && n == 0, "no parameter list: %d %s", rc, msg);
    rc = ptxm_find_entry(two, NULL, name, sizeof name, ps, PTXM_MAX_PARAMS, &n, msg, sizeof msg);
    CHECK(rc < 0 && strstr(msg, "--kernel"), "two entries, none named: %s", msg);
    rc = ptxm_find_entry("hello", NULL, name, sizeof name, ps, PTXM_MAX_PARAMS, &n, msg, sizeof msg);
    CHECK(rc < 0 && strstr(msg, "no .entry"), "not PTX: %s", msg);

    unsigned char v[8] = {0};
    struct ptxm_param u32 = {"u32", 4, "a"}, s32 = {"s32", 4, "b"}, f32 = {"f32", 4, "c"},
                      u64 = {"u64", 8, "d"}, u8 = {"u8", 1, "e"}, agg = {"b8", 24, "f"};
    CHECK(ptxm_encode_param(&u32, 0, "64", v, msg, sizeof msg) == 0 && v[0] == 64 && v[1] == 0,
          "u32 64: %s", msg);
    CHECK(ptxm_encode_param(&u32, 0, "0x10000", v, msg, sizeof msg) == 0 && v[2] == 1, "hex");
    CHECK(ptxm_encode_param(&s32, 0, "-1", v, msg, sizeof msg) == 0 && v[0] == 0xff && v[3] == 0xff,
          "s32 -1: %s", msg);
    float f;
    CHECK(ptxm_encode_param(&f32, 0, "1.5", v, msg, sizeof msg) == 0 &&
          (memcpy(&f, v, 4), f == 1.5f), "f32 1.5: %s", msg);
    CHECK(ptxm_encode_param(&u64, 1, "null", v, msg, sizeof msg) == 0, "u64 null");
    CHECK(ptxm_encode_param(&u32, 1, "null", v, msg, sizeof msg) < 0 && strstr(msg, "8-byte"),
          "u32 null: %s", msg);
    CHECK(ptxm_encode_param(&u8, 0, "256", v, msg, sizeof msg) < 0 && strstr(msg, "range"),
          "u8 256: %s", msg);
    CHECK(ptxm_encode_param(&u32, 0, "12ab", v, msg, sizeof msg) < 0 && strstr(msg, "integer"),
          "u32 12ab: %s", msg);
    CHECK(ptxm_encode_param(&agg, 0, "1", v, msg, sizeof msg) < 0 && strstr(msg, "scalars"),
          "aggregate: %s", msg);
    static const struct { const char *sass; int kind; } k[] = {
        {"      LDS R0, [R3+UR7]", PTXM_LD}, {"@!P0  STS [R9+UR4], RZ", PTXM_ST},
        {"      LDS.U.128 R4, [R2]", PTXM_LD}, {"      LDSM.16.M88.4 R4, [R4+UR5]", PTXM_LDSM},
        {"      STSM.16.M88.4 [R2], R4", PTXM_STSM}, {"      ATOMS.POPC.INC.32 RZ, [R8+UR4]", PTXM_ATOM},
        {"      ATOMS.CAST.SPIN P0, [R2], R4, R5", PTXM_ATOM}, {"      LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64]", PTXM_LDGSTS},
        {"      LDG.E R2, desc[UR4][R2.64]", -1}, {"      LDSM", PTXM_LDSM}, {"      BAR.SYNC 0x0", -1},
        {"      STG.E desc[UR6][R2.64], R7", -1}, {"      LDC R1, c[0x0][0x28]", -1},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        CHECK(ptxm_sass_kind(k[i].sass) == k[i].kind, "'%s' -> %d", k[i].sass,
              ptxm_sass_kind(k[i].sass));
}

static const struct ptxm_instr *instr_at(const struct ptxm_result *r, unsigned long pc)
{
    for (int i = 0; i < r->ninstrs; i++)
        if (r->instrs[i].pc == pc)
            return &r->instrs[i];
    return NULL;
}

static const struct ptxm_line *line_of(const struct ptxm_result *r, const char *file_end,
                                       int line, int kind)
{
    for (int i = 0; i < r->nlines; i++) {
        size_t a = strlen(r->lines[i].file), b = strlen(file_end);
        if (r->lines[i].line == line && r->lines[i].kind == kind && a >= b &&
            !strcmp(r->lines[i].file + a - b, file_end))
            return &r->lines[i];
    }
    return NULL;
}

/* ncu's pages of three corpus launches on an H200 (tests/data/ptx/ncu_csv/, kept by
 * --keep; their numbers are those of tests/data/ptx/measured_h200.json). */
static int read_pages_as(const char *name, int crlf, struct ptxm_result *r)
{
    char path[256];
    char *t[3];
    const char *f[3] = {"raw", "sass", "cuda_sass"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "tests/data/ptx/ncu_csv/%s/%s.csv", name, f[i]);
        t[i] = slurp(path);
        if (crlf && t[i]) {
            /* as a Windows ncu would write them, under its ==PROF== lines */
            size_t n = 0, k = 0;
            for (const char *c = t[i]; *c; c++)
                n += 1 + (*c == '\n');
            char *w = malloc(n + 64);
            k = (size_t)sprintf(w, "==PROF== Connected to process 1\r\n");
            for (const char *c = t[i]; *c; c++) {
                if (*c == '\n')
                    w[k++] = '\r';
                w[k++] = *c;
            }
            w[k] = '\0';
            free(t[i]);
            t[i] = w;
        }
    }
    memset(r, 0, sizeof *r);
    int rc = t[0] && t[1] && t[2] ? 0 : -2;
    if (rc == 0 && ptxm_parse_raw(t[0], r) < 0)
        rc = -3;
    if (rc == 0 && ptxm_parse_source(t[1], t[2], r) < 0)
        rc = -4;
    for (int i = 0; i < 3; i++)
        free(t[i]);
    return rc;
}

static int read_pages(const char *name, struct ptxm_result *r)
{
    return read_pages_as(name, 0, r);
}

static void test_ptx_pages(void)
{
    struct ptxm_result r;
    const struct ptxm_instr *in;
    const struct ptxm_line *l;
    /* inline asm: the source text of its lines holds quotes ncu does not double */
    int rc = read_pages("inline_ptx", &r);
    CHECK(rc == 0 && r.totals[PTXM_LD].executions == 16 && r.totals[PTXM_LD].wavefronts == 24 &&
          r.totals[PTXM_LD].ideal == 24 && r.totals[PTXM_ST].executions == 16 &&
          r.totals[PTXM_ST].wavefronts == 24 && r.totals[PTXM_ATOM].executions == 0 &&
          r.wavefronts_all == 48 && r.ideal_all == 48 && r.ninstrs == 4, "inline_ptx totals: %d", rc);
    CHECK((l = line_of(&r, "inline_ptx.cu", 11, PTXM_ST)) && l->c.executions == 8 &&
          l->c.wavefronts == 8, "inline_ptx.cu:11, the first asm's st.shared.u32");
    CHECK((l = line_of(&r, "inline_ptx.cu", 18, PTXM_LD)) && l->c.wavefronts == 16 &&
          l->c.ideal == 16, "inline_ptx.cu:18, ld.shared.v2.u32 as LDS.64");
    CHECK((l = line_of(&r, "inline_ptx.cu", 20, PTXM_ST)) && l->c.wavefronts == 16,
          "inline_ptx.cu:20, st.shared.b64");
    CHECK((in = instr_at(&r, 0xf0)) && !strcmp(in->sass, "LDS.64 R4, [R2+UR4]") &&
          in->line == 18 && in->threads == 256, "pc 0xf0");
    ptxm_result_free(&r);

    /* inlined atomics: filed under the header's line, and under the caller's only sometimes */
    rc = read_pages("hist_lane", &r);
    CHECK(rc == 0 && r.totals[PTXM_ATOM].executions == 80 && r.totals[PTXM_ATOM].wavefronts == 128 &&
          r.totals[PTXM_ATOM].ideal == 80 && r.totals[PTXM_ST].executions == 20 &&
          r.source_totals[PTXM_ST].executions == 32, "hist_lane totals: %d", rc);
    CHECK((in = instr_at(&r, 0x170)) && in->kind == PTXM_ATOM && in->nat == 2 && in->line == 12 &&
          strstr(in->file, "hist_lane.cu") && in->executions == 64 && in->wavefronts == 64,
          "ATOMS.ADD RZ: the caller's line preferred");
    CHECK((in = instr_at(&r, 0x1d0)) && in->nat == 1 && in->line == 112 &&
          strstr(in->file, "device_atomic_functions.hpp") && in->wavefronts == 64 && in->ideal == 16,
          "ATOMS.ADD R5: only the header's line");
    CHECK((l = line_of(&r, "device_atomic_functions.hpp", 112, PTXM_ATOM)) &&
          l->c.executions == 80, "the header's line sums both atomics");
    ptxm_result_free(&r);

    /* cp.async: LDGSTS, and ptxas's never-executing @!PT LDS that the Source page counts */
    rc = read_pages("cp_async_pipeline", &r);
    CHECK(rc == 0 && r.totals[PTXM_LDGSTS].executions == 64 && r.totals[PTXM_LDGSTS].wavefronts == 160 &&
          r.totals[PTXM_LDGSTS].ideal == 160 && r.totals[PTXM_LD].executions == 64 &&
          r.source_totals[PTXM_LD].executions == 160 && r.totals[PTXM_LD].wavefronts == 192,
          "cp_async totals: %d", rc);
    CHECK((in = instr_at(&r, 0x170)) && in->kind == PTXM_LD && in->executions == 8 &&
          in->threads == 0 && in->wavefronts == 0, "@!PT LDS RZ, [RZ]");
    CHECK((in = instr_at(&r, 0x1a0)) && in->kind == PTXM_LDGSTS && in->wavefronts == 32,
          "LDGSTS.E.BYPASS.128");
    ptxm_result_free(&r);

    /* CRLF line ends and ==PROF== lines around the pages read as the pages do */
    for (int i = 0; i < 3; i++) {
        const char *name[3] = {"inline_ptx", "hist_lane", "cp_async_pipeline"};
        char *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        rc = read_pages_as(name[i], 0, &r) * 10;
        FILE *f = open_memstream(&a, &na);
        ptxm_print_result_json(f, &r);
        fclose(f);
        ptxm_result_free(&r);
        rc += read_pages_as(name[i], 1, &r);
        f = open_memstream(&b, &nb);
        ptxm_print_result_json(f, &r);
        fclose(f);
        ptxm_result_free(&r);
        CHECK(rc == 0 && na > 1000 && na == nb && memcmp(a, b, na) == 0,
              "%s: the pages with CRLF and ==PROF== lines read the same: %d", name[i], rc);
        free(a), free(b);
    }

    memset(&r, 0, sizeof r);
    CHECK(ptxm_parse_raw("==PROF== nothing\n", &r) < 0 && !r.has_raw, "no raw page");
    CHECK(ptxm_parse_source("\"Address\",\"Source\"\n", NULL, &r) < 0, "no sass view");
    ptxm_result_free(&r);
}

/* The tool's refusals of bad input, before any GPU (where the tool is built here). */
static void test_ptx_refusals(void)
{
    const char *tool = "build/swizzlescope-measure";
    if (access(tool, X_OK) != 0) {
        printf("test_tool: %s not built: its --ptx refusals not run\n", tool);
        return;
    }
    static const struct { const char *args[12]; const char *says; } bad[] = {
        {{"--ptx", "/nonexistent/k.ptx", "--block", "32"}, "cannot read"},
        {{"--ptx", "tests/data/ptx/corpus/sgemm_tiled.ptx", "--block", "8,8", "--param", "null"},
         "takes 6 parameters"},
        {{"--ptx", "tests/data/ptx/corpus/sgemm_tiled.ptx", "--kernel", "sgemm", "--block", "8"},
         "no entry named"},
        {{"--ptx", "tests/data/ptx/corpus/hist_const.ptx", "--block", "256", "--param", "null",
          "--param", "null"}, "8-byte"},
        {{"--ptx", "tests/data/ptx/corpus/hist_const.ptx", "--block", "256", "--param", "null",
          "--param", "x", "--json"}, "\"code\":\"bad_input\""},
        {{"--ptx", "Makefile", "--block", "32"}, "no .entry"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[16] = {(char *)tool};
        int n = 1;
        for (int j = 0; bad[i].args[j]; j++)
            argv[n++] = (char *)bad[i].args[j];
        argv[n] = NULL;
        struct proc_spec spec = {.argv = argv, .out_cap = 1 << 16, .err_cap = 1 << 16};
        struct proc p;
        struct sz_error e;
        int rc = proc_run(&spec, 20.0, &p, &e);
        CHECK(rc == 0 && p.exit_code == 2 &&
              ((p.err && strstr(p.err, bad[i].says)) || (p.out && strstr(p.out, bad[i].says))),
              "refusal %zu: exit %d, '%s'", i, p.exit_code, p.err ? p.err : "");
        proc_free(&p);
    }
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);   /* proc.h: a fake ncu may not read its input */
    test_json_good();
    test_bad();
    test_line_format();
    test_suites();
    test_csv();
    test_profile();
    test_ptx_args();
    test_ptx_entry();
    test_ptx_pages();
    test_ptx_refusals();
    return check_summary("test_tool");
}
