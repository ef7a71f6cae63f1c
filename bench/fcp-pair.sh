#!/bin/sh
# fcp-pair.sh - first contentful paint of the page (the working tree's
# static/, ?b=3&m=4&s=3 as bench/peer.sh loads it) against the peer page, and
# against REF's static/ when a REF is given, paired round by round
# (bench/fcp-pair.mjs): issue 27's "first contentful paint no later than the
# peer's" with an interval, where bench/peer.sh gives medians of a few rounds.
# Usage: bench/fcp-pair.sh [ROUNDS, default 120] [REF]. Needs make.
set -eu
cd "$(dirname "$0")/.."
. bench/serve.sh
bench_needs
peer_page
TMP=$(mktemp -d)
trap 'kill $PIDS 2>/dev/null || true; rm -rf "$TMP"' EXIT INT TERM
cp -R static "$TMP/ours"
serve "$TMP/ours"; OURS="${URL}?b=3&m=4&s=3"
serve "$PEER_DIR"; PEER=$URL
set -- "${1:-120}" "${2:-}"
if [ -n "$2" ]; then
    mkdir "$TMP/ref"
    git archive "$2" static | tar -x -C "$TMP/ref"
    serve "$TMP/ref/static"; REFURL="${URL}?b=3&m=4&s=3"
    echo "URL 0 = the working tree's static/, URL 1 = the peer, URL 2 = $(git rev-parse --short "$2")'s static/"
    node bench/fcp-pair.mjs "$1" "$OURS" "$PEER" "$REFURL"
else
    echo "URL 0 = the working tree's static/, URL 1 = the peer"
    node bench/fcp-pair.mjs "$1" "$OURS" "$PEER"
fi
