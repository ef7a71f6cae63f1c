#!/bin/sh
# render.sh - runs bench/render.mjs against a fresh build/swizzlescope on a free
# port (make first). Needs tests/browser/node_modules (run tests/browser/run.sh once)
# and Debian's chromium. Usage: bench/render.sh [N changes, default 30] [PAUSE ms between changes, default 300]
set -eu
cd "$(dirname "$0")/.."
. bench/serve.sh
bench_needs
trap 'kill $PIDS 2>/dev/null' EXIT INT TERM
serve static
node bench/render.mjs "$URL" "${1:-30}" "${2:-300}"
