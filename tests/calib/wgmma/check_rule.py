#!/usr/bin/env python3
"""check_rule.py: the wgmma read rule against tests/data/wgmma_reads_*.json (the
data's own check; no model in the server uses it yet): every warpgroup wgmma
reads its shared operands in (A bytes + B bytes) / 128 wavefronts with 0 bank
conflicts and 0 arbitration, whatever the descriptor says (layout type, LBO,
SBO, base offset, start, A and B disagreeing).  Stdlib only.
Usage: check_rule.py tests/data/wgmma_reads_<device>.json
"""
import json
import sys

K_BYTES = 32   # every kernel: K x element = 32 bytes (f16 k16, tf32 k8, e4m3 k32)


def main():
    d = json.load(open(sys.argv[1]))
    bad = 0
    for p in d["patterns"]:
        k = p["kernel"]
        n = int(k.split("_n")[1].split("_")[0]) if "_n" in k else 64
        a = 0 if "areg" in k else 64 * K_BYTES
        want = (a + n * K_BYTES) / 128
        ok = abs(p["wavefronts"] - want) < 0.01 and p["conflicts"] == 0 and p["arbitration"] == 0
        if not ok:
            bad += 1
            print("MISS", p["name"], p["wavefronts"], want, p["conflicts"], p["arbitration"])
    print(f"{d['device']}: {len(d['patterns']) - bad} of {len(d['patterns'])} rows: wavefronts = "
          "(A + B bytes) / 128, no conflict, no arbitration")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
