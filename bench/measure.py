#!/usr/bin/env python3
"""measure.py - the live-measurement bench (bench/measure.sh runs it), for a
machine with an NVIDIA GPU: the calibration suite through the measurement
tool next to the model, the conflict-free 32-bit load throughput, and the
warm round trip of one POST /api/measure through the server.

  bench/measure.sh [--from TOOL.json] [--rounds N] [--no-suite]

--from reuses a suite run of the tool (tests/gpu/run.sh with SWZ_GPU_SAVE)
instead of measuring again. Prints one table row per pattern:
  pattern | predicted wavefronts | ncu wavefronts | predicted cycles | measured cycles | agree
"ncu wavefronts" is the count the model predicts: the hardware counter for
loads, the Source-page metric for stores (tests/unit/test_access.c says why);
where the Source-page metric differs it is shown beside it.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gpu"))
import swzgpu  # noqa: E402


def fmt(v, nd=2):
    return "-" if v is None else f"{v:.{nd}f}"


def suite_table(server, patterns, tool_json):
    results = tool_json["results"]
    if len(results) != len(patterns):
        print(f"the tool answered {len(results)} results for {len(patterns)} patterns")
        return 1
    rows, bad = [], 0
    for p, m in zip(patterns, results):
        st, pred, _ = server.post("/api/conflicts", swzgpu.api_body(p))
        truth = swzgpu.truth_wavefronts(p, m)
        src = m.get("wavefronts_per_instr")
        ncu_txt = fmt(truth)
        if src is not None and truth is not None and abs(src - truth) > 0.011:
            ncu_txt += f" (src {src:.2f})"
        cyc_ok = swzgpu.cycles_agree(m["cycles_per_instr"], pred["cycles"])
        if truth is None:
            wf_ok = None
        else:
            wf_ok = (abs(truth - pred["wavefronts"]) < 0.011 and src is not None
                     and abs(src - pred["source_wavefronts"]) < 0.011)
        if cyc_ok and wf_ok:
            agree = "yes"
        elif cyc_ok and wf_ok is None:
            agree = "cycles (no ncu)"
        else:
            agree = "NO: " + ", ".join(w for w, ok in (("cycles", cyc_ok), ("wavefronts", wf_ok))
                                       if ok is False)
            bad += 1
        rows.append((p["name"], str(pred["wavefronts"]), ncu_txt, str(pred["cycles"]),
                     f"{m['cycles_per_instr']:.3f}", agree))
    head = ("pattern", "predicted wavefronts", "ncu wavefronts", "predicted cycles",
            "measured cycles", "agree")
    w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(r)) + " |"  # noqa: E731
    print(line(head))
    print("|" + "|".join("-" * (x + 2) for x in w) + "|")
    for r in rows:
        print(line(r))
    ncu = tool_json.get("ncu", {})
    print(f"\n{len(rows) - bad} of {len(rows)} patterns agree (cycles within 2%, wavefronts "
          f"exact); ncu {'used' if ncu.get('used') else 'not used'} "
          f"({ncu.get('version')}, {ncu.get('profiled')} profiled in {ncu.get('seconds')} s"
          f"{': ' + ncu['reason'] if ncu.get('reason') else ''})")
    print(f"verify: {tool_json.get('verify')}")
    print(f"tool time: {tool_json.get('elapsed_s')}")
    return 1 if bad else 0


def throughput(patterns, tool_json):
    ld32 = next(p for p in patterns if p["name"] == "ld32_linear")
    print("\nconflict-free 32-bit load (ld32_linear), 16 warps on one SM:")
    if tool_json:
        m = next(r for r in tool_json["results"] if r["name"] == "ld32_linear")
        wf = m.get("wavefronts_per_instr") or 1.0
        print(f"  suite run, {m['iters']} iterations: {m['cycles_per_instr']:.4f} cycles/instr, "
              f"{wf:.2f} wavefronts/instr -> {wf / m['cycles_per_instr']:.4f} wavefronts per SM cycle")
    for iters in (2048, 8192, 32768):
        rc, j, err, dt = swzgpu.run_tool([ld32], ["--no-ncu", "--iters", str(iters)], timeout=120)
        if rc != 0 or not j:
            print(f"  --iters {iters}: tool failed (exit {rc}): {err.strip()[-200:]}")
            continue
        m = j["results"][0]
        print(f"  --iters {iters}: {m['cycles_per_instr']:.4f} cycles/instr -> "
              f"{1.0 / m['cycles_per_instr']:.4f} wavefronts per SM cycle (1 wavefront/instr, "
              f"{m['raw_cycles']} cycles for {m['instructions']} instructions)")


def round_trips(rounds):
    ld32 = swzgpu.api_body(next(p for p in swzgpu.load_patterns() if p["name"] == "ld32_linear"))
    print(f"\nwarm round trip of POST /api/measure (ld32_linear), median of {rounds} after one "
          "warm-up request, through the server:")
    for label, env in (("with ncu counters", {}), ("cycles only (SWZ_NO_NCU=1)", {"SWZ_NO_NCU": "1"})):
        with swzgpu.Server(env_extra=env) as server:
            times, status = [], []
            for i in range(rounds + 1):
                st, r, dt = server.post("/api/measure", ld32)
                status.append(st)
                if i:
                    times.append(dt)
            ncu = r.get("ncu") if isinstance(r, dict) else None
            print(f"  {label}: median {statistics.median(times):.3f} s, min {min(times):.3f}, "
                  f"max {max(times):.3f} (statuses {sorted(set(status))}; ncu used "
                  f"{(ncu or {}).get('used')}, agree {r.get('agree') if isinstance(r, dict) else r})")
    # What the page does: cycles only ("counters": false, shown at once), then
    # the counter pass; the page shows a number after the first answer.
    with swzgpu.Server() as server:
        first, whole, status = [], [], set()
        for i in range(rounds + 1):
            st1, r1, d1 = server.post("/api/measure", dict(ld32, counters=False))
            st2, r2, d2 = server.post("/api/measure", ld32)
            status |= {st1, st2}
            if i:
                first.append(d1)
                whole.append(d1 + d2)
        print(f"  the page, cycles first: cycles shown after median {statistics.median(first):.3f} s "
              f"(max {max(first):.3f}), counters after {statistics.median(whole):.3f} s "
              f"(statuses {sorted(status)})")
    # Where the time goes, from the tool's own clock (a direct run).
    for args in ((), ("--no-ncu",)):
        rc, j, err, dt = swzgpu.run_tool([dict(ld32, name="ld32_linear")], list(args), timeout=60)
        print(f"  tool alone {' '.join(args) or '(with ncu)'}: {dt:.3f} s wall, tool's own split "
              f"{(j or {}).get('elapsed_s')}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="src", help="a saved suite run of the tool (JSON)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-suite", action="store_true")
    args = ap.parse_args()
    rc, info, why = swzgpu.tool_info()
    if rc != 0 or not info:
        print(f"bench: no usable GPU: {(info or {}).get('error', {}).get('message') or why}")
        return 2
    print(f"device: {json.dumps(info['device'])}")
    patterns = swzgpu.load_patterns()
    tool_json = None
    status = 0
    if not args.no_suite:
        if args.src:
            with open(args.src) as f:
                tool_json = json.load(f)
            print(f"suite: from {args.src}")
        else:
            rc, tool_json, err, dt = swzgpu.run_tool(
                patterns, ["--iters", "2048", "--ncu-timeout", "420"], timeout=540)
            print(f"suite: the tool ran {len(patterns)} patterns in {dt:.1f} s (exit {rc})")
            if rc != 0 or not tool_json:
                print(err)
                return 1
        with swzgpu.Server() as server:
            status = suite_table(server, patterns, tool_json)
    throughput(patterns, tool_json)
    round_trips(args.rounds)
    return status


if __name__ == "__main__":
    sys.exit(main())
