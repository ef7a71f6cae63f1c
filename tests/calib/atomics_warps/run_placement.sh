#!/bin/bash
# run_placement.sh DIR [COPIES [STAGGERS_CSV]]: issue 41, does the atomic loop's code address or the launch move
# the tool's reading?  From the repository root on the GPU machine; DIR holds
# placement_probe (built with nvcc -O3 -std=c++17 -arch=sm_90 from placement_probe.cu),
# swizzlescope-measure (the tool of sass_sm90.txt) and deg1.json (the tool's 9 one-wavefront
# rows of atom_used.json).  It measures, never models, and changes no GPU setting:
#  1. the machine (name, driver, clocks, CUDA) and the probe's whole SASS (cuobjdump);
#  2. placement_probe in 3 processes, warps 4..12, atom and red, 16 pads (COPIES copies of
#     each, default 1), 30 launches after a warm-up, every launch's reading; with
#     STAGGERS_CSV, 2 processes of 6 launches after a warm-up at each stagger (the warps'
#     starts w*STAGGER cycles apart);
#  3. the tool on deg1.json at the same warp counts, 3 processes (fastest of 5 each), and
#     the .text section tables (cuobjdump -elf) of the probe and the tool.
# Everything lands in $OUT: device.txt, placement_raw.txt, sass_placement.txt, and
# placement.tgz (tool_w*_p*.json, elf_*.txt): the device returns at most 8 files.
set -u
D=${1:?DIR}; C=${2:-1}; S=${3:-}
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
  nvidia-smi | grep -o 'CUDA Version: [0-9.]*'; nvcc --version 2>/dev/null | tail -2 | head -1
  echo "command: bash tests/calib/atomics_warps/run_placement.sh $D $C $S"; } > "$OUT/device.txt" 2>&1
cuobjdump -sass "$D/placement_probe" > "$OUT/sass_placement.txt" 2>&1
W=4,5,6,7,8,9,10,11,12
if [ -n "$S" ]; then
    for p in 1 2; do
        timeout 200 "$D/placement_probe" $p $W 6 $C "$S" >> "$OUT/placement_raw.txt" || echo "probe proc $p rc=$?" >> "$OUT/device.txt"
    done
else
    for p in 1 2 3; do
        timeout 200 "$D/placement_probe" $p $W 30 $C >> "$OUT/placement_raw.txt" || echo "probe proc $p rc=$?" >> "$OUT/device.txt"
    done
fi
T=/tmp/h41e-out; mkdir -p "$T"
cuobjdump -elf "$D/placement_probe" > "$T/elf_probe.txt" 2>&1
cuobjdump -elf "$D/swizzlescope-measure" > "$T/elf_tool.txt" 2>&1
L=/tmp/swz-deps-h41e; mkdir -p "$L"
for f in .deb/*.deb; do dpkg-deb -x "$f" "$L"; done
export LD_LIBRARY_PATH=$L/usr/lib/x86_64-linux-gnu:$L/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for p in 1 2 3; do for w in 4 5 6 7 8 9 10 11 12; do
    timeout 30 "$D/swizzlescope-measure" --json --no-ncu --warps $w < "$D/deg1.json" > "$T/tool_w${w}_p${p}.json" 2>>"$T/tool.err" || echo "tool w$w p$p rc=$?" >> "$OUT/device.txt"
done; done
{ date -u +%FT%TZ; nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader; } >> "$OUT/device.txt"
tar czf "$OUT/placement.tgz" -C "$T" .
