#!/usr/bin/env python3
"""check_rule.py: the rule the atomics sweep suggests, checked against its data
(tests/data/atomics_*.json). Stdlib only; prints every miss and a summary.

Rule (native shared atomics, sm_90, ATOMS.<op>): the warp is cut into phases
as for loads and stores (32 lanes of 4 B, 16 lanes of 8 B); a phase costs the
most ACTIVE LANES any one bank must serve: lanes on the same address do not
share a word as loads do, they serialize. cas moves two operands: twice that.
Cycles (clock64): max(wavefronts, the issue floor of the form's class), the
rule server/model/access.c states (A5-A6): 4-byte red 2.04 (lanes off 4.09), atom
2.2 (cas 2.27; lanes off 4.2); 8-byte forms (A8): (w^16 + g^16)^(1/16) with
g = F + beta*w per class.  Rows not within
5% of the wavefronts, and rows not within 2% of the rule, are printed.
The model itself is checked by tests/unit/test_access.c; this is the data's own
check, in the words of the groundwork.
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


def floor(p):
    """access.c's A5-A7; an atom whose result is unused is red's SASS."""
    conv = all(o is not None for o in p["offsets"])
    if p["type"] in ("u64", "s64", "b64", "f64"):
        act = [o is not None for o in p["offsets"]]
        phases = sum(1 for b in (0, 16) if any(act[b:b + 16]))
        f, beta = ((3.40, 0.29) if p["func"] == "cas" else (3.75, 0.15)) if conv else \
            ((5.36, 0.13) if phases > 1 else (5.19, 0.10))
        return f + beta * model(p)
    if p["op"] == "red" or not p["result_used"]:
        return 2.04 if conv else 4.09
    if p["func"] == "cas" and conv:
        return 2.27
    return 2.2 if conv else 4.2


def cycles(p):
    """A5, A6; A8 for 8 bytes (a max with a rounded corner)."""
    w, g = model(p), floor(p)
    if p["type"] in ("u64", "s64", "b64", "f64"):
        return (w ** 16 + g ** 16) ** (1 / 16)
    return max(w, g)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/atomics_h100-80gb-hbm3.json"
    data = json.load(open(path))
    n = miss = 0
    slow = []
    for p in data["patterns"]:
        if not p["native"]:
            continue
        n += 1
        m = model(p)
        if p["wavefronts"] is None or abs(m - p["wavefronts"]) > 0.01:
            miss += 1
            print("MISS", p["name"], "rule", m, "ncu", p["wavefronts"])
        if abs(p["cycles"] - m) > 0.05 * m:
            slow.append((p["name"], m, p["cycles"]))
    print(f"{path} ({data['device']}): rule exact on {n - miss} of {n} native atomics")
    print(f"{len(slow)} native atomics whose cycles are not within 5% of the wavefronts")
    off = [(p["name"], model(p), p["cycles"]) for p in data["patterns"] if p["native"]
           and abs(p["cycles"] - cycles(p)) > 0.02 * cycles(p)]
    print(f"cycles within 2% of the rule on {n - len(off)} of {n}; not on:")
    for name, m, c in off:
        print(f"  {name}: {m} wavefronts, {c:.2f} cycles")


if __name__ == "__main__":
    main()
