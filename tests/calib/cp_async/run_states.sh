#!/bin/bash
# run_states.sh: the cp.async sweep under controlled cache states (issue 23 part 3,
# the states cp_probe.cu's header defines): ncu counters of every pattern with the
# global lines in L2 only (l2) and in L1 (l1), 1 warp and 1 iteration as the cold
# sweep (run.sh); then, on patterns_subset.txt (every third row of both sweeps),
# 16 warps x 4 iterations: cold with a region per (warp, iteration) (cold16),
# l2 with a region per (warp, iteration) (l2_16), l1 on one region (l1_16), and
# the old tool's conditions (tool16: 16 warps x 4 iterations on one region after
# an L2 prefetch: the first copy of a line misses L1, the rest may hit).
# Writes only under O (default $OUT/cp_states).  STATES picks the states.
set -u
cd "$(dirname "$0")"
O=${O:-${OUT:-.}/cp_states}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$O/device.txt"
nvcc --version | tail -2 | head -1; ncu --version | tail -1
nvcc -O3 -std=c++17 -arch=sm_90 -o "$O/cp_probe" cp_probe.cu || exit 1
cuobjdump -sass "$O/cp_probe" > "$O/sass_full.txt" 2>&1
# the excerpt kept with the data: each kernel's memory instructions
awk '/Function :/ {print; next} /LDG|LDGSTS|STS|BAR|DEPBAR|ISETP|BRA/ {print}' "$O/sass_full.txt" > "$O/sass.txt"
ncu --query-metrics > "$O/qm.txt" 2>&1
grep -E "ldgsts|lookup_(hit|miss)" "$O/qm.txt" | awk '{print $1}' > "$O/qm_names.txt"
W="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum smsp__sass_inst_executed_op_ldgsts.sum sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum sm__sass_inst_executed_op_ldgsts.sum"
H="l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass_lookup_miss.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_lookup_miss.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum l1tex__m_xbar2l1tex_read_sectors.sum l1tex__data_bank_conflicts_type_arbitration.sum"
pick() { local M=""; for m in "$@"; do grep -qE "^[[:space:]]*${m%.*}([[:space:]]|$)" "$O/qm.txt" && M="$M${M:+,}$m"; done; echo "$M"; }
MW=$(pick $W); MH=$(pick $W $H)
echo "metrics: $MH"; echo "$MH" > "$O/metrics.txt"
# state name, patterns, iters, warps, probe state, distinct, metrics, seconds
run() {
    local n=$1 p=$2 it=$3 wa=$4 st=$5 di=$6 m=$7 s=$8 t=$SECONDS
    mkdir -p "$O/$n"; echo "$it $wa $st $di" > "$O/$n/args.txt"
    timeout "$s" ncu --csv --page raw --print-units base --cache-control all --log-file "$O/$n/ncu.csv" \
        --metrics "$m" "$O/cp_probe" "$it" "$wa" "$st" "$di" < "$p" > "$O/$n/ncu_prog.txt" 2> "$O/$n/ncu.err"
    echo "$n rc=$? $(grep -c '^"[0-9]' "$O/$n/ncu.csv") launches of $(wc -l < "$p") in $((SECONDS - t)) s"
}
ALL=$O/all.txt; cat patterns.txt patterns_second.txt > "$ALL"
for s in ${STATES:-l2 l1 cold16 l2_16 l1_16 tool16}; do
    case $s in
    l2) run l2 "$ALL" 1 1 l2 0 "$MH" ${L2_S:-120};;
    l1) run l1 "$ALL" 1 1 l1 0 "$MH" ${L1_S:-110};;
    cold16) run cold16 patterns_subset.txt 4 16 cold 1 "$MH" ${SUB_S:-40};;
    l2_16) run l2_16 patterns_subset.txt 4 16 l2 1 "$MH" ${SUB_S:-40};;
    l1_16) run l1_16 patterns_subset.txt 4 16 l1 0 "$MH" ${SUB_S:-40};;
    tool16) run tool16 patterns_subset.txt 4 16 l2 0 "$MW" ${SUB_S:-40};;
    # with the hardware counter l1tex__data_pipe_lsu_wavefronts_mem_shared (H):
    # .ca copies' shared writes count there, .cg's do not (tool_check.sh)
    cold_hw) run cold_hw patterns_subset.txt 1 1 cold 0 "$MH" ${SUB_S:-40};;
    l2_hw) run l2_hw patterns_subset.txt 1 1 l2 0 "$MH" ${SUB_S:-40};;
    l1_hw) run l1_hw patterns_subset.txt 1 1 l1 0 "$MH" ${SUB_S:-40};;
    esac
done
rm -f "$O/cp_probe" "$ALL"; gzip -f "$O/qm.txt" "$O/sass_full.txt"
