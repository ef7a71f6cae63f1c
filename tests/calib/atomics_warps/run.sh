#!/bin/bash
# run.sh DIR: issue 41's third GPU session (rule A15), from the repository root on the
# GPU machine.  DIR holds swizzlescope-measure, atom_used.json (the 54 atomic rows of
# tests/data/atomic_warps_h200.json) and warp_probe.cu.  It measures, never models:
#  1. the SASS of the tool's atomic kernels (guard none, the lane's value) and of
#     warp_probe, whole functions (cuobjdump -sass);
#  2. the tool's kernels, clock64 only, at every warp count 1..32 (2048 iterations);
#  3. warp_probe's per-warp spans, atom and red at 1, 2 and 32 wavefronts;
#  4. the tool's own ncu pass with --warps 4, 8 and 11 (never run on a GPU before).
# Everything lands in $OUT/a41c.tgz (collect.py reads it).
set -u
D=${1:?DIR}; O=/tmp/a41c; mkdir -p "$O"
T=$D/swizzlescope-measure
. tests/calib/cp_async/gpu_env.sh
say sass
cuobjdump -sass -arch sm_90 "$T" | awk '/Function :/ {keep = ($3 ~ /atomic_kernel/ && $3 ~ /Lb0ELi0ELi0E/)} keep' > "$O/sass_atomic.txt"
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/warp_probe "$D/warp_probe.cu" || exit 1
cuobjdump -sass /tmp/warp_probe > "$O/sass_warp_probe.txt"
say "tool clock64 1..32 warps"
for w in $(seq 1 32); do
    timeout 30 "$T" --json --no-ncu --warps $w < "$D/atom_used.json" > "$O/atom_w${w}_i2048.json"; echo "w$w rc=$?"
done
say "warp_probe"
for op in atom red; do for g in 1 2 32; do for w in 1 2 3 4 5 6 7 8 9 10 11 12 16 20 24 32; do
    /tmp/warp_probe $op $g $w 2048
done; done; done > "$O/warp_probe.txt"
say "tool ncu pass with --warps"
for w in 4 8 11; do
    timeout 150 "$T" --json --warps $w < "$D/atom_used.json" > "$O/atom_ncu_w${w}.json" 2> "$O/atom_ncu_w${w}.err"; echo "ncu w$w rc=$?"
done
say done
cp "$O/run.log" "$O/device.txt" "$OUT/" 2>/dev/null
tar czf "$OUT/a41c.tgz" -C "$O" .
