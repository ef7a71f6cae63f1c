#!/bin/bash
# ptx_session.sh - one GPU session for issue 38's corpus: the run-time library the tool
# needs (libcjson, unpacked from .deb/ where the machine lacks it, as bench/gpu_session.sh
# does), then tests/gpu/ptx_corpus.py over every corpus launch, everything packed into
# OUTDIR/ptx_results.tar.gz (one file: the device tool brings back few files).
#   bash tests/gpu/ptx_session.sh [OUTDIR] [NAME ...]   (from the repository root; needs
#   build/swizzlescope-measure built beforehand; BUDGET_S bounds the launches, 420)
set -u
O=${1:-${OUT:-build/ptx-session}}; shift || true
mkdir -p "$O"
W=/tmp/ptx-session; rm -rf "$W"; mkdir -p "$W"
D=/tmp/swz-deps
if ldd build/swizzlescope-measure | grep 'not found' >/dev/null && [ -d .deb ]; then
    mkdir -p "$D"
    for f in .deb/libcjson*.deb; do dpkg-deb -x "$f" "$D"; done
    export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
ldd build/swizzlescope-measure | grep -E 'cjson|not found'
PYTHONUNBUFFERED=1 python3 tests/gpu/ptx_corpus.py "$W" --budget "${BUDGET_S:-420}" "$@"
echo "corpus rc=$?"
tar -czf "$O/ptx_results.tar.gz" -C "$W" .
cp "$W/log.txt" "$O/log.txt"
ls -la "$O"
