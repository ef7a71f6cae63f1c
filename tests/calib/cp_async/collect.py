#!/usr/bin/env python3
"""collect.py: joins one cp_async run.sh folder (sass.txt, clock.csv, ncu.csv,
ncu_prog.txt) with patterns.txt into tests/data/cp_async_<device>.json: one
row per pattern with its request (op cp.async, bytes, cache, shared offsets,
global offsets; null = idle lane), the SASS, ncu's counters per instruction
and the probe's clock64.  It reports what was measured; it never models.
Stdlib only.  Usage: [PATTERNS=patterns_second.txt] collect.py OUTDIR DEVICE_TXT DATE OUT_JSON
(OUT_JSON is extended when it exists and holds the same device: the second
sweep joins the first.)
"""
import os
import json
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ncu_raw  # noqa: E402
from ncu_raw import num  # noqa: E402

METHOD = ("tests/calib/cp_async/cp_probe.cu (issue 23 part 3): each loop iteration issues 8 "
          "cp.async per lane (shared offsets 4 KB apart, global offsets 64 KB apart) and then "
          "commit_group + wait_all; ncu --page raw over a 1-iteration, 1-warp launch (default "
          "cache control: caches flushed before it): 'wavefronts' = smsp__sass_l1tex_data_pipe_"
          "lsu_wavefronts_mem_shared_op_ldgsts / smsp__sass_inst_executed_op_ldgsts (Source "
          "page), 'wavefronts_sm' the same from the deterministic sm__sass_* pair, 'conflicts_hw' "
          "= l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts / instructions, "
          "'arbitration' = l1tex__data_bank_conflicts_type_arbitration.sum, 'sectors' = "
          "l1tex__m_xbar2l1tex_read_sectors / instructions; 'cycles' = clock64 of 16 warps, "
          "64 iterations, best of 3, per cp.async: latency-bound (each iteration waits), not a "
          "pipe throughput. No l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts counter "
          "exists on sm_90 (ncu --query-metrics).")


def main():
    out, device_txt, date, dest = sys.argv[1:5]
    here = __file__.rsplit('/', 1)[0]
    pats = {}
    for line in open(f"{here}/{os.environ.get('PATTERNS', 'patterns.txt')}"):
        f = line.split()
        s, g = list(map(int, f[3:35])), list(map(int, f[35:67]))
        pats[f[0]] = {"op": "cp.async", "bytes": int(f[1]), "cache": f[2],
                      "offsets": [x if x >= 0 else None for x in s],
                      "global_offsets": [x if x >= 0 else None for x in g]}
    clock, prog, rows = ncu_raw.run_folder(out, 2)
    clock = {name: float(c) for name, c in clock}
    sass = ncu_raw.sass_seen(f'{out}/sass.txt', 'LDGSTS')
    res = []
    for (name, _), r in zip(prog, rows):
        i, si = num(r, 'smsp__sass_inst_executed_op_ldgsts.sum'), num(r, 'sm__sass_inst_executed_op_ldgsts.sum')
        p = dict(pats[name])
        p.update({"name": name,
                  "sass": ("LDGSTS.E.BYPASS.128" if p["cache"] == "cg" else
                           {4: "LDGSTS.E", 8: "LDGSTS.E.64", 16: "LDGSTS.E.128"}[p["bytes"]]),
                  "wavefronts": num(r, 'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum') / i,
                  "wavefronts_sm": num(r, 'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum') / si,
                  "conflicts_hw": num(r, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum') / i,
                  "arbitration": num(r, 'l1tex__data_bank_conflicts_type_arbitration.sum'),
                  "sectors": num(r, 'l1tex__m_xbar2l1tex_read_sectors.sum') / i,
                  "cycles": clock.get(name)})
        res.append(p)
    # what run.sh asked ncu for (metrics.txt; runs before it left it in run.log only)
    log = f'{out}/metrics.txt' if os.path.exists(f'{out}/metrics.txt') else f'{out}/../run.log'
    metrics = ([m for m in open(log).read().split('cp metrics: ')[-1].split('\n')[0].strip()
                .split(',') if m] if os.path.exists(log) else [])
    meta = ncu_raw.data_file(device_txt, date, METHOD, sass_seen=[x.rstrip(',') for x in sass],
                             metrics_requested=metrics, patterns=res)
    if os.path.exists(dest):
        old = json.load(open(dest))
        if old["device"] == meta["device"]:
            names = {p["name"] for p in res}
            meta["patterns"] = [p for p in old["patterns"] if p["name"] not in names] + res
            meta["sass_seen"] = sorted(set(old["sass_seen"]) | set(meta["sass_seen"]))
            meta["method"] = old["method"] + (" Second sweep (patterns_second.txt, gen_probe.py "
                                              "--second) joined " + date + ".")
    ncu_raw.dump(dest, meta)


if __name__ == '__main__':
    main()
