#!/usr/bin/env bash
# load.sh - load test: build, start build/swizzlescope on a free loopback port,
# drive wrk at it route by route, then nginx serving the /api/swizzle answer from
# a file, and print requests/s, latency, errors, non-2xx, the server's RSS over
# time and the ratio api_rps / nginx_rps (DESIGN.md sec. 5 holds it to 1).
#
# Only loopback addresses; nothing is installed as a service.  Bounded in time
# (each wrk run is killed at LOAD_SECONDS + 30 s) and stops everything it
# started on any exit.  Needs wrk and nginx (apt-get install wrk nginx-light).
#
# Environment: LOAD_SECONDS (60) per route, LOAD_CONNECTIONS (256),
# LOAD_THREADS (wrk threads; the number of CPUs), LOAD_WARMUP (5 s).
LOADLIB_NAME=load
. "$(dirname "$0")/loadlib.sh"
set -euo pipefail

LOAD_SECONDS=${LOAD_SECONDS:-60}
LOAD_CONNECTIONS=${LOAD_CONNECTIONS:-256}
LOAD_THREADS=${LOAD_THREADS:-$(nproc)}
LOAD_WARMUP=${LOAD_WARMUP:-5}
SWIZZLE_PATH='/api/swizzle?b=3&m=4&s=3&rows=64'

cd "$(dirname "$0")/.."
loadlib_need_tools
make -s all >/dev/null


# ---- the server -------------------------------------------------------------------

server_start build/swizzlescope
base="http://127.0.0.1:$port"

static_path=/index.html
[ -f static/index.html ] || static_path=/js/kit/api.js

# The conflicts body: 32 lanes, 4-byte loads striding 128 B (an 32-way conflict).
offsets=$(seq 0 31 | awk '{printf "%s%d", (NR > 1 ? "," : ""), $1 * 128}')
printf '{"op":"ld","bytes":4,"offsets":[%s]}' "$offsets" >"$tmp/conflicts.json"

# Every route must answer 200 with the right body before it is timed.
check() {   # $1 = url, $2 = a substring the body must contain, rest = curl args
    local url=$1 want=$2 code
    shift 2
    code=$(curl -s -o "$tmp/check.body" -w '%{http_code}' "$@" "$url")
    if [ "$code" != 200 ] || ! grep -q -- "$want" "$tmp/check.body"; then
        echo "load: $url answered $code, body: $(head -c 300 "$tmp/check.body")" >&2
        exit 1
    fi
}
check "$base$SWIZZLE_PATH" '"name":"Swizzle<3,4,3>"'
cp "$tmp/check.body" "$tmp/swizzle.json"
check "$base/api/presets" '"presets"'
check "$base$static_path" '.'
check "$base/api/conflicts" '"wavefronts":32' -H 'Content-Type: application/json' \
    --data-binary "@$tmp/conflicts.json"

# ---- wrk ------------------------------------------------------------------------------

# One script for every run: method and body come from the environment; done()
# prints one machine-readable line.  wrk's errors.status counts statuses >= 400
# (its "Non-2xx or 3xx responses").
cat >"$tmp/load.lua" <<'EOF'
local body_file = os.getenv("LOAD_BODY")
wrk.method = os.getenv("LOAD_METHOD") or "GET"
if body_file and body_file ~= "" then
    local f = assert(io.open(body_file, "rb"))
    wrk.body = f:read("*a")
    f:close()
    wrk.headers["Content-Type"] = "application/json"
end
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT %d %.1f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n",
        summary.requests, summary.requests / (summary.duration / 1e6),
        latency.mean / 1000, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000,
        e.connect, e.read, e.write, e.timeout, e.status, summary.bytes))
end
EOF


# RSS every 2 s for the whole test, to show it flat after warm-up.
(
    start=$(date +%s)
    while kill -0 "$server_pid" 2>/dev/null; do
        echo "$(( $(date +%s) - start )) $(rss_kb)"
        sleep 2
    done
) >"$tmp/rss.log" &
sampler_pid=$!

results=()
run() {   # $1 = label, $2 = url, $3 = seconds, then optional METHOD BODYFILE
    local label=$1 url=$2 secs=$3 method=${4:-GET} body=${5:-}
    local rss0 rss1 line
    rss0=$(rss_kb)
    line=$(LOAD_METHOD=$method LOAD_BODY=$body timeout $((secs + 30)) \
        wrk -t"$LOAD_THREADS" -c"$LOAD_CONNECTIONS" -d"${secs}s" --timeout 5s \
        -s "$tmp/load.lua" "$url" | grep '^RESULT' || true)
    rss1=$(rss_kb)
    if [ -z "$line" ]; then
        echo "load: wrk gave no result for $label" >&2
        exit 1
    fi
    # shellcheck disable=SC2086
    set -- $line
    results+=("$label|$3|$4|$5|$6|$7|$8|$9|${10}|${11}|${12}|$2|$rss0|$rss1")
}

rss_idle=$(rss_kb)
echo "load: server pid $server_pid on $base, $LOAD_CONNECTIONS connections, $LOAD_THREADS wrk" \
     "threads, ${LOAD_SECONDS} s per route, $(nproc) CPUs"
run warmup "$base$SWIZZLE_PATH" "$LOAD_WARMUP"
rss_warm=$(rss_kb)
run "GET /api/swizzle (rows=64)" "$base$SWIZZLE_PATH" "$LOAD_SECONDS"
run "GET /api/presets" "$base/api/presets" "$LOAD_SECONDS"
run "GET $static_path" "$base$static_path" "$LOAD_SECONDS"
run "POST /api/conflicts" "$base/api/conflicts" "$LOAD_SECONDS" POST "$tmp/conflicts.json"
rss_end=$(rss_kb)

# ---- nginx, the same /api/swizzle bytes from a file -----------------------------------

nport=$(free_port)
mkdir -p "$tmp/www/api" "$tmp/nginx"
cp "$tmp/swizzle.json" "$tmp/www/api/swizzle"
nginx_start "$tmp" "$nport" 4096
if ! curl -s "http://127.0.0.1:$nport$SWIZZLE_PATH" | cmp -s - "$tmp/swizzle.json"; then
    echo "load: nginx does not serve the saved /api/swizzle bytes:" >&2
    cat "$tmp/nginx/error.log" >&2
    exit 1
fi
run "nginx: same bytes, file" "http://127.0.0.1:$nport$SWIZZLE_PATH" "$LOAD_SECONDS"

# ---- report ------------------------------------------------------------------------------

printf '\n%-28s %10s %8s %8s %8s %8s %-17s %6s %8s %8s\n' route req/s mean_ms p50_ms \
    p99_ms max_ms errors:c/r/w/t non2xx rss0_kB rss1_kB
api_rps="" nginx_rps=""
for r in "${results[@]}"; do
    IFS="|" read -r label rps mean p50 p99 max ec er ew et st total rss0 rss1 <<<"$r"
    [ "$label" = warmup ] && continue
    printf '%-28s %10s %8s %8s %8s %8s %-17s %6d %8s %8s\n' "$label" "$rps" "$mean" "$p50" \
        "$p99" "$max" "$ec/$er/$ew/$et" "$st" "$rss0" "$rss1"
    case "$label" in
        "GET /api/swizzle"*) api_rps=$rps ;;
        nginx*) nginx_rps=$rps ;;
    esac
done
echo
echo "response: /api/swizzle rows=64 is $(wc -c <"$tmp/swizzle.json") bytes"
echo "server RSS: idle ${rss_idle} kB, after warm-up ${rss_warm} kB, after all API runs ${rss_end} kB"
echo "server RSS samples (s kB), every 2 s:"
awk '{printf "%s%s:%s", (NR > 1 ? " " : "  "), $1, $2} END {print ""}' "$tmp/rss.log" | fold -s -w 100
awk -v a="$api_rps" -v n="$nginx_rps" \
    'BEGIN {printf "ratio api_rps / nginx_rps = %.0f / %.0f = %.2f\n", a, n, a / n}'
