#!/bin/bash
# gpu_session.sh - one session on a GPU machine that has neither a package
# registry nor the run-time libraries of the server (libmicrohttpd, libcjson)
# and of the tool (libcjson: it reads its input with the server's JSON
# readers): unpack those from .deb/*.deb (apt-get download libmicrohttpd12
# libcjson1 ... on a Debian machine; only what ldd reports missing is used),
# run both through wrappers that set LD_LIBRARY_PATH (the tool's children, ncu
# and the profiled re-run of the tool, inherit it), smoke-test the tool, run
# tests/gpu/run.sh and bench/measure.sh, and leave the logs in OUTDIR.
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

say "run-time libraries"
SERVER=build/swizzlescope
TOOL=$PWD/$T
D=/tmp/swz-deps
missing() { LD_LIBRARY_PATH="$D/lib" ldd build/swizzlescope "$T" 2>&1 | awk '/not found/ {print $1}' | sort -u; }
# (grep without -q: under pipefail an early exit of grep -q makes ldd die of SIGPIPE
# and the test read "no library missing")
if LD_LIBRARY_PATH= ldd "$SERVER" "$T" | grep 'not found' >/dev/null && [ -d .deb ]; then
    mkdir -p "$D/x" "$D/lib"
    for f in .deb/*.deb; do dpkg-deb -x "$f" "$D/x"; done
    for _ in 1 2 3 4; do
        for so in $(missing); do
            cp -a "$D"/x/usr/lib/x86_64-linux-gnu/"$so"* "$D/lib/" 2>/dev/null ||
                cp -a "$D"/x/lib/x86_64-linux-gnu/"$so"* "$D/lib/" 2>/dev/null
        done
    done
    # wrap <program> <wrapper>: the program with the unpacked libraries
    wrap() {
        printf '#!/bin/sh\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec %s "$@"\n' \
            "$D/lib" "$PWD/$1" > "$2"
        chmod +x "$2"
    }
    if LD_LIBRARY_PATH= ldd "$SERVER" | grep 'not found' >/dev/null; then
        wrap "$SERVER" /tmp/swz-server
        SERVER=/tmp/swz-server
    fi
    if LD_LIBRARY_PATH= ldd "$T" | grep 'not found' >/dev/null; then
        wrap "$T" /tmp/swz-measure
        TOOL=/tmp/swz-measure
    fi
    echo "unpacked: $(ls "$D/lib" | tr '\n' ' ')"
fi
LD_LIBRARY_PATH="$D/lib" ldd build/swizzlescope "$T" | grep -E '^[^[:space:]]|not found|microhttpd|cjson'
echo "still missing: $(missing | tr '\n' ' ')"
# tests/gpu and bench/measure.py run these (SWZ_MEASURE is also what the
# server is given as --measure-tool).
export SWZ_BIN=$SERVER SWZ_MEASURE=$TOOL

say "tool smoke test"
cuobjdump -sass -arch sm_90 "$T" 2>/dev/null | awk '/Function :/ {f=$3} /LDS|STS|LDSM|STSM/ {n[f]++} END {for (k in n) c[n[k]]++; for (k in c) printf "  %d kernels with %d shared-memory instructions\n", c[k], k}'
time "$TOOL" --info; echo "rc=$?"
python3 tests/calib/to_lines.py tests/calib/patterns.json | grep -E '^(ld32_linear|st64_lanes0_15|ldsm_x4_rows128B|stsm_x4_contig) ' > /tmp/smoke.txt
time "$TOOL" < /tmp/smoke.txt; echo "rc=$?"
time "$TOOL" --no-ncu < /tmp/smoke.txt; echo "rc=$?"
python3 -c 'import json; print(json.dumps([p for p in json.load(open("tests/calib/patterns.json")) if p["name"] == "stsm_x4_rows128B_sw128"]))' | "$TOOL" --json --no-ncu; echo " rc=$?"
# A body no GPU runs: exit 2 and the field, before any device work (expect 2).
python3 -c 'import json; print(json.dumps({"op": "ld", "offsets": [None] * 32}))' | "$TOOL" --json; echo " rc=$?"

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
