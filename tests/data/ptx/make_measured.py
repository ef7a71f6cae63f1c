#!/usr/bin/env python3
"""make_measured.py - turns the output folder of tests/gpu/ptx_corpus.py (measured.json, sass/)
into tests/data/ptx/measured_<device>.json and tests/data/ptx/sass/<name>.sass.  It keeps the
tool's numbers as they are (nothing is recomputed): per launch the whole-launch totals per kind
(executions and wavefronts from ncu's metrics, ideal summed from the Source page), the Source
page's own per-kind sums, the lines and the instructions.
  python3 tests/data/ptx/make_measured.py RESULTS_DIR [DEVICE_SLUG]   (from the repository root)"""
import json
import os
import re
import shutil
import subprocess
import sys

src = sys.argv[1]
# With the CSV pages beside the answers (ptx_corpus.py's csv/), the numbers are read from
# them again by this tree's tool (--from-csv), so that a fix of the reading needs no GPU.
REREAD = "build/swizzlescope-measure" if os.access("build/swizzlescope-measure", os.X_OK) else None
m = json.load(open(os.path.join(src, "measured.json")))
meta = m["meta"]
gpu, driver = [x.strip() for x in meta["gpu"].split(",")]
slug = sys.argv[2] if len(sys.argv) > 2 else re.sub(r"[^a-z0-9]+", "-", gpu.lower().replace("nvidia ", "")).strip("-")
out = {
    "device": gpu, "driver": driver, "toolkit": meta["nvcc"], "ptxas": meta["ptxas"],
    "ncu": meta["ncu"], "date": meta["date"],
    "how": "tests/gpu/ptx_session.sh on the GPU machine (swizzlescope-measure --ptx ... --json "
           "per corpus.json launch), then tests/data/ptx/make_measured.py",
    "executions_note": "totals[kind].executions is ncu's smsp__sass_inst_executed_op_* (warp "
                       "instructions with at least one predicated-on thread); the Source page's "
                       "'Instructions Executed' (source_totals, lines, instructions) also counts "
                       "warps whose every thread was predicated off, and never-taken @!PT forms",
    "parsed_by": "swizzlescope-measure --from-csv (this tree's reading of ncu's kept pages)"
                 if REREAD else "swizzlescope-measure --ptx on the GPU machine",
    "launches": [],
}
os.makedirs("tests/data/ptx/sass", exist_ok=True)
for l in m["launches"]:
    a = l.get("answer", {})
    if not a.get("ok") or not a.get("ncu", {}).get("used"):
        out["launches"].append({"name": l["name"], "error": a.get("stderr") or l.get("skipped")})
        continue
    keep = lambda d: {k: v for k, v in d.items() if v.get("executions") or v.get("wavefronts")}
    csv_dir = os.path.join(src, "csv", l["name"])
    if REREAD and os.path.isdir(csv_dir):
        # ncu's pages as the GPU run kept them (--keep), read again by this tree's tool
        cmd = [REREAD, "--ptx", a["ptx"], "--kernel", a["kernel"], "--block", "1",
               "--json", "--from-csv", csv_dir]
        for p in a["launch"]["params"]:
            cmd += ["--param", "null" if p["value"] is None else p["value"]]
        again = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        for k in ("totals", "source_totals", "wavefronts_all", "ideal_all", "lines", "instructions"):
            a[k] = again[k]
    out["launches"].append({
        "name": l["name"], "kernel": a["kernel"], "launch": a["launch"],
        "totals": keep(a["totals"]), "source_totals": keep(a["source_totals"]),
        "wavefronts_all": a["wavefronts_all"], "ideal_all": a["ideal_all"],
        "lines": a["lines"], "instructions": a["instructions"],
    })
    shutil.copy(os.path.join(src, "sass", l["name"] + ".sass"), f"tests/data/ptx/sass/{l['name']}.sass")
path = f"tests/data/ptx/measured_{slug}.json"
with open(path, "w") as f:
    f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in out.items() if k != "launches"))
    f.write(',\n "launches": [\n' + ",\n".join("  " + json.dumps(x) for x in out["launches"]) + "\n ]\n}\n")
print(path, len(out["launches"]))
