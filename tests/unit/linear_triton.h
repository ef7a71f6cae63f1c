/* linear_triton.h - Triton's own swizzle unit-test cases, transcribed as data:
 * triton-lang/triton, unittest/Dialect/TritonGPU/SwizzleTest.cpp (the
 * generic-swizzling tests, SwizzleTest.Test*: optimalSwizzlingLdSt(src, dst,
 * bitwidth) must give zero read and zero write bank conflicts).  Coordinates
 * are [dim0, dim1] as Triton prints them; matrix_t is the transpose of matrix.
 * Only data lives here; tests/unit/test_linear.c runs them. */
#ifndef SZ_LINEAR_TRITON_H
#define SZ_LINEAR_TRITON_H

struct tl_layout {
    int nr, nl, nw;
    int reg[12][2], lane[6][2], warp[6][2];
};

static const struct tl_case {
    const char *name;
    int shape[2], bitwidth, banks;
    struct tl_layout src, dst;
} triton_cases[] = {
    {"Test128x128Float8Transpose", {128, 128}, 8, 32,
     {6, 5, 3, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}},
      {{0, 16}, {0, 32}, {0, 64}, {4, 0}, {8, 0}}, {{16, 0}, {32, 0}, {64, 0}}},
     {6, 5, 3, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}},
      {{16, 0}, {32, 0}, {64, 0}, {0, 4}, {0, 8}}, {{0, 16}, {0, 32}, {0, 64}}}},
    {"Test16x16Bf16BlockedMma", {16, 16}, 16, 32,
     {3, 5, 0, {{0, 1}, {0, 2}, {0, 4}}, {{0, 8}, {1, 0}, {2, 0}, {4, 0}, {8, 0}}, {{0}}},
     {3, 5, 0, {{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{0}}}},
    {"Test16x256U4Mma", {16, 256}, 4, 32,
     {7, 5, 0, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}, {8, 0}},
      {{0, 32}, {0, 64}, {0, 128}, {1, 0}, {2, 0}}, {{0}}},
     {7, 5, 0, {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {0, 128}},
      {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, {{0}}}},
    {"Test32x16F32Transpose", {32, 16}, 32, 32,
     {3, 5, 1, {{4, 0}, {8, 0}, {16, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}},
      {{2, 0}}},
     {3, 5, 1, {{0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
      {{0, 1}}}},
    {"Test128x128F16Transpose", {128, 128}, 16, 32,
     {5, 5, 4, {{1, 0}, {2, 0}, {4, 0}, {0, 32}, {0, 64}},
      {{8, 0}, {16, 0}, {32, 0}, {64, 0}, {0, 1}}, {{0, 2}, {0, 4}, {0, 8}, {0, 16}}},
     {5, 5, 4, {{0, 1}, {0, 2}, {0, 4}, {32, 0}, {64, 0}},
      {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 0}}, {{2, 0}, {4, 0}, {8, 0}, {16, 0}}}},
};

/* Test64x128F16BlockedLinear32Bank and Test64x128F16BlockedMfma64Bank (the
 * same file) use 64-lane waves (6 lane bases) on 32 (MI300) and 64 (MI350)
 * banks: test_linear.c runs them under the published phase rules of
 * server/linear/linear_hw.c (published, not measured here). */
static const struct tl_case triton_cases_wave64[] = {
    {"Test64x128F16BlockedLinear32Bank", {64, 128}, 16, 32,
     {5, 6, 2, {{0, 1}, {0, 2}, {0, 4}, {16, 0}, {32, 0}},
      {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}},
     {7, 6, 2, {{0, 1}, {0, 2}, {0, 8}, {0, 16}, {0, 32}, {0, 64}, {32, 0}},
      {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}}, {{0, 0}, {0, 0}}}},
    {"Test64x128F16BlockedMfma64Bank", {64, 128}, 16, 64,
     {5, 6, 2, {{0, 1}, {0, 2}, {0, 4}, {16, 0}, {32, 0}},
      {{0, 8}, {0, 16}, {0, 32}, {0, 64}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}},
     {7, 6, 2, {{0, 1}, {0, 2}, {0, 4}, {0, 16}, {0, 32}, {0, 64}, {32, 0}},
      {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 8}}, {{0, 0}, {0, 0}}}},
};

#endif
