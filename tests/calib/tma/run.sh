#!/bin/bash
# run.sh: the TMA placement sweep on this machine's GPU (issue 23 part 2): build,
# SASS, then configs.txt through tma_probe; a configuration that kills its
# process is recorded ("launch=...") and the rest resume in a fresh process.
# Writes only under O (default $OUT/tma).
set -u
cd "$(dirname "$0")"
O=${O:-${OUT:-.}/tma}; mkdir -p "$O"
nvcc -O3 -std=c++17 -arch=sm_90 -o "$O/tma_probe" tma_probe.cu -lcuda || exit 1
cuobjdump -sass "$O/tma_probe" > "$O/sass.txt" 2>&1
cp configs.txt "$O/left.txt"; : > "$O/placement.txt"
while [ -s "$O/left.txt" ]; do
    timeout 120 "$O/tma_probe" < "$O/left.txt" > "$O/part.txt" 2>> "$O/tma.err"; rc=$?
    cat "$O/part.txt" >> "$O/placement.txt"
    done_n=$(wc -l < "$O/part.txt")
    [ $rc -eq 0 ] && break
    echo "tma rc=$rc after $done_n lines"
    [ "$done_n" -eq 0 ] && { head -1 "$O/left.txt" | sed 's/$/ : crashed/' >> "$O/placement.txt"; done_n=1; }
    tail -n +$((done_n + 1)) "$O/left.txt" > "$O/l2.txt"; mv "$O/l2.txt" "$O/left.txt"
done
echo "tma: $(wc -l < "$O/placement.txt") of $(wc -l < configs.txt) configurations"
rm -f "$O/tma_probe" "$O/part.txt" "$O/left.txt"
