#!/bin/bash
# run_hw41.sh DIR: issue 41's second GPU session, from the repository root on the GPU
# machine.  DIR holds swizzlescope-measure (built where the cjson headers are),
# hw41_a.txt / hw41_b.txt (gen_hw41.py) and atom_used.json (gen_strided.py).
#  1. cp_probe.cu (1 warp, 1 iteration, 8 copies, cold: run_states.sh's *_hw method)
#     under ncu: the Source-page and sm__sass_* ldgsts wavefronts and the hardware
#     counter l1tex__data_pipe_lsu_wavefronts_mem_shared (whole launch), part a (the
#     rows step 3 of rule L1 decides) then part b (the other strided .ca rows);
#  2. the tool's atomic kernels, clock64 only, at 4..12 and 16 warps (2048
#     iterations) and at 8, 12, 16 warps with 512 (the GPU suite's figure).
# Writes only under OUT; it measures, never models (collect_hw41.py reads it).
set -u
D=${1:?DIR}; O=${OUT:-build/hw41-out}; mkdir -p "$O"
T=$D/swizzlescope-measure
. "$(dirname "$0")/gpu_env.sh"
say build cp_probe
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cp_probe tests/calib/cp_async/cp_probe.cu || exit 1
cuobjdump -sass /tmp/cp_probe | awk '/Function :/ {print; next} /LDGSTS|DEPBAR|BRA|ISETP/ {print}' > "$O/sass_cp_probe.txt"
M=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum
M=$M,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,sm__sass_inst_executed_op_ldgsts.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_type_arbitration.sum
hw() {
    local p=$1 s=$2 t=$SECONDS; mkdir -p "$O/hw_$p"; cp "$D/hw41_$p.txt" "$O/hw_$p/patterns.txt"
    timeout "$s" ncu --csv --page raw --print-units base --cache-control all --log-file "$O/hw_$p/ncu.csv" \
        --metrics "$M" /tmp/cp_probe 1 1 cold 0 < "$D/hw41_$p.txt" > "$O/hw_$p/ncu_prog.txt" 2> "$O/hw_$p/ncu.err"
    echo "hw_$p rc=$? $(grep -c '^"[0-9]' "$O/hw_$p/ncu.csv") launches of $(wc -l < "$D/hw41_$p.txt") in $((SECONDS - t)) s"
}
say "cp.async part a"; hw a ${A_S:-70}
say "atomics: the tool's kernels, clock64"
cuobjdump -sass -arch sm_90 "$T" 2>&1 | awk '/Function :/ {keep = ($3 ~ /atomic_kernel/ && $3 ~ /Lb0ELi0ELi0E/)} keep' > "$O/sass_atomic.txt"
for w in 4 5 6 7 8 9 10 11 12 16; do
    timeout 30 "$T" --json --no-ncu --warps $w < "$D/atom_used.json" > "$O/atom_w${w}_i2048.json"; echo "w$w rc=$?"
done
for w in 8 12 16; do
    timeout 30 "$T" --json --no-ncu --warps $w --iters 512 < "$D/atom_used.json" > "$O/atom_w${w}_i512.json"; echo "w$w i512 rc=$?"
done
say "cp.async part b"; hw b ${B_S:-70}
say done
