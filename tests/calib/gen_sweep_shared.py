#!/usr/bin/env python3
"""gen_sweep_shared.py: writes tests/calib/sweep_shared.json, the sweep of
8- and 16-byte shared-memory accesses whose lanes share addresses (issue 17,
part 1): which lane groupings let the hardware serve a vector load in fewer
phases than 32 lanes x width / 128 B.

Deterministic, stdlib only; the same pattern format as gen_patterns.py.
Lanes t and t' read the same address iff t XOR t' lies in a subspace V of
F2^5 (the lane index as 5 bits): V of dimension 1 (every nonzero XOR mask m:
lanes t and t^m share), and the subspaces spanned by lane-index bits (groups of
2^k lanes, contiguous when the low bits span V, strided when the high bits do),
plus a few non-axis 2-dimensional ones. The distinct addresses (one per coset
of V, ranked by their lowest lane) are laid out
  dense: rank * width             (distinct words in distinct banks where they fit)
  bank:  rank * 128               (every distinct address in the same banks)
  lane:  lowest lane * width      (the address of the coset's first lane)
and a few variants switch lanes off (upper half, every fourth) or store
instead of load (stores are expected never to pair). The "pair" group then
holds every lane pair (2k, 2k+1) on one address (so the hardware pairs) and
varies what the two unpaired sub-phases of each paired phase (16 lanes for
8 B, 8 lanes for 16 B) read: the same or other addresses, in the same or other
banks, conflict-free or not; ncu's Source-page metric and the hardware
counter part ways there.
Usage: gen_sweep_shared.py [-o PATH] [--check]
"""
import argparse
import itertools
import json
import os
import sys

LANES = range(32)


def span(gens):
    """Every element of the F2 span of the lane masks in gens."""
    out = {0}
    for g in gens:
        out |= {x ^ g for x in out}
    return out


def cosets(v):
    """rep[t]: the lowest lane of t's coset t + V; reps sorted."""
    rep = [min(t ^ x for x in v) for t in LANES]
    return rep, sorted(set(rep))


def name_of(gens):
    return "x" + "_".join(f"{g}" for g in gens)


def pattern(op, width, tag, offs):
    return {"name": f"{op}{width * 8}_{tag}", "op": op, "bytes": width,
            "matrices": 1, "trans": False, "offsets": offs}


def offsets(gens, width, layout, active=lambda t: True):
    rep, reps = cosets(span(gens))
    rank = {r: i for i, r in enumerate(reps)}
    def at(t):
        if layout == "dense":
            return rank[rep[t]] * width
        if layout == "bank":
            return rank[rep[t]] * 128
        return rep[t] * width          # "lane"
    return [at(t) if active(t) else None for t in LANES]


def subspaces():
    """(generators, label) of every subspace the sweep covers."""
    out = [((m,), None) for m in range(1, 32)]                 # every XOR mask
    bits = [1, 2, 4, 8, 16]
    for k in (2, 3, 4, 5):                                     # lane-bit subspaces
        out += [(c, None) for c in itertools.combinations(bits, k)]
    out += [((3, 12), None), ((1, 6), None), ((5, 10), None)]  # non-axis planes
    return out


# Addresses (in units of the access width, or absolute with "@") that the
# 8 pairs of a 16-lane sub-phase (8 B) or the 4 pairs of an 8-lane one (16 B)
# read, by template name; the second sub-phase may reuse or move them.
def sub_addrs(tmpl, n, width):
    if tmpl == "lo":                  # dense from 0: conflict-free
        return [i * width for i in range(n)]
    if tmpl == "hi":                  # dense, the other half of the bank row
        return [64 + i * width for i in range(n)]
    if tmpl == "bank":                # every address in the same banks
        return [i * 128 for i in range(n)]
    if tmpl == "bank2":               # the same banks, other rows
        return [(n + i) * 128 for i in range(n)]
    if tmpl == "bcast":               # one address
        return [0] * n
    if tmpl == "bcast_row":           # one address, same banks, next row
        return [128] * n
    if tmpl == "bcast_far":           # one address in other banks
        return [64] * n
    if tmpl == "c2":                  # 2-way: half the pairs one row down
        return [i * width + (128 if i % 2 else 0) for i in range(n)]
    raise ValueError(tmpl)


PAIR_CASES = [("lo", "lo"), ("lo", "hi"), ("lo", "bank"), ("bank", "bank"),
              ("bank", "bank2"), ("bcast", "bcast"), ("bcast", "bcast_row"),
              ("bcast", "bcast_far"), ("c2", "c2"), ("c2", "hi")]


def pair_pattern(width, a, b):
    sub = 16 if width == 8 else 8     # lanes of one unpaired phase
    pairs = sub // 2
    first, second = sub_addrs(a, pairs, width), sub_addrs(b, pairs, width)
    offs = []
    for t in LANES:
        k = (t % (2 * sub)) // 2      # pair index within the paired phase
        offs.append(first[k] if k < pairs else second[k - pairs])
    return pattern("ld", width, f"pair_{a}_{b}", offs)


def build():
    pats = []
    for width in (8, 16):
        for gens, _ in subspaces():
            for layout in ("dense", "bank"):
                pats.append(pattern("ld", width, f"sh{name_of(gens)}_{layout}",
                                    offsets(gens, width, layout)))
        for m in (1, 2, 4, 8, 16):
            pats.append(pattern("ld", width, f"sh{name_of((m,))}_lane",
                                offsets((m,), width, "lane")))
            pats.append(pattern("ld", width, f"sh{name_of((m,))}_dense_hi_off",
                                offsets((m,), width, "dense", lambda t: t < 16)))
            pats.append(pattern("ld", width, f"sh{name_of((m,))}_dense_q_off",
                                offsets((m,), width, "dense", lambda t: t % 4 != 3)))
            pats.append(pattern("st", width, f"sh{name_of((m,))}_dense",
                                offsets((m,), width, "dense")))
        for a, b in PAIR_CASES:
            pats.append(pair_pattern(width, a, b))
    return pats


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", default=os.path.join(here, "sweep_shared.json"))
    ap.add_argument("--check", action="store_true",
                    help="fail if the file on disk differs from what this script writes")
    a = ap.parse_args()
    pats = build()
    names = [p["name"] for p in pats]
    assert len(names) == len(set(names)), "duplicate pattern names"
    for p in pats:
        for o in p["offsets"]:
            assert o is None or (o % p["bytes"] == 0 and o + p["bytes"] <= 48 * 1024)
    text = json.dumps(pats, indent=0) + "\n"
    if a.check:
        if open(a.o).read() != text:
            sys.exit(f"{a.o} is stale: run {sys.argv[0]}")
        print(f"{a.o}: {len(pats)} patterns, up to date")
        return
    open(a.o, "w").write(text)
    print(f"wrote {a.o}: {len(pats)} patterns")


if __name__ == "__main__":
    main()
