#!/bin/sh
# build_corpus.sh - regenerates tests/data/ptx/corpus/*.ptx from the corpus's CUDA sources
# with `nvcc -O3 -lineinfo -arch=sm_90a -ptx` and prints the nvcc version used.  It compiles
# each file from the repository root, then drops the root's absolute path from the PTX's .file
# lines (so they read tests/data/ptx/corpus/NAME.cu wherever the tree lives); it changes nothing else.
#   sh tests/data/ptx/build_corpus.sh [NAME ...]     (default: every corpus/*.cu)
set -eu
cd "$(dirname "$0")/../../.."
ROOT=$(pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
"$NVCC" --version | grep -E "release|Build"
if [ $# -eq 0 ]; then
    set -- $(ls tests/data/ptx/corpus/*.cu | sed 's#.*/##; s#\.cu$##')
fi
for n in "$@"; do
    src=tests/data/ptx/corpus/$n.cu
    "$NVCC" -O3 -lineinfo -arch=sm_90a -ptx "$ROOT/$src" -o "tests/data/ptx/corpus/$n.ptx"
    sed -i "s#\"$ROOT/#\"#" "tests/data/ptx/corpus/$n.ptx"
    echo "$n.ptx: $(grep -c '^\s*\(ld\|st\|atom\|red\|ldmatrix\|stmatrix\|cp\.async\)\.*[a-z0-9.]*shared' "tests/data/ptx/corpus/$n.ptx" || true) shared-memory lines"
done
