#!/bin/sh
# render-pair.sh - bench/render-pair.mjs on REF's static/ (from git) against
# the working tree's static/, both copied first (an edit during the run does
# not reach it) and served by the same build/swizzlescope (make first).
# Usage: [SWZ_PAIR_CHANGE=preset|match|step|first] bench/render-pair.sh REF [PAIRS, default 100] [PAUSE ms, default 300]
set -eu
cd "$(dirname "$0")/.."
REF=${1:?usage: bench/render-pair.sh REF [PAIRS] [PAUSE_MS]}
[ -x build/swizzlescope ] || { echo "build/swizzlescope missing: run make" >&2; exit 1; }
[ -d tests/browser/node_modules/playwright-core ] || (cd tests/browser && npm ci --no-audit --no-fund >&2)
TMP=$(mktemp -d)
PIDS=
trap 'kill $PIDS 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/a" "$TMP/b"
git archive "$REF" static | tar -x -C "$TMP/a"
cp -R static "$TMP/b/"
serve() {   # serve DIR: starts a server on a free port; sets URL
    port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    build/swizzlescope --port "$port" --static "$1" --measure-tool none >/dev/null 2>&1 &
    PIDS="$PIDS $!"
    i=0
    until curl -sf "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; do
        i=$((i + 1)); [ $i -lt 100 ] || { echo "server did not start" >&2; exit 1; }
        sleep 0.05
    done
    URL="http://127.0.0.1:$port/"
}
serve "$TMP/a/static"; UA=$URL
serve "$TMP/b/static"; UB=$URL
echo "A = $(git rev-parse --short "$REF") static/, B = the working tree's static/"
node bench/render-pair.mjs "$UA" "$UB" "${2:-100}" "${3:-300}"
