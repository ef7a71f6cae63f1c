#!/bin/bash
# run.sh: the atomic-forms sweep on this machine's GPU (issue 23 part 1): build,
# SASS of every kernel, clock64 cycles (16 warps, 512 iterations, best of 3) of
# every form x pattern, and ncu counters (2 iterations) on 27 of the patterns (ncu_patterns.txt: every
# shape once; ncu costs ~0.2 s a launch).
# Writes only under O (default $OUT/atomic_forms).  NCU_S bounds the ncu pass.
# MASKS=1: patterns_masks.txt (gen_forms.py --masks: what makes an atom with its
# result used cost 1.21, access.c A12), clock64 only, into $OUT/atomic_masks.
set -u
cd "$(dirname "$0")"
python3 gen_forms.py > /dev/null || exit 1
P=patterns.txt; D=atomic_forms
if [ -n "${MASKS:-}" ]; then P=patterns_masks.txt; D=atomic_masks; fi
O=${O:-${OUT:-.}/$D}; mkdir -p "$O"
nvcc -O3 -std=c++17 -arch=sm_90 -diag-suppress 550 -o "$O/forms_probe" forms_probe.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
cp forms_probe.cu "$O/"   # collect.py reads kernel k<i>'s name from the source that ran
cuobjdump -sass "$O/forms_probe" > "$O/sass.txt" 2>&1
timeout 200 "$O/forms_probe" 512 16 < $P > "$O/clock.csv" 2> "$O/clock.err"; echo "forms clock rc=$? $(wc -l < "$O/clock.csv") rows"
if [ -n "${MASKS:-}" ]; then rm -f "$O/forms_probe"; exit 0; fi
grep -E '^(w4_distinct|w4_same|w4_grp2|w4_grp16|w4_conf2|w4_conf32|w4_conf32_pairs|w4_half_same_half_conf16|w4_hist32_rand|w4_hist8_rand|w4_hist8_rand_bank|w4_lanes0_15|w4_same_lanes0_15|h4_[a-z0-9_]*|f4_c3|f4_s3|w8_distinct|w8_same|w8_conf2|w8_grp2) ' patterns.txt > "$O/ncu_patterns.txt"
Q=${QM:-$O/../qm.txt}
CAND="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum smsp__sass_inst_executed_op_shared_atom.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum smsp__inst_executed_op_shared_atom.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum sm__sass_inst_executed_op_shared_atom.sum smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_red.sum smsp__sass_inst_executed_op_shared_red.sum l1tex__data_bank_conflicts_type_arbitration.sum"
M=""; for m in $CAND; do grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" "$Q" && M="$M${M:+,}$m"; done
echo "forms metrics: $M"
timeout ${NCU_S:-200} ncu --csv --page raw --print-units base --log-file "$O/ncu.csv" --metrics "$M" \
    "$O/forms_probe" 2 16 < "$O/ncu_patterns.txt" > "$O/ncu_prog.txt" 2> "$O/ncu.err"; echo "forms ncu rc=$? $(grep -c '^"[0-9]' "$O/ncu.csv") launches of $(wc -l < "$O/ncu_prog.txt")"
rm -f "$O/forms_probe"
