/* api_linear_cases.h - good and malformed requests for /api/linear/evaluate
 * and /api/linear/optimize (test_linear runs them through the handler): each
 * with the status and a piece of the body it must produce.  The bodies are
 * seed 001's 16x32 fp32 transpose: A stores row r with lane t at (r, t), B
 * reads (t % 16, 2r + t / 16). */
#ifndef SZ_API_LINEAR_CASES_H
#define SZ_API_LINEAR_CASES_H

#define LIN_A "\"A\":{\"register\":[[1,0],[2,0],[4,0],[8,0]]," \
              "\"lane\":[[0,1],[0,2],[0,4],[0,8],[0,16]]}"
#define LIN_B "\"B\":{\"register\":[[0,2],[0,4],[0,8],[0,16]]," \
              "\"lane\":[[1,0],[2,0],[4,0],[8,0],[0,1]]}"
#define LIN_PAIR "\"shape\":[16,32],\"bitwidth\":32,\"num_banks\":32," LIN_A "," LIN_B
/* row-major, n ^ m and n ^ 2m as offset bases: bit j < 5 holds (0, 2^j) */
#define LIN_COLS "[0,1],[0,2],[0,4],[0,8],[0,16]"
#define LIN_ROWMAJOR "\"swizzle_offset_bases\":[" LIN_COLS ",[1,0],[2,0],[4,0],[8,0]]"
#define LIN_XOR_M "\"swizzle_offset_bases\":[" LIN_COLS ",[1,1],[2,2],[4,4],[8,8]]"
#define LIN_XOR_2M "\"swizzle_offset_bases\":[" LIN_COLS ",[1,2],[2,4],[4,8],[8,16]]"

static const struct lin_api_case {
    const char *path, *body;
    int status;
    const char *want;   /* substring of the body */
} lin_api_cases[] = {
    /* seed 001's table: 16, 2, 1 on the read, 1 on the store */
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"vec\":1," LIN_ROWMAJOR "}", 200,
     "\"load\":{\"op\":\"ld\",\"wavefronts_per_instruction\":16,"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"vec\":1," LIN_ROWMAJOR "}", 200,
     "\"store\":{\"op\":\"st\",\"wavefronts_per_instruction\":1,"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_ROWMAJOR "}", 200,
     "\"formula\":{\"wavefronts_per_instruction\":16,\"conflict_dim\":4,"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_XOR_M "}", 200,
     "\"wavefronts_per_instruction\":2,\"lower_bound\":1,\"bank_conflicts_per_instruction\":1"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_XOR_M "}", 200,
     "\"conflict_basis\":[[1,1]]"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_XOR_2M "}", 200,
     "\"load\":{\"op\":\"ld\",\"wavefronts_per_instruction\":1,"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_XOR_2M "}", 200,
     "\"cute\":{\"b\":4,\"m\":3,\"s\":4,\"name\":\"Swizzle<4,3,4>\"}"},
    /* the same layouts by name: n ^ m is Swizzle<4,2,5> on bytes; Triton
     * vec 1, perPhase 1, maxPhase 16 */
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"cute\":{\"b\":4,\"m\":2,\"s\":5}}", 200,
     "\"offset_bases\":[" LIN_COLS ",[1,1],[2,2],[4,4],[8,8]]"},
    {"/api/linear/evaluate",
     "{" LIN_PAIR ",\"triton\":{\"vec\":1,\"per_phase\":1,\"max_phase\":16,\"order\":[1,0]}}",
     200, "\"triton\":{\"vec\":1,\"per_phase\":1,\"max_phase\":16,\"order\":[1,0]}"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"nvmma\":{\"swizzle_bytes\":128}}", 200,
     "\"nvmma\":{\"swizzle_bytes\":128,\"transposed\":false}"},
    /* the optimum: offset = 32m + (n ^ 2m) */
    {"/api/linear/optimize", "{" LIN_PAIR "}", 200,
     "\"offset_bases\":[" LIN_COLS ",[1,2],[2,4],[4,8],[8,16]]"},
    {"/api/linear/optimize", "{" LIN_PAIR "}", 200, "\"vector_elems\":1,"},
    {"/api/linear/optimize", "{" LIN_PAIR "}", 200,
     "\"load\":{\"op\":\"ld\",\"wavefronts_per_instruction\":1,"},
    {"/api/linear/optimize", "{" LIN_PAIR "}", 200,
     "\"shared_lane_directions\":1,\"pairs\":4,\"free_directions\":0,\"padding\":0,"
     "\"conflict_free\":true"},
    {"/api/linear/optimize", "{" LIN_PAIR ",\"num_banks\":64}", 400, "\"field\":\"num_banks\""},
    {"/api/linear/optimize", "{\"shape\":[16,32],\"num_banks\":64," LIN_A "," LIN_B "}", 200,
     "\"calibrated\":false"},

    /* bad input: a 4xx naming the field */
    {"/api/linear/evaluate", "{" LIN_PAIR "}", 400, "\"field\":\"swizzle_offset_bases\""},
    {"/api/linear/evaluate", "{\"shape\":[16,24]," LIN_A "," LIN_B "," LIN_ROWMAJOR "}", 400,
     "\"field\":\"shape\""},
    {"/api/linear/evaluate", "{\"shape\":[16]," LIN_A "," LIN_B "," LIN_ROWMAJOR "}", 400,
     "\"field\":\"shape\""},
    {"/api/linear/evaluate", "{\"shape\":[4096,8192]," LIN_A "," LIN_B "}", 400,
     "at most 2^24 elements"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"bitwidth\":12," LIN_ROWMAJOR "}", 400,
     "\"field\":\"bitwidth\""},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"vec\":3," LIN_ROWMAJOR "}", 400,
     "\"field\":\"vec\""},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"vec\":2," LIN_ROWMAJOR "}", 400,
     "A's registers do not hold offset bit 0"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"extra\":1," LIN_ROWMAJOR "}", 400,
     "\"field\":\"extra\""},
    {"/api/linear/evaluate",
     "{\"shape\":[16,32]," LIN_B ",\"A\":{\"register\":[[1,0],[2,0],[4,0],[8,0]],"
     "\"lane\":[[0,1],[0,2],[0,4],[0,8],[0,32]]}," LIN_ROWMAJOR "}",
     400, "\"field\":\"A.lane[4]\""},
    {"/api/linear/evaluate",
     "{\"shape\":[16,32]," LIN_B ",\"A\":{\"register\":[[1,0],[2,0],[4,0],[8,0]],"
     "\"lane\":[[0,1],[0,2],[0,4],[0,8]]}," LIN_ROWMAJOR "}",
     400, "A.lane must have 5 bases"},
    {"/api/linear/evaluate",
     "{\"shape\":[16,32]," LIN_B ",\"A\":{\"register\":[[1,0],[2,0],[4,0],[0,1]],"
     "\"lane\":[[0,1],[0,2],[0,4],[0,8],[0,16]]}," LIN_ROWMAJOR "}",
     400, "A reaches 2^8 of the tile's 2^9 elements"},
    {"/api/linear/evaluate", "{\"shape\":[16,32]," LIN_A "," LIN_B ",\"warp\":[]}", 400,
     "\"field\":\"warp\""},
    {"/api/linear/evaluate", "{\"shape\":[16,32]," LIN_A "," LIN_B
     ",\"swizzle_offset_bases\":[" LIN_COLS ",[1,0],[2,0],[4,0],[1,0]]}", 400,
     "is not a bijection"},
    {"/api/linear/evaluate", "{\"shape\":[16,32]," LIN_A "," LIN_B
     ",\"swizzle_offset_bases\":[" LIN_COLS ",[1,0],[2,0],[4,0]]}", 400,
     "needs one basis per offset bit"},
    {"/api/linear/evaluate", "{" LIN_PAIR "," LIN_ROWMAJOR ",\"cute\":{\"b\":0,\"m\":0,\"s\":0}}",
     400, "give one memory layout"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"cute\":{\"b\":1,\"m\":10,\"s\":-1}}", 400,
     "outside the tile"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"cute\":{\"b\":1,\"m\":0,\"s\":3}}", 400,
     "moves bytes inside a 32-bit element"},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"triton\":{\"vec\":4,\"per_phase\":1,"
     "\"max_phase\":16}}", 400, "\"field\":\"max_phase\""},
    {"/api/linear/evaluate", "{" LIN_PAIR ",\"nvmma\":{\"swizzle_bytes\":48}}", 400,
     "\"field\":\"swizzle_bytes\""},
    {"/api/linear/optimize", "{" LIN_PAIR ",\"vec\":1}", 400, "\"field\":\"vec\""},
    {"/api/linear/optimize", "{" LIN_PAIR ",\"lanes_per_wavefront\":64}", 400,
     "\"field\":\"lanes_per_wavefront\""},
    {"/api/linear/optimize", "[1,2]", 400, "must be a JSON object"},
    {"/api/linear/optimize", "{\"shape\":[16,32]}", 400, "\"field\":\"A\""},
};

#endif
