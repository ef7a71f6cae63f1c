#!/usr/bin/env python3
"""gen_patterns.py: writes tests/calib/patterns.json, the calibration suite of
warp access patterns (the POST /api/conflicts body) measured on real GPUs.

Deterministic, stdlib only. Each pattern is
  {"name", "op": ld|st|ldmatrix|stmatrix, "bytes", "matrices", "trans",
   "offsets": [32 byte offsets or null]}
For ld/st, null marks an inactive lane. For ldmatrix/stmatrix lane t gives the
row address of row t%8 of matrix t//8; lanes t >= 8*matrices are ignored by the
hardware and carry the offset of lane t % (8*matrices) (never null).
All offsets stay below 48 KiB. Usage: gen_patterns.py [-o PATH] [--check]
"""
import argparse
import json
import os
import sys

LANES = range(32)
SMEM_LIMIT = 48 * 1024

# Swizzle<B,M,S> presets the product offers, on byte offsets.
PRESETS = {
    "none": (0, 4, 3),
    "sw32": (1, 4, 3),
    "sw64": (2, 4, 3),
    "sw128": (3, 4, 3),
    "sw128u32": (2, 5, 2),   # 128B swizzle with a 32B unit
}


def swz(o, b, m, s):
    """CuTe Swizzle<b,m,s>::apply on a byte offset (s > 0):
    o ^ ((o & yyy_msk) >> s), yyy_msk = ((1<<b)-1) << (m+s)."""
    yyy = ((1 << b) - 1) << (m + s)
    return o ^ ((o & yyy) >> s)


def sw(o, preset):
    return swz(o, *PRESETS[preset])


def lanes(f, active=lambda t: True):
    return [f(t) if active(t) else None for t in LANES]


def ldst(op, bits, tag, offs):
    return {"name": f"{op}{bits}_{tag}", "op": op, "bytes": bits // 8,
            "matrices": 1, "trans": False, "offsets": offs}


def ldst_patterns(op):
    """ld/st patterns; the same list for both ops unless marked."""
    out = []

    def add(bits, tag, f, active=lambda t: True, only=None):
        if only is None or only == op:
            out.append(ldst(op, bits, tag, lanes(f, active)))

    # ---- 1 byte: several lanes share a 4-byte word ----
    add(8, "linear", lambda t: t)                                   # 8 words, 1 wf
    add(8, "stride4B", lambda t: 4 * t)                             # 32 words, 32 banks
    add(8, "bcast_all", lambda t: 0)
    add(8, "4lanes_per_word_rows", lambda t: 128 * (t // 4) + t % 4)  # 8 words, one bank
    add(8, "2lanes_per_word_rows", lambda t: 128 * (t // 2) + t % 2)  # 16 words, one bank
    add(8, "stride128B", lambda t: 128 * t)                         # 32 words, one bank

    # ---- 2 bytes ----
    add(16, "linear", lambda t: 2 * t)
    add(16, "bcast_all", lambda t: 0)
    add(16, "same_word_all", lambda t: 2 * (t % 2))                 # 2 halves of word 0
    add(16, "2lanes_per_word_rows", lambda t: 128 * (t // 2) + 2 * (t % 2))
    add(16, "stride64B", lambda t: 64 * t)                          # banks 0,16

    # ---- 4 bytes: the textbook cases ----
    add(32, "linear", lambda t: 4 * t)
    for s in (2, 4, 8, 16, 32):
        add(32, f"stride{s}w", lambda t, s=s: 4 * s * t)
    add(32, "bcast_all", lambda t: 0)
    add(32, "pairs", lambda t: 4 * (t // 2))
    add(32, "quads", lambda t: 4 * (t // 4))
    add(32, "quarters_bcast", lambda t: 4 * (t // 8))
    add(32, "halves_bcast", lambda t: 4 * (t // 16))
    add(32, "halves_bcast_same_bank", lambda t: 128 * (t // 16))
    add(32, "pairs_same_bank", lambda t: 4 * (t // 2) + 128 * (t % 2))
    add(32, "reversed", lambda t: 4 * (31 - t))
    add(32, "even_lanes", lambda t: 4 * t, lambda t: t % 2 == 0)
    add(32, "even_lanes_stride2w", lambda t: 8 * t, lambda t: t % 2 == 0)
    add(32, "one_lane", lambda t: 0, lambda t: t == 0)
    # seed 001: 16x32 fp32 transpose, read (m=t%16, n=2r+t//16) at 4*(32m+n')
    for r in (0, 1):
        for tag, fn in (("plain", lambda n, m: n), ("xor_m", lambda n, m: n ^ m),
                        ("xor_2m", lambda n, m: n ^ (2 * m))):
            if r == 1 and tag != "xor_2m":
                continue
            add(32, f"transpose_read_r{r}_{tag}",
                lambda t, r=r, fn=fn: 4 * (32 * (t % 16) + fn(2 * r + t // 16, t % 16)),
                only="ld")
    # ... and its row write (m=r, n=t) with the n ^ 2m swizzle
    add(32, "transpose_write_r3_xor_2m", lambda t: 4 * (32 * 3 + (t ^ (2 * 3))), only="st")
    # column read of a tile of 128-byte rows: lane t reads word 0 of row t
    for p in PRESETS:
        add(32, f"col_128Brows_{p}", lambda t, p=p: sw(128 * t, p),
            only=None if p in ("none", "sw128") else "ld")

    # ---- 8 bytes: half-warp rules ----
    add(64, "linear", lambda t: 8 * t)
    add(64, "bcast_all", lambda t: 0)
    add(64, "stride2", lambda t: 16 * t)
    add(64, "halves_same_128B", lambda t: 8 * (t % 16))
    add(64, "halves_same_128B_reversed",
        lambda t: 8 * (t % 16) if t < 16 else 8 * (15 - t % 16))
    add(64, "halves_overlap_64B", lambda t: 8 * (t % 16) + 64 * (t // 16))
    add(64, "halves_rows_0_2", lambda t: 8 * (t % 16) + 256 * (t // 16))
    add(64, "half_bcast_same_128B", lambda t: 8 * (t // 16))
    add(64, "half_bcast_same_bank", lambda t: 128 * (t // 16))
    add(64, "pairs", lambda t: 8 * (t // 2))
    add(64, "quarters_same", lambda t: 8 * (t % 8) + 64 * (t // 16))
    add(64, "interleaved_halves", lambda t: 8 * (((t & 1) << 4) | (t >> 1)))
    add(64, "lanes0_15", lambda t: 8 * t, lambda t: t < 16)
    add(64, "lanes16_31", lambda t: 8 * t, lambda t: t >= 16)
    add(64, "even_lanes", lambda t: 8 * t, lambda t: t % 2 == 0)
    add(64, "one_lane", lambda t: 0, lambda t: t == 0)
    # Run 1 on an H100 suggested: loads whose lane pairs (2k, 2k+1) share an
    # address (or have one inactive lane) take half the passes. These tell
    # that rule apart from "unique bytes per quarter/half" rules.
    add(64, "quarter4_unique", lambda t: 8 * ((t % 4) + 4 * (t // 8)), only="ld")
    add(64, "pairs_reversed", lambda t: 8 * (15 - t // 2), only="ld")
    add(64, "pairs_conflict", lambda t: 8 * ((t // 2) % 8 + 16 * (t // 16)), only="ld")
    add(64, "pairs_but_last",
        lambda t: 8 * (t // 2) if t < 30 else 8 * (15 + t - 30), only="ld")
    add(64, "even_lanes_dense", lambda t: 8 * (t // 2), lambda t: t % 2 == 0)
    add(64, "pairs_lanes0_15", lambda t: 8 * (t // 2), lambda t: t < 16, only="ld")

    # ---- 16 bytes: quarter-warp rules ----
    add(128, "linear", lambda t: 16 * t)
    add(128, "bcast_all", lambda t: 0)
    add(128, "stride2", lambda t: 32 * t)
    add(128, "quarters_same_128B", lambda t: 16 * (t % 8))
    add(128, "quarters_same_128B_permuted",
        lambda t: 16 * (t % 8) if (t // 8) % 2 == 0 else 16 * (7 - t % 8))
    add(128, "halves_same_256B", lambda t: 16 * (t % 16))
    add(128, "quarter_bcast_same_128B", lambda t: 16 * (t // 8))
    add(128, "quarter_bcast_same_bank", lambda t: 128 * (t // 8))
    add(128, "quarters_overlap_64B", lambda t: 16 * (t % 8) + 64 * (t // 8))
    add(128, "quarters_rows_0_2_4_6", lambda t: 16 * (t % 8) + 256 * (t // 8))
    add(128, "quarter_pairs_same", lambda t: 16 * (t % 8) + 128 * (t // 16))
    add(128, "interleaved_quarters", lambda t: 16 * (((t & 1) << 4) | (t >> 1)))
    add(128, "pairs", lambda t: 16 * (t // 2))
    add(128, "lanes0_7", lambda t: 16 * t, lambda t: t < 8)
    add(128, "lanes24_31", lambda t: 16 * t, lambda t: t >= 24)
    add(128, "even_lanes", lambda t: 16 * t, lambda t: t % 2 == 0)
    add(128, "one_lane", lambda t: 0, lambda t: t == 0)
    add(128, "lane0_and_31", lambda t: 16 * t, lambda t: t in (0, 31))
    add(128, "pairs_4chunks", lambda t: 16 * ((t // 2) % 4), only="ld")
    add(128, "quarter_4unique", lambda t: 16 * (t % 4 + 4 * ((t // 8) % 2)), only="ld")
    add(128, "even_lanes_dense", lambda t: 16 * (t // 2), lambda t: t % 2 == 0)
    add(128, "pairs_lanes0_15", lambda t: 16 * (t // 2), lambda t: t < 16, only="ld")
    add(128, "pairs_but_last",
        lambda t: 16 * (t // 2) if t < 30 else 16 * (15 + t - 30), only="ld")
    # 128-bit accesses of a tile of 128-byte rows (8 x 16B chunks per row)
    add(128, "rows_128Btile_sw128", lambda t: sw(128 * (t // 8) + 16 * (t % 8), "sw128"))
    add(128, "col_128Btile_none", lambda t: 128 * t)
    add(128, "col_128Btile_sw128", lambda t: sw(128 * t, "sw128"))
    return out


# Row layouts for ldmatrix/stmatrix: address of row r of matrix j.
MATRIX_LAYOUTS = {
    "contig": lambda j, r: 128 * j + 16 * r,                 # each matrix 128 contiguous bytes
    "rows128B": lambda j, r: 128 * r + 16 * j,               # seed 004: 8-way per matrix
    "rows128B_sw128": lambda j, r: sw(128 * r + 16 * j, "sw128"),
    "rows64B": lambda j, r: 64 * r + 16 * j,                 # 4-way per matrix
    "rows64B_sw64": lambda j, r: sw(64 * r + 16 * j, "sw64"),
    "rows32B": lambda j, r: 512 * j + 32 * r,                # 2-way per matrix
    "repeated_rows": lambda j, r: 16 * j,                    # 8 rows, one address
    "all_same": lambda j, r: 0,
    # mma A fragment, x4 over a 16x16 fp16 tile in 128-byte rows:
    # matrices (rows 0-7,k 0-7) (rows 8-15,k 0-7) (rows 0-7,k 8-15) (rows 8-15,k 8-15)
    "afrag_rows128B": lambda j, r: 128 * (8 * (j % 2) + r) + 16 * (j // 2),
    "afrag_rows128B_sw128": lambda j, r: sw(128 * (8 * (j % 2) + r) + 16 * (j // 2), "sw128"),
}


def matrix_pattern(op, x, trans, layout):
    used = 8 * x
    f = MATRIX_LAYOUTS[layout]
    offs = [f((t % used) // 8, t % 8) for t in LANES]
    short = "ldsm" if op == "ldmatrix" else "stsm"
    return {"name": f"{short}_x{x}{'_trans' if trans else ''}_{layout}", "op": op,
            "bytes": 16, "matrices": x, "trans": trans, "offsets": offs}


LDSM = [
    (1, False, "contig"), (1, False, "rows128B"), (1, False, "rows128B_sw128"),
    (1, False, "rows64B"), (1, False, "rows64B_sw64"), (1, False, "rows32B"),
    (1, False, "repeated_rows"),
    (2, False, "contig"), (2, False, "rows128B"), (2, False, "rows128B_sw128"),
    (2, False, "repeated_rows"),
    (4, False, "contig"), (4, False, "rows128B"), (4, False, "rows128B_sw128"),
    (4, False, "rows64B"), (4, False, "rows64B_sw64"), (4, False, "rows32B"),
    (4, False, "repeated_rows"), (4, False, "all_same"),
    (4, False, "afrag_rows128B"), (4, False, "afrag_rows128B_sw128"),
    (1, True, "contig"), (1, True, "rows128B"), (2, True, "contig"),
    (4, True, "contig"), (4, True, "rows128B"), (4, True, "rows128B_sw128"),
]

STSM = [
    (1, False, "contig"), (1, False, "rows128B"), (1, False, "rows128B_sw128"),
    (1, False, "repeated_rows"),
    (2, False, "contig"), (2, False, "rows128B"),
    (4, False, "contig"), (4, False, "rows128B"), (4, False, "rows128B_sw128"),
    (4, False, "rows64B"), (4, False, "rows64B_sw64"), (4, False, "repeated_rows"),
    (4, False, "afrag_rows128B"),
    (4, True, "contig"), (4, True, "rows128B"), (4, True, "rows128B_sw128"),
]


def all_patterns():
    pats = ldst_patterns("ld") + ldst_patterns("st")
    pats += [matrix_pattern("ldmatrix", *c) for c in LDSM]
    pats += [matrix_pattern("stmatrix", *c) for c in STSM]
    return pats


def check(pats):
    names = set()
    for p in pats:
        assert p["name"] not in names, "duplicate name " + p["name"]
        names.add(p["name"])
        assert len(p["offsets"]) == 32, p["name"]
        size = 16 if p["op"] in ("ldmatrix", "stmatrix") else p["bytes"]
        active = [o for o in p["offsets"] if o is not None]
        assert active, p["name"]
        for o in active:
            assert o % size == 0 and 0 <= o and o + size <= SMEM_LIMIT, (p["name"], o)
        if p["op"] in ("ldmatrix", "stmatrix"):
            assert len(active) == 32, p["name"]
    return len(pats)


def dumps(pats):
    # One pattern per line: diffable, and still plain JSON.
    return "[\n" + ",\n".join(json.dumps(p, separators=(",", ":")) for p in pats) + "\n]\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=os.path.join(here, "patterns.json"))
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if the output file differs from what would be written")
    args = ap.parse_args()
    pats = all_patterns()
    n = check(pats)
    text = dumps(pats)
    if args.check:
        with open(args.output) as f:
            same = f.read() == text
        print(f"{args.output}: {'up to date' if same else 'STALE'} ({n} patterns)")
        return 0 if same else 1
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {n} patterns to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
