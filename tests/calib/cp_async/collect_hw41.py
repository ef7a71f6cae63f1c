#!/usr/bin/env python3
"""collect_hw41.py OUTDIR DATE [DATADIR]: run_hw41.sh's files -> DATADIR (tests/data)
cp_hw_<device>.json and atomic_warps_<device>.json (not atomics_*: test_access
replays those as the first atomics sweep).  It reports what was measured; it never
models.  Stdlib only.
  cp_hw: per .ca row of hw41_a/b.txt (gen_hw41.py: the request is the row of that
    name in cp_strided_<device>.json, "set" strided, or cp_async_<device>.json, "set"
    first), cp_probe.cu's 8 copies in 1 warp x 1 iteration, cold: the Source page
    (smsp__sass_*) and sm__sass_* wavefronts per instruction and the hardware counter
    l1tex__data_pipe_lsu_wavefronts_mem_shared less the launch's other wavefronts (the
    median over the part's .cg rows, whose writes that counter never sees), per
    instruction.
  atomic_warps: atom_used.json's 54 patterns through the tool's atomic kernels,
    clock64 only, at W warps x I iterations (one row per pattern, W and I)."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import ncu_raw  # noqa: E402
from ncu_raw import num  # noqa: E402

HW = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
SRC = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
SRC_I = "smsp__sass_inst_executed_op_ldgsts.sum"
SM = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
SM_I = "sm__sass_inst_executed_op_ldgsts.sum"
ARB = "l1tex__data_bank_conflicts_type_arbitration.sum"

CP_METHOD = ("tests/calib/cp_async/run_hw41.sh (issue 41, second session): cp_probe.cu, one warp, "
             "one iteration of 8 cp.async per lane (shared offsets 4 KB apart, global offsets "
             "64 KB apart), cold (ncu --cache-control all), one ncu --page raw launch per row "
             "(run_states.sh's *_hw method).  'wavefronts' = " + SRC + " / " + SRC_I + " (the "
             "Source page, SASS instrumentation), 'wavefronts_sm' the " + SM + " / " + SM_I +
             " pair (what swizzlescope-measure reports for cp.async), 'wavefronts_hw' = (" + HW +
             " - 'baseline') / instructions, 'baseline' the median of that counter over the "
             "part's .cg rows (6: the launch's other shared wavefronts; .cg writes are not in "
             "it); 'arbitration' = " + ARB + " (launch).  Rows: every .ca row where "
             "check_strided.py's rule L1 with and without step 3 differ (part a: 28 of "
             "cp_strided, 8 of cp_async), and every other strided .ca row (parts a and b).")
AT_METHOD = ("tests/calib/cp_async/run_hw41.sh: swizzlescope-measure --json --no-ncu --warps W "
             "[--iters I] < atom_used.json (gen_strided.py: guard none, all lanes, the lane's "
             "value; atom folds its 8 results into the kernel's return value, red returns "
             "nothing; one block of W warps, 8 atomics an iteration, fastest of 5 launches).  "
             "'cycles' = clock64 per instruction (max end - min start over the warps / (W x I x "
             "8)).  Warp w runs on SM sub-partition w % 4.")


def env(out):
    log = open(os.path.join(out, "run.log")).read()
    m = re.search(r"^(NVIDIA [^,]+), ([0-9.]+), ", log, re.M)
    ncu = re.search(r"^Version (\S+)", log, re.M)
    nvcc = re.search(r"release ([0-9.]+), (V\S+)", log)
    return {"device": m.group(1), "driver": m.group(2), "cc": "9.0",
            "cuda": f"{nvcc.group(1)} ({nvcc.group(2)})", "ncu_version": ncu.group(1)}


def main():
    out, date = sys.argv[1], sys.argv[2]
    ddir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "tests", "data")
    e = env(out)
    dev = e["device"].replace("NVIDIA ", "").lower().replace(" ", "-")
    reqs = {}
    for fn, tag in ((f"cp_strided_{dev}.json", "strided"), (f"cp_async_{dev}.json", "first")):
        for r in json.load(open(os.path.join(ROOT, "tests", "data", fn)))["patterns"]:
            reqs[r["name"]] = dict(r, set=tag)
    cp = []
    for part in "ab":
        d = os.path.join(out, f"hw_{part}")
        names = [l.split()[0] for l in open(os.path.join(d, "patterns.txt")) if l.strip()]
        rows = ncu_raw.rows(os.path.join(d, "ncu.csv"))
        assert len(rows) == len(names), (part, len(rows), len(names))
        cg = sorted(num(r, HW) for n, r in zip(names, rows) if reqs[n]["cache"] == "cg")
        base = cg[len(cg) // 2]
        for n, r in zip(names, rows):
            q = reqs[n]
            if q["cache"] != "ca":
                continue
            i = num(r, SRC_I)
            cp.append({"name": n, "set": q["set"], "part": part, "op": "cp.async",
                       "bytes": q["bytes"], "cache": "ca", "offsets": q["offsets"],
                       "global_offsets": q["global_offsets"],
                       "wavefronts": round(num(r, SRC) / i, 4),
                       "wavefronts_sm": round(num(r, SM) / num(r, SM_I), 4),
                       "wavefronts_hw": round((num(r, HW) - base) / i, 4),
                       "shared_wavefronts_launch": num(r, HW), "baseline": base,
                       "instructions": i, "arbitration": num(r, ARB)})
    # the cold kernels' (cp_kernel<B, CG, 0>) copies: 8 LDGSTS each, the opcode
    excerpt, kernel = {}, None
    for l in open(os.path.join(out, "sass_cp_probe.txt")):
        m = re.search(r"Function : (\S+)", l)
        if m:
            kernel = m.group(1) if m.group(1).endswith("Li0EEv4Args") else None
        elif kernel and "LDGSTS" in l:
            op = re.search(r"(LDGSTS\S*)", l).group(1)
            excerpt.setdefault(kernel, {}).setdefault(op, 0)
            excerpt[kernel][op] += 1
    ncu_raw.dump_rows(os.path.join(ddir, f"cp_hw_{dev}.json"),
         dict(e, date=date, method=CP_METHOD, sass_excerpt=excerpt, patterns=cp))
    sys.path.insert(0, HERE)
    import gen_strided
    at_req = {r["name"]: r for r in gen_strided.atom_patterns()}
    at = []
    for fn in sorted(os.listdir(out)):
        m = re.match(r"atom_w(\d+)_i(\d+)\.json$", fn)
        if not m:
            continue
        d = json.load(open(os.path.join(out, fn)))
        assert d["config"]["warps"] == int(m.group(1)) and d["config"]["iters"] == int(m.group(2))
        for res in d["results"]:
            q = at_req[res["name"]]
            at.append({"name": res["name"], "warps": d["config"]["warps"], "iters": d["config"]["iters"],
                       **{k: q[k] for k in ("op", "func", "type", "value", "guard", "offsets")},
                       "cycles": res["cycles_per_instr"]})
    at.sort(key=lambda r: (r["name"], r["iters"], r["warps"]))
    ncu_raw.dump_rows(os.path.join(ddir, f"atomic_warps_{dev}.json"),
         dict(e, date=date, method=AT_METHOD, device_clock=d["device"], patterns=at))


if __name__ == "__main__":
    main()
