#!/bin/bash
# tool_check.sh: why swizzlescope-measure's counter pass reads 0 wavefronts for
# .cg copies (GPU suite, 2026-11-24) where cp_probe.cu reads C2's counts: the
# tool's own ncu child (--ncu-iters N --warps W, the line format) on
# tool_check_lines.txt under ncu with the tool's --cache-control none and with
# all, at 16 warps x 4 iterations and 1 x 1; and cp_probe's tool16 conditions
# without the flush.  Run from the repository root with build/ carried; writes
# only under O (default $OUT/tool_check).
set -u
O=${O:-${OUT:-.}/tool_check}; mkdir -p "$O"
D=/tmp/swz-deps-check; mkdir -p "$D"; for f in .deb/*.deb; do dpkg-deb -x "$f" "$D"; done
export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu:$D/lib/x86_64-linux-gnu
T=build/swizzlescope-measure; L=tests/calib/cp_async/tool_check_lines.txt
M=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum
for v in "none 4 16" "all 4 16" "none 1 1" "all 1 1"; do
    set -- $v
    ncu --csv --page raw --print-units base --cache-control $1 --clock-control none \
        --kernel-name 'regex:copy_kernel' --metrics $M --log-file "$O/tool_$1_$2_$3.csv" \
        "$T" --ncu-iters $2 --warps $3 --quiet < "$L" > "$O/tool_$1_$2_$3.out" 2>&1
    echo "tool cache=$1 iters=$2 warps=$3 rc=$?"
done
# cp_probe on the same rows (its own line format), no flush: the old tool's warm L2
python3 - "$L" > "$O/probe_lines.txt" <<'PY'
import sys
for l in open(sys.argv[1]):
    f = l.split(); s = [x if x != '-' else '-1' for x in f[5:37]]
    print(f[0], f[2], f[37], *s, *f[38:70])
PY
nvcc -O3 -std=c++17 -arch=sm_90 -o "$O/cp_probe" tests/calib/cp_async/cp_probe.cu
for cc in none all; do
    ncu --csv --page raw --print-units base --cache-control $cc --metrics $M --log-file "$O/probe_$cc.csv" \
        "$O/cp_probe" 4 16 cold 0 < "$O/probe_lines.txt" > "$O/probe_$cc.out" 2>&1; echo "probe cache=$cc rc=$?"
done
rm -f "$O/cp_probe"
for f in "$O"/*.csv; do echo "== $f"; grep -E '^"[0-9]' "$f" | awk -F'","' '{print $5, $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}' | cut -c1-200; done
