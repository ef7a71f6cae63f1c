#!/usr/bin/env python3
"""collect_strided.py OUTDIR DATE [DATADIR]: run_strided.sh's files -> the issue-41 data
files DATADIR/cp_strided_<device>.json and DATADIR/atomic_used_<device>.json
(DATADIR: tests/data; not atomics_*: test_access replays every such file as the first
atomics sweep).  Each row: the request as it was sent (gen_strided.py's JSON)
and what the tool measured: ncu's Source-page wavefronts per instruction
(smsp__sass_*), the deterministic sm__sass_* twin, the tool's "hw" metric (for
cp.async the sm__sass_ metric again: sm_90 has no hardware ldgsts counter; for atomics
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom, which also counts the launch's
other wavefronts: a check only), and clock64 cycles per instruction.  Stdlib only.
"""
import gzip
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def env(out):
    log = open(os.path.join(out, "run.log")).read()
    m = re.search(r"^(NVIDIA [^,]+), ([0-9.]+), ", log, re.M)
    ncu = re.search(r"^Version (\S+)", log, re.M)
    nvcc = re.search(r"release ([0-9.]+), (V\S+)", log)
    return {"device": m.group(1), "driver": m.group(2),
            "ncu_version": ncu.group(1) if ncu else None,
            "cuda": f"{nvcc.group(1)} ({nvcc.group(2)})" if nvcc else None}


def sass_seen(out):
    """The opcode of each copy kernel and of the guard-none lane-value atomic kernels."""
    seen, cur = {}, None
    path = os.path.join(out, "sass.txt.gz")
    if not os.path.exists(path):
        return seen
    for line in gzip.open(path, "rt"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            continue
        m = re.search(r"/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line)
        if not (m and cur):
            continue
        ins = m.group(1)
        if ("copy_kernel" in cur or "Lb0ELi0ELi0E" in cur) and re.match(r"(ATOMS|LDGSTS)", ins):
            k = re.sub(r"^_Z\d+(\w+?)I(\d+)?", r"\1<", cur).replace("EEv9ProbeArgs", ">")
            seen.setdefault(k, ins)
    return seen


def rows_of(results, reqs, keys):
    out = []
    for m in results:
        r = dict(reqs[m["name"]])
        for k in keys:
            r[k[1]] = m.get(k[0])
        out.append(r)
    return out


CP_KEYS = [("wavefronts_per_instr", "wavefronts"), ("wavefronts_sm_per_instr", "wavefronts_sm"),
           ("wavefronts_hw_per_instr", "wavefronts_hw"), ("arbitration_per_instr", "arbitration"),
           ("cycles_per_instr", "cycles")]


def main():
    out, date = sys.argv[1], sys.argv[2]
    ddir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "tests", "data")
    e = env(out)
    dev = e["device"].replace("NVIDIA ", "").lower().replace(" ", "-")
    sys.path.insert(0, HERE)
    import gen_strided
    cp_req = {r["name"]: r for r in gen_strided.cp_patterns()}
    at_req = {r["name"]: r for r in gen_strided.atom_patterns()}
    seen = sass_seen(out)

    results, cfg = [], None
    for k in range(4):
        d = json.load(open(os.path.join(out, f"cp_{k}.json")))
        results += d["results"]
        cfg = d["config"]
    cp = dict(e, date=date, sass_seen={k: v for k, v in seen.items() if "copy" in k},
              method=("build/swizzlescope-measure --json --require-ncu --iters 32 --reps 1 "
                      "(tests/calib/cp_async/run_strided.sh, gen_strided.py's strided.json in "
                      "quarters): ncu (--cache-control none --clock-control none) profiles one "
                      f"launch per pattern ({cfg['warps']} warps x {cfg['ncu_iters']} iterations x "
                      "8 copies); 'wavefronts' is smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_"
                      "shared_op_ldgsts per instruction (the Source page), 'wavefronts_sm' its "
                      "sm__sass_ twin, 'wavefronts_hw' the tool's hw metric, for cp.async that sm__sass_ metric again. "
                      "'cycles': clock64 with commit+wait_all per iteration, latency-bound, "
                      "not a cost."),
              patterns=rows_of(results, cp_req, CP_KEYS))
    a16 = json.load(open(os.path.join(out, "atom_w16.json")))
    at = rows_of(a16["results"], at_req, CP_KEYS)
    # clock64 at 8 and 32 warps (the table of --no-ncu runs)
    text = open(os.path.join(out, "atom_w8_w32.txt")).read()
    for part in re.split(r"^# warps ", text, flags=re.M)[1:]:
        w = int(part.split()[0])
        for line in part.splitlines():
            f = line.split()
            if len(f) >= 3 and f[0] in at_req:
                next(r for r in at if r["name"] == f[0])[f"cycles_w{w}"] = float(f[2])
    forms = [f"F_{o}_{f}_{t}L".upper() for o, f, t in gen_strided.ATOM_FORMS]
    atoms = dict(e, date=date, sass_seen={k: v for k, v in seen.items()
                                          if any(x.replace("L", "Lb", 1)[:-1] in k for x in forms)},
                 method=("build/swizzlescope-measure --json --require-ncu (16 warps x 2048 "
                         "iterations x 8 atomics, fastest of 5; guard none: no branch; atom folds "
                         "its 8 results into the kernel's return value, so the old value is used, "
                         "SASS ATOMS.* Rn; red's is RZ), then --no-ncu --warps 8 and --warps 32 "
                         "(cycles_w8, cycles_w32). 'cycles' is the 16-warp clock64 figure, "
                         "'wavefronts' the Source page's smsp__sass_l1tex_data_pipe_lsu_wavefronts_"
                         "mem_shared_op_atom per instruction, 'wavefronts_hw' the hardware "
                         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom (the launch's other "
                         "wavefronts included)."),
                 patterns=at)
    for name, obj in ((f"cp_strided_{dev}.json", cp), (f"atomic_used_{dev}.json", atoms)):
        with open(os.path.join(ddir, name), "w") as f:
            f.write(json.dumps({k: v for k, v in obj.items() if k != "patterns"}, indent=1)[:-2])
            f.write(',\n "patterns": [\n')
            f.write(",\n".join("  " + json.dumps(p, separators=(",", ":")) for p in obj["patterns"]))
            f.write("\n ]\n}\n")
        print(name, len(obj["patterns"]), "rows")


if __name__ == "__main__":
    main()
