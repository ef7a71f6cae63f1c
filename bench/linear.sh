#!/bin/bash
# linear.sh - POST /api/linear/optimize against issue 16's target (every case
# of the tests answered within 50 ms): the seed's transpose and Triton's swizzle
# cases (tests/unit/linear_triton.h), each timed by curl (time_total, loopback, a
# fresh connection per request) LINEAR_RUNS times; prints median and max per
# case and the slowest overall.  Also times /api/health as the floor a request
# costs on this machine (same run), so the figure is read against it.
#   bash bench/linear.sh             # LINEAR_RUNS=50 by default
set -eu
cd "$(dirname "$0")/.."
RUNS=${LINEAR_RUNS:-50}
make -s build/swizzlescope >/dev/null
out=$(mktemp)
build/swizzlescope --port 0 --measure-tool none >"$out" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 100); do grep -q serving "$out" && break; sleep 0.05; done
URL=$(grep -o 'http://[^ ]*' "$out" | head -1)
[ -n "$URL" ] || { echo "server did not start" >&2; exit 1; }

A='"A":{"register":[[1,0],[2,0],[4,0],[8,0]],"lane":[[0,1],[0,2],[0,4],[0,8],[0,16]]}'
B='"B":{"register":[[0,2],[0,4],[0,8],[0,16]],"lane":[[1,0],[2,0],[4,0],[8,0],[0,1]]}'
F8A='"A":{"register":[[0,1],[0,2],[0,4],[0,8],[1,0],[2,0]],"lane":[[0,16],[0,32],[0,64],[4,0],[8,0]],"warp":[[16,0],[32,0],[64,0]]}'
F8B='"B":{"register":[[1,0],[2,0],[4,0],[8,0],[0,1],[0,2]],"lane":[[16,0],[32,0],[64,0],[0,4],[0,8]],"warp":[[0,16],[0,32],[0,64]]}'
U4A='"A":{"register":[[0,1],[0,2],[0,4],[0,8],[0,16],[4,0],[8,0]],"lane":[[0,32],[0,64],[0,128],[1,0],[2,0]]}'
U4B='"B":{"register":[[0,1],[0,2],[0,4],[8,0],[0,32],[0,64],[0,128]],"lane":[[0,8],[0,16],[1,0],[2,0],[4,0]]}'
H16A='"A":{"register":[[1,0],[2,0],[4,0],[0,32],[0,64]],"lane":[[8,0],[16,0],[32,0],[64,0],[0,1]],"warp":[[0,2],[0,4],[0,8],[0,16]]}'
H16B='"B":{"register":[[0,1],[0,2],[0,4],[32,0],[64,0]],"lane":[[0,8],[0,16],[0,32],[0,64],[1,0]],"warp":[[2,0],[4,0],[8,0],[16,0]]}'
declare -A BODY=(
    [seed_16x32_f32]="{\"shape\":[16,32],\"bitwidth\":32,$A,$B}"
    [seed_64banks]="{\"shape\":[16,32],\"bitwidth\":32,\"num_banks\":64,$A,$B}"
    [triton_128x128_f8]="{\"shape\":[128,128],\"bitwidth\":8,$F8A,$F8B}"
    [triton_16x256_u4]="{\"shape\":[16,256],\"bitwidth\":4,$U4A,$U4B}"
    [triton_128x128_f16]="{\"shape\":[128,128],\"bitwidth\":16,$H16A,$H16B}"
)
stats() {   # reads seconds, prints "median max" in ms
    sort -n | awk '{a[NR]=$1} END {printf "%.3f %.3f", a[int((NR+1)/2)]*1000, a[NR]*1000}'
}
printf '%-22s %10s %10s\n' route/case median_ms max_ms
worst=0
h=$(for _ in $(seq "$RUNS"); do curl -s -o /dev/null -w '%{time_total}\n' "${URL}api/health"; done | stats)
printf '%-22s %10s %10s\n' "GET /api/health" $h
for name in "${!BODY[@]}"; do
    body=${BODY[$name]}
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
           -d "$body" "${URL}api/linear/optimize")
    [ "$code" = 200 ] || { echo "$name: HTTP $code" >&2; exit 1; }
    s=$(for _ in $(seq "$RUNS"); do
            curl -s -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' \
                 -d "$body" "${URL}api/linear/optimize"
        done | stats)
    printf '%-22s %10s %10s\n' "$name" $s
    mx=${s#* }
    worst=$(awk -v a="$worst" -v b="$mx" 'BEGIN {print (b > a) ? b : a}')
done
echo "slowest optimize answer: $worst ms (target: 50 ms)"
awk -v w="$worst" 'BEGIN {exit !(w < 50)}' && echo "PASS" || { echo "OVER TARGET"; exit 1; }
