#!/usr/bin/env python3
"""gen_probe.py: writes patterns.txt for cp_probe.cu, the cp.async (LDGSTS)
sweep of issue 23 part 3: shared offsets x global offsets x (4, 8, 16 bytes
.ca; 16 bytes .cg).  Each line: name bytes cache s0..s31 g0..g31 (-1: lane
idle).  It must not choose what the model answers: it only lists patterns.
Stdlib only.  Usage: python3 gen_probe.py [--second | --subset] [--check]
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def shared_sides(b):
    s = {}
    s["s_contig"] = [t * b for t in range(32)]
    for st in (2 * b, 4 * b, 8 * b, 16 * b, 32 * b):
        if st <= 512 and st != b:
            s[f"s_stride{st}"] = [t * st for t in range(32)]
    s["s_same"] = [0] * 32
    s["s_xor5"] = [(t ^ 5) * b for t in range(32)]
    s["s_rev"] = [(31 - t) * b for t in range(32)]
    rnd = random.Random(17 + b)
    perm = list(range(32))
    rnd.shuffle(perm)
    s["s_perm"] = [perm[t] * b for t in range(32)]
    s["s_half"] = [t * b if t < 16 else -1 for t in range(32)]
    if b == 16:
        # seed 004's producer: a 64-wide f16 tile (128 B rows), lane t writes
        # row t/8, 16-byte chunk t%8, swizzled (chunk ^ row%8) or not, and 64 B rows
        s["s_tile128_sw"] = [(t // 8) * 128 + (((t % 8) ^ (t // 8 % 8)) * 16) for t in range(32)]
        s["s_tile128_plain"] = [(t // 8) * 128 + (t % 8) * 16 for t in range(32)]
        s["s_tile64_plain"] = [(t // 4) * 64 + (t % 4) * 16 for t in range(32)]
        s["s_tile256_plain"] = [(t // 8) * 256 + (t % 8) * 16 for t in range(32)]
        s["s_col128"] = [t * 128 for t in range(32)]
    return s


def global_sides(b):
    g = {}
    g["g_contig"] = [t * b for t in range(32)]
    for st in (16, 32, 64, 128, 256):
        if st > b:
            g[f"g_stride{st}"] = [t * st for t in range(32)]
    g["g_same"] = [0] * 32
    g["g_rev"] = [(31 - t) * b for t in range(32)]
    rnd = random.Random(29 + b)
    perm = list(range(32))
    rnd.shuffle(perm)
    g["g_perm"] = [perm[t] * b for t in range(32)]
    # 4 lanes per 128-byte line, lines 1 KB apart
    g["g_rows4"] = [(t // 4) * 1024 + (t % 4) * b for t in range(32)]
    if b == 16:
        # the producer's global side: rows of a row-major matrix 1 KB apart
        g["g_tile_rows"] = [(t // 8) * 1024 + (t % 8) * 16 for t in range(32)]
    return g


def lines():
    out = []
    for b, cache in ((4, "ca"), (8, "ca"), (16, "ca"), (16, "cg")):
        ss, gs = shared_sides(b), global_sides(b)
        for sn, so in ss.items():
            for gn, go in gs.items():
                g = [go[t] if so[t] >= 0 else -1 for t in range(32)]
                out.append(" ".join([f"{cache}{b}.{sn}.{gn}", str(b), cache] +
                                    [str(x) for x in so] + [str(x) for x in g]))
    return "\n".join(out) + "\n"


def lines_second():
    """patterns_second.txt: the second sweep, aimed at C1/C2's misses (lanes
    permuted within a line): one line of 8 16-byte lanes (global chunks 0..7
    of line 0, the rest of the warp idle, or all 4 lines), shared chunks in
    XOR classes of given sizes, in one or two shared rows; and for .ca 8-byte
    copies whose shared conflicts fall across lines of one phase."""
    out = []

    def emit(name, b, cache, s, g):
        out.append(" ".join([f"{cache}{b}.{name}", str(b), cache] + [str(x) for x in s] +
                            [str(x) for x in g]))
    idle = [-1] * 24
    # .cg / .ca 16 B: lanes 0-7 read line 0 in order; lane t writes chunk t ^ m(t) of row r(t)
    cases = {
        "x0": [0] * 8, "x1": [1] * 8, "x7": [7] * 8,
        "x0x1_4_4": [0] * 4 + [1] * 4, "x0x4_4_4": [0] * 4 + [4] * 4,
        "x0x1_7_1": [0] * 7 + [1], "x0x1_1_7": [1] + [0] * 7,
        "x0x1x2x3_2222": [0, 0, 1, 1, 2, 2, 3, 3], "x_all8": [0, 1, 2, 3, 4, 5, 6, 7],
        "x0x1_6_2": [0] * 6 + [2, 2],
    }
    for cname, ms in cases.items():
        for rows in ("r1", "r2"):
            s = [((t ^ ms[t]) % 8) * 16 + (128 * (t % 2) if rows == "r2" else 0) for t in range(8)]
            # a mapping that is not a permutation of chunks collides: keep the first
            g = [t * 16 for t in range(8)]
            if len(set(s)) < 8:
                continue
            for cache in ("ca", "cg"):
                emit(f"one_{cname}_{rows}", 16, cache, s + idle, g + [-1] * 24)
                # the same in every line: lane t of line L = t // 8
                emit(f"all_{cname}_{rows}", 16, cache,
                     [(L * 256) + x for L in range(4) for x in s],
                     [L * 128 + x for L in range(4) for x in g])
    # .ca 8 B: phase = 16 lanes over two global lines (lanes 0-7 line 0, 8-15 line 1);
    # lanes k of line 0 and k' of line 1 on one shared bank pair
    for k in range(1, 5):
        s = list(range(16))
        for j in range(k):          # lane 8+j writes where lane j's partner 16 words on
            s[8 + j] = s[j] + 16
        s = [x * 8 for x in s] + [-1] * 16
        g = [(t // 8) * 128 + (t % 8) * 16 if t < 16 else -1 for t in range(32)]
        emit(f"cross_lines_{k}", 8, "ca", s, g)
        g2 = [(t // 8) * 1024 + (t % 8) * 8 if t < 16 else -1 for t in range(32)]
        emit(f"cross_lines_dense_{k}", 8, "ca", s, g2)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if "--subset" in sys.argv:
        # patterns_subset.txt: every third row of both sweeps (run_states.sh's 16-warp
        # and hardware-counter runs)
        rows = (open(os.path.join(HERE, "patterns.txt")).read().splitlines() +
                open(os.path.join(HERE, "patterns_second.txt")).read().splitlines())
        sys.path.insert(0, os.path.join(HERE, ".."))
        import ncu_raw
        ncu_raw.write_or_check(os.path.join(HERE, "patterns_subset.txt"),
                               "\n".join(rows[::3]) + "\n", "gen_probe.py --subset", "patterns")
        sys.exit(0)
    if "--second" in sys.argv:
        open(os.path.join(HERE, "patterns_second.txt"), "w").write(lines_second())
        print("patterns_second.txt:", lines_second().count(chr(10)), "patterns")
        sys.exit(0)
    sys.path.insert(0, os.path.join(HERE, ".."))
    import ncu_raw
    ncu_raw.write_or_check(os.path.join(HERE, "patterns.txt"), lines(), "gen_probe.py", "patterns")
