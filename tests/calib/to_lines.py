#!/usr/bin/env python3
"""to_lines.py: converts a JSON array of patterns (tests/calib/patterns.json,
or POST /api/conflicts bodies) to the line format swizzlescope-measure reads:
  name op bytes matrices trans o0 ... o31      ('-' for a null offset)
Missing fields take the API defaults (bytes 4, matrices 1, trans false).
Usage: to_lines.py [patterns.json] > patterns.txt   (stdin when no file)
"""
import json
import sys


def to_line(p, index):
    name = p.get("name") or f"pattern{index}"
    offs = p["offsets"]
    if len(offs) != 32:
        raise ValueError(f"{name}: need 32 offsets, got {len(offs)}")
    fields = [name, p["op"], str(p.get("bytes", 4)), str(p.get("matrices", 1)),
              "1" if p.get("trans", False) else "0"]
    fields += ["-" if o is None else str(int(o)) for o in offs]
    return " ".join(fields)


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    pats = json.load(src)
    for i, p in enumerate(pats):
        print(to_line(p, i))
    return 0


if __name__ == "__main__":
    sys.exit(main())
