#!/bin/bash
# flood.sh - issue 36's "done when": under four clients sending the costliest
# request of every route with shuffled parameters for 20 s, GET /api/health
# answers within 500 ms at p99.  bench/flood.py sends the requests and probes
# /api/health every 50 ms; this starts the -O2 server (FLOOD_SERVER, default
# build/swizzlescope, built by make) on a free loopback port and stops it.
# Prints each route's requests and statuses, then the probes' p50/p99/max and
# how many got no answer within 500 ms; exits 1 over the target.  A time on a
# shared VM is no absolute figure (DESIGN.md 5): compare builds in one session.
#   bash bench/flood.sh          # FLOOD_SECONDS=20 FLOOD_CLIENTS=4 by default
set -eu
cd "$(dirname "$0")/.."
SERVER=${FLOOD_SERVER:-build/swizzlescope}
[ -n "${FLOOD_SERVER:-}" ] || make -s build/swizzlescope >/dev/null
. bench/serve.sh
trap 'kill $PIDS 2>/dev/null' EXIT
serve static "$SERVER"
PID=$SERVED
echo "server: $SERVER ($URL), $(nproc) CPUs, ${FLOOD_CLIENTS:-4} clients, ${FLOOD_SECONDS:-20} s"
python3 bench/flood.py "$URL" "${FLOOD_SECONDS:-20}" "${FLOOD_CLIENTS:-4}"
kill -0 $PID 2>/dev/null || { echo "the server died" >&2; exit 1; }
