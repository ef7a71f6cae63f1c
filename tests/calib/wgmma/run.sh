#!/bin/bash
# run.sh: the wgmma shared-memory read sweep on this machine's GPU (issue 23 part
# 4): build (sm_90a), SASS, clock64 per wgmma (1 warpgroup, 64 dependent
# instructions, each waited for) and ncu's op_gmma counters (4 instructions a
# launch).  Writes only under O (default $OUT/wgmma).  NCU_S bounds ncu.
set -u
cd "$(dirname "$0")"
python3 gen_probe.py > /dev/null || exit 1
O=${O:-${OUT:-.}/wgmma}; mkdir -p "$O"
nvcc -O3 -std=c++17 -diag-suppress 550 -gencode=arch=compute_90a,code=sm_90a -o "$O/wgmma_probe" wgmma_probe.cu 2> "$O/build.err" || { cat "$O/build.err"; exit 1; }
cuobjdump -sass "$O/wgmma_probe" > "$O/sass.txt" 2>&1
timeout 100 "$O/wgmma_probe" 64 < patterns.txt > "$O/clock.csv" 2> "$O/clock.err"; echo "wgmma clock rc=$? $(wc -l < "$O/clock.csv") rows"
Q=${QM:-$O/../qm.txt}
CAND="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum l1tex__data_bank_conflicts_type_arbitration.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__inst_executed_pipe_tensor_op_gmma.sum sm__inst_executed_pipe_tensor_op_gmma.sum smsp__inst_executed.sum sm__cycles_elapsed.max"
M=""; for m in $CAND; do grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" "$Q" && M="$M${M:+,}$m"; done
echo "wgmma metrics: $M"
timeout ${NCU_S:-120} ncu --csv --page raw --print-units base --log-file "$O/ncu.csv" --metrics "$M" \
    "$O/wgmma_probe" 4 < patterns.txt > "$O/ncu_prog.txt" 2> "$O/ncu.err"; echo "wgmma ncu rc=$? $(grep -c '^"[0-9]' "$O/ncu.csv") launches"
rm -f "$O/wgmma_probe"
