#!/bin/bash
# Exploration of shared-memory atomics on this GPU: SASS, clock64 timing, ncu counters.
# PATTERNS (default patterns.txt) picks the sweep, KERNELS (comma-separated kernel
# names, default all) the forms: PATTERNS=patterns_floor.txt KERNELS=atom_exch_b64,... 
set -u
cd "$(dirname "$0")"
O=${OUT:-.}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/device.txt
cuobjdump -sass atom_probe > $O/sass.txt 2>&1
P=${PATTERNS:-patterns.txt}; K=${KERNELS:-}
timeout 150 ./atom_probe 512 16 $K < $P > $O/clock.csv 2> $O/clock.err; echo "clock rc=$?"
ncu --query-metrics > $O/qm.txt 2>&1
CAND="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_red.sum smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_red.sum smsp__inst_executed_op_shared_atom.sum smsp__inst_executed_op_shared_red.sum smsp__sass_inst_executed_op_shared_atom.sum smsp__sass_inst_executed_op_shared_red.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_red.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__inst_executed.sum smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum"
M=""
for m in $CAND; do grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" $O/qm.txt && M="$M${M:+,}$m"; done
echo "metrics: $M"
timeout 280 ncu --csv --page raw --print-units base --log-file $O/ncu.csv --metrics "$M" ./atom_probe 2 16 $K < $P > $O/ncu_prog.txt 2> $O/ncu.err; echo "ncu rc=$?"
wc -l $O/clock.csv $O/ncu.csv
