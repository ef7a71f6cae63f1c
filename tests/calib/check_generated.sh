#!/bin/sh
# check_generated.sh - every generated pattern file under tests/calib is what
# its generator writes today (a generator edited without regenerating, or a
# hand edit of its output, fails here).  Prints "N passed, N failed".
# Run from the repository root.  Writes nothing.
set -u
passed=0
failed=0
for g in tests/calib/gen_patterns.py tests/calib/gen_sweep_shared.py \
         tests/calib/gen_sweep_vec_partial.py tests/calib/atomics/gen_floor.py \
         tests/calib/atomics/gen_suite.py tests/calib/atomic_forms/gen_forms.py \
         tests/calib/cp_async/gen_probe.py tests/calib/tma/gen_configs.py \
         tests/calib/wgmma/gen_probe.py; do
    if python3 "$g" --check >/dev/null 2>&1; then
        passed=$((passed + 1))
    else
        echo "FAIL $g --check: its output is stale"
        failed=$((failed + 1))
    fi
done
# second outputs of a generator, chosen by a flag
for g in "tests/calib/cp_async/gen_probe.py --subset" "tests/calib/atomic_forms/gen_forms.py --masks"; do
    if python3 $g --check >/dev/null 2>&1; then
        passed=$((passed + 1))
    else
        echo "FAIL $g --check: its output is stale"
        failed=$((failed + 1))
    fi
done
echo "calib generators: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
