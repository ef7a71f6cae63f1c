#!/usr/bin/env python3
"""collect_stagger.py DIR [NCU_DIR]: turn run_stagger.sh's unpacked a41s.tgz into the repository's data
(issue 41), replacing the readings of the tool before it timed atomics at 19 starting
phases (cuda/probe.cu, STAGGERS; git keeps the old files):
  tests/data/atomic_warps_all_h200.json     the 54 rows at 1..32 warps, 2048 iterations;
  tests/data/atomic_warps_h200.json         the same at 4..12 and 16 warps, and 8, 12, 16
                                            warps with 512 iterations (702 rows);
  tests/data/atomic_warps_repeat_h200.json  3..13 warps, three processes ('rep' 1 is the
                                            run of atomic_warps_all);
  tests/calib/atomics_warps/sass_sm90.txt   the nine measured forms' whole SASS.
  tests/data/atomic_warps_ncu_h200.json     with NCU_DIR (run_stagger.sh DIR ncu's a41s.tgz,
                                            unpacked): the tool's ncu pass at 4, 8, 11 warps.
It copies measurements; it models nothing."""
import json
import os
import sys

import sass_excerpt

src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, '..', '..', '..'))
data = os.path.join(root, 'tests', 'data')
dev = open(os.path.join(src, 'device.txt')).read().splitlines()
used = json.load(open(os.path.join(data, 'atomic_warps_h200.json')))
forms = {p['name']: p for p in used['patterns']}
assert len(forms) == 54, len(forms)
METHOD = ("tests/calib/atomics_warps/run_stagger.sh: swizzlescope-measure --json --no-ncu --warps W "
          "[--iters I] < atom_used.json (the 54 rows: guard none, all lanes, the lane's value; "
          "atom folds its 8 results, red returns nothing; one block of W warps, 8 atomics an "
          "iteration).  Each row is the fastest of 5 launches at each of 19 starting phases "
          "(warp w starts w x s cycles after the barrier, s = 0..128: cuda/probe.cu STAGGERS) "
          "after one warm-up.  'cycles' = clock64 per instruction (max end - min start over the "
          "warps / (W x I x 8)).  Warp w runs on SM sub-partition w % 4.")
head = {"device": "NVIDIA H200", "driver": dev[1].split(', ')[1], "cc": "9.0",
        "cuda": "13.0 (V13.0.88)", "ncu_version": dev[2].split()[1], "date": dev[0][:10],
        "measured_at": dev[0], "nvidia_smi": dev[1] + '; after: ' + dev[-1],
        "tool": "cuda/ of cfd3734 (the commit that adds STAGGERS), sm_90 + compute_90 "
                "(build/h41s: the Makefile's nvcc flags, one architecture)"}


def rows_of(path, extra=None):
    d = json.load(open(path))
    out = []
    for r in d['results']:
        p = forms[r['name']]
        row = {"name": r['name'], "warps": d['config']['warps'], "iters": r['iters']}
        row.update(extra or {})
        row.update({"op": r['op'], "func": r['func'], "type": r['type'], "value": r['value'],
                    "guard": r['guard'], "offsets": p['offsets'],
                    "cycles": r['cycles_per_instr']})
        out.append(row)
    return out, d['device']


def dump(name, out, rows):
    with open(os.path.join(data, name), 'w') as f:
        f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(v))
                                    for k, v in out.items() if k != 'patterns'))
        f.write(',\n"patterns":[\n' + ',\n'.join(json.dumps(r, separators=(',', ':'))
                                                 for r in rows) + '\n]}\n')


every, clock = [], None
for w in range(1, 33):
    r, clock = rows_of(os.path.join(src, 'atom_w%d_i2048.json' % w))
    every += r
dump('atomic_warps_all_h200.json', dict(head, method=METHOD, device_clock=clock), every)

main = [r for r in every if 4 <= r['warps'] <= 12 or r['warps'] == 16]
for w in (8, 12, 16):
    main += rows_of(os.path.join(src, 'atom_w%d_i512.json' % w))[0]
assert len(main) == 702, len(main)
dump('atomic_warps_h200.json', dict(head, method=METHOD, device_clock=clock), main)

rep = [dict(r, rep=1) for r in every if 3 <= r['warps'] <= 13]
for k in (2, 3):
    for w in range(3, 14):
        rep += rows_of(os.path.join(src, 'rep%d_w%d.json' % (k, w)), {"rep": k})[0]
for r in rep:   # 'rep' after 'iters', as the file had it
    r.update({k: r.pop(k) for k in list(r) if k not in ('name', 'warps', 'iters', 'rep')})
dump('atomic_warps_repeat_h200.json',
     dict(head, method=METHOD + "  W = 3..13, three processes each ('rep'): how far the same "
          "binary reads apart between processes."), rep)

nsass = sass_excerpt.write(os.path.join(src, 'sass_atomic.txt'), here, dev[0])
print(len(every), len(main), len(rep), nsass)

# run_stagger.sh DIR ncu's a41s.tgz, unpacked in argv[2] when given: the tool's own ncu pass
# with --warps 4, 8, 11 (cycles from its clock64 launches at every phase, wavefronts from
# the one profiled launch), replacing atomic_warps_ncu_h200.json's phase-0 readings.
if len(sys.argv) > 2:
    src2 = sys.argv[2]
    dev2 = open(os.path.join(src2, 'device.txt')).read().splitlines()
    ncu = []
    for w in (4, 8, 11):
        d = json.load(open(os.path.join(src2, 'atom_ncu_w%d.json' % w)))
        for r in d['results']:
            ncu.append({"name": r['name'], "warps": w, "op": r['op'],
                        "offsets": forms[r['name']]['offsets'], "func": r['func'],
                        "type": r['type'], "value": r['value'], "guard": r['guard'],
                        "cycles": r['cycles_per_instr'], "wavefronts": r['wavefronts_per_instr'],
                        "wavefronts_sm": r['wavefronts_sm_per_instr'],
                        "wavefronts_hw": r['wavefronts_hw_per_instr'],
                        "ncu_instructions": r['ncu_instructions']})
    dump('atomic_warps_ncu_h200.json',
         dict(head, date=dev2[0][:10], measured_at=dev2[0],
              nvidia_smi=dev2[1] + '; after: ' + dev2[-1],
              tool="cuda/ of 031d2e9 (STAGGERS, as cfd3734), the Makefile's build (sm_80..sm_90)",
              method="tests/calib/atomics_warps/run_stagger.sh DIR ncu: swizzlescope-measure "
              "--json --warps W < atom_used.json, W = 4, 8, 11: the tool's own ncu pass "
              "(Source-page wavefronts, sm__sass_* and the hardware counter per instruction, one "
              "profiled launch) beside its clock64 cycles (the fastest of 5 launches at each of "
              "19 starting phases)", patterns=ncu), ncu)
    print('ncu', len(ncu))
