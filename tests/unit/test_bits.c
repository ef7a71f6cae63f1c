/* test_bits.c - bits.h: the power-of-two helpers against brute force, and each
 * shared range against the reason its comment gives (a range that stops
 * being true fails here, not in a message somewhere).  Pure: no server. */
#include <stdint.h>
#include <stdio.h>

#include "base/bits.h"
#include "model/instr.h"
#include "model/swizzle.h"
#include "check.h"

/* The brute-force answers: the largest and the smallest k around x. */
static int floor_brute(uint64_t x)
{
    int k = 0;
    for (int j = 0; j < 32; j++)
        if (((uint64_t)1 << j) <= x)
            k = j;
    return k;
}

static int ceil_brute(uint64_t x)
{
    for (int k = 0; k < 33; k++)
        if (((uint64_t)1 << k) >= x)
            return k;
    return -1;
}

/* Every x below 2^16, then 2^k - 1, 2^k and 2^k + 1 for k = 16..32 (as far as
 * `top` allows): brute force agrees on each. */
static int sweep(int (*f)(uint32_t), int (*want)(uint64_t), uint64_t top, const char *name)
{
    int failures = 0;
    for (uint64_t x = 0; x < (1u << 16); x++)
        CHECK_QUIET(failures, f((uint32_t)x) == want(x), "%s(%llu) = %d, want %d", name,
                    (unsigned long long)x, f((uint32_t)x), want(x));
    for (int k = 16; k <= 32; k++)
        for (uint64_t x = ((uint64_t)1 << k) - 1; x <= ((uint64_t)1 << k) + 1 && x <= top; x++)
            CHECK_QUIET(failures, f((uint32_t)x) == want(x), "%s(%llu) = %d, want %d", name,
                        (unsigned long long)x, f((uint32_t)x), want(x));
    return failures;
}

static int ceil_fn(uint32_t x) { return bits_log2_ceil(x); }
static int floor_fn(uint32_t x) { return bits_log2_floor(x); }

/* log2_ceil takes x <= 2^31 (its contract): the smallest k with 2^k >= x. */
static void log2_ceil_rounds_up_between_powers(void)
{
    int failures = sweep(ceil_fn, ceil_brute, 0x80000000u, "log2_ceil");
    CHECK(failures == 0, "log2_ceil: %d failures", failures);
    CHECK(bits_log2_ceil(0) == 0 && bits_log2_ceil(1) == 0 && bits_log2_ceil(3) == 2 &&
          bits_log2_ceil(4) == 2 && bits_log2_ceil(5) == 3, "log2_ceil of 0, 1, 3, 4, 5");
}

/* log2_floor takes any x: the largest k with 2^k <= x (0 for 0). */
static void log2_floor_rounds_down_between_powers(void)
{
    int failures = sweep(floor_fn, floor_brute, 0xFFFFFFFFu, "log2_floor");
    CHECK(failures == 0, "log2_floor: %d failures", failures);
    CHECK(bits_log2_floor(0) == 0 && bits_log2_floor(1) == 0 && bits_log2_floor(3) == 1 &&
          bits_log2_floor(4) == 2 && bits_log2_floor(5) == 2 &&
          bits_log2_floor(0xFFFFFFFFu) == 31, "log2_floor of 0, 1, 3, 4, 5, 2^32-1");
}

static void log2_floor_and_ceil_agree_on_powers_of_two(void)
{
    for (int k = 0; k < 32; k++)
        CHECK(bits_log2_floor(1u << k) == k && bits_log2_ceil(1u << k) == k, "2^%d", k);
}

static void is_pow2_holds_only_for_powers_of_two(void)
{
    int failures = 0;
    for (uint64_t x = 0; x < (1u << 16); x++)
        CHECK_QUIET(failures, bits_is_pow2(x) == (x != 0 && ceil_brute(x) == floor_brute(x)),
                    "is_pow2(%llu)", (unsigned long long)x);
    CHECK(failures == 0, "is_pow2 below 2^16: %d failures", failures);
    for (int k = 0; k < 64; k++)
        CHECK(bits_is_pow2((uint64_t)1 << k) && (k < 2 || !bits_is_pow2(((uint64_t)1 << k) + 1)),
              "2^%d and 2^%d + 1", k, k);
    CHECK(!bits_is_pow2(0) && !bits_is_pow2(UINT64_MAX), "0 and 2^64 - 1");
}

/* B, M and |S| stop where the swizzle's top bit would reach bit 31, and no
 * sooner: the largest of each is accepted by some Swizzle, one more by none. */
static void swizzle_ranges_stop_below_bit_31(void)
{
    struct swz z;
    CHECK(SZ_OFFSET_LIMIT == 1u << 31, "offsets end at 2^31");
    CHECK(swz_init(&z, SZ_SWZ_B_MAX, 1, SZ_SWZ_B_MAX, NULL) == 0 &&
          swz_period_bits(&z) == 31, "Swizzle<%d,1,%d> touches bit 30", SZ_SWZ_B_MAX,
          SZ_SWZ_B_MAX);
    int b_next_fits = 0;
    for (int m = 0; m <= SZ_SWZ_M_MAX; m++)
        for (int s = SZ_SWZ_B_MAX + 1; s <= SZ_SWZ_S_MAX; s++)
            b_next_fits |= m + s + SZ_SWZ_B_MAX + 1 <= 31;
    CHECK(!b_next_fits, "a B of %d fits below bit 31", SZ_SWZ_B_MAX + 1);
    CHECK(swz_init(&z, 0, SZ_SWZ_M_MAX, 1, NULL) == 0, "M = %d", SZ_SWZ_M_MAX);
    CHECK(swz_init(&z, 1, 0, SZ_SWZ_S_MAX, NULL) == 0 && swz_init(&z, 1, 0, -SZ_SWZ_S_MAX, NULL) == 0,
          "|S| = %d", SZ_SWZ_S_MAX);
    CHECK(swz_init(&z, 1, SZ_SWZ_M_MAX - 1, 1, NULL) == 0 &&
          swz_init(&z, 1, SZ_SWZ_M_MAX, 1, NULL) < 0 && swz_init(&z, 1, 0, 31, NULL) < 0,
          "with B = 1 the joint rule stops M at 29 and |S| at 30");
    CHECK(((uint64_t)1 << SZ_SWZ_M_MAX) < SZ_OFFSET_LIMIT &&
          ((uint64_t)1 << (SZ_SWZ_M_MAX + 1)) >= SZ_OFFSET_LIMIT &&
          ((uint64_t)1 << SZ_SWZ_S_MAX) < SZ_OFFSET_LIMIT &&
          ((uint64_t)1 << (SZ_SWZ_S_MAX + 1)) >= SZ_OFFSET_LIMIT,
          "2^M and 2^|S| stay below the offset limit, and one more would not");
}

/* A map's tile of (2^B)^2 cells fits SWZ_MAX_CELLS up to SZ_MAP_B_MAX, not past it. */
static void map_b_max_is_the_largest_tile_of_a_map(void)
{
    uint64_t t = (uint64_t)1 << SZ_MAP_B_MAX, t1 = t * 2;
    CHECK(t * t <= SWZ_MAX_CELLS && t1 * t1 > SWZ_MAX_CELLS, "(2^%d)^2 cells", SZ_MAP_B_MAX);
}

/* The widest lane access is 16 bytes, and on 1-byte banks it touches 16 words:
 * instr_check_shape takes exactly the widths and bank geometries bits.h says. */
static void lane_and_bank_limits_are_what_instr_accepts(void)
{
    struct instr in;
    struct sz_error err;
    instr_defaults(&in, INSTR_LD);
    int widest = 0;
    for (uint32_t bytes = 1; bytes <= 64; bytes++) {
        in.bytes = bytes;
        if (instr_check_shape(&in, &err) == 0)
            widest = (int)bytes;
    }
    CHECK(widest == (int)SZ_MAX_LANE_BYTES, "widest ld: %d bytes", widest);
    in.bytes = SZ_MAX_LANE_BYTES;
    uint32_t most_words = 0;
    int bad_bb = 0;
    for (uint32_t bb = 1; bb <= 256; bb++) {
        in.bank_bytes = bb;
        int ok = instr_check_shape(&in, &err) == 0;
        CHECK_QUIET(bad_bb, ok == (bits_is_pow2(bb) && bb <= SZ_MAX_BANK_BYTES), "bank_bytes %u", bb);
        if (ok && (in.bytes + bb - 1) / bb > most_words)
            most_words = (in.bytes + bb - 1) / bb;
    }
    CHECK(bad_bb == 0, "bank_bytes 1..256: %d failures", bad_bb);
    CHECK(most_words == SZ_MAX_LANE_WORDS, "most words per lane: %u", most_words);
    in.bank_bytes = 4;
    int failures = 0;
    for (uint32_t banks = 1; banks <= 1024; banks++) {
        in.banks = banks;
        int ok = instr_check_shape(&in, &err) == 0;
        CHECK_QUIET(failures, ok == (bits_is_pow2(banks) && banks <= SZ_MAX_BANKS), "banks %u",
                    banks);
    }
    CHECK(failures == 0, "banks 1..1024: %d failures", failures);
}

int main(void)
{
    log2_ceil_rounds_up_between_powers();
    log2_floor_rounds_down_between_powers();
    log2_floor_and_ceil_agree_on_powers_of_two();
    is_pow2_holds_only_for_powers_of_two();
    swizzle_ranges_stop_below_bit_31();
    map_b_max_is_the_largest_tile_of_a_map();
    lane_and_bank_limits_are_what_instr_accepts();
    return check_summary("test_bits");
}
