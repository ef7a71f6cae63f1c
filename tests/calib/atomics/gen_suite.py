#!/usr/bin/env python3
"""gen_suite.py: the atomics sweep in the measurement tool's input format,
tests/calib/atomics/suite.json: every atom/red form ptxas accepts for sm_90
(ptxas_sm90.json) x every pattern of patterns.txt of its width (4- or 8-byte),
named like tests/data/atomics_*.json ("atom_add_u32.w4_distinct"), inactive
lanes null, then the 8-byte patterns of patterns_floor.txt on exch and cas
.b64 (76).  1076 patterns; atom with its result unused is red's SASS and has
no row of its own.  Stdlib only; writes nothing else.
Usage (from the repository root):
  python3 tests/calib/atomics/gen_suite.py           write suite.json
  python3 tests/calib/atomics/gen_suite.py --check   fail if suite.json is stale
Measure it:  build/swizzlescope-measure --json < tests/calib/atomics/suite.json
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WIDE = ("u64", "s64", "b64", "f64")


def patterns(file="patterns.txt"):
    out = []
    for line in open(os.path.join(HERE, file)):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        name, width, mask = f[0], int(f[1]), int(f[2], 16)
        offs = [int(o) if mask >> t & 1 else None for t, o in enumerate(f[3:35])]
        out.append((name, width, offs))
    return out


def rows(key, file):
    """Form `key` ("atom_add_u32") on every pattern of `file` of its width."""
    op, func, typ = key.split("_")
    width = 8 if typ in WIDE else 4
    return [{"name": f"{key}.{name}", "op": op, "func": func, "type": typ, "offsets": offs}
            for name, w, offs in patterns(file) if w == width]


def suite():
    forms = json.load(open(os.path.join(HERE, "ptxas_sm90.json")))
    out = []
    for key, v in forms.items():
        if v["ok"]:
            out += rows(key, "patterns.txt")
    # the second sweep's 8-byte patterns on the two native 8-byte forms (rule A8)
    for key in ("atom_exch_b64", "atom_cas_b64"):
        out += rows(key, "patterns_floor.txt")
    return out


def main():
    path = os.path.join(HERE, "suite.json")
    text = json.dumps(suite(), separators=(",", ":")).replace("},{", "},\n{") + "\n"
    if "--check" in sys.argv:
        if not os.path.exists(path) or open(path).read() != text:
            print(f"{path} is stale: run {sys.argv[0]}")
            return 1
        return 0
    open(path, "w").write(text)
    print(f"{path}: {text.count(chr(10))} patterns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
