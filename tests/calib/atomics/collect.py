#!/usr/bin/env python3
"""collect.py: joins one run of run.sh (OUT folder: device.txt, clock.csv,
ncu.csv, ncu_prog.txt, sass.txt: cuobjdump -sass of the probe) and this folder's
patterns.txt and atom_probe.cu into tests/data/atomics_<device>.json.
Stdlib only. Usage: [PATTERNS=patterns_floor.txt] collect.py OUTDIR PROBE_CU OUT_JSON
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import kinds  # noqa: E402  (tests/data/ops.json = GET /api/ops)
import ncu_raw  # noqa: E402


def main():
    out, probe_cu, dest = sys.argv[1:4]
    kn = re.search(r'static const char \*kn\[\] = \{(.*?)\};', open(probe_cu).read(), re.S).group(1)
    kn = [x.strip().strip('"') for x in kn.split(',')]
    # each kernel's opcodes, from its "Function : _Z<n>k<i>4Args" section on
    def kernel_name(line):
        m = re.search(r'Function : _Z\d+k(\d+)4Args', line)
        return kn[int(m.group(1))] if m else None
    ops = ncu_raw.sass_ops(f'{out}/sass.txt', kernel_name)
    sass = {k: next((i for i in sorted(c) if i.startswith('ATOMS')), '?') for k, c in ops.items()}
    clock, prog, rows = ncu_raw.run_folder(out, 3)
    clock = {(k, p): float(c) for k, p, c in clock}
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    pats = ncu_raw.lane_patterns(os.environ.get('PATTERNS', f'{here}/patterns.txt'))

    # atom's row of the instruction kinds (red counts under the same metrics)
    ncu = kinds.kinds()['atom']['ncu']

    def num(r, m):
        return ncu_raw.num(r, m, 0.0)
    res = []
    for (k, p, _), r in zip(prog, rows):
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
