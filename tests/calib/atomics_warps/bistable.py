"""bistable.py OUT.json [ncu]: issue 41's question about red at 5 warps, on the GPU machine
(from the repository root, the run-time libraries on LD_LIBRARY_PATH, the tool built).

In both GPU-suite runs of 2026-11-29 the first tool process at --warps 5 read red's
one-wavefront rows at 1.7262 cycles and the next process at 1.6266 (run_stagger.sh's
three processes: 1.6266 each).  This asks what the first process had that the next did
not, one variable a sequence, every process the tool as the suite runs it (--json
--no-ncu --warps 5, the nine ".deg1" rows of tests/data/atomic_warps_h200.json, each
atomic the fastest over its 19 starting phases):
  cold     after 20 s with the GPU idle, six processes in a row;
  ncu      after one profiled run (the tool's own ncu pass, 16 warps) as the suite's
           forms section does, three processes;
  w16      after a 16-warp process on the same rows, three;
  alt      --warps 4 and --warps 5 alternating, three pairs;
  alone    red_add_u32.deg1 alone in its process, three;
  sleep2   a 2 s pause before each of three processes.
With "ncu" instead: ten pairs (an ncu pass, then a 5-warp process), ten 5-warp
processes in a row, five each after 15 s idle.
It measures, never models: every process's red and atom readings, the SM clock
before it (nvidia-smi), its order, go to OUT.json and a table on stdout."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "gpu"))
import swzgpu  # noqa: E402

DATA = os.path.join(swzgpu.ROOT, "tests", "data", "atomic_warps_h200.json")


def rows():
    with open(DATA) as f:
        pats = json.load(f)["patterns"]
    return [r for r in pats if r["name"].endswith(".deg1") and r["warps"] == 16
            and r["iters"] == 2048]


def sm_clock():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None


def main():
    out = sys.argv[1]
    pats = rows()
    red = [p for p in pats if p["name"] == "red_add_u32.deg1"]
    log = []
    order = 0

    def run(seq, pts, args):
        nonlocal order
        order += 1
        clk = sm_clock()
        rc, j, err, dt = swzgpu.run_tool(pts, args, timeout=300)
        res = {r["name"]: r.get("cycles_per_instr") for r in (j or {}).get("results", [])} \
            if j else {}
        rec = {"order": order, "seq": seq, "args": args, "rc": rc, "seconds": round(dt, 2),
               "sm_clock_before": clk, "cycles": res}
        log.append(rec)
        r5 = res.get("red_add_u32.deg1")
        a5 = res.get("atom_add_u32.deg1")
        print(f"{order:3d} {seq:7s} {' '.join(args):28s} rc={rc} {dt:5.1f}s clk={clk}  "
              f"red {r5}  atom {a5}", flush=True)

    w5 = ["--no-ncu", "--warps", "5"]
    # (sequence, times, steps): each step (pause in s before it, patterns, tool arguments)
    first = [("cold", 1, [(20, pats, w5)]), ("cold", 5, [(0, pats, w5)]),
             ("ncu", 1, [(0, pats[:1], [])]), ("ncu", 3, [(0, pats, w5)]),
             ("w16", 1, [(0, pats, ["--no-ncu"])]), ("w16", 3, [(0, pats, w5)]),
             ("alt", 3, [(0, pats, ["--no-ncu", "--warps", "4"]), (0, pats, w5)]),
             ("alone", 3, [(0, red, w5)]), ("sleep2", 3, [(2, pats, w5)])]
    # the second run: does the upper state follow an ncu pass?
    second = [("ncu10", 10, [(0, pats[:1], []), (0, pats, w5)]), ("w5x10", 10, [(0, pats, w5)]),
              ("idle15", 5, [(15, pats, w5)])]
    for seq, times, steps in second if sys.argv[2:3] == ["ncu"] else first:
        for _ in range(times):
            for pause, pts, args in steps:
                time.sleep(pause)
                run(seq, pts, args)
    save(out, log)


def save(out, log):
    with open(out, "w") as f:
        json.dump({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "tool": swzgpu.TOOL, "runs": log}, f, indent=1)


if __name__ == "__main__":
    main()
