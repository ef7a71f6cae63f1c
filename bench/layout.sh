#!/bin/bash
# layout.sh - issue 15's speed target: evaluating and serving a 2^20-element
# layout (POST /api/layout) costs no more than twice what GET /api/swizzle
# costs for a map of the same size (2^20 cells; answers that large bypass the
# cache, cache.h), both timed in this one run by curl (time_total, loopback, a
# fresh connection per request) LAYOUT_RUNS times, interleaved so that a busy
# machine slows both alike; prints median and max and the ratio of medians.
#   bash bench/layout.sh             # LAYOUT_RUNS=15 by default
set -eu
cd "$(dirname "$0")/.."
RUNS=${LAYOUT_RUNS:-15}
make -s build/swizzlescope >/dev/null
. bench/serve.sh        # serve(): the server on a free port, URL set
bench_needs
out=$(mktemp)
trap 'kill $PIDS 2>/dev/null; rm -f "$out" "$out".*' EXIT
serve static

SWZ="${URL}api/swizzle?b=3&m=4&s=3&rows=131072"           # 2^17 rows x 8 units
declare -A BODY=(
    [cute_k_sw128_1024x1024]='{"layout":"Sw<3,4,3> o smem_ptr[16b](unset) o (_1024,_1024):(_1024,_1)"}'
    [triton_nvmma_1024x1024]='{"layout":"#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>","shape":[1024,1024]}'
    [tma_128b_64x16384]='{"layout":"tma:CU_TENSOR_MAP_SWIZZLE_128B","shape":[64,16384]}'
)
stats() {   # reads seconds, prints "median max" in ms
    sort -n | awk '{a[NR]=$1} END {printf "%.1f %.1f", a[int((NR+1)/2)]*1000, a[NR]*1000}'
}
bytes=$(curl -s -o /dev/null -w '%{size_download}' "$SWZ")
echo "GET /api/swizzle 2^20 cells: $bytes bytes"
printf '%-28s %10s %10s %10s %8s\n' case bytes median_ms max_ms ratio
worst=0
for name in "${!BODY[@]}"; do
    body=${BODY[$name]}
    lb=$(curl -s -o /dev/null -w '%{size_download}' -H 'Content-Type: application/json' \
         -d "$body" "${URL}api/layout")
    : >"$out.s"; : >"$out.l"
    for _ in $(seq "$RUNS"); do
        curl -s -o /dev/null -w '%{time_total}\n' "$SWZ" >>"$out.s"
        curl -s -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' \
             -d "$body" "${URL}api/layout" >>"$out.l"
    done
    s=$(stats <"$out.s"); l=$(stats <"$out.l")
    ratio=$(awk -v a="${l% *}" -v b="${s% *}" 'BEGIN {printf "%.2f", a / b}')
    printf '%-28s %10s %10s %10s\n' "  /api/swizzle (same run)" "$bytes" $s
    printf '%-28s %10s %10s %10s %8s\n' "$name" "$lb" $l "$ratio"
    worst=$(awk -v a="$worst" -v b="$ratio" 'BEGIN {print (b > a) ? b : a}')
done
echo "worst ratio /api/layout : /api/swizzle = $worst (target: at most 2)"
awk -v w="$worst" 'BEGIN {exit !(w <= 2)}' && echo "PASS" || { echo "OVER TARGET"; exit 1; }
