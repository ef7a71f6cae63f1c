/* test_access.c - the wavefront model: the seeds' worked numbers, a
 * brute-force oracle for the 32-bit rule and for atomics over random
 * patterns, input validation, the atomic forms against ptxas, and every
 * pattern measured on a GPU (tests/data/calib_*.json, sweep_*.json,
 * atomics_*.json): the model must reproduce both numbers, ncu wavefronts and
 * clock64 cycles, and give none for the atomics that are not native.
 * TEST_SMALL=1 (make test's sanitizer build) runs a tenth of each random
 * sweep; make test runs them whole on the plain -O2 build (build/plain). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/access.h"
#include "api/api_read.h"
#include "model/atomic.h"
#include "model/atomic_form.h"
#include "model/atomic_warps.h"
#include "model/ncu_csv.h"
#include "model/pattern.h"
#include "model/swizzle.h"
#include "check.h"
#include "read_json.h"

static int small;   /* TEST_SMALL: a tenth of the random trials (the sweeps were 83% of the run) */

static struct instr instr(enum instr_op op, uint32_t bytes, uint32_t matrices)
{
    struct instr in = {.op = op, .bytes = bytes, .matrices = matrices,
                           .bank_bytes = 4, .banks = 32};
    return in;
}

static uint32_t cost(const struct instr *in, uint32_t *cycles)
{
    struct sz_error err;
    if (instr_check(in, &err) < 0) {
        fprintf(stderr, "unexpected reject: %s: %s\n", err.field, err.message);
        return 0;
    }
    struct acc_result r;
    acc_cost(in, &r);
    if (cycles)
        *cycles = r.cycles;
    return r.wavefronts;
}

/* Seed 001: warp transposes a 16x32 fp32 tile; thread t reads element
 * (m = t % 16, n = 2r + t / 16) at offset 4 * (32 m + col(m, n)).  The seed's
 * table: 16 wavefronts row-major, 2 with n ^ m, 1 with n ^ 2m, every step r. */
static void test_seed_transpose(void)
{
    for (uint32_t r = 0; r < 16; r++) {
        uint32_t want[3] = {16, 2, 1};
        for (int k = 0; k < 3; k++) {
            struct instr in = instr(INSTR_LD, 4, 1);
            for (uint32_t t = 0; t < 32; t++) {
                uint32_t m = t % 16, n = 2 * r + t / 16;
                uint32_t col = k == 0 ? n : k == 1 ? (n ^ m) : (n ^ (2 * m));
                in.offsets[t] = 4 * (32 * m + col);
            }
            CHECK(cost(&in, NULL) == want[k], "transpose step %u swizzle %d: %u, want %u", r,
                  k, cost(&in, NULL), want[k]);
        }
        /* and the store side, row r by thread t, is 1 for all three */
        struct instr st = instr(INSTR_ST, 4, 1);
        for (uint32_t t = 0; t < 32; t++)
            st.offsets[t] = 4 * (32 * r + (t ^ (2 * r)));
        CHECK(cost(&st, NULL) == 1, "transpose store step %u", r);
    }
}

/* Seed 004: ldmatrix.x4 over a 64-wide fp16 tile (128-byte rows): lane t gives
 * row t % 8 of matrix t / 8, the matrices side by side in 16-byte columns.
 * Unswizzled every row of a matrix starts a bank lap later: 8-way, 32
 * wavefronts.  Swizzle<3,4,3> spreads the rows over 8 bank groups: 4. */
static void test_seed_ldmatrix(void)
{
    struct swz z;
    swz_init(&z, 3, 4, 3, NULL);
    for (int trans = 0; trans <= 1; trans++) {
        struct instr plain = instr(INSTR_LDMATRIX, 16, 4), sw = plain;
        plain.trans = sw.trans = trans;
        for (uint32_t t = 0; t < 32; t++) {
            plain.offsets[t] = (t % 8) * 128 + (t / 8) * 16;
            sw.offsets[t] = swz_apply(&z, plain.offsets[t]);
        }
        CHECK(cost(&plain, NULL) == 32, "ldmatrix.x4%s unswizzled: %u", trans ? ".trans" : "",
              cost(&plain, NULL));
        CHECK(cost(&sw, NULL) == 4, "ldmatrix.x4%s Swizzle<3,4,3>: %u", trans ? ".trans" : "",
              cost(&sw, NULL));
        /* seed 004's words: "8-way" unswizzled, 32 - 4 = 28 conflicts; none swizzled */
        struct acc_result r;
        acc_cost(&plain, &r);
        CHECK(r.ways == 8 && r.bank_conflicts == 28 && r.calibrated, "unswizzled: %u-way, %u",
              r.ways, r.bank_conflicts);
        acc_cost(&sw, &r);
        CHECK(r.ways == 1 && r.bank_conflicts == 0, "swizzled: %u-way, %u", r.ways,
              r.bank_conflicts);
    }
}

/* The 32-bit rule, written independently: sort the distinct word addresses,
 * count how many fall in each bank, take the largest count. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t oracle_32bit(const struct instr *in)
{
    uint32_t words[32], n = 0;
    for (int t = 0; t < 32; t++)
        if (in->offsets[t] != INSTR_INACTIVE)
            words[n++] = in->offsets[t] / 4;
    if (n == 0)
        return 0;
    qsort(words, n, sizeof words[0], cmp_u32);
    uint32_t per_bank[32] = {0}, best = 0;
    for (uint32_t i = 0; i < n; i++)
        if (i == 0 || words[i] != words[i - 1])
            if (++per_bank[words[i] % 32] > best)
                best = per_bank[words[i] % 32];
    return best;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;    /* xorshift64 */
    return (uint32_t)(rng >> 16);
}

static void test_oracle_32bit(void)
{
    int failures = 0;
    const int trials = small ? 20000 : 200000;
    for (int i = 0; i < trials; i++) {
        struct instr in = instr(rnd() & 1 ? INSTR_LD : INSTR_ST, 4, 1);
        /* Mix of spaces so that conflicts, broadcasts and inactive lanes all occur. */
        uint32_t span = 4u << (rnd() % 12), inactive = rnd() % 4;
        for (int t = 0; t < 32; t++)
            in.offsets[t] = (inactive && rnd() % 4 == 0) ? (uint32_t)INSTR_INACTIVE
                                                         : (uint32_t)((rnd() % span) & ~3u);
        uint32_t got = cost(&in, NULL), want = oracle_32bit(&in);
        CHECK_QUIET(failures, got == want, "trial %d: model %u, oracle %u", i, got, want);
        /* one phase of 32 lanes: it is the worst one, and the ideal is 1 (0 if idle) */
        struct acc_result r;
        acc_cost(&in, &r);
        CHECK_QUIET(failures, r.ways == want && r.bank_conflicts == (want ? want - 1 : 0),
                    "trial %d: %u-way, %u conflicts, oracle %u", i, r.ways, r.bank_conflicts,
                    want);
    }
    CHECK(failures == 0, "%d of %d random 32-bit patterns disagree", failures, trials);
}

static void test_validation(void)
{
    struct sz_error err;
    struct instr in = instr(INSTR_LD, 8, 1);
    for (int t = 0; t < 32; t++)
        in.offsets[t] = 8 * t;
    CHECK(instr_check(&in, &err) == 0, "aligned 8-byte");
    in.offsets[5] = 4;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "offsets[5]") &&
          strstr(err.message, "aligned"), "misaligned 8-byte: %s", err.message);
    in = instr(INSTR_LD, 3, 1);
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "bytes"), "3 bytes");
    in = instr(INSTR_LD, 32, 1);
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "bytes"), "32 bytes");
    in = instr(INSTR_LDMATRIX, 16, 3);
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "matrices"), "x3");
    in = instr(INSTR_LDMATRIX, 16, 2);
    for (int t = 0; t < 32; t++)
        in.offsets[t] = t < 16 ? 16u * (uint32_t)t : INSTR_INACTIVE;
    CHECK(instr_check(&in, &err) == 0, "x2 needs lanes 0..15 only: %s", err.message);
    in.offsets[3] = INSTR_INACTIVE;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "offsets[3]"), "x2 lane 3 missing");
    in.offsets[3] = 8;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "offsets[3]"), "row not 16B aligned");
    in = instr(INSTR_LD, 4, 1);
    in.bank_bytes = 3;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "bank_bytes"), "bank_bytes 3");
    in.bank_bytes = 4;
    in.banks = 256;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "banks"), "256 banks");
    in = instr(INSTR_LD, 4, 1);
    in.offsets[0] = 0x80000000u;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "offsets[0]"), "offset 2^31");
}

/* Other geometries: the same rules on their own bank row.  8 banks of 8 bytes
 * (a 64-byte row): 16-byte accesses move 4 lanes per phase. */
static void test_geometry(void)
{
    struct instr in = instr(INSTR_LD, 16, 1);
    in.bank_bytes = 8;
    in.banks = 8;
    for (int t = 0; t < 32; t++)
        in.offsets[t] = 16 * t;
    struct acc_result r;
    acc_cost(&in, &r);
    CHECK(r.nphases == 8 && r.wavefronts == 8, "64-byte bank row: %u phases, %u wavefronts",
          r.nphases, r.wavefronts);
    in = instr(INSTR_LD, 4, 1);
    in.bank_bytes = 1;
    in.banks = 128;
    for (int t = 0; t < 32; t++)
        in.offsets[t] = 128 * t;    /* every lane on bank 0, 4 distinct words each */
    acc_cost(&in, &r);
    CHECK(r.wavefronts == 32, "1-byte banks, 128-byte stride: %u", r.wavefronts);
}

/* Per-lane banks, ways and conflicts on random instructions of every width and
 * a few geometries, each against a brute force: a lane's banks by walking its
 * bytes; a phase's degree by counting distinct words per bank over the lanes
 * the model put in that phase. */
static void test_lane_banks_and_ways(void)
{
    static const uint32_t geoms[][2] = {{4, 32}, {8, 16}, {1, 128}, {2, 8}, {32, 4}};
    static const uint32_t widths[] = {1, 2, 4, 8, 16};
    int failures = 0;
    const int trials = small ? 2000 : 20000;
    for (int i = 0; i < trials; i++) {
        enum instr_op op = (enum instr_op)(rnd() % 4);
        int matrix = op == INSTR_LDMATRIX || op == INSTR_STMATRIX;
        struct instr in = instr(op, matrix ? 16 : widths[rnd() % 5], matrix ? 1u << (rnd() % 3) : 1);
        in.bank_bytes = geoms[i % 5][0];
        in.banks = geoms[i % 5][1];
        uint32_t w = instr_lane_bytes(&in), span = 64u << (rnd() % 8);
        for (uint32_t t = 0; t < 32; t++) {
            int need = matrix && t < 8 * in.matrices;
            in.offsets[t] = !need && rnd() % 5 == 0 ? (uint32_t)INSTR_INACTIVE
                                                      : (rnd() % span) / w * w;
        }
        /* vector loads pair when lane pairs share addresses: make that common */
        if (rnd() % 3 == 0)
            for (uint32_t t = 0; t < 32; t += 2)
                in.offsets[t + 1] = in.offsets[t];
        struct sz_error err;
        if (instr_check(&in, &err) < 0) {
            CHECK_QUIET(failures, 0, "trial %d refused: %s %s", i, err.field, err.message);
            continue;
        }
        struct acc_result r;
        acc_cost(&in, &r);
        uint32_t worst = 0;
        for (uint32_t p = 0; p < r.nphases; p++) {
            uint32_t words[512], nw = 0, per_bank[128] = {0}, most = 0;
            for (uint32_t t = 0; t < 32; t++) {
                if (!(r.phases[p].active_mask >> t & 1))
                    continue;
                for (uint32_t byte = in.offsets[t]; byte < in.offsets[t] + w; byte++) {
                    uint32_t word = byte / in.bank_bytes, k = 0;
                    while (k < nw && words[k] != word)
                        k++;
                    if (k == nw) {
                        words[nw++] = word;
                        if (++per_bank[word % in.banks] > most)
                            most = per_bank[word % in.banks];
                    }
                }
            }
            CHECK_QUIET(failures, r.phases[p].max_per_bank == most,
                        "trial %d phase %u: max_per_bank %u, brute %u", i, p,
                        r.phases[p].max_per_bank, most);
            if (most > worst)
                worst = most;
        }
        CHECK_QUIET(failures, r.ways == worst, "trial %d: %u-way, brute %u", i, r.ways, worst);
        CHECK_QUIET(failures, r.bank_conflicts + r.ideal_wavefronts == r.wavefronts,
                    "trial %d: conflicts %u + ideal %u != %u", i, r.bank_conflicts,
                    r.ideal_wavefronts, r.wavefronts);
        CHECK_QUIET(failures, r.calibrated == (in.bank_bytes == 4 && in.banks == 32),
                    "trial %d: calibrated %d", i, r.calibrated);
        for (uint32_t t = 0; t < 32; t++) {
            if (r.lane_phase[t] < 0)
                continue;
            uint32_t words = 0, last = UINT32_MAX;
            for (uint32_t byte = in.offsets[t]; byte < in.offsets[t] + w; byte++)
                if (byte / in.bank_bytes != last) {
                    last = byte / in.bank_bytes;
                    words++;
                }
            CHECK_QUIET(failures, r.lane_bank[t] == in.offsets[t] / in.bank_bytes % in.banks &&
                        r.lane_nbanks[t] == words,
                        "trial %d lane %u: bank %u x%u, brute %u x%u", i, t, r.lane_bank[t],
                        r.lane_nbanks[t], in.offsets[t] / in.bank_bytes % in.banks, words);
        }
    }
    CHECK(failures == 0, "%d of %d random instructions disagree", failures, trials);
}

/* ---- the calibrated suite ------------------------------------------------ */

/* A measured row into `in`.  Atomic rows (atomics_*.json) carry "func" and
 * "type" instead of "bytes" and "matrices"; an atom whose result is unused
 * ("result_used": false) compiles to red's SASS (access.c, A4) and is costed
 * as red. */
static int load_pattern(const cJSON *p, struct instr *in)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(p, "op");
    *in = instr(INSTR_LD, 4, 1);
    struct sz_error op_err;
    int found = instr_op_parse(cJSON_IsString(op) ? op->valuestring : NULL, &in->op,
                               &op_err) == 0;
    if (found && instr_is_atomic(in->op)) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(p, "func");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(p, "type");
        struct sz_error err;
        if (instr_func_parse(cJSON_IsString(f) ? f->valuestring : NULL, &in->func, &err) < 0 ||
            instr_type_parse(cJSON_IsString(ty) ? ty->valuestring : NULL, &in->type, &err) < 0)
            return -1;
        in->bytes = instr_type_bytes(in->type);
        if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(p, "result_used")))
            in->op = INSTR_RED;
    } else if (found) {
        in->bytes = (uint32_t)cJSON_GetObjectItemCaseSensitive(p, "bytes")->valueint;
        in->matrices = (uint32_t)cJSON_GetObjectItemCaseSensitive(p, "matrices")->valueint;
    }
    in->trans = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "trans"));
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(p, "offsets");
    if (!found || cJSON_GetArraySize(offs) != 32)
        return -1;
    for (int t = 0; t < 32; t++) {
        const cJSON *o = cJSON_GetArrayItem(offs, t);
        in->offsets[t] = cJSON_IsNull(o) ? INSTR_INACTIVE : (uint32_t)o->valuedouble;
    }
    return 0;
}

/* Every measured pattern, both numbers.  Which ncu number is the truth:
 * - loads and ldmatrix: the hardware counter l1tex__..._op_ld per instruction
 *   ("wavefronts_hw"), which is integral for every load;
 * - stores and stmatrix: the Source-page metric ("wavefronts"), because the
 *   hardware op_st counter over-counts by 0.02-0.46 per instruction, a
 *   non-integral excess that costs no cycle (clock64 reads the integer);
 * - source_wavefronts must equal the Source-page metric everywhere;
 * - cycles within 2% of clock64, taken from the 2048-iteration run
 *   (raw.cycles_iters2048): the launch's fixed cost (barriers, clock reads)
 *   is a 2% surcharge on a 1-cycle instruction at 512 iterations and 0.7% at
 *   2048, while the per-access cost is the same in both. */
/* A measured row loaded, checked by the schema and costed: 0, or -1. */
static int cost_row(const cJSON *p, struct instr *in, struct acc_result *r)
{
    struct sz_error err;
    if (load_pattern(p, in) < 0 || instr_check(in, &err) < 0)
        return -1;
    acc_cost(in, r);
    return 0;
}


/* One calib_ or sweep_ file; `files` counts the ones that parse. */
static int calibration_file(const char *file, const char *path, const cJSON *j, void *files)
{
    if (j == NULL) {
        CHECK(0, "%s: unreadable, or not JSON", path);
        return 0;
    }
    const cJSON *pats = cJSON_GetObjectItemCaseSensitive(j, "patterns");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    int count = 0, failures = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, pats) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        struct instr in;
        struct acc_result r;
        if (cost_row(p, &in, &r) < 0) {
            CHECK_QUIET(failures, 0, "%s: pattern does not load", name);
            continue;
        }
        double src = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        const cJSON *hwj = cJSON_GetObjectItemCaseSensitive(p, "wavefronts_hw");
        const cJSON *raw = cJSON_GetObjectItemCaseSensitive(p, "raw");
        const cJSON *c2048 = cJSON_GetObjectItemCaseSensitive(raw, "cycles_iters2048");
        double cyc = cJSON_IsNumber(c2048)
                         ? c2048->valuedouble
                         : cJSON_GetObjectItemCaseSensitive(p, "cycles")->valuedouble;
        int load = in.op == INSTR_LD || in.op == INSTR_LDMATRIX;
        double truth = load && cJSON_IsNumber(hwj) ? hwj->valuedouble : src;
        CHECK_QUIET(failures, fabs(truth - round(truth)) < 0.011,
                    "%s: the reference count %.2f is not an integer", name, truth);
        CHECK_QUIET(failures, fabs(r.wavefronts - truth) < 0.011,
                    "%s: model %u wavefronts, ncu %.2f", name, r.wavefronts, truth);
        CHECK_QUIET(failures, fabs(r.source_wavefronts - src) < 0.011,
                    "%s: model %u Source-page wavefronts, ncu %.2f", name,
                    r.source_wavefronts, src);
        CHECK_QUIET(failures, fabs(r.cycles - cyc) <= 0.02 * r.cycles,
                    "%s: model %u cycles, clock64 %.3f", name, r.cycles, cyc);
        count++;
    }
    /* >= 50: the smallest suite, sweep_vec_partial, has 55 rows */
    CHECK(failures == 0 && count >= 50, "%s (%s): %d of %d patterns disagree", path,
          cJSON_IsString(dev) ? dev->valuestring : "?", failures, count);
    printf("calibration %s: %d patterns on %s\n", file, count,
           cJSON_IsString(dev) ? dev->valuestring : "?");
    ++*(int *)files;
    return 0;
}

static void test_calibration(void)
{
    int files = 0;
    /* calib_*: the suite (gen_patterns.py); sweep_*: issue 17's sweeps. */
    data_each("calib_|sweep_", calibration_file, &files);
    CHECK(files >= 1, "no tests/data/calib_*.json found (run make test from the root)");
}

/* ---- atomics ----------------------------------------------------------------- */

/* The forms: instr.c's table against what ptxas said for every (op, func,
 * type) of PTX's lists (tests/calib/atomics/ptxas_sm90.json, 180 forms). */
/* The field instr_check names for a form PTX lacks: "func" when the op has
 * no type at all for it (red exch/cas), else "type". */
static const char *allowed_types_field(int op, int f)
{
    for (int t = 0; t < INSTR_NTYPES; t++)
        if (instr_form_allowed((enum instr_op)op, (enum instr_func)f, (enum instr_type)t))
            return "type";
    return "func";
}

static void test_atomic_forms(void)
{
    cJSON *j = read_json("tests/calib/atomics/ptxas_sm90.json");
    int n = 0, failures = 0, allowed = 0;
    for (int op = INSTR_ATOM; op <= INSTR_RED; op++)
        for (int f = 0; f < INSTR_NFUNCS; f++)
            for (int t = 0; t < INSTR_NTYPES; t++) {
                char key[64];
                snprintf(key, sizeof key, "%s_%s_%s", instr_op_name((enum instr_op)op),
                         instr_func_name((enum instr_func)f), instr_type_name((enum instr_type)t));
                const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, key);
                const cJSON *ok = cJSON_GetObjectItemCaseSensitive(e, "ok");
                int want = cJSON_IsTrue(ok);
                int got = instr_form_allowed((enum instr_op)op, (enum instr_func)f,
                                             (enum instr_type)t);
                /* PTX's red has no exch or cas at all: gen_ptxas_check.py did not
                 * try them (180 forms in the file) */
                int absent = op == INSTR_RED && (f == INSTR_EXCH || f == INSTR_CAS);
                CHECK_QUIET(failures, (absent ? e == NULL : cJSON_IsBool(ok)) && got == want,
                            "%s: ptxas %s, instr_form_allowed %d", key,
                            cJSON_IsBool(ok) ? (want ? "accepts" : "refuses") : "missing", got);
                n += cJSON_IsBool(ok);
                allowed += got;
                /* what instr_check says of it, and on which field */
                struct instr in = instr((enum instr_op)op, instr_type_bytes((enum instr_type)t), 1);
                in.func = (enum instr_func)f;
                in.type = (enum instr_type)t;
                for (uint32_t k = 0; k < 32; k++)
                    in.offsets[k] = 8 * k;
                struct sz_error err;
                int rc = instr_check(&in, &err);
                CHECK_QUIET(failures, (rc == 0) == want &&
                            (want || !strcmp(err.field, allowed_types_field(op, f))),
                            "%s: instr_check %d on %s", key, rc, rc ? err.field : "-");
            }
    CHECK(failures == 0 && n == 180 && allowed == 50,
          "ptxas_sm90.json: %d disagree of %d forms (%d allowed, want 50)", failures, n, allowed);
    cJSON_Delete(j);
}

static void test_atomic_validation(void)
{
    struct sz_error err;
    struct instr in = instr(INSTR_ATOM, 4, 1);
    in.func = INSTR_MIN;
    in.type = INSTR_F32;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "type") &&
          strstr(err.message, "u32, s32, u64, s64"), "atom.min.f32: %s %s", err.field,
          err.message);
    in = instr(INSTR_RED, 4, 1);
    in.func = INSTR_CAS;
    in.type = INSTR_B32;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "func") &&
          strstr(err.message, "use atom"), "red.cas: %s %s", err.field, err.message);
    in = instr(INSTR_ATOM, 4, 1);
    in.type = INSTR_U64;    /* add.u64 is 8 bytes */
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "bytes"), "u64 in 4 bytes");
    in.bytes = 8;
    in.offsets[3] = 4;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "offsets[3]") &&
          strstr(err.message, "8-byte aligned"), "u64 at 4: %s", err.message);
    in = instr(INSTR_LD, 4, 1);
    in.func = INSTR_MAX;
    CHECK(instr_check(&in, &err) < 0 && !strcmp(err.field, "func"), "ld with a func");
    /* any lanes may be off: atomics are not .sync.aligned */
    in = instr(INSTR_ATOM, 4, 1);
    for (int t = 0; t < 32; t++)
        in.offsets[t] = t == 5 ? 20u : INSTR_INACTIVE;
    CHECK(instr_check(&in, &err) == 0, "one lane: %s", err.message);
    /* the line format's op token */
    CHECK(instr_form_parse("red.max.s32", &in, &err) == 0 && in.op == INSTR_RED &&
          in.func == INSTR_MAX && in.type == INSTR_S32 && in.bytes == 4, "red.max.s32");
    CHECK(instr_form_parse("atom.cas.b64", &in, &err) == 0 && in.bytes == 8, "atom.cas.b64");
    CHECK(instr_form_parse("atom", &in, &err) == 0 && in.func == INSTR_ADD &&
          in.type == INSTR_U32, "bare atom: add.u32");
    CHECK(instr_form_parse("atom.add", &in, &err) < 0 && !strcmp(err.field, "op"), "atom.add");
    CHECK(instr_form_parse("ld.add.u32", &in, &err) < 0 && !strcmp(err.field, "op"), "ld.add");
    CHECK(instr_form_parse("atom.sub.u32", &in, &err) < 0 && !strcmp(err.field, "func"), "sub");
    CHECK(instr_form_parse("atom.add.u16", &in, &err) < 0 && !strcmp(err.field, "type"), "u16");
    CHECK(instr_form_parse("atom.add.u32.x", &in, &err) < 0 && !strcmp(err.field, "op"), "4 parts");
    char buf[32];
    in.op = INSTR_RED, in.func = INSTR_XOR, in.type = INSTR_B32;
    CHECK(!strcmp(instr_form_name(&in, buf, sizeof buf), "red.xor.b32"), "%s", buf);
}

/* The atomic rule, written independently (check_rule.py's): per phase of
 * 128 bytes' worth of lanes, per bank, count active lanes' words; the most
 * of them, twice for cas. */
static uint32_t oracle_atomic(const struct instr *in)
{
    uint32_t w = in->bytes, per = 128 / w, total = 0;
    for (uint32_t base = 0; base < 32; base += per) {
        uint32_t hits[32] = {0}, most = 0;
        for (uint32_t t = base; t < base + per; t++)
            if (in->offsets[t] != INSTR_INACTIVE)
                for (uint32_t word = in->offsets[t] / 4; word <= (in->offsets[t] + w - 1) / 4;
                     word++)
                    if (++hits[word % 32] > most)
                        most = hits[word % 32];
        total += most;
    }
    return total * (in->func == INSTR_CAS ? 2 : 1);
}

static void test_oracle_atomic(void)
{
    static const struct { enum instr_op op; enum instr_func f; enum instr_type t; } forms[] = {
        {INSTR_ATOM, INSTR_ADD, INSTR_U32}, {INSTR_RED, INSTR_MIN, INSTR_S32},
        {INSTR_ATOM, INSTR_CAS, INSTR_B32}, {INSTR_ATOM, INSTR_EXCH, INSTR_B64},
        {INSTR_ATOM, INSTR_CAS, INSTR_B64},
    };
    int failures = 0;
    const int trials = small ? 5000 : 50000;
    for (int i = 0; i < trials; i++) {
        int k = (int)(rnd() % 5);
        struct instr in = instr(forms[k].op, instr_type_bytes(forms[k].t), 1);
        in.func = forms[k].f;
        in.type = forms[k].t;
        uint32_t span = 8u << (rnd() % 10), inactive = rnd() % 3;
        for (int t = 0; t < 32; t++)
            in.offsets[t] = inactive && rnd() % 3 == 0
                                ? (uint32_t)INSTR_INACTIVE
                                : (rnd() % span) / in.bytes * in.bytes;
        struct acc_result r;
        acc_cost(&in, &r);
        uint32_t want = oracle_atomic(&in);
        CHECK_QUIET(failures, r.wavefronts == want && r.source_wavefronts == want,
                    "trial %d: model %u, oracle %u", i, r.wavefronts, want);
        CHECK_QUIET(failures, r.atomic.conflict_wavefronts + r.atomic.serial_wavefronts ==
                    r.bank_conflicts && r.bank_conflicts + r.ideal_wavefronts == r.wavefronts,
                    "trial %d: %u + %u != %u", i, r.atomic.conflict_wavefronts,
                    r.atomic.serial_wavefronts, r.bank_conflicts);
        CHECK_QUIET(failures, r.atomic.cycles >= r.wavefronts && r.atomic.cycles >= 2.0,
                    "trial %d: cycles %.2f", i, r.atomic.cycles);
        /* each phase's most lanes on one address (atomic.c's hashed count),
         * against comparing every pair of the phase's active lanes */
        for (uint32_t p = 0; p < r.nphases; p++) {
            uint32_t most = 0, m = r.phases[p].active_mask;
            for (uint32_t t = 0; t < 32; t++) {
                uint32_t same = 0;
                for (uint32_t u = 0; u < 32 && (m >> t & 1); u++)
                    same += (m >> u & 1) && in.offsets[u] == in.offsets[t];
                most = same > most ? same : most;
            }
            CHECK_QUIET(failures, r.phases[p].lanes_per_address == most,
                        "trial %d phase %u: %u lanes on one address, pairs say %u", i, p,
                        r.phases[p].lanes_per_address, most);
        }
    }
    CHECK(failures == 0, "%d of %d random atomics disagree with the oracle", failures, trials);
    /* not native: phases and lanes, no count */
    struct instr in = instr(INSTR_ATOM, 4, 1);
    in.type = INSTR_F32;
    for (int t = 0; t < 32; t++)
        in.offsets[t] = 0;
    struct acc_result r;
    acc_cost(&in, &r);
    char v[512];
    CHECK(!r.atomic.native && r.wavefronts == 0 && acc_clock_cycles(&r) == 0 &&
          r.nphases == 1 && r.atomic.lanes_per_address == 32 &&
          strstr(atomic_verdict(&in, &r, v, sizeof v), "no exact count"),
          "add.f32 on one word: %u %.2f %s", r.wavefronts, acc_clock_cycles(&r), v);
}

/* A row whose cycles A5's atom floor sets (atomic.c): atom with its result
 * used (not cas: its own floor), 4 bytes, every lane on, a branch per atomic,
 * one or two wavefronts (from three the pipe's w is more).  Read off the
 * instruction, not off the answer's words. */
static int at_a5_atom_floor(const struct instr *in, const struct acc_result *r)
{
    if (in->op != INSTR_ATOM || in->func == INSTR_CAS || in->bytes != 4 ||
        in->guard != INSTR_GUARD_EACH || r->wavefronts > 2)
        return 0;
    for (int t = 0; t < 32; t++)
        if (in->offsets[t] == INSTR_INACTIVE)
            return 0;
    return 1;
}

/* Every row of tests/data/atomics_*.json (the first sweep, 1460 rows, and
 * the second, atomics_floor_*, 324).  Native: Source-page wavefronts exact
 * (the hardware counter over-counts, access.c) and cycles within 2% of
 * clock64, every row (the API says cycles_exact for every native form).  Not
 * native: no count at all. */
static int atomic_data_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    const cJSON *p;
    int count = 0, native = 0, exact_cycles = 0, failures = 0, a5 = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        struct instr in;
        struct acc_result r;
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        int loaded = cost_row(p, &in, &r) == 0;
        CHECK_QUIET(failures, loaded, "%s: pattern does not load", name);
        if (!loaded)
            continue;
        count++;
        const cJSON *sass = cJSON_GetObjectItemCaseSensitive(p, "sass");
        int nat = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "native"));
        CHECK_QUIET(failures, r.atomic.native == nat && cJSON_IsString(sass) &&
                    (strstr(sass->valuestring, "CAST.SPIN") == NULL) == nat,
                    "%s: native %d, data %d (%s)", name, r.atomic.native, nat,
                    cJSON_IsString(sass) ? sass->valuestring : "?");
        if (!nat) {
            CHECK_QUIET(failures, r.wavefronts == 0 && acc_clock_cycles(&r) == 0,
                        "%s: not native, yet %u wavefronts", name, r.wavefronts);
            continue;
        }
        native++;
        const cJSON *wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts");
        double cyc = cJSON_GetObjectItemCaseSensitive(p, "cycles")->valuedouble;
        CHECK_QUIET(failures, cJSON_IsNumber(wf) && fabs(r.wavefronts - wf->valuedouble) <
                    0.011 && r.source_wavefronts == r.wavefronts,
                    "%s: model %u wavefronts, ncu %.2f", name, r.wavefronts,
                    cJSON_IsNumber(wf) ? wf->valuedouble : -1);
        double c = acc_clock_cycles(&r);
        CHECK_QUIET(failures, fabs(c - cyc) <= 0.02 * c,
                    "%s: model %.2f cycles, clock64 %.3f", name, c, cyc);
        exact_cycles += fabs(c - cyc) <= 0.02 * c;
        if (at_a5_atom_floor(&in, &r)) {
            /* A5's atom floor, one and two wavefronts: within 1% (one 2.2
             * for both was 1.6% under the one-wavefront rows) */
            a5++;
            CHECK_QUIET(failures, fabs(c - cyc) <= 0.01 * c,
                        "%s: A5 says %.3f cycles at %u wavefronts, clock64 %.3f (over 1%%)", name,
                        c, r.wavefronts, cyc);
        }
    }
    CHECK(a5 >= 12, "%s: %d rows at A5's atom floor, expected 12 or more", path, a5);
    int first = strncmp(file, "atomics_floor_", 14) != 0;
    CHECK(failures == 0 && count >= (first ? 1460 : 324) && native >= (first ? 740 : 324),
          "%s: %d of %d rows disagree (%d native)", path, failures, count, native);
    printf("atomics %s: %d rows, %d native: wavefronts exact on all, cycles within 2%% on "
           "%d (%d at A5's atom floor within 1%%)\n", file, count, native, exact_cycles, a5);
    return 0;
}

static void test_atomic_data(void)
{
    int files = data_each("atomics_", atomic_data_file, NULL);
    CHECK(files >= 1, "no tests/data/atomics_*.json found");
}

/* ---- the instruction-kind table (instr.c) ------------------------------ */

/* A row left out of the middle of instr_kinds[] is all NULL and 0: every row
 * must be whole, consistent with its flags, and findable by its name. */
static void every_kind_has_a_whole_row(void)
{
    for (int op = 0; op < INSTR_NOPS; op++) {
        const struct instr_kind *k = instr_kind((enum instr_op)op);
        CHECK(k && k->name && k->ptx && k->label && k->short_name, "kind %d: a name is missing",
              op);
        if (!k || !k->name)
            continue;
        enum instr_op back = INSTR_NOPS;
        struct sz_error err;
        CHECK(instr_op_parse(k->name, &back, &err) == 0 && back == (enum instr_op)op,
              "%s: its name does not parse back to its row", k->name);
        CHECK(k->ncu.source && k->ncu.wavefronts, "%s: no wavefront metric", k->name);
        CHECK(k->sass && k->ncu.sass_executed, "%s: no SASS opcode or Source-page count", k->name);
        CHECK(k->widths && (k->widths >> k->default_bytes & 1), "%s: default_bytes %u not "
              "among its widths", k->name, k->default_bytes);
        int matrix = (k->flags & INSTR_F_MATRIX) != 0, atomic = (k->flags & INSTR_F_ATOMIC) != 0;
        CHECK(matrix == (k->matrices != 0) && matrix == ((k->operands & INSTR_O_MATRICES) != 0),
              "%s: the matrix flag, matrices and the matrices operand disagree", k->name);
        CHECK(matrix ? (k->matrices >> k->default_matrices & 1) : k->default_matrices == 1,
              "%s: default_matrices %u", k->name, k->default_matrices);
        CHECK(atomic == ((k->operands & INSTR_O_FUNC) != 0), "%s: atomic flag vs func operand",
              k->name);
        CHECK(!((k->flags & INSTR_F_LOAD) && (k->flags & INSTR_F_STORE)),
              "%s: both load and store (a read-modify-write is INSTR_F_ATOMIC)", k->name);
        struct instr in;
        instr_defaults(&in, (enum instr_op)op);
        in.offsets[0] = 0;
        for (uint32_t t = 0; t < 8 * in.matrices && matrix; t++)
            in.offsets[t] = 16 * t;
        CHECK(instr_check(&in, &err) == 0, "%s: its defaults fail instr_check: %s", k->name,
              err.message);
        for (int j = 0; j < op; j++)
            CHECK(strcmp(instr_kinds[j].name, k->name) != 0, "%s: named twice", k->name);
    }
}

/* The allowed values an error names come from the table: every kind. */
static void the_op_error_names_every_kind(void)
{
    struct sz_error err;
    enum instr_op op;
    CHECK(instr_op_parse("nope", &op, &err) < 0 && strcmp(err.field, "op") == 0, "nope parsed");
    for (int k = 0; k < INSTR_NOPS; k++) {
        char quoted[40];
        snprintf(quoted, sizeof quoted, "\"%s\"", instr_kinds[k].name);
        CHECK(strstr(err.message, quoted) != NULL, "the op error lacks %s: %s", quoted,
              err.message);
    }
    char buf[96];
    CHECK(strcmp(instr_kind_names(INSTR_F_MATRIX, 0, 0, "/", buf, sizeof buf),
                 "ldmatrix/stmatrix") == 0, "%s", buf);
    CHECK(strcmp(instr_kind_names(0, INSTR_O_FUNC, 0, NULL, buf, sizeof buf), "atom and red") ==
          0, "%s", buf);
}

/* `name` occurs in `text` as a whole metric name (not inside a longer one). */
static int names_metric(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += n) {
        int before = p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'));
        int after = !(p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z'));
        if (before && after)
            return 1;
    }
    return 0;
}

struct metric_search {
    const char *metric;
    int found;
};

/* One data file: 1 (stop) when it measured s->metric. */
static int measures_metric(const char *file, const char *path, const cJSON *j, void *search)
{
    (void)file, (void)path;
    struct metric_search *s = search;
    const char *metric = s->metric;
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(j, "metrics_requested");
    const cJSON *un = cJSON_GetObjectItemCaseSensitive(j, "metrics_unavailable");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(j, "method");
    const cJSON *m;
    int requested = 0, unavailable = 0;
    cJSON_ArrayForEach(m, req) requested |= cJSON_IsString(m) && !strcmp(m->valuestring, metric);
    cJSON_ArrayForEach(m, un) unavailable |= cJSON_IsString(m) && !strcmp(m->valuestring, metric);
    s->found = (requested && !unavailable) ||
               (!req && cJSON_IsString(method) && names_metric(method->valuestring, metric));
    return s->found;
}

/* A raw page's column of `metric` with a number (ncu collected it; "n/a" it
 * could not). */
static int raw_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct metric_search *s = ctx;
    double v;
    (void)l;
    s->found |= ncu_field_is(&m->name, s->metric) && ncu_number(m->value.s, m->value.len, &v);
    return s->found;
}

/* Whether some file of tests/data measured `metric`: a calibration lists it
 * in metrics_requested and not in metrics_unavailable; an atomics sweep names
 * it in its method; or a raw page ncu wrote for the --ptx mode
 * (tests/data/ptx/ncu_csv/: the Source page's execution counts it requests)
 * holds it with a number. */
static int metric_measured(const char *metric)
{
    struct metric_search s = {metric, 0};
    data_each("", measures_metric, &s);
    static const char *const raw[] = {"hist_lane", "cp_async_pipeline", "inline_ptx"};
    for (size_t i = 0; i < sizeof raw / sizeof raw[0] && !s.found; i++) {
        char path[96];
        snprintf(path, sizeof path, "tests/data/ptx/ncu_csv/%s/raw.csv", raw[i]);
        char *text = client_slurp(path);
        struct ncu_csv_sink sink = {&s, NULL, raw_metric};
        if (text)
            ncu_csv_read(text, &sink, NULL, NULL);
        free(text);
    }
    return s.found;
}

/* The defect this table fixed: /api/conflicts named an op_atom bank-conflict
 * metric that no measurement ever read.  Every metric a row names must be one
 * a file of tests/data measured. */
static void every_named_metric_was_measured(void)
{
    int named = 0;
    for (int op = 0; op < INSTR_NOPS; op++) {
        const struct instr_ncu *n = &instr_kinds[op].ncu;
        const char *const ms[] = {n->source, n->wavefronts, n->conflicts, n->executed,
                                  n->sass_executed};
        for (int i = 0; i < 5; i++) {
            if (!ms[i])
                continue;
            named++;
            CHECK(metric_measured(ms[i]), "%s names %s, which no file of tests/data measured",
                  instr_kinds[op].name, ms[i]);
        }
    }
    CHECK(!metric_measured("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"),
          "the op_atom conflict counter was measured after all: name it in the atom rows");
    CHECK(named >= 2 * INSTR_NOPS, "only %d metrics named", named);
}

/* Every row of tests/data/atomic_forms_*.json (issue 23: atomics as people
 * write them, timed unconditionally, guarded once per 8 and guarded per
 * atomic).  Each row's "request" is read through the API's own reader
 * (api_read_instr) with the row's offsets: the SASS the model names equals
 * cuobjdump's, the wavefronts equal the Source page's (where ncu ran the row)
 * and the deterministic sm__sass_ counter's, and the cycles are within 2%
 * of clock64 wherever the model says cycles_exact (since A12, every
 * unguarded row); where it does not, clock64 is at or above them.  The
 * lanes-off masks (atomic_masks_*.json, clock64 only) the same way. */
static int atomic_form_data_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    const cJSON *p;
    int count = 0, with_ncu = 0, exact = 0, floors = 0, popc = 0, failures = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        cJSON *body = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(p, "request"), 1);
        cJSON_AddItemToObject(body, "offsets",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(p, "offsets"), 1));
        struct instr in;
        struct sz_error err;
        int loaded = api_read_instr(body, NULL, &in, &err) == 0;
        cJSON_Delete(body);
        CHECK_QUIET(failures, loaded, "%s: request does not load (%s: %s)", name,
                    loaded ? "" : err.field, loaded ? "" : err.message);
        if (!loaded)
            continue;
        struct acc_result r;
        acc_cost(&in, &r);
        count++;
        const char *sass = cJSON_GetObjectItemCaseSensitive(p, "sass")->valuestring;
        popc += strcmp(sass, "ATOMS.POPC.INC.32") == 0;
        CHECK_QUIET(failures, strcmp(atomic_form_sass(&in), sass) == 0 &&
                    r.atomic.sass == atomic_form_sass(&in),
                    "%s: model %s, cuobjdump %s", name, atomic_form_sass(&in), sass);
        const cJSON *wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts");
        const cJSON *wsm = cJSON_GetObjectItemCaseSensitive(p, "wavefronts_sm");
        if (cJSON_IsNumber(wf)) {
            with_ncu++;
            CHECK_QUIET(failures, fabs(r.wavefronts - wf->valuedouble) < 0.011 &&
                        cJSON_IsNumber(wsm) && fabs(r.wavefronts - wsm->valuedouble) < 0.011,
                        "%s: model %u wavefronts, Source page %.2f", name, r.wavefronts,
                        wf->valuedouble);
        }
        double cyc = cJSON_GetObjectItemCaseSensitive(p, "cycles")->valuedouble;
        double c = acc_clock_cycles(&r);
        if (r.atomic.cycles_exact) {
            CHECK_QUIET(failures, fabs(c - cyc) <= 0.02 * c,
                        "%s: model %.2f cycles, clock64 %.3f", name, c, cyc);
            exact++;
        } else {
            CHECK_QUIET(failures, cyc >= 0.98 * c, "%s: floor %.2f, clock64 %.3f", name, c,
                        cyc);
            floors++;
        }
        /* A11: the branch's share is what the guard adds over the pipe */
        CHECK_QUIET(failures, r.atomic.pipe_cycles <= c + 1e-9 &&
                    (in.guard == INSTR_GUARD_EACH || r.atomic.pipe_cycles == c),
                    "%s: pipe %.2f, cycles %.2f", name, r.atomic.pipe_cycles, c);
    }
    int masks = strncmp(file, "atomic_masks_", 13) == 0;   /* clock64 only, 307 rows */
    CHECK(failures == 0 && count >= (masks ? 300 : 1500) && with_ncu >= (masks ? 0 : 700) &&
          popc >= (masks ? 50 : 300), "%s: %d of %d rows disagree", path, failures, count);
    printf("atomic forms %s: %d rows (%d ATOMS.POPC.INC), SASS named on all, wavefronts "
           "exact on the %d ncu ran, cycles within 2%% on %d, %d at or above a floor\n",
           file, count, popc, with_ncu, exact, floors);
    return 0;
}

static void test_atomic_form_data(void)
{
    int files = data_each("atomic_forms_|atomic_masks_", atomic_form_data_file, NULL);
    CHECK(files >= 2, "no tests/data/atomic_forms_*.json and atomic_masks_*.json found");
}

/* One measured atomic row's request (op, func, type, value, guard, offsets of
 * an atomic_used_ or atomic_warps_ row) and `warps` (0: none sent) through the
 * API's readers, costed as /api/conflicts costs it. */
static int atomic_request_cost(const cJSON *p, int warps, struct instr *in,
                               struct acc_result *r, struct sz_error *err)
{
    static const char *const req[] = {"op", "func", "type", "value", "guard", "offsets"};
    static const char *const extra[] = {"warps", NULL};
    uint32_t w = 0;
    cJSON *body = cJSON_CreateObject();
    for (int k = 0; k < 6; k++)
        cJSON_AddItemToObject(body, req[k],
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(p, req[k]), 1));
    if (warps)
        cJSON_AddNumberToObject(body, "warps", warps);
    int loaded = api_read_instr(body, extra, in, err) == 0 &&
                 api_read_warps(body, in, &w, err) == 0;
    cJSON_Delete(body);
    if (loaded) {
        acc_cost(in, r);
        if (w)
            atomic_warps_apply(in, w, r);
    }
    return loaded ? 0 : -1;
}

/* Issue 41: the tool's own atomic kernels (guard none, all lanes, the lane's
 * value; atom uses its result): atomic_used_*.json (ncu and clock64 at 16
 * warps, 2048 iterations, and clock64 at 8 and 32: cycles_w8, cycles_w32; 54
 * rows) and atomic_warps_*.json (clock64 at 4..12 and 16 warps, 2048 and 512
 * iterations, 702 rows; _all: 1..32 warps, 1728; _ncu: the tool's ncu pass at
 * 4, 8, 11 warps, 162; _repeat: 3..13 warps, three processes, 1782), every row
 * at its warp count.  Wavefronts exact; cycles within 2% wherever the answer
 * says cycles_exact (A14, atomic_warps.c), and every row outside 2% answered
 * not exact; at 16 warps every row exact (the answer without "warps" too).
 * Fewer answered exact than EXACT_WARPS_* is a regression too. */
static int atomic_row(const char *name, const cJSON *p, int warps, double cyc, int *exact,
                      int *not_near, int *flagged_near)
{
    const cJSON *wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts");
    int failures = 0;
    struct instr in;
    struct acc_result r;
    struct sz_error err;
    if (atomic_request_cost(p, warps, &in, &r, &err) < 0) {
        CHECK_QUIET(failures, 0, "%s: does not load (%s: %s)", name, err.field, err.message);
        return failures;
    }
    double c = acc_clock_cycles(&r);
    int near = fabs(c - cyc) <= 0.02 * c;
    CHECK_QUIET(failures, r.atomic.native, "%s: not native", name);
    CHECK_QUIET(failures, !cJSON_IsNumber(wf) || fabs(r.wavefronts - wf->valuedouble) < 0.011,
                "%s: model %u wavefronts, Source page %.2f", name, r.wavefronts,
                cJSON_IsNumber(wf) ? wf->valuedouble : -1);
    CHECK_QUIET(failures, near || !r.atomic.cycles_exact, "%s (%d warps): model %.3f cycles "
                "(cycles_exact), clock64 %.4f", name, warps ? warps : 16, c, cyc);
    CHECK_QUIET(failures, (warps != 0 && warps != 16) || (near && r.atomic.cycles_exact),
                "%s (16 warps): model %.3f cycles, exact %d, clock64 %.4f", name, c,
                r.atomic.cycles_exact, cyc);
    *exact += r.atomic.cycles_exact;
    *not_near += !near;
    *flagged_near += near && !r.atomic.cycles_exact;
    return failures;
}

/* Answered exact (every one within 2%) by A14 with the lone-warp path (LONE),
 * N3 and, where lone atom warps sit beside a sub-partition the pipe cannot
 * keep up with, no tail and the paced warps' waits, and N1_SLIP, PAIR_SLIP
 * (2026-11-29), on the readings of the tool that times atomics at 19 starting
 * phases: every row of those three files within 2% (OUTSIDE_WARPS_*), of 1728
 * 91 not exact (N1, N2's 3..5 warps, where the starting phase decides, N3).
 * The ncu pass's rows (wavefronts from one profiled launch, cycles from the
 * clock64 launches at every phase, re-measured 2026-11-29T02:17Z): none
 * outside 2%, 30 not exact (at phase 0 alone, 25 were outside).  The rule before (fair shares' tail, no slips) had 1632 exact
 * and 38 outside 2% (atom 1 wavefront at 10-11 warps, 2 at 5-6, 4 at 5, 8 at
 * 3; red 1 at 6-7); with ATOM_SHARED at the old readings' 76.7, 20 rows (atom
 * 1 wavefront at 5-8 warps, 2.1-3.5% over) were called exact outside 2%. */
#define EXACT_WARPS_702 636
#define EXACT_WARPS_ALL 1637
#define EXACT_WARPS_NCU 132
#define EXACT_WARPS_REPEAT 1509
#define OUTSIDE_WARPS_NCU 0    /* the most rows outside 2%: more is a regression */

static int atomic_tool_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    static const char *const cols[] = {"cycles", "cycles_w8", "cycles_w32"};
    static const int col_warps[] = {16, 8, 32};
    const cJSON *p;
    int rows = 0, w16 = 0, exact = 0, not_near = 0, flagged_near = 0, failures = 0;
    int warps_file = strncmp(file, "atomic_warps_", 13) == 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        const cJSON *wj = cJSON_GetObjectItemCaseSensitive(p, "warps");
        for (int k = 0; k < 3; k++) {
            const cJSON *cj = cJSON_GetObjectItemCaseSensitive(p, cols[k]);
            if (!cJSON_IsNumber(cj) || (warps_file && k > 0))
                continue;
            int warps = warps_file ? wj->valueint : col_warps[k];
            rows++;
            w16 += warps == 16;
            failures += atomic_row(name, p, warps, cj->valuedouble, &exact, &not_near,
                                   &flagged_near);
            int e0 = 0, n0 = 0, f0 = 0;   /* the answer without "warps": the same */
            if (warps == 16)
                failures += atomic_row(name, p, 0, cj->valuedouble, &e0, &n0, &f0);
        }
    }
    /* rows, the fewest answered exact and the most outside 2% per warps file:
     * fewer exact or more outside is a regression */
    static const struct { const char *file; int rows, exact, outside, w16; } want[] = {
        {"atomic_warps_h200.json", 702, EXACT_WARPS_702, 0, 108},
        {"atomic_warps_all_h200.json", 1728, EXACT_WARPS_ALL, 0, 54},
        {"atomic_warps_ncu_h200.json", 162, EXACT_WARPS_NCU, OUTSIDE_WARPS_NCU, 0},
        {"atomic_warps_repeat_h200.json", 1782, EXACT_WARPS_REPEAT, 0, 0},
    };
    int known = !warps_file, fine = !warps_file && w16 >= 54;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        if (!strcmp(file, want[k].file))
            known = 1, fine = rows == want[k].rows && exact >= want[k].exact &&
                              not_near <= want[k].outside && w16 >= want[k].w16;
    CHECK(failures == 0 && known && fine,
          "%s: %d rows disagree (%d rows, %d at 16 warps, %d answered exact, %d outside 2%%)",
          path, failures, rows, w16, exact, not_near);
    printf("atomics (the tool's kernels) %s: %d rows at their warp counts, %d at 16: "
           "wavefronts exact; %d answered cycles_exact, all within 2%%; %d outside 2%%, all "
           "answered not exact; %d within 2%% answered not exact\n", file, rows, w16, exact,
           not_near, flagged_near);
    return 0;
}

static void test_atomic_tool_data(void)
{
    int files = data_each("atomic_used_|atomic_warps_", atomic_tool_file, NULL);
    CHECK(files >= 2, "tests/data: %d atomic_used_*.json and atomic_warps_*.json, want 2", files);
}

/* The operand and guard as the API reads them: named fields, bounds, and a
 * value on a non-atomic refused. */
static void test_atomic_operand(void)
{
    static const struct { const char *body, *field; } bad[] = {
        {"{\"op\":\"ld\",\"value\":1,\"offsets\":[0]}", "value"},
        {"{\"op\":\"st\",\"guard\":\"none\"}", "guard"},
        {"{\"op\":\"red\",\"value\":\"two\"}", "value"},
        {"{\"op\":\"red\",\"value\":1.5}", "value"},
        {"{\"op\":\"red\",\"value\":4294967296}", "value"},
        {"{\"op\":\"red\",\"guard\":\"if\"}", "guard"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *b = cJSON_Parse(bad[i].body);
        struct instr in;
        struct sz_error err = {0};
        CHECK(api_read_instr(b, NULL, &in, &err) < 0 && strcmp(err.field, bad[i].field) == 0,
              "%s: field %s, want %s", bad[i].body, err.field, bad[i].field);
        cJSON_Delete(b);
    }
    /* the histogram of the course: 32 lanes on one word, +1, result unused */
    struct instr in = instr(INSTR_RED, 4, 1);
    struct acc_result r;
    for (int t = 0; t < 32; t++)
        in.offsets[t] = 0;
    in.value_kind = INSTR_VALUE_CONST;
    in.value = 1;
    acc_cost(&in, &r);
    CHECK(r.atomic.merges && r.wavefronts == 1 && r.atomic.serial_wavefronts == 0 &&
          strcmp(r.atomic.sass, "ATOMS.POPC.INC.32") == 0, "red +1 on one word: %u wavefronts",
          r.wavefronts);
    in.op = INSTR_ATOM;   /* result used: ATOMS.ADD, 32 in turn */
    acc_cost(&in, &r);
    CHECK(!r.atomic.merges && r.wavefronts == 32, "atom +1 on one word: %u", r.wavefronts);
    /* guard "once" (one `if` around several, issue 41): read, modelled apart from
     * "none" at one wavefront (A13), and refused by the tool, which has no such kernel */
    cJSON *b = cJSON_Parse("{\"op\":\"atom\",\"guard\":\"once\",\"offsets\":[0,4,8,12,16,20,"
                           "24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,"
                           "112,116,120,124]}");
    struct sz_error err = {0};
    CHECK(api_read_instr(b, NULL, &in, &err) == 0 && in.guard == INSTR_GUARD_ONCE,
          "guard once: %s", err.message);
    cJSON_Delete(b);
    acc_cost(&in, &r);
    double once = acc_clock_cycles(&r);
    in.guard = INSTR_GUARD_NONE;
    acc_cost(&in, &r);
    CHECK(fabs(once - 1.04) < 1e-9 && fabs(acc_clock_cycles(&r) - 1.02) < 1e-9,
          "atom at one wavefront: once %.3f, none %.3f", once, acc_clock_cycles(&r));
    in.guard = INSTR_GUARD_ONCE;
    CHECK(instr_check_gpu(&in, NULL, &err) < 0 && strcmp(err.field, "guard") == 0,
          "the tool took guard once (%s)", err.field);
}

/* One measured cp.async row's request (op, bytes, cache, offsets,
 * global_offsets of a cp_async_*.json row) through the API's reader, costed. */
static int cp_async_cost(const cJSON *p, struct acc_result *r, struct sz_error *err)
{
    static const char *const req[] = {"op", "bytes", "cache", "offsets", "global_offsets"};
    cJSON *body = cJSON_CreateObject();
    for (int k = 0; k < 5; k++)
        cJSON_AddItemToObject(body, req[k],
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(p, req[k]), 1));
    struct instr in;
    int loaded = api_read_instr(body, NULL, &in, err) == 0;
    cJSON_Delete(body);
    if (loaded)
        acc_cost(&in, r);
    return loaded ? 0 : -1;
}

/* Every row of tests/data/cp_async_*.json (issue 23 part 3, the first sweep)
 * and cp_strided_*.json (issue 41: strided and permuted global sources) through
 * the API's reader: rules L1 (.ca) and C2 (.cg) against the Source-page
 * wavefronts.  Where the answer says wavefronts_exact (access.c C3: both sides
 * F2-affine in the lane) the model must be exact; the rows it marks inexact may
 * miss, by at most 4 (random permutations).  It also holds the model to what it
 * is now: the first sweep 403 of 412 .ca and 174 of 184 .cg exact (H100 and
 * H200; C1 read 400), the strided sweep 287 of 288 .ca (C1 234, and it said
 * exact on 30 it missed) and 81 of 84 .cg; and prints the misses. */
static int cp_async_data_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    const cJSON *p;
    int n[2] = {0, 0}, exact[2] = {0, 0}, marked = 0, marked_exact = 0, failures = 0;
    int strided = strncmp(file, "cp_strided_", 11) == 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        struct acc_result r;
        struct sz_error err;
        int loaded = cp_async_cost(p, &r, &err) == 0;
        CHECK_QUIET(failures, loaded, "%s: does not load (%s)", name, loaded ? "" : err.message);
        if (!loaded)
            continue;
        double wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        int cg = !strcmp(cJSON_GetObjectItemCaseSensitive(p, "cache")->valuestring, "cg");
        int hit = fabs(r.wavefronts - wf) < 0.011;
        n[cg]++;
        exact[cg] += hit;
        marked += !r.copy_exact;
        marked_exact += !r.copy_exact && hit;
        CHECK_QUIET(failures, hit || !r.copy_exact, "%s: model %u says exact, measured %.2f",
                    name, r.wavefronts, wf);
        if (hit)
            continue;
        printf("  cp.async miss %s: model %u, Source page %.0f\n", name, r.wavefronts, wf);
        CHECK_QUIET(failures, fabs(r.wavefronts - wf) <= 4.0, "%s: model %u, measured %.2f",
                    name, r.wavefronts, wf);
    }
    static const int want[2][4] = {{412, 184, 403, 174}, {288, 84, 287, 81}};
    const int *w = want[strided];
    CHECK(failures == 0 && n[0] >= w[0] && n[1] >= w[1] && exact[0] >= w[2] && exact[1] >= w[3],
          "%s: .ca %d of %d exact, .cg %d of %d", path, exact[0], n[0], exact[1], n[1]);
    printf("cp.async %s: .ca exact on %d of %d, .cg on %d of %d (Source-page wavefronts); "
           "%d marked wavefronts_exact:false (%d of them exact all the same)\n",
           file, exact[0], n[0], exact[1], n[1], marked, marked_exact);
    return 0;
}

static void test_cp_async_data(void)
{
    int files = data_each("cp_async_|cp_strided_", cp_async_data_file, NULL);
    CHECK(files >= 3, "tests/data: %d cp_async_*.json and cp_strided_*.json, want 3", files);
}

/* tests/data/cp_hw_<device>.json (issue 41's second session, access.c L1): 296 .ca
 * rows of both sweeps read again with cp_probe.cu and the hardware counter
 * l1tex__data_pipe_lsu_wavefronts_mem_shared.  The Source page reads what the
 * sweeps read (and its sm__sass_ twin the same); the model's wavefronts equal it
 * wherever the answer says exact.  The hardware counter reads the model's cycles
 * (L1 without step 3) on at least 284 rows, and on every row the answer calls
 * exact where step 3 adds wavefronts: the gap is the instrumentation's, not the
 * pipe's.  C1 (cycles = wavefronts) read the hardware on 274.  The answer's
 * cycles_exact (C4) is false on every row where the hardware reads otherwise. */
static int cp_hw_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    const cJSON *p;
    int rows = 0, src_same = 0, pipe = 0, gapped = 0, cyc_exact = 0, failures = 0;
    cJSON *sweeps[2] = {read_json("tests/data/cp_strided_h200.json"),
                        read_json("tests/data/cp_async_h200.json")};
    CHECK(sweeps[0] && sweeps[1], "%s: the sweeps' files are missing", path);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        struct acc_result r;
        struct sz_error err;
        if (cp_async_cost(p, &r, &err) < 0) {
            CHECK_QUIET(failures, 0, "%s: does not load (%s)", name, err.message);
            continue;
        }
        double wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        double sm = cJSON_GetObjectItemCaseSensitive(p, "wavefronts_sm")->valuedouble;
        double hw = cJSON_GetObjectItemCaseSensitive(p, "wavefronts_hw")->valuedouble;
        double before = -1;
        for (int k = 0; k < 2 && sweeps[k]; k++) {
            const cJSON *c;
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(sweeps[k], "patterns"))
                if (!strcmp(cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring, name))
                    before = cJSON_GetObjectItemCaseSensitive(c, "wavefronts")->valuedouble;
        }
        rows++;
        src_same += fabs(wf - before) < 0.011;
        CHECK_QUIET(failures, fabs(wf - before) < 0.011 && fabs(wf - sm) < 0.011,
                    "%s: Source page %.2f, sm__sass %.2f, the sweep %.2f", name, wf, sm, before);
        CHECK_QUIET(failures, fabs(r.wavefronts - wf) < 0.011 || !r.copy_exact,
                    "%s: model %u says exact, Source page %.2f", name, r.wavefronts, wf);
        int hw_hit = fabs(r.cycles - hw) < 0.011;
        pipe += hw_hit;
        cyc_exact += r.copy_cycles_exact;
        /* C4: the answer's cycles_exact never true where the hardware reads
         * otherwise (12 rows read more: a column of rows from wide or
         * permuted sources) */
        CHECK_QUIET(failures, hw_hit || !r.copy_cycles_exact, "%s: model cycles %u answered "
                    "exact, hardware %.2f", name, r.cycles, hw);
        if (r.wavefronts > r.cycles) {
            gapped++;
            CHECK_QUIET(failures, hw_hit || !r.copy_exact,
                        "%s: step 3: model %u wavefronts, %u cycles; hardware %.2f", name,
                        r.wavefronts, r.cycles, hw);
        }
        if (!hw_hit)
            printf("  cp.async %s: model cycles %u (wavefronts %u), hardware %.2f, Source page "
                   "%.0f\n", name, r.cycles, r.wavefronts, hw, wf);
    }
    cJSON_Delete(sweeps[0]);
    cJSON_Delete(sweeps[1]);
    CHECK(failures == 0 && rows >= 296 && pipe >= 284 && gapped >= 36 && cyc_exact >= 209,
          "%s: %d rows, hardware = model cycles on %d, step 3 on %d, cycles_exact on %d", path,
          rows, pipe, gapped, cyc_exact);
    printf("cp.async %s: %d .ca rows, Source page as the sweeps on %d; hardware counter = the "
           "model's cycles (L1 without step 3) on %d; step 3 adds wavefronts on %d; cycles "
           "answered exact on %d, all of them the hardware's\n", file, rows, src_same, pipe,
           gapped, cyc_exact);
    return 0;
}

static void test_cp_hw(void)
{
    int files = data_each("cp_hw_", cp_hw_file, NULL);
    CHECK(files >= 1, "no tests/data/cp_hw_*.json found");
}

/* tests/data/cp_states_<device>.json (access.c C3): the cp.async sweep with the
 * global lines in L2 only, in L1, and over 16 warps x 4 iterations.  Every row
 * equals the cold row of its name in cp_async_<device>.json, and the model
 * (which takes no cache state) gives it as it gives the cold row: exact
 * wherever it says so, within 4 elsewhere.  The runs *_hw also read the
 * hardware counter (.ca): the model equals it wherever it says exact. */
static int cp_states_file(const char *file, const char *path, const cJSON *j, void *unused)
{
    (void)unused;
    char cold_path[512];
    snprintf(cold_path, sizeof cold_path, "tests/data/cp_async_%s", file + strlen("cp_states_"));
    cJSON *cold = read_json(cold_path);
    CHECK(cold != NULL, "%s: no %s beside it", path, cold_path);
    if (cold == NULL)
        return 0;
    const cJSON *p, *c;
    int rows = 0, same = 0, exact = 0, failures = 0, states[3] = {0, 0, 0};
    int hw_rows = 0, hw_exact = 0, hw_sass = 0, hw_pipe = 0;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(j, "patterns")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring;
        const char *state = cJSON_GetObjectItemCaseSensitive(p, "state")->valuestring;
        const cJSON *req = NULL;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(cold, "patterns"))
            if (!strcmp(cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring, name))
                req = c;
        CHECK_QUIET(failures, req != NULL, "%s: no cold row %s", path, name);
        struct acc_result r;
        struct sz_error err;
        if (req == NULL || cp_async_cost(req, &r, &err) < 0)
            continue;
        double wf = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        double wf_cold = cJSON_GetObjectItemCaseSensitive(req, "wavefronts")->valuedouble;
        int hit = fabs(r.wavefronts - wf) < 0.011;
        rows++;
        same += fabs(wf - wf_cold) < 0.011;
        exact += hit;
        states[!strcmp(state, "cold") ? 0 : !strcmp(state, "l2") ? 1 : 2]++;
        CHECK_QUIET(failures, fabs(wf - wf_cold) < 0.011, "%s %s (%s): %.2f, cold %.2f",
                    path, name, state, wf, wf_cold);
        CHECK_QUIET(failures, hit || (!r.copy_exact && fabs(r.wavefronts - wf) <= 4.0),
                    "%s %s (%s): model %u, measured %.2f", path, name, state, r.wavefronts, wf);
        /* the hardware counter (runs *_hw, .ca only): exact where the model says so */
        const cJSON *hw = cJSON_GetObjectItemCaseSensitive(p, "wavefronts_hw");
        if (cJSON_IsNumber(hw)) {
            int hw_hit = fabs(r.wavefronts - hw->valuedouble) < 0.011;
            hw_rows++;
            hw_exact += hw_hit;
            hw_sass += fabs(hw->valuedouble - wf) < 0.011;
            hw_pipe += fabs(r.cycles - hw->valuedouble) < 0.011;
            CHECK_QUIET(failures, hw_hit || !r.copy_exact, "%s %s (%s): model %u, hardware %.2f",
                        path, name, state, r.wavefronts, hw->valuedouble);
            /* the pipe's count (L1 without step 3, issue 41) too */
            CHECK_QUIET(failures, fabs(r.cycles - hw->valuedouble) < 0.011 || !r.copy_exact,
                        "%s %s (%s): model cycles %u, hardware %.2f", path, name, state,
                        r.cycles, hw->valuedouble);
            if (!hw_hit || fabs(hw->valuedouble - wf) >= 0.011)
                printf("  cp.async %s (%s): model %u, hardware %.0f, Source page %.0f\n", name,
                       state, r.wavefronts, hw->valuedouble, wf);
        }
    }
    cJSON_Delete(cold);
    /* the H100 file has every run; the H200's the three hardware-counter runs */
    int full = strstr(file, "h100") != NULL;
    CHECK(failures == 0 && rows >= (full ? 2585 : 597) && states[0] >= (full ? 398 : 199) &&
          states[1] >= (full ? 1193 : 199) && states[2] >= (full ? 994 : 199) && hw_rows >= 414,
          "%s: %d rows (cold %d, l2 %d, l1 %d), %d with the hardware counter", path, rows,
          states[0], states[1], states[2], hw_rows);
    printf("cp.async %s: %d rows (cold %d, l2 %d, l1 %d), %d equal the cold sweep, model exact "
           "on %d; hardware counter on %d .ca rows: model = hardware on %d (model cycles on %d), "
           "Source page = hardware on %d\n", file, rows, states[0], states[1], states[2], same,
           exact, hw_rows, hw_exact, hw_pipe, hw_sass);
    return 0;
}

static void test_cp_states(void)
{
    int files = data_each("cp_states_", cp_states_file, NULL);
    CHECK(files >= 1, "no tests/data/cp_states_*.json found");
}

/* The cp.async producers of pattern.c: step 0 on an unswizzled 128-byte-row
 * tile is the measured "ca16.s_contig.g_contig" / "cg16.s_contig.g_contig"
 * row (shared and global sides equal, wavefronts as measured); on 64-byte rows
 * the K-slice's lines each hold 4 lanes (8 lines: 8 wavefronts, C1/C2 never
 * join two lines) while the dense global tile's hold 8 (4); every swizzle
 * mode keeps both, a 16-byte chunk never splits. */
static void test_cp_async_producers(void)
{
    cJSON *j = read_json("tests/data/cp_async_h100-80gb-hbm3.json");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(j, "patterns"), *p;
    static const char *const pairs[2][2] = {{"cp_async_ca_row_16", "ca16.s_contig.g_contig"},
                                            {"cp_async_cg_row_16", "cg16.s_contig.g_contig"}};
    struct swz id, z;
    swz_init(&id, 0, 4, 3, NULL);
    for (int k = 0; k < 2; k++) {
        struct instr in = instr(INSTR_CP_ASYNC, 16, 1);
        uint32_t R = 0;
        int rc = pattern_fill(pairs[k][0], &id, 128, 64, 0, &in, &R, NULL);
        int same = 0;
        double want = -1;
        cJSON_ArrayForEach(p, rows) {
            if (strcmp(cJSON_GetObjectItemCaseSensitive(p, "name")->valuestring, pairs[k][1]))
                continue;
            const cJSON *so = cJSON_GetObjectItemCaseSensitive(p, "offsets");
            const cJSON *go = cJSON_GetObjectItemCaseSensitive(p, "global_offsets");
            same = 1;
            for (int t = 0; t < 32; t++)
                same &= cJSON_GetArrayItem(so, t)->valueint == (int)in.offsets[t] &&
                        cJSON_GetArrayItem(go, t)->valueint == (int)in.global_offsets[t];
            want = cJSON_GetObjectItemCaseSensitive(p, "wavefronts")->valuedouble;
        }
        CHECK(rc == 0 && R == 16 && in.cg == k && same && cost(&in, NULL) == want && want == 4,
              "%s step 0 is the measured %s row (%.0f wavefronts)", pairs[k][0], pairs[k][1],
              want);
    }
    cJSON_Delete(j);
    static const char *const names[4] = {"cp_async_ca_row_16", "cp_async_cg_row_16",
                                         "cp_async_ca_slice_16", "cp_async_cg_slice_16"};
    for (int k = 0; k < 4; k++)
        for (int b = 0; b <= 3; b++) {
            swz_init(&z, b, 4, 3, NULL);
            uint32_t R = 0, worst = 0, best = UINT32_MAX;
            struct instr in = instr(INSTR_CP_ASYNC, 16, 1);
            for (uint32_t r = 0; pattern_fill(names[k], &z, 64, 64, r, &in, &R, NULL) == 0; r++) {
                uint32_t w = cost(&in, NULL);
                worst = w > worst ? w : worst;
                best = w < best ? w : best;
            }
            uint32_t want = k < 2 ? 4 : 8;
            CHECK(R == 8 && worst == want && best == want,
                  "%s on 64-byte rows, Swizzle<%d,4,3>: %u..%u wavefronts a step, want %u",
                  names[k], b, best, worst, want);
        }
}

int main(void)
{
    small = check_small();
    test_seed_transpose();
    test_seed_ldmatrix();
    test_oracle_32bit();
    test_validation();
    test_geometry();
    test_lane_banks_and_ways();
    test_calibration();
    test_atomic_forms();
    test_atomic_validation();
    test_oracle_atomic();
    test_atomic_data();
    every_kind_has_a_whole_row();
    the_op_error_names_every_kind();
    every_named_metric_was_measured();
    test_atomic_form_data();
    test_atomic_operand();
    test_atomic_tool_data();
    test_cp_async_data();
    test_cp_hw();
    test_cp_states();
    test_cp_async_producers();
    return check_summary("test_access");
}
