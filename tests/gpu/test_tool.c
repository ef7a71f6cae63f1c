/* test_tool.c - the measurement tool's host side without a GPU: the strict
 * JSON reader (cuda/jsonin.c), the line format (cuda/pattern.c), ncu's CSV
 * (cuda/ncu.c) and the whole counter pass against fake ncu programs (shell
 * scripts) that answer, refuse permission, fail, hang and print garbage.
 * Builds with any C compiler: cc -std=c11 -Icuda tests/gpu/test_tool.c
 * cuda/jsonin.c cuda/pattern.c cuda/ncu.c cuda/proc.c -lm */
#define _GNU_SOURCE 1
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cuda/jsonin.h"
#include "../../cuda/ncu.h"
#include "../../cuda/pattern.h"
#include "../../cuda/proc.h"
#include "../check.h"

static probe_pattern pats[300];

static const char lin32[] =
    "[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,"
    "112,116,120,124]";
static const char rows16[] =
    "[0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,"
    "368,384,400,416,432,448,464,480,496]";

static int parse(const char *text, char *err)
{
    return probe_json_parse(text, strlen(text), pats, 300, err, PROBE_ERR_MAX);
}

static void test_json_good(void)
{
    char err[PROBE_ERR_MAX], buf[2048];
    snprintf(buf, sizeof buf, "{\"op\":\"ld\",\"offsets\":%s}", lin32);
    CHECK(parse(buf, err) == 1 && pats[0].op == PROBE_LD && pats[0].bytes == 4 &&
          pats[0].matrices == 1 && pats[0].active == 0xffffffffu && pats[0].off[31] == 124 &&
          strcmp(pats[0].name, "pattern0") == 0, "defaults: %s", err);
    snprintf(buf, sizeof buf, " [ {\"name\":\"a\\u00e9\\ud83d\\ude00\\n\",\"op\":\"ldmatrix\","
             "\"trans\":true,\"offsets\":%s,\"bank_bytes\":4,\"banks\":32} ,\n"
             "{\"op\":\"st\",\"bytes\":16,\"matrices\":1,\"offsets\":[%s0,16%s]} ] ",
             rows16, "null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
             "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,",
             "");
    int n = parse(buf, err);
    CHECK(n == 2, "array: %d %s", n, err);
    CHECK(strcmp(pats[0].name, "a\xc3\xa9\xf0\x9f\x98\x80\n") == 0, "unicode name");
    CHECK(pats[0].op == PROBE_LDMATRIX && pats[0].bytes == 16 && pats[0].matrices == 4 &&
          pats[0].trans == 1, "matrix defaults");
    CHECK(pats[1].op == PROBE_ST && pats[1].bytes == 16 && pats[1].active == 0xc0000000u &&
          pats[1].off[31] == 16, "inactive lanes: %08x", pats[1].active);
    /* ldmatrix.x1: lanes 8.. may be null and take lane t%8's address. */
    snprintf(buf, sizeof buf, "{\"op\":\"ldmatrix\",\"matrices\":1,\"offsets\":[0,128,256,384,"
             "512,640,768,896,null,null,null,null,null,null,null,null,null,null,null,null,null,"
             "null,null,null,null,null,null,null,null,null,null,null]}");
    CHECK(parse(buf, err) == 1 && pats[0].active == 0xffffffffu && pats[0].off[9] == 128 &&
          pats[0].off[31] == 896, "x1 fill: %s", err);
    snprintf(buf, sizeof buf, "{\"op\":\"ld\",\"bytes\":1.6e1,\"offsets\":[0,16,32,48,64,80,96,"
             "112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,"
             "432,448,464,480,4.96e2]}");
    CHECK(parse(buf, err) == 1 && pats[0].bytes == 16 && pats[0].off[31] == 496,
          "integral numbers in other spellings: %s", err);
}

static void test_json_bad(void)
{
    static const struct {
        const char *text, *piece;
    } bad[] = {
        {"", "expected a pattern object"},
        {"[]", "holds no pattern"},
        {"{}", "required"},
        {"{\"op\":\"ld\"}", "offsets is required"},
        {"{\"offsets\":LIN}", "op is required"},
        {"{\"op\":\"ld\",\"offsets\":LIN,}", "expected a field name"},
        {"{\"op\":\"ld\",\"offsets\":LIN}x", "end of the input"},
        {"{\"op\":\"ld\",\"offsets\":LIN}{}", "end of the input"},
        {"{\"op\":\"ld\",\"op\":\"st\",\"offsets\":LIN}", "given twice"},
        {"{\"op\":\"ld\",\"offsets\":LIN,\"opp\":1}", "unknown field \"opp\""},
        {"{\"op\":\"LD\",\"offsets\":LIN}", "op must be"},
        {"{\"op\":3,\"offsets\":LIN}", "op must be"},
        {"{\"op\":\"ld\",\"bytes\":3,\"offsets\":LIN}", "bytes must be"},
        {"{\"op\":\"ld\",\"bytes\":\"4\",\"offsets\":LIN}", "bytes must be an integer"},
        {"{\"op\":\"ld\",\"bytes\":4.5,\"offsets\":LIN}", "bytes must be an integer"},
        {"{\"op\":\"ld\",\"matrices\":2,\"offsets\":LIN}", "only ldmatrix/stmatrix take"},
        {"{\"op\":\"ld\",\"trans\":true,\"offsets\":LIN}", ".trans"},
        {"{\"op\":\"ld\",\"trans\":1,\"offsets\":LIN}", "true or false"},
        {"{\"op\":\"ldmatrix\",\"bytes\":8,\"offsets\":ROWS}", "16 bytes"},
        {"{\"op\":\"ldmatrix\",\"matrices\":3,\"offsets\":ROWS}", "matrices must be"},
        {"{\"op\":\"ld\",\"banks\":16,\"offsets\":LIN}", "32 banks"},
        {"{\"op\":\"ld\",\"bank_bytes\":8,\"offsets\":LIN}", "4 bytes wide"},
        {"{\"op\":\"ld\",\"offsets\":[0,4]}", "32 entries"},
        {"{\"op\":\"ld\",\"offsets\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0,0,0]}", "more than 32"},
        {"{\"op\":\"ld\",\"offsets\":[01,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0]}", "expected ',' or ']'"},
        {"{\"op\":\"ld\",\"offsets\":[-4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0]}", "offsets[0] must be"},
        {"{\"op\":\"ld\",\"offsets\":[2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0]}", "not a multiple of 4"},
        {"{\"op\":\"ld\",\"offsets\":[999999,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0,0,0]}", "offsets[0] must be"},
        {"{\"op\":\"ld\",\"offsets\":[null,null,null,null,null,null,null,null,null,null,null,null,"
         "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
         "null,null,null]}", "no active lane"},
        {"{\"op\":\"ldmatrix\",\"matrices\":2,\"offsets\":[0,16,32,48,64,80,96,112,null,null,null,"
         "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,"
         "null,null,null,null]}", "warp-wide"},
        {"{\"name\":\"\",\"op\":\"ld\",\"offsets\":LIN}", "must not be empty"},
        {"{\"name\":\"a\\ud800\",\"op\":\"ld\",\"offsets\":LIN}", "surrogate"},
        {"{\"name\":\"a\\x\",\"op\":\"ld\",\"offsets\":LIN}", "invalid escape"},
        {"{\"name\":\"a\tb\",\"op\":\"ld\",\"offsets\":LIN}", "control character"},
        {"{\"name\":\"\xc3\x28\",\"op\":\"ld\",\"offsets\":LIN}", "invalid UTF-8"},
        {"{\"name\":\"\xed\xa0\x80\",\"op\":\"ld\",\"offsets\":LIN}", "invalid UTF-8"},
        {"{\"name\":\"0123456789012345678901234567890123456789012345678901234567890123456789"
         "01234567890123456789012345678\",\"op\":\"ld\",\"offsets\":LIN}", "longer than"},
        {"[{\"op\":\"ld\",\"offsets\":LIN},]", "expected a pattern object"},
        {"[{\"op\":\"ld\",\"offsets\":LIN}", "expected ',' or ']'"},
        {"{\"op\":\"ld\",\"offsets\":LIN", "expected ',' or '}'"},
        {"{\"op\":\"ld\" \"offsets\":LIN}", "expected ',' or '}'"},
        {"{\"op\":\"ld\",\"offsets\":[nul,0]}", "offsets[0] must be"},
        {"{'op':\"ld\"}", "expected a field name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[4096], err[PROBE_ERR_MAX] = "";
        const char *s = bad[i].text;
        size_t n = 0;
        while (*s && n < sizeof text - 200) {
            if (strncmp(s, "LIN", 3) == 0)
                n += (size_t)snprintf(text + n, sizeof text - n, "%s", lin32), s += 3;
            else if (strncmp(s, "ROWS", 4) == 0)
                n += (size_t)snprintf(text + n, sizeof text - n, "%s", rows16), s += 4;
            else
                text[n++] = *s++;
        }
        text[n] = '\0';
        int rc = parse(text, err);
        CHECK(rc == -1 && strstr(err, bad[i].piece), "bad %zu (%s): rc %d, '%s', want '%s'", i,
              bad[i].text, rc, err, bad[i].piece);
    }
}

static void test_line_format(void)
{
    char err[PROBE_ERR_MAX];
    probe_pattern p;
    CHECK(probe_parse_line("x ldmatrix 16 1 1 0 16 32 48 64 80 96 112 - - - - - - - - - - - - "
                           "- - - - - - - - - - - -\n", &p, err, sizeof err) == 1 &&
          p.active == 0xffffffffu && p.off[8] == 0 && p.trans == 1, "line x1: %s", err);
    CHECK(probe_parse_line("# comment\n", &p, err, sizeof err) == 0, "comment");
    CHECK(probe_parse_line("x ld 4 1 0 0 4\n", &p, err, sizeof err) == -1 &&
          strstr(err, "expected 32"), "short line: %s", err);
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
    char err[PROBE_ERR_MAX];
    struct ncu_counts c[2];
    memset(c, 0, sizeof c);
    CHECK(probe_parse_line("a ld 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 "
                           "84 88 92 96 100 104 108 112 116 120 124", &pats[0], err, sizeof err) == 1,
          "a: %s", err);
    CHECK(probe_parse_line("b stmatrix 16 4 0 0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 "
                           "240 256 272 288 304 320 336 352 368 384 400 416 432 448 464 480 496",
                           &pats[1], err, sizeof err) == 1, "b: %s", err);
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
    char err[PROBE_ERR_MAX], path[512];
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    for (int i = 0; i < 100; i++)
        probe_parse_line("a ld 4 1 0 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 "
                         "84 88 92 96 100 104 108 112 116 120 124", &pats[i], err, sizeof err);
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

int main(void)
{
    test_json_good();
    test_json_bad();
    test_line_format();
    test_csv();
    test_profile();
    return check_summary("test_tool");
}
