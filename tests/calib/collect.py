#!/usr/bin/env python3
"""collect.py: joins one calibration run (run_calib.sh) into
tests/data/calib_<device-slug>.json: for every pattern of patterns.json the
Nsight Compute wavefronts per warp instruction and the clock64 cycles per warp
instruction, with the raw numbers they came from. Stdlib only; it reads files
and writes one, and never talks to a GPU.

  collect.py --patterns P.json --clock run1.csv [--clock run2.csv ...]
             [--clock-warps32 C.csv] [--clock-long C.csv]
             [--ncu part.csv:part.stderr ...] [--meta meta.json]
             [--metrics-missing m1,m2] --out-dir DIR
"""
import argparse
import csv
import datetime
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kinds  # noqa: E402  (the instruction kinds: tests/data/ops.json = GET /api/ops)

WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared"

# Tried before a kind's hardware counter where a GPU has them: per-kind
# hardware counters of the matrix ops, which sm_90 lacks (calib_*.json,
# "metrics_unavailable").  Exploration only; the model's names are the table's.
HW_FIRST = {"ldmatrix": [WF + "_op_ldsm.sum"], "stmatrix": [WF + "_op_stsm.sum"]}


def metric_lists(rows):
    """Preference order per op, the first metric present with a nonzero value
    wins, from each kind's row: the Source-page metric first (on an H100 the
    hardware counter l1tex__..._op_st over-counts stores by a non-integral
    0.1-0.5 wavefront per instruction, while loads agree exactly), then the
    hardware counter; the executed instructions, then their SASS-counted twin
    (none for stmatrix: the launched count stands in).  Atomics are measured
    by atomics/, not here."""
    wf, hw, inst = {}, {}, {}
    for name, k in rows.items():
        if k["atomic"]:
            continue
        n = k["ncu"]
        hw[name] = HW_FIRST.get(name, []) + [n["wavefronts"]]
        wf[name] = [n["source"]] + hw[name]
        inst[name] = [m for m in (n["executed"], kinds.sass_twin(n["executed"])) if m]
    return wf, hw, inst


WAVEFRONT_METRICS, HW_WAVEFRONT_METRICS, INSTRUCTION_METRICS = metric_lists(kinds.kinds())

METHOD = (
    "Two measurements per pattern, each pattern one kernel launch of ONE block on one SM; "
    "every lane of every warp runs the pattern (cuda/probe.cu). "
    "(a) wavefronts: Nsight Compute, --ncu-iters 4 (16 warps x 4 iterations x 8 = 512 warp "
    "instructions per launch): smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
    "{ld,st,ldsm,stsm}.sum (the op matching the instruction, see raw.wavefront_metric; the "
    "per-instruction count ncu's Source page shows) divided by the executed instructions of that "
    "kind from the same run (raw.instruction_metric; for stmatrix, where ncu has no instruction "
    "count, the 512 launched, checked against the SASS). 'wavefronts_hw' is the same ratio from "
    "the hardware counter l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum (ldmatrix "
    "counts under op_ld, stmatrix under op_st); it equals 'wavefronts' for every load and "
    "over-counts stores by a non-integral amount. "
    "(b) cycles: clock64, 16 warps (512 threads), 512 iterations of 8 independent volatile "
    "PTX accesses (inactive lanes predicated off in the asm); cycles per warp instruction = "
    "(max over warps of end - min over warps of start) / (16 * 512 * 8), start read after a "
    "__syncthreads() and end before one; the fastest of 5 timed launches after a warm-up; "
    "'cycles' is the mean of two separate runs (raw.cycles_runs). raw.cycles_warps32 repeats "
    "(b) with 32 warps and raw.cycles_iters2048 with 2048 iterations, to show the number is "
    "the pipe's, not the loop's or the occupancy's. The '_baseline' row (config.baseline) is "
    "the same loop with register moves instead of accesses.")


def slug(device):
    s = re.sub(r"(?i)^nvidia\s+", "", device.strip()).lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-") or "unknown"


def read_clock(path):
    """Probe CSV -> (header dict from the '# swizzlescope-measure' line, {name: row})."""
    meta, rows = {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line):
                    meta[k] = v.strip('"')
                continue
            if line.startswith("name,"):
                continue
            name, cpi, raw, inst = line.split(",")
            rows[name] = {"cpi": float(cpi), "raw": int(raw), "instructions": int(inst)}
    return meta, rows


def number(s):
    s = s.strip().replace(",", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() else v


def read_ncu(csv_path, stderr_path):
    """One ncu --csv --page raw log and the probe's stderr of the same run ->
    [(pattern name, {metric: value})] in launch order."""
    names = []
    with open(stderr_path) as f:
        for line in f:
            m = re.match(r"ncu-launch (\d+) (\S+)", line)
            if m:
                names.append(m.group(2))
    with open(csv_path, errors="replace") as f:
        lines = [ln for ln in f if ln[:1] == '"' or ln[:1].isdigit()]
    table = list(csv.reader(io.StringIO("".join(lines))))
    header = next((r for r in table if r and r[0] == "ID"), None)
    if header is None:
        return [], names
    data = [r for r in table if r and re.fullmatch(r"\d+", r[0]) and len(r) == len(header)]
    by_id = {}
    if "Metric Name" in header and "Metric Value" in header:
        # --page details: one row per (launch, metric)
        kn, kv = header.index("Metric Name"), header.index("Metric Value")
        for r in data:
            by_id.setdefault(int(r[0]), {})[r[kn]] = number(r[kv])
    else:
        # --page raw: one row per launch, one column per metric
        for r in data:
            by_id[int(r[0])] = {k: number(v) for k, v in zip(header, r) if "__" in k}
    out = [by_id[i] for i in sorted(by_id)]
    if len(out) != len(names):
        print(f"collect: {csv_path}: {len(out)} profiled launches but {len(names)} names; "
              "keeping the first min of both", file=sys.stderr)
    return list(zip(names, out)), names


def pick(metrics, candidates):
    for m in candidates:
        v = metrics.get(m)
        if v:
            return m, v
    return None, None


def dumps(doc):
    """Top level indented, one pattern per line: readable diffs, plain JSON."""
    parts = []
    for k, v in doc.items():
        if k == "patterns":
            body = ",\n".join("  " + json.dumps(p, separators=(",", ":")) for p in v)
            parts.append(f' "patterns": [\n{body}\n ]')
        else:
            parts.append(f" {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patterns", required=True)
    ap.add_argument("--clock", action="append", default=[], required=True)
    ap.add_argument("--clock-warps32")
    ap.add_argument("--clock-long")
    ap.add_argument("--ncu", action="append", default=[], help="CSV:STDERR of one ncu run")
    ap.add_argument("--meta", help="JSON with device/driver/cuda/ncu_version/clocks")
    ap.add_argument("--metrics-requested", default="")
    ap.add_argument("--metrics-missing", default="")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()

    with open(args.patterns) as f:
        patterns = json.load(f)
    runs = [read_clock(p) for p in args.clock]
    head = runs[0][0]
    w32 = read_clock(args.clock_warps32)[1] if args.clock_warps32 else {}
    long_ = read_clock(args.clock_long)[1] if args.clock_long else {}
    ncu = {}
    for spec in args.ncu:
        csv_path, err_path = spec.split(":")
        if os.path.exists(csv_path) and os.path.exists(err_path):
            for name, metrics in read_ncu(csv_path, err_path)[0]:
                ncu[name] = metrics
    meta = {}
    if args.meta and os.path.exists(args.meta):
        with open(args.meta) as f:
            meta = json.load(f)

    device = meta.get("device") or head.get("device", "unknown")
    requested = set(m for m in args.metrics_requested.split(",") if m)
    expected = (meta.get("ncu_warps") or 16) * (meta.get("ncu_iters") or 0) * 8
    out_pats, bad = [], []
    for p in patterns:
        name, op = p["name"], p["op"]
        cyc = [r[1][name]["cpi"] for r in runs if name in r[1]]
        raw = {"cycles_runs": cyc}
        if name in runs[0][1]:
            raw["raw_cycles"] = runs[0][1][name]["raw"]
            raw["instructions"] = runs[0][1][name]["instructions"]
        if name in w32:
            raw["cycles_warps32"] = w32[name]["cpi"]
        if name in long_:
            raw["cycles_iters2048"] = long_[name]["cpi"]
        wavefronts = wavefronts_hw = None
        if name in ncu:
            m = ncu[name]
            wm, wv = pick(m, WAVEFRONT_METRICS[op])
            hm, hv = pick(m, HW_WAVEFRONT_METRICS[op])
            im, iv = pick(m, INSTRUCTION_METRICS[op])
            if iv is None and expected:
                im, iv = f"launched ({expected})", expected
            elif iv != expected:
                bad.append(f"{name}: ncu counted {iv} instructions ({im}), {expected} launched")
            raw["ncu"] = {k: v for k, v in m.items()
                          if v is not None and (not requested or k in requested)}
            raw["wavefront_metric"] = wm
            raw["instruction_metric"] = im
            if iv:
                wavefronts = round((wv or 0) / iv, 2)
                wavefronts_hw = round((hv or 0) / iv, 2)
                if abs(wavefronts - round(wavefronts)) > 0.011:
                    bad.append(f"{name}: non-integral wavefronts {wavefronts}")
        out_pats.append({
            "name": name, "op": op, "bytes": p["bytes"], "matrices": p["matrices"],
            "trans": p["trans"], "offsets": p["offsets"],
            "wavefronts": wavefronts,
            "wavefronts_hw": wavefronts_hw,
            "cycles": round(sum(cyc) / len(cyc), 3) if cyc else None,
            "raw": raw,
        })

    baseline = {"cycles_runs": [r[1]["_baseline"]["cpi"] for r in runs if "_baseline" in r[1]]}
    if "_baseline" in w32:
        baseline["cycles_warps32"] = w32["_baseline"]["cpi"]
    if "_baseline" in long_:
        baseline["cycles_iters2048"] = long_["_baseline"]["cpi"]

    doc = {
        "device": device,
        "cc": meta.get("cc") or head.get("cc"),
        "date": meta.get("date") or datetime.date.today().isoformat(),
        "driver": meta.get("driver"),
        "cuda": meta.get("cuda"),
        "ncu_version": meta.get("ncu_version"),
        "sm_clock_mhz": meta.get("sm_clock_mhz"),
        "method": METHOD,
        "config": {"warps": int(head.get("warps", 0)), "iters": int(head.get("iters", 0)),
                   "reps": int(head.get("reps", 0)), "ncu_iters": meta.get("ncu_iters"),
                   "baseline": baseline},
        "metrics_requested": [m for m in args.metrics_requested.split(",") if m],
        "metrics_unavailable": [m for m in args.metrics_missing.split(",") if m],
        "patterns": out_pats,
    }
    os.makedirs(args.out_dir, exist_ok=True)
    path = os.path.join(args.out_dir, f"calib_{slug(device)}.json")
    with open(path, "w") as f:
        f.write(dumps(doc))

    print(f"{'name':44s} {'wavefronts':>10s} {'wf_hw':>6s} {'cycles':>8s} {'w32':>8s} {'i2048':>8s}")
    for p in out_pats:
        r = p["raw"]
        fmt = lambda v: "-" if v is None else f"{v:.2f}"
        print(f"{p['name']:44s} {fmt(p['wavefronts']):>10s} {fmt(p['wavefronts_hw']):>6s} {fmt(p['cycles']):>8s} "
              f"{fmt(r.get('cycles_warps32')):>8s} {fmt(r.get('cycles_iters2048')):>8s}")
    for b in bad:
        print("collect: warning:", b, file=sys.stderr)
    missing = sum(p["wavefronts"] is None for p in out_pats)
    print(f"collect: wrote {path}: {len(out_pats)} patterns, {missing} without ncu wavefronts",
          file=sys.stderr)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
