#!/bin/sh
# render.sh - runs bench/render.mjs against a fresh build/swizzlescope on a free
# port (make first). Needs tests/browser/node_modules (run tests/browser/run.sh once)
# and Debian's chromium. Usage: bench/render.sh [N changes, default 30] [PAUSE ms between changes, default 300]
set -eu
cd "$(dirname "$0")/.."
[ -x build/swizzlescope ] || { echo "build/swizzlescope missing: run make" >&2; exit 1; }
[ -d tests/browser/node_modules/playwright-core ] || (cd tests/browser && npm ci --no-audit --no-fund >&2)
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
build/swizzlescope --port "$PORT" --static static --measure-tool none >/dev/null 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null' EXIT INT TERM
i=0
until curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 100 ] || { echo "server did not start" >&2; exit 1; }
    sleep 0.05
done
node bench/render.mjs "http://127.0.0.1:$PORT/" "${1:-30}" "${2:-300}"
