# gpu_env.sh - sourced by run_strided.sh and run_hw41.sh on the GPU machine (from the
# repository root, with O and T set): logs to $O/run.log, defines say, unpacks the
# run-time libraries of .deb/ (libcjson1: no registry there) onto LD_LIBRARY_PATH and
# prints the machine (date, GPU, driver, clocks, ncu, nvcc, T's cjson) into $O/device.txt.
# It measures nothing and changes no GPU setting.
exec > >(tee -a "$O/run.log") 2>&1
say() { echo "== $(date -u +%T) $*"; }
L=/tmp/swz-deps-i41; mkdir -p "$L"
for f in .deb/*.deb; do dpkg-deb -x "$f" "$L"; done
export LD_LIBRARY_PATH=$L/usr/lib/x86_64-linux-gnu:$L/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
say env
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  ncu --version | tail -1; nvcc --version | tail -2 | head -1; ldd "$T" | grep -E 'cjson|not found'; } | tee "$O/device.txt"
