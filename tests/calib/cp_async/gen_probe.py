#!/usr/bin/env python3
"""gen_probe.py: writes patterns.txt for cp_probe.cu, the cp.async (LDGSTS)
sweep of issue 23 part 3: shared offsets x global offsets x (4, 8, 16 bytes
.ca; 16 bytes .cg).  Each line: name bytes cache s0..s31 g0..g31 (-1: lane
idle).  It must not choose what the model answers: it only lists patterns.
Stdlib only.  Usage: python3 gen_probe.py [--check]
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


if __name__ == "__main__":
    text = lines()
    path = os.path.join(HERE, "patterns.txt")
    if "--check" in sys.argv:
        ok = os.path.exists(path) and open(path).read() == text
        print(f"{path}: {'up to date' if ok else 'STALE: run gen_probe.py'}")
        sys.exit(0 if ok else 1)
    open(path, "w").write(text)
    print(f"{path}: {text.count(chr(10))} patterns")
