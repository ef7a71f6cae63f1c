#!/bin/bash
# run.sh: the cp.async sweep on this machine's GPU (issue 23 part 3): build, SASS,
# clock64 (16 warps, 64 iterations: each waits for its copies, so the cycles are
# latency-bound, kept for the record) and ncu counters (1 iteration, 1 warp) of
# every pattern.  Writes only under O (default $OUT/cp_async).  NCU_S bounds ncu;
# PATTERNS picks the sweep (default patterns.txt; patterns_second.txt: gen_probe.py --second).
set -u
cd "$(dirname "$0")"
O=${O:-${OUT:-.}/cp_async}; mkdir -p "$O"
nvcc -O3 -std=c++17 -arch=sm_90 -o "$O/cp_probe" cp_probe.cu || exit 1
cuobjdump -sass "$O/cp_probe" > "$O/sass.txt" 2>&1
timeout 100 "$O/cp_probe" 64 16 < "${PATTERNS:-patterns.txt}" > "$O/clock.csv" 2> "$O/clock.err"; echo "cp clock rc=$? $(wc -l < "$O/clock.csv") rows"
Q=${QM:-$O/../qm.txt}
CAND="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum smsp__sass_inst_executed_op_ldgsts.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum sm__sass_inst_executed_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum smsp__inst_executed_op_ldgsts.sum l1tex__data_bank_conflicts_type_arbitration.sum l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__m_xbar2l1tex_read_sectors.sum"
M=""; for m in $CAND; do grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" "$Q" && M="$M${M:+,}$m"; done
echo "cp metrics: $M"; echo "$M" > "$O/metrics.txt"   # collect.py: metrics_requested
timeout ${NCU_S:-200} ncu --csv --page raw --print-units base --log-file "$O/ncu.csv" --metrics "$M" \
    "$O/cp_probe" 1 1 < "${PATTERNS:-patterns.txt}" > "$O/ncu_prog.txt" 2> "$O/ncu.err"; echo "cp ncu rc=$? $(grep -c '^"[0-9]' "$O/ncu.csv") launches of $(wc -l < "$O/ncu_prog.txt")"
rm -f "$O/cp_probe"
