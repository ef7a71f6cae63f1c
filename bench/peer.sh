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
. bench/serve.sh
bench_needs
peer_page
trap 'kill $PIDS 2>/dev/null' EXIT INT TERM
serve static; OURS=$URL
serve "$PEER_DIR"; PEER=$URL
node bench/peer.mjs "$OURS" "$PEER" "${1:-7}"
