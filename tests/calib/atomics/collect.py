#!/usr/bin/env python3
"""collect.py: joins one run of run.sh (OUT folder: device.txt, clock.csv,
ncu.csv, ncu_prog.txt, sass.txt: cuobjdump -sass of the probe) and this folder's
patterns.txt and atom_probe.cu into tests/data/atomics_<device>.json.
Stdlib only. Usage: [PATTERNS=patterns_floor.txt] collect.py OUTDIR PROBE_CU OUT_JSON
"""
import collections
import csv
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import kinds  # noqa: E402  (tests/data/ops.json = GET /api/ops)


def main():
    out, probe_cu, dest = sys.argv[1:4]
    kn = re.search(r'static const char \*kn\[\] = \{(.*?)\};', open(probe_cu).read(), re.S).group(1)
    kn = [x.strip().strip('"') for x in kn.split(',')]
    # each kernel's opcodes, from its "Function : _Z<n>k<i>4Args" section on
    ops = collections.defaultdict(collections.Counter)
    kernel = None
    for line in open(f'{out}/sass.txt'):
        m = re.search(r'Function : _Z\d+k(\d+)4Args', line)
        if m:
            kernel = kn[int(m.group(1))]
            continue
        m = re.search(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
        if m and kernel:
            ops[kernel][m.group(1)] += 1
    sass = {k: next((i for i in sorted(c) if i.startswith('ATOMS')), '?') for k, c in ops.items()}
    clock = {}
    for line in open(f'{out}/clock.csv'):
        k, p, c = line.strip().split(',')
        clock[(k, p)] = float(c)
    order = [tuple(l.strip().split(',')[:2]) for l in open(f'{out}/ncu_prog.txt') if l.count(',') == 2]
    lines = [l for l in open(f'{out}/ncu.csv').read().splitlines() if l.startswith('"')]
    rows = [r for r in csv.DictReader(io.StringIO('\n'.join(lines))) if r.get('ID', '').isdigit()]
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    pats = {}
    for line in open(os.environ.get('PATTERNS', f'{here}/patterns.txt')):
        f = line.split()
        act, offs = int(f[2], 16), list(map(int, f[3:]))
        pats[f[0]] = [offs[t] if act >> t & 1 else None for t in range(32)]

    # atom's row of the instruction kinds (red counts under the same metrics)
    ncu = kinds.kinds()['atom']['ncu']

    def num(r, m):
        v = r.get(m)
        return float(v.replace(',', '')) if v not in (None, '', 'n/a') else 0.0
    res = []
    for (k, p), r in zip(order, rows):
        op, func, typ = k.split('_')
        s, i = num(r, ncu['source']), num(r, kinds.sass_twin(ncu['executed']))
        m, ih = num(r, ncu['wavefronts']), num(r, ncu['executed'])
        res.append({"name": f"{k}.{p}", "op": "atom" if op in ("atom", "atomu") else "red",
                    "result_used": op == "atom", "func": func, "type": typ, "offsets": pats[p],
                    "sass": sass.get(k, '?'), "native": "CAST.SPIN" not in sass.get(k, ''),
                    "wavefronts": round(s / i, 4) if i else None,
                    "wavefronts_hw": round(m / ih, 4) if ih else None,
                    "sass_instructions": i, "instructions": ih, "cycles": clock.get((k, p))})
    name, driver = [x.strip() for x in open(f'{out}/device.txt').read().split(',')[:2]]
    meta = json.load(open(f'{here}/../../data/atomics_h100-80gb-hbm3.json'))
    meta.update({"device": name, "driver": driver, "date": "2026-11-23", "patterns": res})
    json.dump(meta, open(dest, 'w'), indent=0)
    print(f"{dest}: {len(res)} rows on {name}")


if __name__ == '__main__':
    main()
