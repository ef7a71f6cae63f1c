#!/usr/bin/env python3
"""collect.py: turns run.sh's placement.txt into tests/data/tma_placement_<device>.json:
one row per configuration of configs.txt, with the driver's answer to
cuTensorMapEncodeTiled ("encode": the CUresult, 0 = accepted) and, where the
copy ran, "slots": the 16-byte shared-memory slot (byte offset / 16 from the
1024-byte-aligned destination) of each 16-byte chunk of the box in box order
(plane, row, chunk).  It reports what was measured; it never models.
Stdlib only.  Usage: collect.py OUTDIR DATE OUT_JSON
"""
import json
import sys

MODES = ["CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B", "CU_TENSOR_MAP_SWIZZLE_64B",
         "CU_TENSOR_MAP_SWIZZLE_128B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
         "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"]
METHOD = ("tests/calib/tma/tma_probe.cu (issue 23 part 2): a global tensor of 512-byte rows, "
          "512 rows, 4 planes, every 16-byte chunk tagged with its index; for each "
          "configuration cuTensorMapEncodeTiled (interleave NONE, no L2 promotion, no OOB fill, "
          "element strides 1) and, if accepted, one cp.async.bulk.tensor.2d/.3d of the box at "
          "(0,0,0) into 1024-byte-aligned shared memory filled with a poison, completed on an "
          "mbarrier; the shared window read back and every tag located. 'slots' lists, for the "
          "box's chunks in order (plane, row, chunk), the shared byte offset / 16 where each "
          "landed (-1: not found); 'written' counts the tags found in the 160 KB window "
          "(equal to the box's chunks in every row: nothing was duplicated).")


def main():
    out, date, dest = sys.argv[1:4]
    rows = []
    for line in open(f'{out}/placement.txt'):
        head, _, rest = line.partition(':')
        swz, elem, inner, nrows, depth = map(int, head.split())
        row = {"mode": MODES[swz], "elem_bytes": elem, "box": [inner, nrows, depth]}
        enc = rest.split('enc=')[1].split()[0] if 'enc=' in rest else None
        row["encode"] = int(enc) if enc is not None else None
        if '|' in rest:
            row["written"] = int(rest.split('n=')[1].split()[0])
            row["slots"] = list(map(int, rest.split('|')[1].split()))
        else:
            row["note"] = rest.strip()
        rows.append(row)
    name, driver = [x.strip() for x in open(f'{out}/../device.txt').read().split(',')[:2]]
    meta = {"device": name, "driver": driver, "cc": "9.0", "date": date,
            "cuda": "13.0 (nvcc V13.0.88)", "method": METHOD, "configurations": rows}
    with open(dest, 'w') as fh:
        json.dump(meta, fh, separators=(',', ':'))
        fh.write('\n')
    acc = sum(r["encode"] == 0 for r in rows)
    print(f"{dest}: {len(rows)} configurations, {acc} accepted by the driver")


if __name__ == '__main__':
    main()
