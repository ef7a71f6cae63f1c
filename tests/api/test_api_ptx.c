/* test_api_ptx.c - POST /api/ptx through api_handle: a transpose's answer
 * (totals, lines, the worst access's offsets and banks) equal to the
 * interpreter's own numbers (32 wavefronts a warp for the column read), and
 * each bad request refused with a 4xx naming its field (and, for malformed
 * PTX, the line and column); CUDA source compiled by nvcc.  No network. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

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
    }
    cJSON_Delete(a);
    free(r.body);
}

int main(void)
{
    a_transpose();
    refusals();
    from_cuda();
    return check_summary("test_api_ptx");
}
