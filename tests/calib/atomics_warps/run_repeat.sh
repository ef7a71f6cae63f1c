#!/bin/bash
# run_repeat.sh DIR: issue 41, how far apart the same binary reads between processes: the
# tool's 54 atomic rows (atom_used.json) at 3..13 warps, five processes each (each the
# fastest of 5 launches), and warp_probe at 32 wavefronts (its offsets fixed).  From the
# repository root on the GPU machine; DIR as run.sh's.  It measures, never models.
set -u
D=${1:?DIR}; O=/tmp/a41r; mkdir -p "$O"
T=$D/swizzlescope-measure
. tests/calib/cp_async/gpu_env.sh
say repeat
for rep in 1 2 3 4 5; do for w in $(seq 3 13); do
    timeout 30 "$T" --json --no-ncu --warps $w < "$D/atom_used.json" > "$O/rep${rep}_w${w}.json" || echo "rep$rep w$w rc=$?"
done; done
say warp_probe
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/warp_probe "$D/warp_probe.cu" || exit 1
for op in atom red; do for w in 1 2 3 4 5 6 8; do /tmp/warp_probe $op 32 $w 2048; done; done > "$O/warp_probe32.txt"
say done
cp "$O/run.log" "$O/device.txt" "$OUT/" 2>/dev/null
tar czf "$OUT/a41r.tgz" -C "$O" .
