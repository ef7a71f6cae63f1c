#!/bin/sh
# run.sh - the GPU test suite (make test calls it): the real measurement tool
# through the server and directly, against the model. Without a usable GPU
# (the tool not built, or its --info exits non-zero) it prints
# "test_gpu: 0 passed, 0 failed, N skipped" and exits 0.
# Env: SWZ_BIN, SWZ_MEASURE, SWZ_GPU_REQUIRE_NCU, SWZ_GPU_SAVE, SWZ_GPU_LOG
# (see gpu_test.py). Run from anywhere; it works from the repository root.
set -eu
cd "$(dirname "$0")/../.."
exec python3 tests/gpu/gpu_test.py "$@"
