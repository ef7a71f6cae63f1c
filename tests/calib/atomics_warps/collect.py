#!/usr/bin/env python3
"""collect.py TGZ_DIR [REPEAT_DIR]: turn run.sh's unpacked a41c.tgz (and run_repeat.sh's
a41r.tgz: tests/data/atomic_warps_repeat_h200.json, warp_probe32_h200.txt) into the
repository's data (issue 41).  Writes tests/data/atomic_warps_all_h200.json (the tool's 54 atomic rows at every warp count
1..32, 2048 iterations, clock64), tests/data/atomic_warps_ncu_h200.json (the tool's ncu pass
with --warps 4, 8, 11), tests/calib/atomics_warps/sass_sm90.txt (whole SASS of the nine
measured forms' kernels) and warp_probe_h200.txt.  It copies measurements; it models nothing."""
import json, os, re, sys
import sass_excerpt

src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, '..', '..', '..'))
dev = open(os.path.join(src, 'device.txt')).read().splitlines()
used = json.load(open(os.path.join(root, 'tests/data/atomic_warps_h200.json')))
forms = {p['name']: p for p in used['patterns']}
METHOD = ("tests/calib/atomics_warps/run.sh: swizzlescope-measure --json --no-ncu --warps W "
          "< atom_used.json (the 54 rows of atomic_warps_h200.json: guard none, all lanes, the "
          "lane's value, 8 atomics an iteration, 2048 iterations, fastest of 5 launches), W = 1..32. "
          "'cycles' = clock64 per instruction (max end - min start over the warps / (W x I x 8)).")
head = {"device": "NVIDIA H200", "driver": "580.159.04", "cc": "9.0",
        "cuda": "13.0 (V13.0.88)", "ncu_version": "2025.3.1.0", "date": dev[0][:10],
        "measured_at": dev[0], "nvidia_smi": dev[1]}

rows = []
for w in range(1, 33):
    d = json.load(open(os.path.join(src, 'atom_w%d_i2048.json' % w)))
    for r in d['results']:
        p = forms[r['name']]
        rows.append({"name": r['name'], "warps": w, "iters": r['iters'], "op": r['op'],
                     "func": r['func'], "type": r['type'], "value": r['value'],
                     "guard": r['guard'], "offsets": p['offsets'],
                     "cycles": r['cycles_per_instr']})
out = dict(head, method=METHOD, device_clock=d['device'], patterns=rows)
with open(os.path.join(root, 'tests/data/atomic_warps_all_h200.json'), 'w') as f:
    f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v)) for k, v in out.items()
                                if k != 'patterns'))
    f.write(',\n"patterns":[\n' + ',\n'.join(json.dumps(r, separators=(',', ':')) for r in rows)
            + '\n]}\n')

ncu = []
for w in (4, 8, 11):
    d = json.load(open(os.path.join(src, 'atom_ncu_w%d.json' % w)))
    for r in d['results']:
        ncu.append({"name": r['name'], "warps": w, "op": r['op'], "offsets": forms[r['name']]['offsets'],
                    "func": r['func'], "type": r['type'], "value": r['value'], "guard": r['guard'],
                    "cycles": r['cycles_per_instr'], "wavefronts": r['wavefronts_per_instr'],
                    "wavefronts_sm": r['wavefronts_sm_per_instr'],
                    "wavefronts_hw": r['wavefronts_hw_per_instr'],
                    "ncu_instructions": r['ncu_instructions']})
out = dict(head, method="tests/calib/atomics_warps/run.sh: swizzlescope-measure --json --warps W "
           "< atom_used.json, W = 4, 8, 11: the tool's own ncu pass (Source-page wavefronts, "
           "sm__sass_* and the hardware counter per instruction) beside its clock64 cycles",
           patterns=ncu)
with open(os.path.join(root, 'tests/data/atomic_warps_ncu_h200.json'), 'w') as f:
    f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v)) for k, v in out.items()
                                if k != 'patterns'))
    f.write(',\n"patterns":[\n' + ',\n'.join(json.dumps(r, separators=(',', ':')) for r in ncu)
            + '\n]}\n')

nsass = sass_excerpt.write(os.path.join(src, 'sass_atomic.txt'), here, dev[0])
with open(os.path.join(here, 'warp_probe_h200.txt'), 'w') as f:
    f.write('# warp_probe.cu (run.sh), %s; %s; deg32 runs faulted (offsets past the 4 KiB '
            'of shared memory the probe asked for: its bug) and are absent\n' % (dev[0], dev[1]))
    f.write(open(os.path.join(src, 'warp_probe.txt')).read())

# run_repeat.sh's a41r.tgz, unpacked in argv[2] when given: five processes a warp count
if len(sys.argv) > 2:
    src2 = sys.argv[2]
    dev2 = open(os.path.join(src2, 'device.txt')).read().splitlines()
    rep_rows = []
    for rep in range(1, 6):
        for w in range(3, 14):
            d2 = json.load(open(os.path.join(src2, 'rep%d_w%d.json' % (rep, w))))
            for r in d2['results']:
                p = forms[r['name']]
                rep_rows.append({"name": r['name'], "warps": w, "iters": r['iters'], "rep": rep,
                                 "op": r['op'], "func": r['func'], "type": r['type'],
                                 "value": r['value'], "guard": r['guard'],
                                 "offsets": p['offsets'], "cycles": r['cycles_per_instr']})
    out = dict(head, date=dev2[0][:10], measured_at=dev2[0], nvidia_smi=dev2[1],
               method="tests/calib/atomics_warps/run_repeat.sh: as atomic_warps_all_h200.json "
               "(swizzlescope-measure --json --no-ncu --warps W < atom_used.json, 2048 iterations, "
               "fastest of 5 launches) at W = 3..13, five processes each ('rep'): how far the same "
               "binary reads apart between processes", patterns=rep_rows)
    with open(os.path.join(root, 'tests/data/atomic_warps_repeat_h200.json'), 'w') as f:
        f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v))
                                    for k, v in out.items() if k != 'patterns'))
        f.write(',\n"patterns":[\n' + ',\n'.join(json.dumps(r, separators=(',', ':'))
                                                 for r in rep_rows) + '\n]}\n')
    with open(os.path.join(here, 'warp_probe32_h200.txt'), 'w') as f:
        f.write('# warp_probe.cu at 32 wavefronts (run_repeat.sh), %s; %s\n' % (dev2[0], dev2[1]))
        f.write(open(os.path.join(src2, 'warp_probe32.txt')).read())
