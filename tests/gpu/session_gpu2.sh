#!/bin/bash
# session_gpu2.sh - one GPU session for issue 23's tool modes (cp.async and
# --tma): build, the new kernels' SASS, then the GPU suite with the new
# sections first (bench/gpu_session.sh unpacks the run-time libraries and
# runs tests/gpu/run.sh); logs in OUTDIR.  Run from the repository root:
#   bash tests/gpu/session_gpu2.sh OUTDIR      (TEST_S bounds the suite, 300)
# The GPU machines have nvcc but no libcjson-dev / libmicrohttpd-dev headers
# (apt cannot reach a registry there): build both binaries where the headers
# are (make all), carry build/ along, and this script uses them as they are.
set -u
O=${1:-${OUT:-build/gpu2-session}}; mkdir -p "$O"
date -u +%T
if [ -x build/swizzlescope ] && [ -x build/swizzlescope-measure ]; then
    echo "using the prebuilt build/swizzlescope and build/swizzlescope-measure"
else
    make -j16 all > "$O/build.log" 2>&1; echo "build rc=$?"; tail -3 "$O/build.log"
fi
cuobjdump -sass -arch sm_90 build/swizzlescope-measure 2>&1 |
    awk '/Function :/ {keep = ($3 ~ /copy_kernel|tma_kernel/)} keep' > "$O/sass_new_kernels.txt"
grep -E "Function|LDGSTS|UTMALDG|UBLKCP|SYNCS|DEPBAR|LDGDEPBAR" "$O/sass_new_kernels.txt" | sort | uniq -c | sort -rn | head -30
date -u +%T
SWZ_GPU_SECTIONS=${SWZ_GPU_SECTIONS:-copy,tma,server,suite,atomics,forms,warps} TEST_S=${TEST_S:-300} BENCH_S=1 \
    bash bench/gpu_session.sh "$O/session" > "$O/session.out" 2>&1
echo "session rc=$?"
grep -E "^(FAIL|info|test_gpu|skip)" "$O/session/test_gpu.log" | head -80
grep -cE "^ok" "$O/session/test_gpu.log"
date -u +%T
