#!/usr/bin/env python3
"""gen_strided.py: the issue-41 sweeps, as JSON arrays for swizzlescope-measure --json.

  strided.json   cp.async (LDGSTS) from strided and permuted global sources:
                 .ca 4/8/16 bytes and .cg 16 bytes x global sides (per-lane strides
                 4..128 bytes, and at 16 bytes apart: reversed, XOR-swizzled and
                 permuted at random within each 128-byte line, seed fixed) x shared
                 sides (plain row, one column of 8 rows 128 B apart, 32 rows, padded
                 rows, Swizzle<3,4,3>/<2,4,3> tiles).
  atom_used.json atomics with the old value returned (atom: the tool's kernel folds
                 the 8 results into its return value) against red (no result), on
                 1, 2, 4, 8 and 32 wavefronts and one word, guard none, all lanes.

Deterministic (stdlib only; random.Random with fixed seeds).  It lists patterns and
chooses nothing the model answers.  Usage: python3 gen_strided.py [OUTDIR]
(default: this folder).

The issue's two examples (4-byte .ca, global sources 16 bytes apart per lane), in the
readings of "8 rows of one column (rows 128 B apart)" this sweep holds:
  ca4.s_col8.g_s16          lane t -> row t%8, column t/8 (the issue's 11 vs 32)
  ca4.s_col8dup.g_s16       lane t -> row t%8 of column 0 (4 lanes per word)
  ca4.s_col8div.g_s16       lane t -> row t/4, element t%4
and each through Swizzle<3,4,3> (s_sw343_*; the issue's 7 vs 4 is read by
s_sw343_col8dup with the permuted sources g_s16_xor / g_s16_rndline; README.md).
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def swz(o, bits, base=4, shift=3):
    """CuTe Swizzle<bits, base, shift> on a byte offset: bits [base, base+bits)
    XOR bits [base+shift, base+shift+bits)."""
    m = ((1 << bits) - 1) << base
    return o ^ ((o >> shift) & m)


def shared_sides(b):
    s = {}
    pad = max(4, b)                    # +4 B per row (one element for 8/16 B copies)
    s["s_row"] = [t * b for t in range(32)]
    # one column of 8 rows, rows 128 B apart; lanes t and t+8k on one address
    s["s_col8dup"] = [(t % 8) * 128 for t in range(32)]
    # 8 rows, 4 lanes per row (row t/4, element t%4): an 8x4 block of a 128 B-row tile
    s["s_col8div"] = [(t // 4) * 128 + (t % 4) * b for t in range(32)]
    # column-major 8-row block: lanes 8c..8c+7 fill column c of rows 0..7
    s["s_col8"] = [(t % 8) * 128 + (t // 8) * b for t in range(32)]
    # one column of 32 rows
    s["s_col32"] = [t * 128 for t in range(32)]
    s["s_pad_col8"] = [(t % 8) * (128 + pad) + (t // 8) * b for t in range(32)]
    s["s_pad_col32"] = [t * (128 + pad) for t in range(32)]
    for name in ("col8dup", "col8div", "col8"):
        s[f"s_sw343_{name}"] = [swz(o, 3) for o in s[f"s_{name}"]]
    for name in ("col8dup", "col8"):
        s[f"s_sw243_{name}"] = [swz(o, 2) for o in s[f"s_{name}"]]
    return s


def global_sides(b):
    g = {}
    for st in (4, 8, 16, 32, 64, 128):
        if st >= b:
            g[f"g_s{st}"] = [t * st for t in range(32)]
    st = 16                            # the stride, permuted
    g["g_s16_rev"] = [(31 - t) * st for t in range(32)]
    g["g_s16_xor"] = [(t ^ ((t >> 3) & 3) ^ 5) * st for t in range(32)]
    rnd = random.Random(41 + b)
    per = 128 // st                    # lanes per 128-byte line
    perm = []
    for L in range(32 // per):
        grp = list(range(L * per, (L + 1) * per))
        rnd.shuffle(grp)
        perm += grp
    g["g_s16_rndline"] = [perm[t] * st for t in range(32)]
    return g


def cp_patterns():
    out = []
    for b, cache in ((4, "ca"), (8, "ca"), (16, "ca"), (16, "cg")):
        ss, gs = shared_sides(b), global_sides(b)
        for sn, so in ss.items():
            for gn, go in gs.items():
                out.append({"name": f"{cache}{b}.{sn}.{gn}", "op": "cp.async", "bytes": b,
                            "cache": cache, "offsets": so, "global_offsets": go})
    return out


def atom_offsets():
    o = {}
    for d in (1, 2, 4, 8, 32):         # d distinct words per bank, 32/d banks
        per = 32 // d
        o[f"deg{d}"] = [(t % per) * 4 + (t // per) * 128 for t in range(32)]
    o["same"] = [0] * 32
    return o


ATOM_FORMS = [("atom", "add", "u32"), ("red", "add", "u32"), ("atom", "exch", "b32"),
              ("atom", "min", "s32"), ("red", "min", "s32"), ("atom", "min", "u32"),
              ("red", "min", "u32"), ("atom", "add", "s32"), ("red", "add", "s32")]


def atom_patterns():
    out = []
    for op, fn, ty in ATOM_FORMS:
        for on, offs in atom_offsets().items():
            out.append({"name": f"{op}_{fn}_{ty}.{on}", "op": op, "func": fn, "type": ty,
                        "value": "lane", "guard": "none", "offsets": offs})
    return out


def dump(rows):
    return "[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]\n"


if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else HERE
    cp, at = cp_patterns(), atom_patterns()
    open(os.path.join(d, "strided.json"), "w").write(dump(cp))
    open(os.path.join(d, "atom_used.json"), "w").write(dump(at))
    print(f"strided.json: {len(cp)} patterns; atom_used.json: {len(at)} patterns")
