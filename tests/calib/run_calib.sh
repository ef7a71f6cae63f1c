#!/usr/bin/env bash
# run_calib.sh: measures the calibration suite on this machine's GPU and writes
# calib_<device>.json (ncu wavefronts + clock64 cycles per warp instruction).
# Run from the repository root on a machine with an sm_90 GPU, nvcc and ncu:
#   bash tests/calib/run_calib.sh [OUTDIR]      (default: $OUT, else build/calib)
#   PATTERNS=tests/calib/sweep_shared.json bash tests/calib/run_calib.sh   (another suite)
# It writes only under OUTDIR and build/; it never touches the repository's
# tests/data (copy the json there yourself). Leaves in OUTDIR: run.log,
# calib_<slug>.json and raw.tgz (every CSV, the ncu metric list, SASS, clocks).
set -u -o pipefail

OUTDIR=${1:-${OUT:-build/calib}}
RAW="$OUTDIR/raw"
BIN=${PROBE_BIN:-build/swizzlescope-measure}   # PROBE_BIN: a prebuilt probe (dry runs)
PATTERNS=${PATTERNS:-tests/calib/patterns.json}   # another suite: tests/calib/sweep_shared.json
NCU_ITERS=4
NCU_BUDGET_S=${NCU_BUDGET_S:-330}   # all ncu chunks together
CHUNK=48                            # patterns per ncu process: a crash loses one chunk
mkdir -p "$RAW" build
exec > >(tee -a "$OUTDIR/run.log") 2>&1
say() { echo "== $(date -u +%T) $*"; }

say "build"
if [ -z "${PROBE_BIN:-}" ]; then
    # The tool compiles in the server's schema, JSON readers and process
    # runner, and links libcjson (headers needed here: else pass PROBE_BIN).
    nvcc -O3 -std=c++17 -arch=sm_90 -Iserver -Xptxas -v -o "$BIN" cuda/*.cu cuda/*.c server/model/instr.c server/model/atomic_form.c \
        server/api/api_read.c server/base/error.c server/model/swizzle.c server/base/proc.c -lcjson -lm \
        2> "$RAW/ptxas.txt" \
        || { cat "$RAW/ptxas.txt"; echo "build failed"; exit 1; }
fi
python3 tests/calib/gen_patterns.py --check || exit 1
python3 tests/calib/gen_sweep_shared.py --check || exit 1
python3 tests/calib/to_lines.py "$PATTERNS" > "$RAW/patterns.txt" || exit 1
echo "$(wc -l < "$RAW/patterns.txt") patterns"

say "machine"
nvidia-smi | tee "$RAW/nvidia-smi.txt" | head -15
nvidia-smi -q -d CLOCK > "$RAW/smi_clocks.txt" 2>&1
nvcc --version > "$RAW/versions.txt" 2>&1
ncu --version >> "$RAW/versions.txt" 2>&1
cuobjdump -sass "$BIN" > "$RAW/probe.sass" 2>&1 || true
echo "SASS of the 32-bit load kernel (probe_kernel<2>):"
cuobjdump -sass -fun '_Z12probe_kernelILi2EEv9ProbeArgs' "$BIN" 2>&1 | grep -E '^ +/\*[0-9a-f]{4}\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//' | head -70

echo "shared-memory instructions per kernel (8 per loop iteration expected):"
awk '/Function :/ {f=$3} /LDS|STS|LDSM|STSM/ {for (i=1;i<=NF;i++) if ($i ~ /^(LDS|STS|LDSM|STSM)/) {split($i,a,"."); n[f" "a[1]]++}} END {for (k in n) print "  " k, n[k]}' "$RAW/probe.sass" | sort

say "clock64 timing"
# --csv: the raw probe (no counters, no verify); --iters 512 is the method
# collect.py describes (the tool's own default is 2048).
"$BIN" --csv --baseline --iters 512 < "$RAW/patterns.txt" > "$RAW/clock_run1.csv" || { echo "probe failed"; exit 1; }
"$BIN" --csv --baseline --iters 512 < "$RAW/patterns.txt" > "$RAW/clock_run2.csv" || exit 1
"$BIN" --csv --baseline --iters 512 --warps 32 < "$RAW/patterns.txt" > "$RAW/clock_warps32.csv" || exit 1
"$BIN" --csv --baseline --iters 2048 < "$RAW/patterns.txt" > "$RAW/clock_iters2048.csv" || exit 1
head -4 "$RAW/clock_run1.csv"
nvidia-smi -q -d CLOCK > "$RAW/smi_clocks_after.txt" 2>&1

say "ncu metric names"
CANDIDATES="
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum
smsp__inst_executed_op_shared_ld.sum
smsp__inst_executed_op_shared_st.sum
smsp__inst_executed_op_ldsm.sum
smsp__inst_executed_op_stsm.sum
smsp__sass_inst_executed_op_shared_ld.sum
smsp__sass_inst_executed_op_shared_st.sum
smsp__sass_inst_executed_op_ldsm.sum
smsp__sass_inst_executed_op_stsm.sum
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
smsp__inst_executed.sum
sm__cycles_elapsed.max
"
# The instruction kinds' own metrics (tests/calib/kinds.py: GET /api/ops's
# table) are always candidates, so a new kind's are asked for without an edit.
for m in $(python3 tests/calib/kinds.py metrics); do
    case " $(echo $CANDIDATES) " in *" $m "*) ;; *) CANDIDATES="$CANDIDATES$m
" ;; esac
done
ncu --query-metrics > "$RAW/ncu_query_metrics.txt" 2>&1
ncu --query-metrics --query-metrics-mode all 2>&1 | grep -E "shared|ldsm|stsm" > "$RAW/ncu_query_metrics_shared.txt"
METRICS="" MISSING=""
for m in $CANDIDATES; do
    if grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" "$RAW/ncu_query_metrics.txt"; then
        METRICS="$METRICS${METRICS:+,}$m"
    else
        MISSING="$MISSING${MISSING:+,}$m"
    fi
done
if [ -z "$METRICS" ]; then
    echo "ncu --query-metrics listed none of the candidates; trying the core set"
    METRICS="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
fi
echo "requesting: $METRICS"
echo "missing:    $MISSING"

ncu_run() {  # ncu_run TAG METRICS INPUT TIMEOUT
    timeout "$4" ncu --target-processes all --clock-control none --csv --page raw \
        --print-units base --kernel-name "regex:(probe|atomic)_kernel" --metrics "$2" \
        --log-file "$RAW/ncu_$1.csv" "$BIN" --ncu-iters $NCU_ITERS < "$3" \
        > "$RAW/ncu_$1.stdout" 2> "$RAW/ncu_$1.stderr"
    local rc=$?
    # If ncu ignored --log-file, the CSV is in its stdout.
    if ! grep -q '^"ID"' "$RAW/ncu_$1.csv" 2>/dev/null && grep -q '^"ID"' "$RAW/ncu_$1.stdout"; then
        cp "$RAW/ncu_$1.stdout" "$RAW/ncu_$1.csv"
    fi
    return $rc
}

say "ncu smoke test"
head -3 "$RAW/patterns.txt" > "$RAW/smoke.txt"
if ! ncu_run smoke "$METRICS" "$RAW/smoke.txt" 120; then
    tail -20 "$RAW/ncu_smoke.stderr" "$RAW/ncu_smoke.csv"
    echo "ncu failed with SASS-patched metrics; retrying without smsp__sass_*"
    MISSING="$MISSING,$(echo "$METRICS" | tr ',' '\n' | grep '^smsp__sass_' | paste -sd,)"
    METRICS=$(echo "$METRICS" | tr ',' '\n' | grep -v '^smsp__sass_' | paste -sd,)
    ncu_run smoke "$METRICS" "$RAW/smoke.txt" 120 || { tail -20 "$RAW/ncu_smoke.stderr"; echo "ncu unusable"; }
fi
grep -v '^==' "$RAW/ncu_smoke.csv" | head -5

say "ncu passes"
split -l $CHUNK -d "$RAW/patterns.txt" "$RAW/chunk_"
deadline=$(( $(date +%s) + NCU_BUDGET_S ))
NCU_ARGS=()
for c in "$RAW"/chunk_*; do
    tag=$(basename "$c")
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -lt 15 ]; then echo "ncu budget spent, skipping $tag"; continue; fi
    ncu_run "$tag" "$METRICS" "$c" "$left"; rc=$?
    echo "$tag: rc=$rc, $(grep -c '^ncu-launch' "$RAW/ncu_$tag.stderr") launches, $(( $(date +%s) - deadline + NCU_BUDGET_S ))s so far"
    [ $rc -ne 0 ] && tail -5 "$RAW/ncu_$tag.stderr"
    NCU_ARGS+=(--ncu "$RAW/ncu_$tag.csv:$RAW/ncu_$tag.stderr")
done

say "collect"
python3 - "$RAW/meta.json" "$NCU_ITERS" <<'EOF'
import json, re, subprocess, sys, datetime
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as e:
        return ""
q = sh("nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.sm --format=csv,noheader,nounits").splitlines()
name, driver, cc, smax, scur = ([x.strip() for x in q[0].split(",")] + [""] * 5)[:5] if q else [""] * 5
cuda = re.search(r"CUDA Version:\s*([\d.]+)", sh("nvidia-smi"))
nvcc = re.search(r"release ([\d.]+), (V[\d.]+)", sh("nvcc --version"))
ncu = sh("ncu --version").splitlines()
json.dump({"device": name, "driver": driver, "cc": cc,
           "cuda": {"driver_api": cuda.group(1) if cuda else None,
                    "nvcc": " ".join(nvcc.groups()) if nvcc else None},
           "ncu_version": ncu[-1] if ncu else None,
           "sm_clock_mhz": {"max": smax, "at_query": scur},
           "ncu_iters": int(sys.argv[2]), "ncu_warps": 16,
           "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat()},
          open(sys.argv[1], "w"), indent=1)
EOF
python3 tests/calib/collect.py --patterns "$PATTERNS" \
    --clock "$RAW/clock_run1.csv" --clock "$RAW/clock_run2.csv" \
    --clock-warps32 "$RAW/clock_warps32.csv" --clock-long "$RAW/clock_iters2048.csv" \
    "${NCU_ARGS[@]}" --meta "$RAW/meta.json" \
    --metrics-requested "$METRICS" --metrics-missing "$MISSING" --out-dir "$OUTDIR"
rc=$?
tar czf "$OUTDIR/raw.tgz" -C "$OUTDIR" raw && rm -rf "$RAW"
say "done rc=$rc"
exit $rc
