#!/bin/bash
# run_issue23.sh: every sweep of issue 23 in one call on a GPU machine (run from
# the repository root): machine facts, ncu's metric list (and the names that
# matter: ldgsts, gmma, arbitration, sm__sass_), then the four surfaces'
# run.sh in priority order (atomics, cp.async, TMA, wgmma), and one tarball in
# $OUT.  SKIP="tma wgmma" leaves surfaces out.  It never touches tests/data.
set -u
R=${OUT:-build/issue23}/raw; mkdir -p "$R"
exec > >(tee -a "$R/run.log") 2>&1
say() { echo "== $(date -u +%T) $*"; }
say machine
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$R/device.txt"
nvcc --version | tail -2 | head -1; ncu --version | tail -1
ncu --query-metrics > "$R/qm.txt" 2>&1
ncu --query-metrics --query-metrics-mode all 2>&1 | grep -E "ldgsts|gmma|arbitration|^sm__sass|atom|red" > "$R/qm_names.txt"
grep -cE . "$R/qm_names.txt"
export QM=$R/qm.txt
for s in atomic_forms cp_async tma wgmma; do
    case " ${SKIP:-} " in *" $s "*) continue;; esac
    say "$s"; O=$R/$s bash tests/calib/$s/run.sh
    tar czf "$R/../$s.tgz" -C "$R" "$s"   # each surface comes back even if a later one runs out of time
done
say done
cp "$R/qm_names.txt" "$R/device.txt" "$R/../" 2>/dev/null; gzip -c "$R/qm.txt" > "$R/../qm.txt.gz"
ls -la "$R/.."
