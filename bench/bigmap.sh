#!/usr/bin/env bash
# bigmap.sh - the largest map (/api/swizzle?b=10&m=0&s=10&rows=1024, 2^20 cells,
# 31.9 MB of JSON) from build/swizzlescope against nginx serving the same bytes
# from a file, in the same run: wrk with BIGMAP_CONNECTIONS connections for
# BIGMAP_SECONDS each, and the ratio of the times per answer (issue 18: at most
# 2x nginx's).  Also the server's peak RSS meanwhile.
#
# Only loopback; stops everything it started (by pid) on any exit.  Needs wrk,
# nginx and curl (apt-get install wrk nginx-light curl), as bench/load.sh.
# Environment: BIGMAP_SECONDS (20), BIGMAP_CONNECTIONS (4), BIGMAP_THREADS (2),
# BIGMAP_BIN (build/swizzlescope: point it at another build to compare).
LOADLIB_NAME=bigmap
. "$(dirname "$0")/loadlib.sh"
set -euo pipefail

BIGMAP_SECONDS=${BIGMAP_SECONDS:-20}
BIGMAP_CONNECTIONS=${BIGMAP_CONNECTIONS:-4}
BIGMAP_THREADS=${BIGMAP_THREADS:-2}
MAP_PATH='/api/swizzle?b=10&m=0&s=10&rows=1024'

cd "$(dirname "$0")/.."
loadlib_need_tools
[ -n "${BIGMAP_BIN:-}" ] || make -s build/swizzlescope >/dev/null
bin=${BIGMAP_BIN:-build/swizzlescope}


server_start "$bin"

mkdir -p "$tmp/www/api" "$tmp/nginx"
curl -sf -o "$tmp/www/api/swizzle" "http://127.0.0.1:$port$MAP_PATH"
grep -q '"name":"Swizzle<10,0,10>"' "$tmp/www/api/swizzle"
nport=$(free_port)
nginx_start "$tmp" "$nport" 1024
if ! curl -s "http://127.0.0.1:$nport$MAP_PATH" | cmp -s - "$tmp/www/api/swizzle"; then
    echo "bigmap: nginx does not serve the saved bytes:" >&2
    cat "$tmp/nginx/error.log" >&2
    exit 1
fi

(
    peak=0
    while kill -0 "$server_pid" 2>/dev/null; do
        r=$(rss_kb)
        [ "$r" -gt "$peak" ] && peak=$r && echo "$peak" >"$tmp/rss.peak"
        sleep 0.2
    done
) &
sampler_pid=$!

cat >"$tmp/bench.lua" <<'EOF'
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT %d %.2f %.2f %.2f %d\n", summary.requests,
        summary.requests / (summary.duration / 1e6), latency.mean / 1000,
        latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout + e.status))
end
EOF
# CPU time (user + system, in clock ticks) of process $1 and its children:
# what an answer costs the server, steadier than wall time on a shared VM.
cpu_ticks() {
    local t=0 pid
    for pid in "$1" $(pgrep -P "$1" 2>/dev/null); do
        t=$((t + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$t"
}
hz=$(getconf CLK_TCK)
run() {   # $1 = url, $2 = pid serving it; prints "requests rps mean_ms p99_ms errors cpu_ms"
    local c0 c1 out
    c0=$(cpu_ticks "$2")
    out=$(timeout $((BIGMAP_SECONDS + 30)) wrk -t"$BIGMAP_THREADS" -c"$BIGMAP_CONNECTIONS" \
        -d"${BIGMAP_SECONDS}s" --timeout 10s -s "$tmp/bench.lua" "$1" | sed -n 's/^RESULT //p')
    c1=$(cpu_ticks "$2")
    echo "$out" | awk -v c=$((c1 - c0)) -v hz="$hz" \
        '{printf "%s %.1f\n", $0, ($1 > 0 ? 1000 * c / hz / $1 : 0)}'
}
bytes=$(wc -c <"$tmp/www/api/swizzle")
echo "bigmap: $bytes bytes, $BIGMAP_CONNECTIONS connections, $BIGMAP_THREADS wrk threads," \
     "${BIGMAP_SECONDS} s each, $(nproc) CPUs, server $bin"
read -r a_n a_rps a_mean a_p99 a_err a_cpu <<<"$(run "http://127.0.0.1:$port$MAP_PATH" "$server_pid")"
read -r n_n n_rps n_mean n_p99 n_err n_cpu <<<"$(run "http://127.0.0.1:$nport$MAP_PATH" "$nginx_pid")"
printf '%-26s %9s %9s %9s %9s %7s %11s\n' server answers req/s mean_ms p99_ms errors cpu_ms/ans
printf '%-26s %9s %9s %9s %9s %7s %11s\n' "swizzlescope" "$a_n" "$a_rps" "$a_mean" \
    "$a_p99" "$a_err" "$a_cpu"
printf '%-26s %9s %9s %9s %9s %7s %11s\n' "nginx (file, sendfile)" "$n_n" "$n_rps" "$n_mean" \
    "$n_p99" "$n_err" "$n_cpu"
echo "server peak RSS: $(cat "$tmp/rss.peak" 2>/dev/null || echo '?') kB"
awk -v a="$a_rps" -v n="$n_rps" 'BEGIN {printf "time per answer, swizzlescope / nginx = %.2f (target <= 2)\n", n / a}'
awk -v a="$a_cpu" -v n="$n_cpu" 'BEGIN {if (n > 0) printf "CPU per answer, swizzlescope / nginx = %.2f (steadier on a busy machine)\n", a / n}'
