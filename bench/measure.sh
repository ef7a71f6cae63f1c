#!/bin/sh
# measure.sh - the live-measurement bench, on a machine with an NVIDIA GPU:
# the calibration suite through build/swizzlescope-measure next to the model
# (pattern | predicted wavefronts | ncu wavefronts | predicted cycles |
# measured cycles | agree), the conflict-free 32-bit load throughput in
# wavefronts per SM cycle, and the warm round trip of POST /api/measure
# through the server (with ncu counters, cycles only, and the page's two
# requests: cycles first, then counters).
#   bench/measure.sh [--from SUITE.json] [--rounds N] [--no-suite]
# Builds nothing: run `make` first. Env: SWZ_BIN, SWZ_MEASURE as in tests/gpu.
set -eu
cd "$(dirname "$0")/.."
exec python3 bench/measure.py "$@"
