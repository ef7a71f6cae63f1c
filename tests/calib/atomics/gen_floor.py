#!/usr/bin/env python3
"""gen_floor.py: writes patterns_floor.txt, the second atomics sweep (issue 17,
the cycles of 8-byte atomics between 2 and 8 wavefronts, and of partly active
warps between 2 and 8 wavefronts).  The first sweep (patterns.txt) measured
wavefronts 1-2 and 16-64 with lanes off and found five 8-byte rows at 4
wavefronts that read 4.41-4.59 cycles where max(wavefronts, floor) says 4.05;
this sweep fills in every wavefront count from 1 to 10 three ways: bank
conflicts, same-address lanes, and partial warps.  Stdlib only.
Format (as patterns.txt): name width active_hex o0 .. o31.
Usage: python3 gen_floor.py            write patterns_floor.txt (next to it)
       python3 gen_floor.py --check    fail if patterns_floor.txt is stale
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

ROW = 128          # bytes of one bank row (32 banks x 4 B)


def phase(width, lanes, k, same=False, base=0):
    """Offsets for `lanes` lanes of one phase with exactly k of them on bank
    word 0 (k-way: distinct rows, or the same address when `same`) and the
    rest on distinct banks: the phase costs k wavefronts (k >= 1)."""
    out = []
    for i in range(lanes):
        if i < k:
            out.append(base + (0 if same else i * ROW))
        else:
            out.append(base + (i - k + 1) * width)
    return out


def patterns():
    """The lines of patterns_floor.txt, in order."""
    lines = []

    def emit(name, width, mask, offs):
        offs = [o if mask >> t & 1 else 0 for t, o in enumerate(offs)]
        lines.append(" ".join(map(str, [name, width, f"{mask:08x}", *offs])) + "\n")

    full = 0xFFFFFFFF
    # 8 bytes: two phases of 16 lanes; phase p's k-way conflict.
    for k0, k1 in [(1, 1), (2, 1), (3, 1), (2, 2), (4, 1), (3, 2), (5, 1), (3, 3),
                   (4, 2), (6, 1), (4, 3), (7, 1), (4, 4), (8, 1), (5, 5)]:
        emit(f"f8_c{k0}_{k1}", 8, full, phase(8, 16, k0) + phase(8, 16, k1, base=4096))
    for k0, k1 in [(2, 1), (3, 1), (2, 2), (4, 1), (3, 2), (5, 1), (3, 3)]:
        emit(f"f8_s{k0}_{k1}", 8, full, phase(8, 16, k0, True) + phase(8, 16, k1, True, 4096))
    # 8 bytes, lanes 0-15 only (phase 1 idle), k-way: k wavefronts.
    for k in range(1, 11):
        emit(f"f8_h_c{k}", 8, 0x0000FFFF, phase(8, 16, k) + [0] * 16)
    # 8 bytes, every lane but lane 31 (both phases busy, a branch around the atomic).
    for k0, k1 in [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 4)]:
        emit(f"f8_m1_c{k0}_{k1}", 8, 0x7FFFFFFF, phase(8, 16, k0) + phase(8, 16, k1, base=4096))
    # 4 bytes: one phase of 32 lanes, k-way.
    for k in range(1, 11):
        emit(f"f4_c{k}", 4, full, phase(4, 32, k))
    for k in (2, 3, 4, 5, 6):
        emit(f"f4_s{k}", 4, full, phase(4, 32, k, True))
    for k in range(1, 9):
        emit(f"f4_h_c{k}", 4, 0x0000FFFF, phase(4, 32, k))
    for k in range(1, 9):
        emit(f"f4_m1_c{k}", 4, 0x7FFFFFFF, phase(4, 32, k))
    return lines


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, ".."))
    import ncu_raw
    ncu_raw.write_or_check(os.path.join(HERE, "patterns_floor.txt"), "".join(patterns()),
                           "gen_floor.py", "patterns")
