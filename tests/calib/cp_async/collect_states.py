#!/usr/bin/env python3
"""collect_states.py: joins one run_states.sh folder (device.txt, sass.txt,
metrics.txt, and per state args.txt + ncu.csv [+ ncu_prog.txt]) with the pattern
files into tests/data/cp_states_<device>.json: one row per (state, pattern) with
its name (the request is the row of that name in cp_async_<device>.json), the
state (where the global lines were: cold / l2 / l1; warps, iterations, regions)
and ncu's counters per instruction.  It reports what was measured; it never models.
Stdlib only.  Usage: collect_states.py OUTDIR DATE OUT_JSON
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import ncu_raw  # noqa: E402
from ncu_raw import num  # noqa: E402

METHOD = ("tests/calib/cp_async/run_states.sh and cp_probe.cu (issue 23 part 3): the patterns of "
          "cp_async_<device>.json under controlled cache states, one ncu --page raw launch per "
          "pattern with --cache-control all (L1 and L2 flushed before every launch and pass). "
          "Each iteration issues 8 cp.async per lane (shared offsets 4 KB apart, global offsets "
          "64 KB apart), then commit_group + wait_all.  'state': cold = no prefetch (every "
          "line from DRAM); l2 = before the copies, in the same launch, every lane reads its "
          "copies' exact bytes with ld.global.cg (SASS LDG.E.*.STRONG.GPU: L2, not L1) and waits "
          "for the values; l1 = the same with ld.global.ca (LDG.E.*.STRONG.SM: L1 and L2).  "
          "'warps' x 'iters' per launch; 'regions' = own: each (warp, iteration) copies from its "
          "own 512 KiB region (no copy finds a line an earlier copy brought), shared: all from "
          "the same lines (the old tool's conditions: tool16).  'wavefronts' = "
          "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts / "
          "smsp__sass_inst_executed_op_ldgsts (Source page), 'wavefronts_sm' the sm__sass_* "
          "pair; per instruction: 'l1_hit' / 'l1_miss' = l1tex__t_sectors_pipe_lsu_mem_global_"
          "op_ldgsts_cache_access_lookup_hit / _miss (the copies' own L1 lookups: .cg copies "
          "bypass and read 0), 'l2_hit' / 'l2_miss' = lts__t_sectors_srcunit_tex_op_read_lookup_"
          "hit / _miss (these count the prefetch loads too: in state l2 the misses are the "
          "prefetch's, the hits the copies'), 'xbar' = l1tex__m_xbar2l1tex_read_sectors; "
          "'arbitration' = l1tex__data_bank_conflicts_type_arbitration.sum (whole launch).  Runs "
          "*_hw add the hardware counter l1tex__data_pipe_lsu_wavefronts_mem_shared.sum "
          "('shared_wavefronts_launch', the whole launch): 'wavefronts_hw' = (it - the median "
          "over the run's .cg rows, 6 or 7: what is not a copy's) / instructions for .ca; null "
          "for .cg, whose shared writes that counter never sees (it reads the baseline with "
          "them).  The smsp__sass_* / sm__sass_* wavefronts are ncu's SASS instrumentation, "
          "not a hardware counter.")

STATES = {"l2": "l2", "l1": "l1", "cold16": "cold", "l2_16": "l2", "l1_16": "l1", "tool16": "l2",
          "cold_hw": "cold", "l2_hw": "l2", "l1_hw": "l1"}
HW = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"


def patterns(files):
    pats = []
    for fn in files:
        for line in open(os.path.join(HERE, fn)):
            f = line.split()
            if not f:
                continue
            s, g = list(map(int, f[3:35])), list(map(int, f[35:67]))
            pats.append({"name": f[0], "op": "cp.async", "bytes": int(f[1]), "cache": f[2],
                         "offsets": [x if x >= 0 else None for x in s],
                         "global_offsets": [x if x >= 0 else None for x in g]})
    return pats


def per_instr(r, m, i):
    v = num(r, m)
    return None if v is None else round(v / i, 4)


def main():
    out, date, dest = sys.argv[1:4]
    full = patterns(["patterns.txt", "patterns_second.txt"])
    subset = patterns(["patterns_subset.txt"])
    res, runs = [], {}
    for st, state in STATES.items():
        d = os.path.join(out, st)
        if not os.path.exists(os.path.join(d, "ncu.csv")):
            continue
        iters, warps, probe_state, distinct = open(os.path.join(d, "args.txt")).read().split()
        assert probe_state == state, (st, probe_state)
        pats = full if st in ("l2", "l1") else subset
        rows = ncu_raw.rows(os.path.join(d, "ncu.csv"))
        if os.path.exists(os.path.join(d, "ncu_prog.txt")):
            names = [l.split(",")[0] for l in open(os.path.join(d, "ncu_prog.txt")) if "," in l]
            assert names == [p["name"] for p in pats][:len(names)], st
        assert len(rows) == len(pats), (st, len(rows), len(pats))
        # the hardware counter counts every shared wavefront of the launch: what is
        # not a copy's (6-7 a launch) is what it reads on the .cg rows, whose
        # writes it never sees
        cg_hw = sorted(num(r, HW) for p, r in zip(pats, rows) if p["cache"] == "cg" and num(r, HW) is not None)
        base = cg_hw[len(cg_hw) // 2] if cg_hw else None
        runs[st] = {"state": state, "warps": int(warps), "iters": int(iters),
                    "regions": "own" if distinct == "1" else "shared", "rows": len(rows)}
        for p, r in zip(pats, rows):
            i = num(r, "smsp__sass_inst_executed_op_ldgsts.sum")
            # the request is the row of the same name in cp_async_<device>.json
            row = {"name": p["name"]}
            row.update({"run": st, "state": state, "warps": int(warps), "iters": int(iters),
                        "regions": runs[st]["regions"],
                        "wavefronts": num(r, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum") / i,
                        "wavefronts_sm": num(r, "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum")
                        / num(r, "sm__sass_inst_executed_op_ldgsts.sum"),
                        "instructions": i})
            for k, m in (("l1_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum"),
                         ("l1_miss", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum"),
                         ("l2_hit", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
                         ("l2_miss", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"),
                         ("xbar", "l1tex__m_xbar2l1tex_read_sectors.sum")):
                row[k] = per_instr(r, m, i)
            row["arbitration"] = num(r, "l1tex__data_bank_conflicts_type_arbitration.sum")
            if base is not None and num(r, HW) is not None:
                row["shared_wavefronts_launch"] = num(r, HW)
                row["wavefronts_hw"] = (round((num(r, HW) - base) / i, 4) if p["cache"] == "ca"
                                        else None)
            res.append(row)
    # the SASS excerpt: each probe kernel's loads and copies (cuobjdump -sass)
    excerpt, kernel = {}, None
    for line in open(os.path.join(out, "sass.txt")):
        if "Function :" in line:
            kernel = line.split()[-1]
            continue
        m = re.search(r"/\*[0-9a-f]{4}\*/\s+((?:@!?U?P\w+\s+)?(?:LDG|LDGSTS|LDGDEPBAR|DEPBAR)[^;]*);", line)
        if m and kernel:
            excerpt.setdefault(kernel, []).append(" ".join(m.group(1).split()))
    metrics = [m for m in open(os.path.join(out, "metrics.txt")).read().strip().split(",") if m]
    meta = ncu_raw.data_file(os.path.join(out, "device.txt"), date, METHOD,
                             sass_seen=sorted({x.split()[-3] if x.startswith("@") else x.split()[0]
                                               for v in excerpt.values() for x in v}),
                             sass_excerpt=excerpt, metrics_requested=metrics, runs=runs,
                             patterns=res)
    ncu_raw.dump_rows(dest, meta)


if __name__ == "__main__":
    main()
