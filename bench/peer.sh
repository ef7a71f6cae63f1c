#!/bin/sh
# peer.sh - the page against the nearest peer page (seed 003: "GPU Shared Memory
# Swizzle Visualizer", vj-krish/vj-krish.github.io assets/swizzle-visualizer.html)
# in one Chromium run: first contentful paint, load, whole page drawn, a preset
# change painted at the peer's default view and at 32 rows x 128 banks. The
# peer's file is fetched into .gl/peer/ (ignored; never committed), or taken
# from there when it is already present (an offline machine: copy it there).
# Usage: bench/peer.sh [rounds, default 7]. Needs make, tests/browser/run.sh once.
set -eu
cd "$(dirname "$0")/.."
PEER_DIR=.gl/peer
PEER_URL=https://raw.githubusercontent.com/vj-krish/vj-krish.github.io/a0d65bd42aee2f3a9fb9e9935cd192578a85c2dc/assets/swizzle-visualizer.html
mkdir -p "$PEER_DIR"
if [ ! -s "$PEER_DIR/index.html" ]; then
    curl -sfL --max-time 30 -o "$PEER_DIR/index.html" "$PEER_URL" || {
        rm -f "$PEER_DIR/index.html"
        echo "cannot fetch the peer page from $PEER_URL: put it at $PEER_DIR/index.html" >&2; exit 1; }
fi
. bench/serve.sh
bench_needs
trap 'kill $PIDS 2>/dev/null' EXIT INT TERM
serve static; OURS=$URL
serve "$PEER_DIR"; PEER=$URL
node bench/peer.mjs "$OURS" "$PEER" "${1:-7}"
