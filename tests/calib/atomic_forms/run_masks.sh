#!/bin/bash
# run_masks.sh: clock64 of the guarded atomic forms (cu_add_1_if, cu_add_lane_if,
# cu_add_1_used_if, the *_p forms) on patterns_masks.txt (gen_forms.py --masks):
# which lanes-off shapes make an atom with its result used cost 1.21 cycles
# (issue 23 part 1, A10).  16 warps, 512 iterations, best of 3, as run.sh; SASS of
# the _if kernels.  Writes only under O (default $OUT/atomic_masks).
set -u
cd "$(dirname "$0")"
python3 gen_forms.py > /dev/null || exit 1
O=${O:-${OUT:-.}/atomic_masks}; mkdir -p "$O"
nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 550 -o "$O/forms_probe" forms_probe.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
cp forms_probe.cu "$O/"
cuobjdump -sass "$O/forms_probe" > "$O/sass.txt" 2>&1
timeout ${CLOCK_S:-120} "$O/forms_probe" 512 16 < patterns_masks.txt > "$O/clock.csv" 2> "$O/clock.err"; echo "masks clock rc=$? $(wc -l < "$O/clock.csv") rows"
rm -f "$O/forms_probe"; gzip -f "$O/sass.txt"
