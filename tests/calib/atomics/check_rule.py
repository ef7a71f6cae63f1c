#!/usr/bin/env python3
"""check_rule.py: the rule the atomics sweep suggests, checked against its data
(tests/data/atomics_*.json). Stdlib only; prints every miss and a summary.

Rule (native shared atomics, sm_90, ATOMS.<op>): the warp is cut into phases
as for loads and stores (32 lanes of 4 B, 16 lanes of 8 B); a phase costs the
most ACTIVE LANES any one bank must serve: lanes on the same address do not
share a word as loads do, they serialize. cas moves two operands: twice that.
Cycles (clock64) follow the wavefronts from about 4 up; below, a floor shows
(about 2 per phase with the whole warp converged, about 4 with lanes off,
where the predicated atomic is a branch in SASS): printed, not yet a rule.
Usage: check_rule.py [tests/data/atomics_h100-80gb-hbm3.json]
"""
import json
import sys


def model(p):
    w = 8 if p["type"] in ("u64", "s64", "b64", "f64") else 4
    per = 32 if w == 4 else 16
    total = 0
    for base in range(0, 32, per):
        hits = {}
        for t in range(base, base + per):
            o = p["offsets"][t]
            if o is None:
                continue
            for word in range(o // 4, (o + w - 1) // 4 + 1):
                hits[word % 32] = hits.get(word % 32, 0) + 1
        total += max(hits.values()) if hits else 0
    return total * (2 if p["func"] == "cas" else 1)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/atomics_h100-80gb-hbm3.json"
    data = json.load(open(path))
    n = miss = 0
    floor = []
    for p in data["patterns"]:
        if not p["native"]:
            continue
        n += 1
        m = model(p)
        if p["wavefronts"] is None or abs(m - p["wavefronts"]) > 0.01:
            miss += 1
            print("MISS", p["name"], "rule", m, "ncu", p["wavefronts"])
        if abs(p["cycles"] - m) > 0.05 * m:
            floor.append((p["name"], m, p["cycles"]))
    print(f"{path} ({data['device']}): rule exact on {n - miss} of {n} native atomics")
    print(f"{len(floor)} native atomics whose cycles are not within 5% of the wavefronts:")
    for name, m, c in floor:
        print(f"  {name}: {m} wavefronts, {c:.2f} cycles")


if __name__ == "__main__":
    main()
