#!/bin/bash
# run_strided.sh DIR: the issue-41 sweeps on the GPU machine.  DIR holds
# swizzlescope-measure (built where the cjson headers are: make
# build/swizzlescope-measure), strided.json and atom_used.json (gen_strided.py).
# Run from a repository root that has .deb/ (libcjson1, unpacked when ldd
# misses it).  Writes under OUT (8 files): cp_<k>.json (the tool's --json
# answer for each quarter of strided.json: Source-page wavefronts per
# instruction and clock64 cycles, latency-bound for cp.async), atom_w16.json
# (ncu + clock64, 16 warps), atom_w8_w32.txt (clock64 alone at 8 and 32 warps),
# sass.txt.gz (cuobjdump -sass of the copy and atomic kernels), run.log.
set -u
D=${1:?DIR}; O=${OUT:-build/strided-out}; mkdir -p "$O"
T=$D/swizzlescope-measure
. "$(dirname "$0")/gpu_env.sh"
say sass
cuobjdump -sass -arch sm_90 "$T" 2>&1 | awk '/Function :/ {keep = ($3 ~ /copy_kernel|atomic_kernel/)} keep' > /tmp/sass.txt
grep -c "Function" /tmp/sass.txt; gzip -c /tmp/sass.txt > "$O/sass.txt.gz"
say "atomics, 16 warps, ncu + clock64"
timeout 60 "$T" --json --require-ncu --ncu-timeout 55 < "$D/atom_used.json" > "$O/atom_w16.json"; echo "rc=$?"
python3 - "$D/strided.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
q = (len(rows) + 3) // 4
for k in range(4):
    json.dump(rows[k * q:(k + 1) * q], open(f"/tmp/cp_{k}.json", "w"))
PY
for k in 0 1 2 3; do
    say "cp.async quarter $k"
    timeout 90 "$T" --json --require-ncu --ncu-timeout 85 --iters 32 --reps 1 < /tmp/cp_$k.json > "$O/cp_$k.json"; echo "rc=$?"
done
say "atomics, clock64 at 8 and 32 warps"
for w in 8 32; do echo "# warps $w"; timeout 30 "$T" --no-ncu --warps $w < "$D/atom_used.json"; echo "rc=$?"; done > "$O/atom_w8_w32.txt" 2>&1
say done
