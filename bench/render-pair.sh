#!/bin/sh
# render-pair.sh - bench/render-pair.mjs on REF's static/ (from git) against
# the working tree's static/, both copied first (an edit during the run does
# not reach it) and served by the same build/swizzlescope (make first).
# Usage: [SWZ_PAIR_CHANGE=preset|match|step|first] [SWZ_PAIR_QUERY=?...] bench/render-pair.sh REF [PAIRS, default 100] [PAUSE ms, default 300]
set -eu
cd "$(dirname "$0")/.."
REF=${1:?usage: bench/render-pair.sh REF [PAIRS] [PAUSE_MS]}
. bench/serve.sh
bench_needs
TMP=$(mktemp -d)
trap 'kill $PIDS 2>/dev/null || true; rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/a" "$TMP/b"
git archive "$REF" static | tar -x -C "$TMP/a"
cp -R static "$TMP/b/"
serve "$TMP/a/static"; UA=$URL
serve "$TMP/b/static"; UB=$URL
echo "A = $(git rev-parse --short "$REF") static/, B = the working tree's static/"
node bench/render-pair.mjs "$UA" "$UB" "${2:-100}" "${3:-300}"
