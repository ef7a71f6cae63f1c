#!/usr/bin/env python3
"""gen_configs.py: writes configs.txt, the TMA placement sweep of issue 23 part 2
(tma_probe.cu's input: swizzle elem_bytes inner_elems rows depth).  Every
swizzle mode of the CUDA 13 header (0 NONE, 1 32B, 2 64B, 3 128B,
4 128B_ATOM_32B, 5 128B_ATOM_32B_FLIP_8B, 6 128B_ATOM_64B), element sizes 1, 2,
4, 8, inner extents from 16 bytes to the span (256 bytes for NONE) in 16-byte
steps, rows 1 to 256, and a few 3-D boxes.  Lists configurations only.
Stdlib only.  Usage: python3 gen_configs.py [--check]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPAN = {0: 256, 1: 32, 2: 64, 3: 128, 4: 128, 5: 128, 6: 128}
ROWS = (1, 2, 3, 5, 8, 9, 16, 64, 256)


def lines():
    out = []
    for swz in range(7):
        for elem in (1, 2, 4, 8):
            for ib in range(16, SPAN[swz] + 1, 16):
                rows = ROWS if elem in (2, 4) else (1, 3, 8, 16)
                for r in rows:
                    out.append(f"{swz} {elem} {ib // elem} {r} 1")
            # 3-D boxes: two planes of an odd row count, inner one 16-byte
            # chunk and the full span
            for ib in sorted({16, SPAN[swz] // 2, SPAN[swz]}):
                out.append(f"{swz} {elem} {ib // elem} 3 2")
                out.append(f"{swz} {elem} {ib // elem} 8 3")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, ".."))
    import ncu_raw
    ncu_raw.write_or_check(os.path.join(HERE, "configs.txt"), lines(), "gen_configs.py", "configurations")
