#!/usr/bin/env python3
"""collect.py: joins one run.sh output folder (device.txt, sass.txt, clock.csv,
ncu.csv, ncu_prog.txt, forms_probe.cu: the source that ran, whose kn[] names
kernel k<i>) with this folder's patterns.txt and requests.json into
tests/data/atomic_forms_<device>.json.  One row
per form x pattern that clock64 timed; ncu's numbers where ncu ran it (27
patterns), else null.  It reports what was measured; it never models.
Stdlib only.  Usage: [PATTERNS=patterns_masks.txt] collect.py OUTDIR DATE OUT_JSON
(MASKS=1 run.sh's folder has no ncu pass: every row's ncu numbers are null.)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ncu_raw  # noqa: E402
from ncu_raw import num  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

METHOD = ("tests/calib/atomic_forms (issue 23 part 1): gen_forms.py writes one kernel per form "
          "as people write it (CUDA C++ atomicAdd/Sub/Inc/Dec on shared memory, PTX atom/red "
          "with immediates, warp-uniform and per-lane registers, result used or not); each loop "
          "iteration issues 8 independent atomics 256 bytes apart, UNCONDITIONALLY (guard "
          "\"none\": no setp + @p, so ptxas puts no BSSY + BRA around the ATOMS; the *_if forms "
          "wrap the 8 in one `if (lane active)`, the *_p forms predicate each with setp + @p: "
          "guard \"each\"); one block of 16 warps, 512 iterations, best of 3 launches; cycles "
          "per warp instruction = (max end - min start clock64) / (16*512*8). Unguarded forms "
          "run full warps only. Wavefronts: ncu --page raw over a 2-iteration launch on 27 of "
          "the patterns: 'wavefronts' = smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom"
          " / smsp__sass_inst_executed_op_shared_atom (Source page), 'wavefronts_sm' the same "
          "from the deterministic sm__sass_* pair, 'wavefronts_hw' = l1tex__data_pipe_lsu_"
          "wavefronts_mem_shared_op_atom / smsp__inst_executed_op_shared_atom, 'arbitration' = "
          "l1tex__data_bank_conflicts_type_arbitration.sum over the launch. 'sass': the form's "
          "shared atomic in cuobjdump -sass; 'request': what the form is as a POST /api/conflicts "
          "body (gen_forms.request).")


def main():
    out, date, dest = sys.argv[1:4]
    src = open(f'{out}/forms_probe.cu').read()
    names = [x.strip().strip('"') for x in
             re.search(r'static const char \*kn\[\] = \{(.*?)\};', src, re.S).group(1).split(',')]
    def kernel_name(line):
        m = re.search(r'Function : _Z\d+k(\d+)4Args', line)
        return names[int(m.group(1))] if m else None
    ops = ncu_raw.sass_ops(f'{out}/sass.txt', kernel_name)
    sass = {k: next((i for i in sorted(c) if i.startswith('ATOMS')), '?') for k, c in ops.items()}
    branches = {k: c.get('BSSY', 0) for k, c in ops.items()}
    requests = json.load(open(f'{HERE}/requests.json'))
    pfile = os.environ.get('PATTERNS', 'patterns.txt')
    pats = ncu_raw.lane_patterns(f'{HERE}/{pfile}')
    if not os.path.exists(f'{out}/ncu.csv'):   # MASKS=1 run.sh: clock64 only
        clock = [l.strip().split(',') for l in open(f'{out}/clock.csv')]
        prog, rows = [], []
    else:
        clock, prog, rows = ncu_raw.run_folder(out, 3)
    ncu = {}
    for (k, p, _), r in zip(prog, rows):
        i, si, ih = (num(r, 'smsp__sass_inst_executed_op_shared_atom.sum'),
                     num(r, 'sm__sass_inst_executed_op_shared_atom.sum'),
                     num(r, 'smsp__inst_executed_op_shared_atom.sum'))
        s, ss, h = (num(r, 'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'),
                    num(r, 'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'),
                    num(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'))
        ncu[(k, p)] = {"wavefronts": round(s / i, 4) if i else None,
                       "wavefronts_sm": round(ss / si, 4) if si else None,
                       "wavefronts_hw": round(h / ih, 4) if ih else None,
                       "arbitration": num(r, 'l1tex__data_bank_conflicts_type_arbitration.sum'),
                       "sass_instructions": i}
    res = []
    for k, p, c in clock:
        n = ncu.get((k, p), {})
        res.append({"name": f"{k}.{p}", "request": requests[k], "offsets": pats[p],
                    "sass": sass.get(k, '?'), "bssy": branches.get(k, 0),
                    "wavefronts": n.get("wavefronts"), "wavefronts_sm": n.get("wavefronts_sm"),
                    "wavefronts_hw": n.get("wavefronts_hw"), "arbitration": n.get("arbitration"),
                    "cycles": float(c)})
    method = METHOD if pfile == 'patterns.txt' else (
        METHOD + " This file: MASKS=1 run.sh, clock64 only (no ncu pass), the guarded forms (and, "
        "on the all-lanes mask, every form) on " + pfile + " (gen_forms.py --masks): every lane "
        "on a word of its own bank, lanes on: the first k (k = 1..32), the last k, all but one, "
        "even, odd, every fourth.")
    ncu_raw.dump(dest, ncu_raw.data_file(f'{out}/device.txt', date, method, patterns=res),
                 f", {sum(r['wavefronts'] is not None for r in res)} with ncu")


if __name__ == '__main__':
    main()
