#!/bin/bash
# run_stagger.sh DIR [ncu]: issue 41's re-measurement after the tool times every atomic at 19
# starting phases and keeps the fastest (cuda/probe.cu, STAGGERS), from the repository
# root on the GPU machine.  DIR holds swizzlescope-measure (that build) and atom_used.json
# (the 54 rows of tests/data/atomic_warps_h200.json).  It measures, never models:
#  1. the SASS of the tool's atomic kernels (guard none, the lane's value), whole functions;
#  2. the 54 rows at every warp count 1..32 (2048 iterations), and at 8, 12, 16 warps with
#     512 (the GPU suite's figure);
#  3. two more processes at 3..13 warps (whether the reading repeats);
# or, with "ncu", only the tool's own ncu pass with --warps 4, 8 and 11 (its cycles from
# the clock64 launches, its wavefronts from the profiled one).
# Everything lands in $OUT/a41s.tgz (collect_stagger.py reads it).
set -u
D=${1:?DIR}; O=/tmp/a41s; mkdir -p "$O"
T=$D/swizzlescope-measure
. tests/calib/cp_async/gpu_env.sh
if [ "${2:-}" = ncu ]; then
    for w in 4 8 11; do
        timeout 200 "$T" --json --warps $w < "$D/atom_used.json" > "$O/atom_ncu_w${w}.json" 2> "$O/atom_ncu_w${w}.err"; echo "ncu w$w rc=$?"
    done
else
    say sass
    cuobjdump -sass -arch sm_90 "$T" | awk '/Function :/ {keep = ($3 ~ /atomic_kernel/ && $3 ~ /Lb0ELi0ELi0E/)} keep' > "$O/sass_atomic.txt"
    say "tool 1..32 warps"
    for w in $(seq 1 32); do
        timeout 60 "$T" --json --no-ncu --warps $w < "$D/atom_used.json" > "$O/atom_w${w}_i2048.json"; echo "w$w rc=$?"
    done
    for w in 8 12 16; do
        timeout 60 "$T" --json --no-ncu --warps $w --iters 512 < "$D/atom_used.json" > "$O/atom_w${w}_i512.json"; echo "w$w i512 rc=$?"
    done
    say repeat
    for rep in 2 3; do for w in $(seq 3 13); do
        timeout 60 "$T" --json --no-ncu --warps $w < "$D/atom_used.json" > "$O/rep${rep}_w${w}.json"; echo "rep$rep w$w rc=$?"
    done; done
fi
say done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader >> "$O/device.txt"
cp "$O/run.log" "$O/device.txt" "$OUT/" 2>/dev/null
tar czf "$OUT/a41s.tgz" -C "$O" .
