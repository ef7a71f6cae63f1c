#!/usr/bin/env python3
"""gpu_test.py - the GPU tests: the real measurement tool, through the server
and directly, against the model (tests/gpu/run.sh runs it; make test calls
that). Without a usable GPU every check is reported skipped and it exits 0.

Checks, one line each:
  - the tool's --info answers a device; the server's /api/health says
    measurement is available on that device;
  - a bad /api/measure body is a 400 and does not run the tool;
  - POST /api/measure on a subset covering every op and width: 200,
    agree.cycles, agree.wavefronts (counter-measured), verify.ok;
  - a second /api/measure while one runs is a 409; the server stays healthy;
  - the tool directly on the whole calibration suite (tests/calib/patterns.json)
    vs the model's POST /api/conflicts: cycles within 2%, wavefronts exact;
  - the tool on the atomics (tests/calib/atomics/suite.json: every pattern of
    five forms, one pattern of every other form): native ones as the suite,
    except cycles the model marks inexact (measured at or above it); the
    others measured, and the model gives them no count.

  - cp.async (issue 23): the tool on a spread of the measured rows of
    tests/data/cp_async_h100-80gb-hbm3.json (.ca 4/8/16, .cg 16): its
    Source-page wavefronts vs the calibration probe's and the model's, and one
    /api/measure round trip of a cp.async body (cache and global offsets sent);
  - atomics as people write them (issue 23, section "forms"): the tool on rows
    of tests/data/atomic_forms_h100-80gb-hbm3.json in every operand and guard
    it compiles (ATOMS.POPC.INC by an immediate 1, ATOMS.ADD by 2, -1, a
    uniform and a per-lane register, inc/dec to -1, guard "each" and "none"):
    wavefronts exact and cycles within 2% of the model, /api/measure round
    trips of the default histogram, a guard "none" body with an idle lane
    refused (400 on "guard"), and, where cuobjdump is, every atomic kernel's
    SASS against the model's "sass" (tests/gpu/atomic_sass.py);
  - a kernel as compiled (issue 38, section "ptx"): POST /api/ptx/measure on
    corpus launches (tests/data/ptx/corpus.json) and one CUDA text: 200, every
    kind and every line measured equal to predicted (compare.agree), each
    pointer's buffer the bytes the analysis saw touched; a second request while
    one runs is a 409.  SWZ_GPU_PTX_SAVE=DIR keeps each answer (DIR/NAME.json),
    which tests/data/ptx/measure_replay replays through a fake tool;
  - TMA (issue 23): POST /api/measure/tma on boxes of every classic mode,
    narrow and full rows, 1/2/4/8-byte elements, a 3-D box: agree true; a box
    wider than its span: the driver refuses it (encode != 0, agree null).

Env: SWZ_GPU_SECTIONS (comma list of server,copy,tma,suite,atomics,forms,ptx;
default all, in that order), SWZ_BIN (server, default build/swizzlescope), SWZ_MEASURE (tool, default
build/swizzlescope-measure), SWZ_GPU_REQUIRE_NCU=1 (missing counters fail
instead of being skipped), SWZ_GPU_SAVE=FILE (keep the suite's tool JSON for
bench/measure.sh --from FILE), SWZ_GPU_LOG=FILE (the server's log),
SWZ_GPU_NCU_TIMEOUT=S (the suite's counter pass, default 420 s).
"""
import json
import os
import shutil
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swzgpu  # noqa: E402

# The first pattern of every (op, width, matrices, trans) in the suite, and
# the cases where the two numbers part ways: Source page vs hardware counter
# (ld128_pairs_but_last), cycles vs wavefronts (partly active vectors), and
# the 32-way conflict.
SUBSET = [
    "ld8_linear", "ld16_linear", "ld32_linear", "ld64_linear", "ld128_linear",
    "st8_linear", "st16_linear", "st32_linear", "st64_linear", "st128_linear",
    "ldsm_x1_contig", "ldsm_x2_contig", "ldsm_x4_contig", "ldsm_x1_trans_contig",
    "ldsm_x2_trans_contig", "ldsm_x4_trans_contig", "stsm_x1_contig", "stsm_x2_contig",
    "stsm_x4_contig", "stsm_x4_trans_contig",
    "ld128_pairs_but_last", "st64_lanes0_15", "ld128_one_lane", "ld32_stride32w",
    "ldsm_x4_rows128B", "ldsm_x4_rows128B_sw128",
]

passed = failed = skipped = 0
REQUIRE_NCU = os.environ.get("SWZ_GPU_REQUIRE_NCU", "") not in ("", "0")


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {what}", flush=True)
    else:
        failed += 1
        print(f"FAIL {what}", flush=True)


def skip(what):
    global skipped
    skipped += 1
    print(f"skip {what}", flush=True)


def fmt(v, nd=3):
    return "null" if v is None else f"{v:.{nd}f}"


def close(a, b):
    return a is not None and b is not None and abs(a - b) < 0.011


def wavefronts_ok(p, measured, predicted):
    """Counter-measured wavefronts equal the model's: the Source-page metric
    its source_wavefronts, and the reference count (hardware for loads,
    Source page for stores) its wavefronts."""
    src = measured.get("wavefronts_per_instr")
    return (close(src, predicted["source_wavefronts"])
            and close(swzgpu.truth_wavefronts(p, measured), predicted["wavefronts"]))


# Every pattern of these forms, and w4_same / w8_same of every other one.
ATOMIC_FULL = ("atom_add_u32", "red_add_u32", "atom_cas_b32", "atom_exch_b64", "atom_cas_b64")


def atomic_subset():
    with open(swzgpu.ATOMICS) as f:
        suite = json.load(f)
    return [p for p in suite if p["name"].split(".")[0] in ATOMIC_FULL
            or p["name"].split(".")[1] in ("w4_same", "w8_same")]


SECTIONS = [x for x in os.environ.get("SWZ_GPU_SECTIONS",
                                      "server,copy,tma,suite,atomics,forms,warps,ptx")
            .split(",") if x]
CP_ASYNC_DATA = os.path.join(swzgpu.ROOT, "tests", "data", "cp_async_h100-80gb-hbm3.json")
CP_ASYNC_FIELDS = ("op", "bytes", "cache", "offsets", "global_offsets")


def copy_subset():
    """Every 16th measured cp.async row (all four forms) and the .cg rows with
    a permuted global side (where the model is not exact): about 60 rows."""
    with open(CP_ASYNC_DATA) as f:
        rows = json.load(f)["patterns"]
    return [r for i, r in enumerate(rows)
            if i % 16 == 0 or (r["cache"] == "cg" and r["name"].endswith("g_perm"))]


# (mode bytes, element bytes, shape): narrow rows (padded to the span), full rows, a 3-D box
TMA_BOXES = [(0, 2, [8, 8]), (0, 1, [256, 4]), (32, 2, [8, 8]), (32, 4, [8, 16]),
             (64, 2, [8, 8]), (64, 2, [32, 8]), (64, 8, [4, 8]), (128, 2, [8, 8]),
             (128, 2, [64, 16]), (128, 1, [128, 8]), (128, 4, [16, 8, 2]), (64, 2, [16, 4, 3])]
TMA_MODES = {0: "NONE", 32: "32B", 64: "64B", 128: "128B"}


# tests/calib/atomic_forms' forms the tool compiles, as PTX writes them (a
# CUDA C++ form is the same request: gen_forms.request), and the patterns:
# same word, a random 8-bin histogram (and its bank-colliding twin), a 32-way
# conflict, half merged half conflicting, 4 words of one bank, and for the
# guard "each" forms lanes off.  8-byte forms: distinct, same, pairs.
ATOMIC_FORMS_DATA = os.path.join(swzgpu.ROOT, "tests", "data",
                                 "atomic_forms_h100-80gb-hbm3.json")
FORMS = ("red_add_u32_i1", "red_add_u32_i1_p", "atom_add_u32_i1_used", "red_add_u32_i2",
         "cu_sub_1", "cu_sub_1_used", "red_add_s32_im1", "red_add_u32_uni",
         "cu_add_uni_used", "red_add_u32_lane", "atom_add_u32_lane_used", "red_add_u32_lane_p",
         "red_inc_u32_imax", "red_dec_u32_imax", "red_xor_b32_lane",
         "red_max_s32_lane", "atom_exch_b32_used", "atom_cas_b32_used", "atom_exch_b64_used",
         "atom_cas_b64_used")
FORM_PATTERNS = ("w4_distinct", "w4_same", "w4_hist8_rand", "w4_hist8_rand_bank", "w4_conf32",
                 "w4_half_same_half_conf16", "h4_bank0_words4", "w4_lanes0_15",
                 "w8_distinct", "w8_same", "w8_grp2")
# /api/measure bodies: the default histogram, its twin with a used result, and
# one per other operand (form.pattern of the data)
FORM_MEASURE = ("red_add_u32_i1.w4_hist8_rand", "atom_add_u32_i1_used.w4_hist8_rand",
                "red_add_u32_uni.w4_same", "red_add_u32_i1_p.w4_lanes0_15")


def forms_rows():
    with open(ATOMIC_FORMS_DATA) as f:
        rows = json.load(f)["patterns"]
    return [r for r in rows if r["name"].split(".")[0] in FORMS
            and r["name"].split(".")[1] in FORM_PATTERNS]


def form_body(r):
    return dict(r["request"], offsets=r["offsets"])


# Issue 41, rule A14: the tool's one-wavefront atomic rows (atomic_warps_h200.json,
# 2048 iterations) at warp counts where one starting phase read two states launch
# to launch (5, 8) and where the rule answers not exact (11).
WARPS_DATA = os.path.join(swzgpu.ROOT, "tests", "data", "atomic_warps_h200.json")
WARPS_AT = (5, 8, 11)


def warps_rows():
    with open(WARPS_DATA) as f:
        rows = json.load(f)["patterns"]
    return [r for r in rows if r["name"].endswith(".deg1") and r["warps"] == 16
            and r["iters"] == 2048]


def planned(patterns):
    return (2 + 1 + len(SUBSET) + 2 + 1 + len(patterns) + 1 + len(atomic_subset())
            + 2 + len(copy_subset()) + len(TMA_BOXES) + 1
            + 1 + len(forms_rows()) + len(FORM_MEASURE) + 1
            + len(WARPS_AT) * (2 + len(warps_rows()))
            + len(PTX_MEASURE) + 2)


def main():
    # A `timeout` around us must still stop the server we started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    patterns = swzgpu.load_patterns()
    by_name = {p["name"]: p for p in patterns}
    rc, info, why = swzgpu.tool_info()
    if rc != 0 or not info or not info.get("ok"):
        if info and info.get("error"):
            why = info["error"].get("message", why)
        n = planned(patterns)
        print(f"test_gpu: no usable GPU ({why or 'exit %s' % rc}): every check skipped")
        print(f"test_gpu: 0 passed, 0 failed, {n} skipped")
        return 0
    device = info["device"]
    check(bool(device.get("name")) and "cc" in device and "sm_clock_khz" in device,
          f"tool --info: {device.get('name')} cc {device.get('cc')}, {device.get('sms')} SMs, "
          f"{device.get('sm_clock_khz')} kHz")

    try:
        server = swzgpu.Server(log_path=os.environ.get("SWZ_GPU_LOG"))
    except (OSError, RuntimeError) as e:
        check(False, f"start the server {swzgpu.SERVER}: {e}")
        print(f"test_gpu: {passed} passed, {failed} failed")
        return 1
    try:
        for sec in SECTIONS:
            if sec == "server":
                run_server_checks(server, device, by_name)
            elif sec == "copy":
                run_copy(server, copy_subset())
            elif sec == "tma":
                run_tma(server, device)
            elif sec == "suite":
                run_suite(server, patterns)
            elif sec == "atomics":
                run_atomics(server, atomic_subset())
            elif sec == "forms":
                run_forms(server, forms_rows())
            elif sec == "warps":
                run_warps(server, warps_rows())
            elif sec == "ptx":
                run_ptx(server)
    finally:
        server.stop()
    tail = f", {skipped} skipped" if skipped else ""
    print(f"test_gpu: {passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


def run_server_checks(server, device, by_name):
    st, h, _ = server.get("/api/health")
    m = h.get("measure", {}) if isinstance(h, dict) else {}
    check(st == 200 and m.get("available") is True
          and (m.get("device") or {}).get("name") == device["name"],
          f"/api/health: measure available on {(m.get('device') or {}).get('name')} "
          f"({m.get('reason') or 'no reason'})")

    # A bad body never reaches the tool: a tool run costs > 100 ms of CUDA start.
    st, body, dt = server.post("/api/measure", {"op": "ld", "bytes": 4, "offsets": [1]})
    code = body.get("error", {}).get("code") if isinstance(body, dict) else None
    check(st == 400 and code == "invalid_argument" and dt < 0.1,
          f"bad body: {st} {code} in {dt * 1000:.0f} ms (the tool did not run)")

    times = []
    for name in SUBSET:
        p = by_name[name]
        st, r, dt = server.post("/api/measure", swzgpu.api_body(p))
        times.append(dt)
        if st != 200 or not isinstance(r, dict):
            check(False, f"measure {name}: HTTP {st}: {r}")
            continue
        pred, meas, agree = r["predicted"], r["measured"], r["agree"]
        ncu_used = (r.get("ncu") or {}).get("used")
        ok = agree.get("cycles") is True and (r.get("verify") or {}).get("ok") is True
        note = ""
        if ncu_used:
            # agree.wavefronts compares the Source-page number with the model's
            # `wavefronts`; where the two counters part ways (a paired 128-bit
            # load) the model's two numbers are checked against both.
            wf_ok = agree.get("wavefronts") is True or wavefronts_ok(p, meas, pred)
            ok = ok and wf_ok
            if agree.get("wavefronts") is not True and wf_ok:
                note = " (agree.wavefronts false: Source page vs hardware counter, both match)"
        elif REQUIRE_NCU:
            ok = False
            note = f" (no counters: {(r.get('ncu') or {}).get('reason')})"
        else:
            note = f" (cycles only: {(r.get('ncu') or {}).get('reason')})"
        check(ok, f"measure {name}: cycles {fmt(meas.get('cycles_per_instr'))} vs "
              f"{pred['cycles']}, wavefronts {fmt(meas.get('wavefronts_per_instr'), 2)}/"
              f"{fmt(meas.get('wavefronts_hw_per_instr'), 2)} vs {pred['wavefronts']}"
              f"/{pred['source_wavefronts']}, verify {(r.get('verify') or {}).get('ok')}, "
              f"{dt:.2f} s{note}")
    if times:
        times.sort()
        print(f"info /api/measure round trip over {len(times)} requests: median "
              f"{times[len(times) // 2]:.2f} s, min {times[0]:.2f} s, max {times[-1]:.2f} s",
              flush=True)

    # One measurement at a time: the second gets 409 while the first runs.
    first = {}

    def run_first():
        first["r"] = server.post("/api/measure", swzgpu.api_body(by_name["ld32_linear"]))

    t = threading.Thread(target=run_first)
    t.start()
    time.sleep(0.15)
    st, body, _ = server.post("/api/measure", swzgpu.api_body(by_name["ld32_linear"]))
    still_running = t.is_alive()
    t.join()
    code = body.get("error", {}).get("code") if isinstance(body, dict) else None
    check(st == 409 and code == "busy" and first.get("r", (0,))[0] == 200,
          f"concurrent measure: second {st} {code} (first still running: {still_running}), "
          f"first {first.get('r', (None,))[0]}")
    st, h, dt = server.get("/api/health")
    check(st == 200 and h.get("ok") is True, f"server healthy after the measurements ({dt * 1000:.0f} ms)")


def run_suite(server, patterns):
    save = os.environ.get("SWZ_GPU_SAVE")
    ncu_timeout = float(os.environ.get("SWZ_GPU_NCU_TIMEOUT", "420"))
    rc, j, err, dt = swzgpu.run_tool(patterns, ["--iters", "2048", "--ncu-timeout",
                                                str(ncu_timeout)], timeout=ncu_timeout + 120)
    if save and j is not None:
        with open(save, "w") as f:
            json.dump(j, f, indent=1)
    ok = rc == 0 and j is not None and len(j.get("results", [])) == len(patterns)
    ncu = (j or {}).get("ncu", {})
    check(ok and j["verify"]["ok"],
          f"tool on the suite: exit {rc}, {len((j or {}).get('results', []))} results in "
          f"{dt:.1f} s (ncu {'used' if ncu.get('used') else 'not used'}: "
          f"{ncu.get('profiled')} profiled in {ncu.get('seconds')} s {ncu.get('reason') or ''}), "
          f"verify {(j or {}).get('verify')}" + ("" if ok else f": {err.strip()[-300:]}"))
    if not ok:
        for p in patterns:
            check(False, f"suite {p['name']}: no result")
        return
    for p, m in zip(patterns, j["results"]):
        st, pred, _ = server.post("/api/conflicts", swzgpu.api_body(p))
        if st != 200:
            check(False, f"suite {p['name']}: /api/conflicts {st}: {pred}")
            continue
        cyc = m["cycles_per_instr"]
        cyc_ok = swzgpu.cycles_agree(cyc, pred["cycles"])
        line = (f"suite {p['name']}: cycles {cyc:.3f} vs {pred['cycles']}, wavefronts "
                f"{fmt(m['wavefronts_per_instr'], 2)} (hw {fmt(m['wavefronts_hw_per_instr'], 2)})"
                f" vs {pred['wavefronts']} (source {pred['source_wavefronts']})")
        if m["wavefronts_per_instr"] is None and m["wavefronts_hw_per_instr"] is None:
            if REQUIRE_NCU:
                check(False, line + f": no counters ({ncu.get('reason')})")
            else:
                check(cyc_ok, line + " (cycles only)")
            continue
        check(cyc_ok and m["name"] == p["name"] and wavefronts_ok(p, m, pred), line)


def run_atomic_tool(patterns, what):
    """The tool on atomic patterns (512 iterations, the counter pass too):
    their results, in order, or None (checked: the run and its count)."""
    rc, j, err, dt = swzgpu.run_tool(patterns, ["--iters", "512", "--ncu-timeout", "300"],
                                     timeout=420)
    ok = rc == 0 and j is not None and len(j.get("results", [])) == len(patterns)
    check(ok, f"tool on {len(patterns)} {what}: exit {rc} in {dt:.1f} s"
          + ("" if ok else f": {err.strip()[-300:]}"))
    return j["results"] if ok else None


def atomic_cycles_ok(cyc, pred, slack=0.0):
    """A measured atomic's cycles against the answer's: within 2% where it says
    cycles_exact, not below it by more than 2% where it does not.  `slack`: how
    far the answer's printed figure may lie from the model's own value (0.005
    for two decimals); 0 takes the printed figure as the value."""
    want, lo = pred["cycles"], pred["cycles"] - slack
    if pred["atomic"]["cycles_exact"]:
        return abs(cyc - want) <= 0.02 * lo + slack
    return cyc >= 0.98 * lo


def check_atomic(m, pred, line, also=True):
    """One measured native atomic against the model's answer: cycles within 2%
    (at or above the model's where it marks them inexact), wavefronts exact
    (cycles only where ncu gave none and counters are not required); `also`
    joins the caller's own condition."""
    cyc, wf = m["cycles_per_instr"], m["wavefronts_per_instr"]
    exact = pred["atomic"]["cycles_exact"]
    cyc_ok = atomic_cycles_ok(cyc, pred)
    line += "" if exact else " (cycles marked inexact by the model)"
    if wf is None and not REQUIRE_NCU:
        check(cyc_ok and also, line + " (cycles only)")
    else:
        check(cyc_ok and also and close(wf, pred["wavefronts"]), line)


def run_atomics(server, patterns):
    results = run_atomic_tool(patterns, "atomics")
    for p, m in zip(patterns, results or []):
        st, pred, _ = server.post("/api/conflicts", swzgpu.api_body(p))
        cyc, wf = m["cycles_per_instr"], m["wavefronts_per_instr"]
        if st != 200:
            check(False, f"atomic {p['name']}: /api/conflicts {st}: {pred}")
            continue
        line = (f"atomic {p['name']}: cycles {cyc:.3f} vs {pred['cycles']}, wavefronts "
                f"{fmt(wf, 2)} vs {pred['wavefronts']}")
        if not pred["native"]:
            check(pred["wavefronts"] is None and pred["cycles"] is None and cyc > 0,
                  line + " (not native: measured, not modelled)")
            continue
        check_atomic(m, pred, line)


def run_warps(server, rows):
    """A14 on the GPU: the tool (clock64, --warps W, 2048 iterations, each atomic
    the fastest over 19 starting phases) runs twice, as two processes, and each
    row must agree with /api/conflicts given the same "warps" (as check_atomic:
    within 2% where the answer is exact, not below it by more than 2% where it
    is not, the answer's two decimals read as the interval they round; clock64
    only, the ncu rows are atomic_warps_ncu_h200.json's).  Where the answer is
    exact the two processes must also read the same within 0.2% (at one phase
    the same binary moved by up to 4% between processes, 8% between runs);
    where it is not, the time may depend on state the code does not hold (red
    one wavefront at 5 warps reads 1.7262 in some processes and 1.6266 in the
    others: tests/calib/atomics_warps/bistable_h200.json)."""
    for w in WARPS_AT:
        runs = []
        for k in range(2):
            rc, j, err, dt = swzgpu.run_tool(rows, ["--no-ncu", "--warps", str(w)], timeout=120)
            ok = rc == 0 and j is not None and len(j.get("results", [])) == len(rows)
            check(ok, f"tool --warps {w} on {len(rows)} one-wavefront atomics, process {k + 1}: "
                  f"exit {rc} in {dt:.1f} s" + ("" if ok else f": {err.strip()[-300:]}"))
            runs.append(j["results"] if ok else None)
        if None in runs:
            continue
        for p, a, b in zip(rows, runs[0], runs[1]):
            ca, cb = a["cycles_per_instr"], b["cycles_per_instr"]
            st, pred, _ = server.post("/api/conflicts", dict(swzgpu.api_body(p), warps=w))
            line = (f"atomic {p['name']} at {w} warps: cycles {ca:.4f} and {cb:.4f} "
                    f"(two processes) vs {pred.get('cycles') if st == 200 else st}")
            if st != 200:
                check(False, line)
                continue
            exact = pred["atomic"]["cycles_exact"]
            near = all(atomic_cycles_ok(c, pred, slack=0.005) for c in (ca, cb))   # its %.2f
            same = abs(ca - cb) <= 0.002 * min(ca, cb)
            check(near and (same or not exact),
                  line + ("" if exact else " (cycles marked inexact by the model)"))


def run_forms(server, rows):
    """The tool's atomic kernels by operand and guard (issue 23) on measured
    rows of the forms sweep: wavefronts exact, cycles within 2% of the model
    (at or above it where the model marks them inexact), the calibration's
    numbers beside them; then the same through POST /api/measure."""
    import atomic_sass
    if shutil.which("cuobjdump"):
        text = atomic_sass.dump()
        good, bad = atomic_sass.check_all(
            server, text, lambda ok, line: print(("info " if ok else "info MISMATCH ") + line,
                                                 flush=True))
        check(good > 0 and bad == 0, f"forms: SASS of {good + bad} atomic kernels as the model "
              f"names it on {good} (tests/gpu/atomic_sass.py prints each)")
    else:
        skip("forms: no cuobjdump: the kernels' SASS not read")
    pats = [dict(form_body(r), name=r["name"]) for r in rows]
    results = run_atomic_tool(pats, "atomic forms")
    for r, m in zip(rows, results or []):
        st, pred, _ = server.post("/api/conflicts", form_body(r))
        if st != 200:
            check(False, f"form {r['name']}: /api/conflicts {st}: {pred}")
            continue
        cyc, wf = m["cycles_per_instr"], m["wavefronts_per_instr"]
        echo = m.get("value") == r["request"]["value"] and m.get("guard") == r["request"]["guard"]
        line = (f"form {r['name']} ({pred['atomic'].get('sass')}, value {r['request']['value']},"
                f" guard {r['request']['guard']}): cycles {cyc:.3f} vs model {pred['cycles']}"
                f" (calibration {r['cycles']}), wavefronts {fmt(wf, 2)} vs model "
                f"{pred['wavefronts']} (calibration {r.get('wavefronts')})")
        check_atomic(m, pred, line, echo)
    by_name = {r["name"]: r for r in rows}
    for name in FORM_MEASURE:
        r = by_name[name]
        st, a, dt = server.post("/api/measure", form_body(r))
        ag = a.get("agree", {}) if isinstance(a, dict) else {}
        meas = a.get("measured", {}) if isinstance(a, dict) else {}
        pred = a.get("predicted", {}) if isinstance(a, dict) else {}
        wf_ok = ag.get("wavefronts") is True or (ag.get("wavefronts") is None and not REQUIRE_NCU)
        check(st == 200 and ag.get("cycles") is True and wf_ok
              and meas.get("value") == r["request"]["value"]
              and meas.get("guard") == r["request"]["guard"],
              f"/api/measure {name}: {st}, {(pred.get('atomic') or {}).get('sass')}, cycles "
              f"{meas.get('cycles_per_instr')} vs {pred.get('cycles')}, wavefronts "
              f"{meas.get('wavefronts_per_instr')} vs {pred.get('wavefronts')}, agree {ag}, "
              f"{dt:.2f} s" + ("" if st == 200 else f": {json.dumps(a)[:300]}"))
    idle = dict(form_body(by_name["red_add_u32_i1.w4_hist8_rand"]))
    idle["offsets"] = [None] + idle["offsets"][1:]
    st, a, dt = server.post("/api/measure", idle)
    err_ = a.get("error", {}) if isinstance(a, dict) else {}
    check(st == 400 and err_.get("field") == "guard" and dt < 0.1,
          f"/api/measure guard none with lane 0 idle: {st} on {err_.get('field')} in "
          f"{dt * 1000:.0f} ms (the tool did not run)")


def run_copy(server, rows):
    """The tool re-measures measured cp.async rows: its Source-page wavefronts
    (16 warps x 4 iterations, warm caches) against the calibration probe's
    (1 warp, 1 iteration, caches flushed) and the model's, where it says exact.
    The cache state changes no count (access.c C3, tests/data/cp_states_*.json),
    so the tool's conditions and the calibration's are the same question."""
    pats = [dict({k: r[k] for k in CP_ASYNC_FIELDS}, name=r["name"]) for r in rows]
    rc, j, err, dt = swzgpu.run_tool(pats, ["--iters", "256", "--ncu-timeout", "200"], timeout=300)
    ok = rc == 0 and j is not None and len(j.get("results", [])) == len(pats)
    check(ok, f"tool on {len(pats)} cp.async rows: exit {rc} in {dt:.1f} s"
          + ("" if ok else f": {err.strip()[-300:]}"))
    if ok:
        same = model = 0
        for r, m in zip(rows, j["results"]):
            st, pred, _ = server.post("/api/conflicts", {k: r[k] for k in CP_ASYNC_FIELDS})
            wf = m["wavefronts_per_instr"]
            if wf is None and not REQUIRE_NCU:
                skip(f"cp.async {r['name']}: no counters")
                continue
            same += close(wf, r["wavefronts"])
            model += st == 200 and close(wf, pred["wavefronts"])
            exact = st == 200 and pred.get("wavefronts_exact", True)
            check(close(wf, r["wavefronts"]) and (not exact or close(wf, pred["wavefronts"])),
                  f"cp.async {r['name']}: tool {fmt(wf, 2)} (sm {fmt(m.get('wavefronts_sm_per_instr'), 2)}),"
                  f" calibration {r['wavefronts']}, model {pred.get('wavefronts') if st == 200 else st}"
                  f"{'' if exact else ' (model marked inexact)'}, cycles {m['cycles_per_instr']:.2f}")
        print(f"info cp.async: tool = calibration on {same} of {len(rows)}, = model on {model}",
              flush=True)
    body = {k: rows[0][k] for k in CP_ASYNC_FIELDS}
    st, r, dt = server.post("/api/measure", body)
    meas = r.get("measured", {}) if isinstance(r, dict) else {}
    check(st == 200 and meas.get("op") == "cp.async" and meas.get("cache") == rows[0]["cache"],
          f"/api/measure {rows[0]['name']}: {st}, wavefronts {meas.get('wavefronts_per_instr')} vs "
          f"{(r.get('predicted') or {}).get('wavefronts') if isinstance(r, dict) else r}, agree "
          f"{r.get('agree') if isinstance(r, dict) else None}, {dt:.2f} s")


def run_tma(server, device):
    """POST /api/measure/tma: the copy engine's placement equals /api/layout's."""
    if device.get("cc", "0.0") < "9.0":
        for _ in range(len(TMA_BOXES) + 1):
            skip(f"TMA needs cc 9.0, the device is {device.get('cc')}")
        return
    for mode, eb, shape in TMA_BOXES:
        body = {"layout": f"tma:CU_TENSOR_MAP_SWIZZLE_{TMA_MODES[mode]}",
                "element_bits": 8 * eb, "shape": shape}
        st, r, dt = server.post("/api/measure/tma", body)
        ok = st == 200 and isinstance(r, dict) and r.get("agree") is True
        check(ok, f"tma {TMA_MODES[mode]} {eb} B {shape}: {st} agree "
              f"{r.get('agree') if isinstance(r, dict) else r}, wrong {r.get('wrong') if isinstance(r, dict) else ''}"
              f" of {r.get('chunks') if isinstance(r, dict) else ''}, {dt:.2f} s"
              + ("" if ok else f": {json.dumps(r)[:400]}"))
    body = {"layout": "tma:CU_TENSOR_MAP_SWIZZLE_64B", "element_bits": 16, "shape": [64, 8]}
    st, r, dt = server.post("/api/measure/tma", body)
    m = r.get("measured", {}) if isinstance(r, dict) else {}
    check(st == 200 and m.get("encode", 0) != 0 and r.get("agree") is None,
          f"tma 64B box of 128-byte rows: the driver says {m.get('encode_name')} "
          f"(/api/layout flags box_exceeds_span), agree {r.get('agree') if isinstance(r, dict) else r}")


# Corpus launches measured through the server: a 32-way column read, a loop
# whose if-converted body the Source page counts on idle warps, per-lane
# atomics, predicated short ifs, dynamic shared memory after static arrays,
# merged LDS.128 rows.
PTX_MEASURE = ("transpose_naive", "reduce_interleaved", "hist_lane", "predicated_if",
               "dynamic_after_static", "sgemm_tiled")
PTX_DIR = os.path.join(swzgpu.ROOT, "tests", "data", "ptx")


def ptx_body(k, text_key="ptx", text=None):
    if text is None:
        with open(os.path.join(PTX_DIR, k["ptx"])) as f:
            text = f.read()
    body = {text_key: text, "block": k["block"], "grid": k["grid"], "params": k["params"],
            "dynamic_shared": k["dynamic_shared"]}
    if text_key == "ptx":
        body["kernel"] = k["kernel"]
    return body


def ptx_measured_ok(name, st, r, dt):
    """One /api/ptx/measure answer: every kind and line equal, buffers as touched."""
    if st != 200 or not isinstance(r, dict):
        check(False, f"ptx measure {name}: HTTP {st}: {json.dumps(r)[:400]}")
        return
    c = r["compare"]
    launch = (r.get("measured") or {}).get("launch") or {}
    kinds = " ".join(f"{t['kind']} {t['predicted']['wavefronts']}/{(t['measured'] or {}).get('wavefronts')}"
                     for t in c["totals"])
    ok = c["agree"] is True and c["lines_agree"] == c["lines_total"] > 0 and \
        launch.get("global_bytes") == c["buffer_bytes"]
    bad = [f"{l['file'].split('/')[-1]}:{l['line']} {l['kind']} {l['predicted']} vs {l['measured']}"
           for l in c["lines"] if l["agree"] is not True]
    check(ok, f"ptx measure {name}: agree {c['agree']}, lines {c['lines_agree']}/{c['lines_total']}, "
          f"wavefronts predicted/measured {kinds}, buffers {c['buffer_bytes']} B, {dt:.1f} s"
          + (f"; ncu: {(r['measured'].get('ncu') or {}).get('reason')}; {bad[:3]}" if not ok else ""))


def run_ptx(server):
    """POST /api/ptx/measure: the kernel page's "Measure on GPU" on real launches."""
    with open(os.path.join(PTX_DIR, "corpus.json")) as f:
        corpus = {k["name"]: k for k in json.load(f)}
    save = os.environ.get("SWZ_GPU_PTX_SAVE")
    if save:
        os.makedirs(save, exist_ok=True)
    for name in PTX_MEASURE:
        st, r, dt = server.post("/api/ptx/measure", ptx_body(corpus[name]), timeout=180)
        if save:
            with open(os.path.join(save, name + ".json"), "w") as f:
                json.dump({"status": st, "answer": r}, f)
        ptx_measured_ok(name, st, r, dt)
    # CUDA text: compiled by this machine's nvcc, then measured as its PTX.
    k = corpus["transpose_padded"]
    with open(os.path.join(PTX_DIR, k["ptx"].replace(".ptx", ".cu"))) as f:
        cu = f.read()
    if shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"):
        st, r, dt = server.post("/api/ptx/measure", ptx_body(k, "cuda", cu), timeout=180)
        ptx_measured_ok("transpose_padded from CUDA", st, r, dt)
    else:
        skip("ptx measure from CUDA: no nvcc on this machine")
    # One at a time, as /api/measure: the second is a 409.
    first = {}

    def run_first():
        first["r"] = server.post("/api/ptx/measure", ptx_body(corpus["transpose_xor"]), timeout=180)

    t = threading.Thread(target=run_first)
    t.start()
    time.sleep(0.3)
    st, body, _ = server.post("/api/ptx/measure", ptx_body(corpus["transpose_xor"]))
    t.join()
    code = body.get("error", {}).get("code") if isinstance(body, dict) else None
    check(st == 409 and code == "busy" and first.get("r", (0,))[0] == 200,
          f"concurrent ptx measure: second {st} {code}, first {first.get('r', (None,))[0]}")


if __name__ == "__main__":
    sys.exit(main())
