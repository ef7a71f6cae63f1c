#!/usr/bin/env python3
"""ptx_corpus.py - measures every launch of tests/data/ptx/corpus.json on this machine's GPU
with `swizzlescope-measure --ptx ... --json --keep DIR` (ncu's Source page per line and per
SASS instruction) and dumps each kernel's SASS (ptxas -arch=sm_90a of the same PTX, then
cuobjdump -sass).  Writes OUTDIR/measured.json (device, driver, toolkit, ncu, date, and per
launch the tool's answer), OUTDIR/sass/NAME.sass, OUTDIR/csv/NAME/{raw,sass,cuda_sass}.csv and
OUTDIR/log.txt.  It changes nothing in the repository; tests/data/ptx/README.md says how its
output becomes tests/data/ptx/measured_<device>.json.
  python3 tests/gpu/ptx_corpus.py OUTDIR [--tool PATH] [--budget SECONDS] [NAME ...]
Run from the repository root (the manifest's PTX paths are relative to tests/data/ptx)."""
import json
import os
import shutil
import subprocess
import sys
import time


def sh(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=timeout)
        return (p.stdout + p.stderr).strip()
    except subprocess.TimeoutExpired:
        return "timed out"


def main():
    args = sys.argv[1:]
    out = args.pop(0)
    tool, budget, only = "build/swizzlescope-measure", 480.0, []
    while args:
        a = args.pop(0)
        if a == "--tool":
            tool = args.pop(0)
        elif a == "--budget":
            budget = float(args.pop(0))
        else:
            only.append(a)
    t_start = time.time()
    os.makedirs(f"{out}/sass", exist_ok=True)
    os.makedirs(f"{out}/csv", exist_ok=True)
    log = open(f"{out}/log.txt", "a")

    def say(*a):
        line = " ".join(str(x) for x in a)
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    manifest = json.load(open("tests/data/ptx/corpus.json"))
    meta = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "gpu": sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader"),
        "nvcc": sh("nvcc --version | grep release"),
        "ptxas": sh("ptxas --version | grep release"),
        "ncu": sh("ncu --version | tail -1"),
        "tool": tool,
    }
    say(json.dumps(meta))
    launches = []
    for e in manifest:
        name = e["name"]
        if only and name not in only:
            continue
        ptx = f"tests/data/ptx/{e['ptx']}"
        cubin = f"/tmp/{name}.cubin"
        sass = sh(f"ptxas -arch=sm_90a -lineinfo {ptx} -o {cubin} && cuobjdump -sass {cubin}")
        open(f"{out}/sass/{name}.sass", "w").write(sass + "\n")
        if time.time() - t_start > budget:
            say(f"{name}: skipped, the budget of {budget:.0f} s is spent")
            launches.append({"name": name, "skipped": "budget"})
            continue
        keep = f"{out}/csv/{name}"
        os.makedirs(keep, exist_ok=True)
        cmd = [tool, "--ptx", ptx, "--kernel", e["kernel"],
               "--block", ",".join(map(str, e["block"])), "--grid", ",".join(map(str, e["grid"])),
               "--dynamic-shared", str(e["dynamic_shared"]), "--global-bytes", str(e["global_bytes"]),
               "--json", "--keep", keep, "--ncu-timeout", "90"]
        for p in e["params"]:
            cmd += ["--param", "null" if p is None else str(p)]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            rc, so, se = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, so, se = -9, "", "timed out after 120 s"
        dt = time.time() - t0
        try:
            answer = json.loads(so)
        except ValueError:
            answer = {"unparsed": so[-2000:]}
        answer["rc"] = rc
        answer["stderr"] = se[-2000:]
        answer["seconds"] = round(dt, 2)
        launches.append({"name": name, "answer": answer})
        tot = answer.get("totals", {})
        brief = {k: [v.get("executions"), v.get("wavefronts"), v.get("ideal")]
                 for k, v in tot.items() if v.get("executions")}
        say(f"{name}: rc={rc} {dt:.1f}s {brief} {answer.get('ncu', {}).get('reason', '')}"
            f" {se.strip()[-300:] if rc else ''}")
    json.dump({"meta": meta, "launches": launches}, open(f"{out}/measured.json", "w"), indent=1)
    say(f"done in {time.time() - t_start:.0f} s")


if __name__ == "__main__":
    main()
