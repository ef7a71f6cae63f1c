/* test_nvcc.c - CUDA source to PTX (server/base/nvcc.c): the include check
 * on a table of sources (allowed, refused, with the directive's position),
 * then, where nvcc exists, real compiles: PTX of a kernel, nvcc's first
 * error with its line, an include hidden from the textual check caught by
 * the preprocessor's own list, no temporary path in what comes back, a
 * missing nvcc and a deadline.  Without nvcc the compiles are skipped. */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nvcc.h"
#include "check.h"

static void test_check_table(void)
{
    static const struct {
        const char *src;
        int ok, line, column;
    } cases[] = {
        {"#include <cuda_fp16.h>\n__global__ void k() {}\n", 1, 0, 0},
        {"  #  include <cute/tensor.hpp>\n", 1, 0, 0},
        {"#include <cuda/std/cstdint>\n#define X 1\n#pragma unroll\n", 1, 0, 0},
        {"/* #include \"x.h\" */\n", 1, 0, 0},
        {"// #include \"x.h\"\n", 1, 0, 0},
        {"#include \"x.h\"\n", 0, 1, 1},
        {"int a;\n  #include </etc/passwd>\n", 0, 2, 3},
        {"#include <../secret.h>\n", 0, 1, 1},
        {"#define H </etc/hostname>\n#include H\n", 0, 2, 1},
        {"%:include \"a.h\"\n", 0, 1, 1},
        {"#inc\\\nlude \"a.h\"\n", 0, 1, 1},
        {"#include_next \"a.h\"\n", 0, 1, 1},
        {"#import \"a.h\"\n", 0, 1, 1},
        {"# /* c */ include \"a.h\"\n", 0, 1, 1},
        {"#include <a b.h>\n", 0, 1, 1},
        {"#include <unclosed\n", 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sz_error err = {0};
        int rc = nvcc_check_source(cases[i].src, strlen(cases[i].src), &err);
        if (cases[i].ok) {
            CHECK(rc == 0, "case %zu allowed: %s", i, err.message);
        } else {
            CHECK(rc < 0 && err.code == SZ_INVALID_ARGUMENT && !strcmp(err.field, "cuda") &&
                      err.line == cases[i].line && err.column == cases[i].column,
                  "case %zu refused at %d:%d: got rc %d at %d:%d (%s)", i, cases[i].line,
                  cases[i].column, rc, err.line, err.column, err.message);
        }
    }
    struct sz_error err = {0};
    CHECK(nvcc_check_source("int a;\0#include \"x\"", 20, &err) < 0 && err.line == 1 &&
              err.column == 7, "a NUL byte refused at 1:7: %d:%d", err.line, err.column);
}

static const char kernel[] =
    "__global__ void transpose(float *out)\n"
    "{\n"
    "    __shared__ float t[32][32];\n"
    "    t[threadIdx.y][threadIdx.x] = threadIdx.x;\n"
    "    __syncthreads();\n"
    "    out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];\n"
    "}\n";

static void test_compile(void)
{
    char path[512];
    struct sz_error err = {0};
    if (nvcc_find(NULL, path, sizeof path, &err) < 0) {
        CHECK(err.code == SZ_COMPILER_UNAVAILABLE && strstr(err.message, "install"),
              "without nvcc the refusal says what to install: %s", err.message);
        printf("test_nvcc: no nvcc here: compiles skipped\n");
        return;
    }
    struct nvcc_config cfg = {0};
    struct nvcc_result r;
    int rc = nvcc_compile(&cfg, kernel, strlen(kernel), &r, &err);
    CHECK(rc == 0 && r.ptx && strstr(r.ptx, ".entry _Z9transposePf") &&
              strstr(r.ptx, ".target sm_90a") && strstr(r.ptx, ".loc"),
          "a kernel compiles to sm_90a PTX with line info: %d %s", rc, err.message);
    nvcc_free(&r);

    static const char broken[] = "__global__ void k(float *o)\n{\n    o[0] = undeclared;\n}\n";
    rc = nvcc_compile(&cfg, broken, strlen(broken), &r, &err);
    CHECK(rc < 0 && err.code == SZ_INVALID_ARGUMENT && !strcmp(err.field, "cuda") &&
              strstr(err.message, "undeclared") && err.line == 3 &&
              strstr(r.log, "kernel.cu(3)") && !strstr(r.log, "swizzlescope-nvcc-"),
          "nvcc's first error, its line, the log without the temporary folder: %s (%d) %.200s",
          err.message, err.line, r.log);
    nvcc_free(&r);

    /* A string holding a comment's opening hides the next line from the
     * textual check; the preprocessor's list of opened files still names it. */
    static const char hidden[] = "const char *s = \"/*\";\n#include \"/etc/hostname\"\n// */\n";
    CHECK(nvcc_check_source(hidden, strlen(hidden), &err) == 0,
          "(the textual check is fooled by the string, as the test means)");
    rc = nvcc_compile(&cfg, hidden, strlen(hidden), &r, &err);
    CHECK(rc < 0 && err.code == SZ_INVALID_ARGUMENT && strstr(err.message, "/etc/hostname") &&
              strstr(err.message, "outside"),
          "an include outside the toolkit, seen by nvcc -M, is refused: %s", err.message);
    nvcc_free(&r);

    cfg.nvcc = "/nonexistent/nvcc";
    rc = nvcc_compile(&cfg, kernel, strlen(kernel), &r, &err);
    CHECK(rc < 0 && err.code == SZ_COMPILER_UNAVAILABLE && !strcmp(sz_code_name(err.code),
                                                                   "compiler_unavailable") &&
              sz_code_status(err.code) == 503,
          "a missing nvcc: 503 compiler_unavailable: %s", err.message);
    nvcc_free(&r);

    cfg.nvcc = NULL;
    setenv("SWZ_NVCC", "none", 1);
    rc = nvcc_compile(&cfg, kernel, strlen(kernel), &r, &err);
    CHECK(rc < 0 && err.code == SZ_COMPILER_UNAVAILABLE && strstr(err.message, "SWZ_NVCC"),
          "SWZ_NVCC=none switches compiling off: %s", err.message);
    unsetenv("SWZ_NVCC");
    nvcc_free(&r);

    cfg.timeout_s = 0.001;
    rc = nvcc_compile(&cfg, kernel, strlen(kernel), &r, &err);
    CHECK(rc < 0 && err.code == SZ_TOO_LARGE && !strcmp(err.field, "cuda"),
          "past the deadline: 413 on cuda: %s", err.message);
    nvcc_free(&r);
}

static void test_refusals(void)
{
    struct nvcc_config cfg = {.arch = "sm_90; rm -rf /"};
    struct nvcc_result r;
    struct sz_error err = {0};
    CHECK(nvcc_compile(&cfg, kernel, strlen(kernel), &r, &err) < 0 &&
              !strcmp(err.field, "arch"), "a bad arch is refused before anything runs: %s",
          err.message);
    cfg.arch = NULL;
    size_t big = NVCC_MAX_SOURCE + 1;
    char *src = malloc(big);
    memset(src, ' ', big);
    CHECK(nvcc_compile(&cfg, src, big, &r, &err) < 0 && err.code == SZ_TOO_LARGE,
          "a source over the limit: %s", err.message);
    free(src);
}

int main(void)
{
    test_check_table();
    test_refusals();
    test_compile();
    return check_summary("test_nvcc");
}
