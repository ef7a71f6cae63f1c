/* test_atoms.c - atoms.c against its sources, and access on a layout: each
 * named atom's lane coordinates re-derived here from CuTe's MMA fragment
 * layouts (MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>: ALayout, BLayout,
 * SM80_16x8_Row; cute/atom/mma_traits_sm80.hpp at NVIDIA/cutlass 7107b05, the
 * shape:stride pairs copied as data below) and PTX's ldmatrix rule (lane t
 * addresses row t%8 of matrix t/8, matrix j lands in register j); the seed
 * 004 story through /api/layout/access; the access route's refusals. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/atoms.h"
#include "layout/thread.h"
#include "check.h"
#include "client.h"

/* A CuTe (thread, value) -> index layout of up to 3+3 modes: thread modes
 * (4,8), value modes as given; index into an (R x C) column-major tile. */
struct tv {
    int tn, ts[2], td[2];
    int vn, vs[3], vd[3];
};

/* The coordinate (r, c) of value v of thread t, for a tile with R rows. */
static void tv_at(const struct tv *l, int t, int v, int R, int *r, int *c)
{
    int idx = 0;
    for (int k = 0; k < l->tn; k++) {
        idx += (t % l->ts[k]) * l->td[k];
        t /= l->ts[k];
    }
    for (int k = 0; k < l->vn; k++) {
        idx += (v % l->vs[k]) * l->vd[k];
        v /= l->vs[k];
    }
    *r = idx % R, *c = idx / R;
}

/* Register j of thread t holds values 2j, 2j+1 (32 bits of 16-bit elements).
 * For ldmatrix without .trans, matrix j's row q is what threads 4q..4q+3 hold
 * in register j: its start is their smallest column.  Lane 8j+q gives it. */
static void ldsm_rows(const struct tv *l, int R, int regs, int tile_col0, int lane[32][2])
{
    for (int j = 0; j < regs; j++)
        for (int q = 0; q < 8; q++) {
            int rr = -1, cmin = 1 << 30;
            for (int t = 4 * q; t < 4 * q + 4; t++)
                for (int v = 2 * j; v < 2 * j + 2; v++) {
                    int r, c;
                    tv_at(l, t, v, R, &r, &c);
                    rr = r;
                    cmin = c < cmin ? c : cmin;
                }
            lane[8 * j + q][0] = rr;
            lane[8 * j + q][1] = cmin + tile_col0;
        }
}

static void test_sources(void)
{
    /* ALayout: ((4,8),(2,2,2)):((32,1),(16,8,128)) over (M16, K16) */
    static const struct tv A = {2, {4, 8}, {32, 1}, 3, {2, 2, 2}, {16, 8, 128}};
    /* BLayout: ((4,8),(2,2)):((16,1),(8,64)) over (N8, K16) */
    static const struct tv B = {2, {4, 8}, {16, 1}, 2, {2, 2}, {8, 64}};
    /* SM80_16x8_Row (C): ((4,8),(2,2)):((32,1),(16,8)) over (M16, N8) */
    static const struct tv C = {2, {4, 8}, {32, 1}, 2, {2, 2}, {16, 8}};
    int want[32][2], got[32][2];
    struct sz_error err = {0};

    ldsm_rows(&A, 16, 4, 0, want);
    const struct atom *a = atom_find("mma_m16n8k16_a_ldmatrix_x4");
    int32_t c[32][2];
    CHECK(a && atom_lanes(a, 16, c, &err) == 0, "A atom exists");
    int ok = a != NULL;
    for (int t = 0; ok && t < 32; t++)
        ok &= c[t][0] == want[t][0] && c[t][1] == want[t][1];
    CHECK(ok && a->op == INSTR_LDMATRIX && a->matrices == 4 && !a->trans,
          "ldmatrix.x4 A lanes = CuTe ALayout + PTX ldmatrix rule");

    ldsm_rows(&B, 8, 2, 0, want);
    a = atom_find("mma_m16n8k16_b_ldmatrix_x2");
    ok = a && atom_lanes(a, 16, c, &err) == 0;
    for (int t = 0; ok && t < 32; t++)
        ok &= t < 16 ? c[t][0] == want[t][0] && c[t][1] == want[t][1] : c[t][0] == ATOM_INACTIVE;
    CHECK(ok && a->matrices == 2, "ldmatrix.x2 B lanes (n, k) = CuTe BLayout + PTX; lanes 16-31 idle");

    /* .trans: matrix j is stored with rows along k; its row q is the k that
     * column position 2*(t%4)+{0,1} of register j covers: k = min over the
     * register's values of k + q, n = 0.  Derived from BLayout's k set. */
    a = atom_find("mma_m16n8k16_b_ldmatrix_x2_trans");
    ok = a && atom_lanes(a, 16, c, &err) == 0 && a->trans;
    for (int j = 0; ok && j < 2; j++) {
        int kmin = 1 << 30;
        for (int t = 0; t < 32; t++)
            for (int v = 2 * j; v < 2 * j + 2; v++) {
                int r, cc;
                tv_at(&B, t, v, 8, &r, &cc);
                kmin = cc < kmin ? cc : kmin;
            }
        for (int q = 0; q < 8; q++)
            ok &= c[8 * j + q][0] == kmin + q && c[8 * j + q][1] == 0;
    }
    CHECK(ok, "ldmatrix.x2.trans B lanes (k, n) from BLayout's k blocks");

    /* stmatrix.x4 of two n8 accumulator tiles: registers (tile0 c0c1, tile0
     * c2c3, tile1 c0c1, tile1 c2c3) are matrices 0..3 */
    int t0[32][2];
    ldsm_rows(&C, 16, 2, 0, t0);
    ldsm_rows(&C, 16, 2, 8, got);
    for (int t = 0; t < 16; t++) {
        want[t][0] = t0[t][0], want[t][1] = t0[t][1];
        want[16 + t][0] = got[t][0], want[16 + t][1] = got[t][1];
    }
    a = atom_find("sm90_epilogue_stmatrix_x4");
    ok = a && atom_lanes(a, 16, c, &err) == 0 && a->op == INSTR_STMATRIX;
    for (int t = 0; ok && t < 32; t++)
        ok &= c[t][0] == want[t][0] && c[t][1] == want[t][1];
    CHECK(ok, "stmatrix.x4 epilogue lanes = SM80_16x8_Row twice + PTX stmatrix rule");

    /* cp.async: thread layout (rows, 8):(8, 1) -> thread 8r + c writes 16 bytes at column 16c */
    a = atom_find("cp_async_128_rows");
    ok = a && atom_lanes(a, 16, c, &err) == 0;
    for (int r = 0; ok && r < 4; r++)
        for (int cc = 0; cc < 8; cc++)
            ok &= c[8 * r + cc][0] == r && c[8 * r + cc][1] == cc * 8;
    CHECK(ok && a->bytes == 16 && a->op == INSTR_ST, "cp.async 128-bit rows for fp16");
    CHECK(atom_lanes(atom_find("row_walk_32"), 64, c, &err) < 0 && strcmp(err.field, "atom") == 0,
          "a 32-bit walk refuses 64-bit elements");
    int n;
    const struct atom *all = atom_list(&n);
    int cited = n >= 11;
    for (int i = 0; i < n; i++)
        cited &= strlen(all[i].source) > 10 && atom_find(all[i].name) == &all[i];
    CHECK(cited, "%d atoms, each with a source", n);
}

static cJSON *access(const char *body, int *status)
{
    struct api_response r = client_api_call("POST", "/api/layout/access", NULL,
                                            "application/json", body, 0);
    *status = r.status;
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    free(r.body);
    return j;
}

static int num(const cJSON *j, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

static void test_seed_004(void)
{
    int st;
    /* seed 004: ldmatrix.x4 on 128-byte rows (64 fp16 per row) is 8-way */
    cJSON *j = access("{\"layout\":\"(_16,_64):(_64,_1)\",\"element_bits\":16,"
                      "\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[0,0]}", &st);
    CHECK(st == 200 && num(j, "wavefronts") == 32 && num(j, "ideal_wavefronts") == 4 &&
              num(j, "ways") == 8,
          "seed 004: ldmatrix.x4 on 128-byte rows without a swizzle: 32 wavefronts, 8-way");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "offsets");
    CHECK(cJSON_GetArraySize(offs) == 32 && cJSON_GetArrayItem(offs, 1)->valueint == 128 &&
              cJSON_GetArrayItem(offs, 16)->valueint == 16,
          "lane 1 at row 1 (byte 128), lane 16 at k = 8 (byte 16)");
    cJSON_Delete(j);
    j = access("{\"layout\":\"Sw<3,3,3> o _0 o (_16,_64):(_64,_1)\",\"element_bits\":16,"
               "\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[0,0]}", &st);
    CHECK(st == 200 && num(j, "wavefronts") == 4 && num(j, "bank_conflicts") == 0,
          "seed 004: with Sw<3,3,3> on fp16 it is conflict-free (4 wavefronts)");
    cJSON_Delete(j);
    /* the same through CuTe's GMMA atom as printed (swizzle on bytes) */
    j = access("{\"layout\":\"Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_2),(_64,_1)):((_64,_512),(_1,_0))\","
               "\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[0,8]}", &st);
    CHECK(st == 200 && num(j, "wavefronts") == 4, "K_SW128 atom, ldmatrix.x4 at k = 8: 4 wavefronts");
    cJSON_Delete(j);
    /* a column walk of 32-bit loads on fp32 rows of 32: 32-way, padded 33: clean */
    j = access("{\"layout\":\"(_32,_32):(_32,_1)\",\"element_bits\":32,\"atom\":\"col_walk_32\"}", &st);
    CHECK(st == 200 && num(j, "wavefronts") == 32, "column walk on 128-byte rows: 32 wavefronts");
    cJSON_Delete(j);
    j = access("{\"layout\":\"(_32,_32):(_33,_1)\",\"element_bits\":32,\"atom\":\"col_walk_32\"}", &st);
    CHECK(st == 200 && num(j, "wavefronts") == 1, "padded stride 33: 1 wavefront");
    cJSON_Delete(j);
    /* explicit lanes, a Triton layout */
    char body[2048];
    snprintf(body, sizeof body, "{\"layout\":\"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
             "order = [1, 0]}>\",\"shape\":[128,64],\"op\":\"ld\",\"bytes\":16,\"lanes\":["
             "[0,0],[1,0],[2,0],[3,0],[4,0],[5,0],[6,0],[7,0],null,null,null,null,null,null,null,null,"
             "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]}");
    j = access(body, &st);
    CHECK(st == 200 && num(j, "wavefronts") == 1, "Triton 128B-like swizzle: a column of 8 16-byte loads is 1 wavefront");
    cJSON_Delete(j);
    static const struct { const char *body; const char *field; } bad[] = {
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[8,0]}", "origin"},
        {"{\"layout\":\"(_16,_64):(_1,_16)\",\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\"}", "atom"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"atom\":\"nope\"}", "atom"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"atom\":\"row_walk_32\",\"op\":\"st\"}", "op"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\"}", "lanes"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"op\":\"ld\",\"lanes\":[[0,0]]}", "lanes"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"op\":\"ld\",\"bytes\":4,\"lanes\":[[16,0],null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]}", "lanes[0]"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"op\":\"ld\",\"bytes\":4,\"lanes\":[[0,1],null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]}", "lanes[0]"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"op\":\"ld\",\"bytes\":4,\"lanes\":[[0,63],null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]}", "lanes[0]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = access(bad[i].body, &st);
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
        CHECK(st == 400 && cJSON_IsString(f) && strcmp(f->valuestring, bad[i].field) == 0,
              "%s: want 400 on %s, got %d %s", bad[i].body, bad[i].field, st,
              cJSON_IsString(f) ? f->valuestring : "-");
        cJSON_Delete(j);
    }
    struct api_response r = client_api_call("GET", "/api/atoms", NULL, NULL, NULL, 0);
    j = r.body ? cJSON_Parse(r.body) : NULL;
    CHECK(r.status == 200 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "atoms")) >= 11,
          "GET /api/atoms lists them");
    cJSON_Delete(j);
    free(r.body);
}

/* A thread layout's text, in "thread", reads through the thread-form table:
 * a named atom there is the same access as in "atom". */
static void test_thread_text_is_read_by_the_thread_form_table(void)
{
    int st, st2;
    cJSON *a = access("{\"layout\":\"(_16,_64):(_64,_1)\",\"atom\":\"mma_m16n8k16_a_ldmatrix_x4\","
                      "\"origin\":[0,8]}", &st);
    cJSON *b = access("{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":\"mma_m16n8k16_a_ldmatrix_x4\","
                      "\"origin\":[0,8]}", &st2);
    char *pa = a ? cJSON_PrintUnformatted(a) : NULL, *pb = b ? cJSON_PrintUnformatted(b) : NULL;
    CHECK(st == 200 && st2 == 200 && pa && pb && strcmp(pa, pb) == 0,
          "\"thread\": an atom's name gives the \"atom\" answer");
    free(pa);
    free(pb);
    cJSON_Delete(a);
    cJSON_Delete(b);
    static const struct { const char *body; const char *field; } bad[] = {
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":\"#ttg.nope<{}>\"}", "thread"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":7}", "thread"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":\"row_walk_32\",\"atom\":\"row_walk_32\"}", "thread"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":\"row_walk_32\",\"op\":\"st\"}", "op"},
        {"{\"layout\":\"(_16,_64):(_64,_1)\",\"thread\":\"mma_m16n8k16_a_ldmatrix_x4\",\"origin\":[8,0]}", "origin"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *j = access(bad[i].body, &st);
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "error"), "field");
        CHECK(st == 400 && cJSON_IsString(f) && strcmp(f->valuestring, bad[i].field) == 0,
              "%s: want 400 on %s, got %d %s", bad[i].body, bad[i].field, st,
              cJSON_IsString(f) ? f->valuestring : "-");
        cJSON_Delete(j);
    }
    /* smem_ptr[32b] with no element_bits is a 32-bit layout here too: the
     * answer is the one with element_bits 32 said */
    cJSON *j = access("{\"layout\":\"Sw<3,2,3> o smem_ptr[32b](unset) o (_32,_32):(_32,_1)\","
                      "\"atom\":\"col_walk_32\"}", &st);
    cJSON *k = access("{\"layout\":\"Sw<3,2,3> o smem_ptr[32b](unset) o (_32,_32):(_32,_1)\","
                      "\"element_bits\":32,\"atom\":\"col_walk_32\"}", &st2);
    pa = j ? cJSON_PrintUnformatted(j) : NULL, pb = k ? cJSON_PrintUnformatted(k) : NULL;
    CHECK(st == 200 && st2 == 200 && num(j, "element_bits") == 32 && pa && pb &&
              strcmp(pa, pb) == 0,
          "smem_ptr[32b] and no element_bits: the element_bits 32 answer (got %d)", st);
    free(pa);
    free(pb);
    cJSON_Delete(j);
    cJSON_Delete(k);
}

/* F2 bases: instruction k takes its register group, warp and block from k's
 * bits (low to high), lane t XORs the lane bases of t's bits. */
static void test_thread_bases_enumerate_instructions_as_triton_does(void)
{
    static struct thr t;
    memset(&t, 0, sizeof t);
    t.kind = THR_BASES;
    t.rank = 2;
    t.lanes = 32;
    /* 4 registers (2 bits: column 1, 2), 32 lanes (rows 1..16), 2 warps (column 4) */
    t.n[THR_REGISTER] = 2, t.n[THR_LANE] = 5, t.n[THR_WARP] = 1;
    static const uint32_t reg[2][2] = {{0, 1}, {0, 2}}, lane[5][2] = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}};
    for (int i = 0; i < 2; i++)
        t.basis[THR_REGISTER][i][0] = reg[i][0], t.basis[THR_REGISTER][i][1] = reg[i][1];
    for (int i = 0; i < 5; i++)
        t.basis[THR_LANE][i][0] = lane[i][0], t.basis[THR_LANE][i][1] = lane[i][1];
    t.basis[THR_WARP][0][1] = 4;
    CHECK(thr_instructions(&t, 0) == 8 && thr_instructions(&t, 1) == 4 &&
              thr_instructions(&t, 2) == 2,
          "4 registers x 2 warps: 8 scalar instructions, 4 of 2-vectors, 2 of 4-vectors");
    int64_t c[THR_MAX_LANES][LAY_MAX_RANK];
    thr_instr(&t, 1, 3, c);     /* vectors of 2: k = 3 is register group 1 (col 2), warp 1 (col 4) */
    CHECK(c[0][0] == 0 && c[0][1] == 6 && c[5][0] == 5 && c[5][1] == 6 && c[31][0] == 31,
          "instruction 3 of 2-vectors: lane 0 at (0, 6), lane 5 at (5, 6), lane 31 at row 31");
    thr_instr(&t, 0, 1, c);     /* scalars: k = 1 is register 1 (col 1), warp 0 */
    CHECK(c[3][0] == 3 && c[3][1] == 1, "instruction 1 of scalars: lane 3 at (3, 1)");
}

int main(void)
{
    test_sources();
    test_seed_004();
    test_thread_text_is_read_by_the_thread_form_table();
    test_thread_bases_enumerate_instructions_as_triton_does();
    return check_summary("test_atoms");
}
