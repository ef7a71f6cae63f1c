#!/usr/bin/env python3
"""gen_sweep_vec_partial.py: writes tests/calib/sweep_vec_partial.json, the
third sweep of issue 17 part 1: 16-byte loads whose lanes share addresses
(lane t with t^m, m = 1, 4, 8, 16, or no sharing) under partial activity
masks.  The second sweep (sweep_shared.json) left four rows whose ncu Source-
page count the model misses (ld128_shx{4,8}_dense_{hi,q}_off: Source 1 and 3
where the hardware counter reads 2 and 4); this one varies which quarter-warps
(8 lanes of 16 B, one 128-byte phase each) are active to find the rule the
Source-page metric follows.  Same format as gen_patterns.py; stdlib only.
Usage: gen_sweep_vec_partial.py [-o PATH] [--check]
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "sweep_vec_partial.json")

# lanes t and t^m read one address; the distinct addresses, ranked by their
# lowest lane, are laid out densely (16 B apart)
SHARING = {"shx0": 0, "shx1": 1, "shx4": 4, "shx8": 8, "shx16": 16}
MASKS = {
    "q0": 0x000000FF, "q1": 0x0000FF00, "q01": 0x0000FFFF, "q23": 0xFFFF0000,
    "q02": 0x00FF00FF, "q03": 0xFF0000FF, "q12": 0x00FFFF00, "q012": 0x00FFFFFF,
    "lo4": 0x0F0F0F0F, "q_off": 0x77777777, "odd_off": 0x55555555,
}


def offsets(m, mask):
    rank, offs = {}, []
    for t in range(32):
        key = min(t, t ^ m) if m else t
        if key not in rank:
            rank[key] = len(rank)
        offs.append(rank[key] * 16 if mask >> t & 1 else None)
    return offs


def patterns():
    out = []
    for sname, m in SHARING.items():
        for mname, mask in MASKS.items():
            out.append({"name": f"ld128_{sname}_{mname}", "op": "ld", "bytes": 16,
                        "matrices": 1, "trans": False, "offsets": offsets(m, mask)})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", default=DEFAULT)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    text = json.dumps(patterns(), indent=0) + "\n"
    if a.check:
        ok = os.path.exists(a.o) and open(a.o).read() == text
        print(f"{a.o}: {'up to date' if ok else 'STALE: run gen_sweep_vec_partial.py'}")
        sys.exit(0 if ok else 1)
    open(a.o, "w").write(text)
    print(f"{a.o}: {len(patterns())} patterns")


if __name__ == "__main__":
    main()
