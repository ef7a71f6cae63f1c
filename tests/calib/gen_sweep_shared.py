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
instead of load (stores are expected never to pair).
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
