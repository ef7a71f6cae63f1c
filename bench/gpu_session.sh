#!/bin/bash
# gpu_session.sh - one session on a GPU machine that has neither a package
# registry nor the server's run-time libraries: unpack those from .deb/*.deb
# (apt-get download libmicrohttpd12 libcjson1 ... on a Debian machine; only
# what ldd reports missing is used), smoke-test build/swizzlescope-measure,
# run tests/gpu/run.sh and bench/measure.sh, and leave the logs in OUTDIR.
#   bash bench/gpu_session.sh [OUTDIR]     (default: $OUT, else build/gpu-session)
# Needs build/swizzlescope and build/swizzlescope-measure built beforehand.
# Env: TEST_S (380) and BENCH_S (150) bound the two steps; SWZ_GPU_NCU_TIMEOUT
# (200) bounds the suite's counter pass.
set -u -o pipefail
OUTDIR=${1:-${OUT:-build/gpu-session}}
mkdir -p "$OUTDIR"
exec > >(tee -a "$OUTDIR/session.log") 2>&1
say() { echo "== $(date -u +%T) $*"; }
T=build/swizzlescope-measure

say machine
nvidia-smi -L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "ncu: $(command -v ncu || echo 'not in PATH')"; ncu --version 2>&1 | tail -1
nvcc --version 2>&1 | tail -2 | head -1

say "server libraries"
SERVER=build/swizzlescope
D=/tmp/swz-deps
if LD_LIBRARY_PATH= ldd "$SERVER" | grep -q 'not found' && [ -d .deb ]; then
    mkdir -p "$D/x" "$D/lib"
    for f in .deb/*.deb; do dpkg-deb -x "$f" "$D/x"; done
    for _ in 1 2 3 4; do
        for so in $(LD_LIBRARY_PATH="$D/lib" ldd "$SERVER" | awk '/not found/ {print $1}'); do
            cp -a "$D"/x/usr/lib/x86_64-linux-gnu/"$so"* "$D/lib/" 2>/dev/null ||
                cp -a "$D"/x/lib/x86_64-linux-gnu/"$so"* "$D/lib/" 2>/dev/null
        done
    done
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec %s "$@"\n' \
        "$D/lib" "$PWD/$SERVER" > /tmp/swz-server
    chmod +x /tmp/swz-server
    SERVER=/tmp/swz-server
    echo "unpacked: $(ls "$D/lib" | tr '\n' ' ')"
fi
LD_LIBRARY_PATH="$D/lib" ldd build/swizzlescope | grep -E 'not found|microhttpd|cjson'
export SWZ_BIN=$SERVER

say "tool smoke test"
cuobjdump -sass -arch sm_90 "$T" 2>/dev/null | awk '/Function :/ {f=$3} /LDS|STS|LDSM|STSM/ {n[f]++} END {for (k in n) c[n[k]]++; for (k in c) printf "  %d kernels with %d shared-memory instructions\n", c[k], k}'
time "$T" --info; echo "rc=$?"
python3 tests/calib/to_lines.py tests/calib/patterns.json | grep -E '^(ld32_linear|st64_lanes0_15|ldsm_x4_rows128B|stsm_x4_contig) ' > /tmp/smoke.txt
time "$T" < /tmp/smoke.txt; echo "rc=$?"
time "$T" --no-ncu < /tmp/smoke.txt; echo "rc=$?"
python3 -c 'import json; print(json.dumps([p for p in json.load(open("tests/calib/patterns.json")) if p["name"] == "stsm_x4_rows128B_sw128"]))' | "$T" --json --no-ncu; echo " rc=$?"

say "tests/gpu/run.sh"
SWZ_GPU_REQUIRE_NCU=1 SWZ_GPU_SAVE="$OUTDIR/suite.json" SWZ_GPU_LOG="$OUTDIR/server.log" \
    SWZ_GPU_NCU_TIMEOUT=${SWZ_GPU_NCU_TIMEOUT:-200} \
    timeout "${TEST_S:-380}" sh tests/gpu/run.sh > "$OUTDIR/test_gpu.log" 2>&1
echo "test rc=$?"
grep -v '^ok ' "$OUTDIR/test_gpu.log" | tail -40

say "bench/measure.sh"
if [ -s "$OUTDIR/suite.json" ]; then FROM=(--from "$OUTDIR/suite.json"); else FROM=(); fi
timeout "${BENCH_S:-150}" sh bench/measure.sh "${FROM[@]}" > "$OUTDIR/bench.log" 2>&1
echo "bench rc=$?"
grep -v '^| ' "$OUTDIR/bench.log" | tail -25
say done
