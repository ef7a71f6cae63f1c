#!/usr/bin/env python3
"""ptx_check.py - the GPU test of `swizzlescope-measure --ptx` (issue 38): runs corpus launches
(tests/data/ptx/corpus.json) on this machine's GPU and checks the tool's answer against the
numbers measured earlier on the same kind of GPU (tests/data/ptx/measured_<device>.json):
whole-launch totals per kind, every line and every instruction (executions, wavefronts,
ideal).  Without a GPU, ncu or a measured file for this device it skips, saying why.  It
prints "ptx_check: N passed, N failed, N skipped" last; exit 1 on a failure.
  python3 tests/gpu/ptx_check.py [--tool PATH] [NAME ...]     (from the repository root)"""
import glob
import json
import os
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    tool = os.environ.get("SWZ_MEASURE", "build/swizzlescope-measure")
    if args[:1] == ["--tool"]:
        tool = args[1]
        args = args[2:]
    passed = failed = skipped = 0

    def done():
        print(f"ptx_check: {passed} passed, {failed} failed, {skipped} skipped")
        sys.exit(1 if failed else 0)

    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
    except (OSError, subprocess.TimeoutExpired):
        gpu = []
    if not gpu or not os.access(tool, os.X_OK):
        print(f"skip: no GPU or no {tool}")
        skipped += 1
        done()
    slug = re.sub(r"[^a-z0-9]+", "-", gpu[0].lower().replace("nvidia ", "")).strip("-")
    path = f"tests/data/ptx/measured_{slug}.json"
    if not os.path.exists(path):
        print(f"skip: no {path} (measured files: {glob.glob('tests/data/ptx/measured_*.json')})")
        skipped += 1
        done()
    measured = {l["name"]: l for l in json.load(open(path))["launches"] if "totals" in l}

    # The tool's failures on a GPU machine: answers, never crashes or hangs.
    os.makedirs("build", exist_ok=True)
    fake = {"fails": "#!/bin/sh\necho '==ERROR== fake failure' >&2\nexit 1\n",
            "hangs": "#!/bin/sh\ncase \"$1\" in --version) echo 'Version 0';; *) sleep 60;; esac\n"}
    base = [tool, "--ptx", "tests/data/ptx/corpus/global_index.ptx", "--block", "256",
            "--param", "null", "--param", "null", "--json"]
    for name, text in fake.items():
        f = f"build/fake-ncu-{name}"
        open(f, "w").write(text)
        os.chmod(f, 0o755)
        r = subprocess.run(base + ["--ncu", f, "--ncu-timeout", "5"], capture_output=True,
                           text=True, timeout=60)
        try:
            ncu = json.loads(r.stdout).get("ncu", {})
        except ValueError:
            ncu = {}
        ok = r.returncode == 0 and ncu.get("used") is False and ncu.get("reason")
        passed, failed = passed + bool(ok), failed + (not ok)
        print(f"{'ok' if ok else 'FAIL'} an ncu that {name}: exit {r.returncode}, {ncu.get('reason')}")
    open("build/bad.ptx", "w").write(".version 8.8\n.target sm_90a\n.address_size 64\n"
                                     ".visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n\tret;\n}\n")
    for what, cmd, code in [
            ("PTX the driver refuses", [tool, "--ptx", "build/bad.ptx", "--block", "32", "--json"], 2),
            ("too much dynamic shared memory", base + ["--dynamic-shared", "1000000"], 2)]:
        r = subprocess.run(cmd + ["--no-ncu"], capture_output=True, text=True, timeout=60)
        ok = r.returncode == code and '"error"' in r.stdout
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'ok' if ok else 'FAIL'} {what}: exit {r.returncode} {r.stderr.strip()[:200]}")
    for e in json.load(open("tests/data/ptx/corpus.json")):
        if args and e["name"] not in args:
            continue
        want = measured.get(e["name"])
        if not want:
            print(f"skip {e['name']}: not in {path}")
            skipped += 1
            continue
        cmd = [tool, "--ptx", "tests/data/ptx/" + e["ptx"], "--kernel", e["kernel"],
               "--block", ",".join(map(str, e["block"])), "--grid", ",".join(map(str, e["grid"])),
               "--dynamic-shared", str(e["dynamic_shared"]), "--global-bytes", str(e["global_bytes"]),
               "--json", "--require-ncu"]
        for p in e["params"]:
            cmd += ["--param", "null" if p is None else str(p)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        try:
            got = json.loads(r.stdout)
        except ValueError:
            got = {}
        if r.returncode != 0 or not got.get("ncu", {}).get("used"):
            print(f"FAIL {e['name']}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
            failed += 1
            continue
        key = lambda x: (x["file"], x["line"], x["kind"])
        three = lambda x: [x.get("executions"), x.get("wavefronts"), x.get("ideal")]
        checks = [("totals", {k: three(v) for k, v in got["totals"].items() if k in want["totals"]},
                   {k: three(v) for k, v in want["totals"].items()}),
                  ("lines", {key(x): three(x) for x in got["lines"]},
                   {key(x): three(x) for x in want["lines"]}),
                  ("instructions", {(x["pc"], x["sass"]): three(x) for x in got["instructions"]},
                   {(x["pc"], x["sass"]): three(x) for x in want["instructions"]})]
        for what, g, w in checks:
            if g == w:
                passed += 1
                print(f"ok {e['name']} {what}")
            else:
                failed += 1
                diff = {str(k): (g.get(k), w.get(k)) for k in set(g) | set(w) if g.get(k) != w.get(k)}
                print(f"FAIL {e['name']} {what}: (got, measured) {json.dumps(diff)[:600]}")
    done()


if __name__ == "__main__":
    main()
