#!/usr/bin/env python3
"""gen_hw41.py: the cp.async rows issue 41's step 3 decides, as cp_probe.cu pattern
lines, for the hardware counter (run_hw41.sh).  It chooses rows, never models:
  hw41_a.txt  every .ca row where check_strided.py's rule L1 with and without step 3
              differ (28 of cp_strided_h200.json, 8 of cp_async_h200.json), the
              issue's examples and 24 other strided .ca rows (every 12th), and 8
              .cg rows (the launch's baseline: the counter never sees .cg writes);
  hw41_b.txt  the other strided .ca rows, and the same 8 .cg rows.
Deterministic, stdlib only.  Usage: python3 gen_hw41.py [OUTDIR] (default: here)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_strided as cs  # noqa: E402


def line(r):
    s = [-1 if x is None else x for x in r["offsets"]]
    g = [-1 if x is None else x for x in r["global_offsets"]]
    return " ".join([r["name"], str(r["bytes"]), r["cache"]] + [str(x) for x in s + g])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    rows = cs.rows()
    ca = [r for r in rows if r["cache"] == "ca"]
    step3 = [r for r in ca if cs.rule_l1(r) != cs.rule_l1(r, 0)]
    names = {r["name"] for r in step3}
    strided_ca = [r for r in ca if r["set"] == "strided" and r["name"] not in names]
    issue = {"ca4.s_col8.g_s16", "ca4.s_col8dup.g_s16", "ca4.s_sw343_col8dup.g_s16"}
    ctrl = [r for i, r in enumerate(strided_ca) if r["name"] in issue or i % 12 == 0]
    cg = [r for r in rows if r["set"] == "strided" and r["cache"] == "cg"][::10][:8]
    rest = [r for r in strided_ca if r not in ctrl]
    a, b = step3 + ctrl + cg, rest + cg
    for fn, sel in (("hw41_a.txt", a), ("hw41_b.txt", b)):
        open(os.path.join(out, fn), "w").write("".join(line(r) + "\n" for r in sel))
        print(f"{fn}: {len(sel)} rows")


if __name__ == "__main__":
    main()
