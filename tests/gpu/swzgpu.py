"""swzgpu.py - what the GPU tests (tests/gpu/gpu_test.py) and the bench
(bench/measure.sh) share: start the server on a free loopback port with the
real measurement tool, talk to it, run the tool directly. Stdlib only; it
stops every process it starts, by pid, and installs nothing."""
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = os.environ.get("SWZ_MEASURE", os.path.join(ROOT, "build", "swizzlescope-measure"))
SERVER = os.environ.get("SWZ_BIN", os.path.join(ROOT, "build", "swizzlescope"))
PATTERNS = os.path.join(ROOT, "tests", "calib", "patterns.json")
# Every request field of an instruction (api_read.c's list): a field left out here
# is silently measured at its default.  cp.async's "cache" and "global_offsets"
# were left out until 2026-11-24, so the tool measured every cp.async row as .ca
# with a contiguous global side: the 29 "cp.async" failures of
# bench/results/test-gpu-h100-2026-11-24.txt, not a cache-state effect
# (tests/data/cp_states_h100-80gb-hbm3.json: the same counts cold, L2-hit and L1-hit).
API_FIELDS = ("op", "bytes", "matrices", "trans", "offsets", "func", "type", "value", "guard",
              "cache", "global_offsets")
ATOMICS = os.path.join(ROOT, "tests", "calib", "atomics", "suite.json")


def load_patterns():
    with open(PATTERNS) as f:
        return json.load(f)


def api_body(p):
    """A calibration pattern as the API takes it (no name: unknown fields are refused)."""
    return {k: p[k] for k in API_FIELDS if k in p}


def tool_info(timeout=20):
    """(exit code, parsed JSON or None, stderr) of `tool --info`; (None, None, why) if absent."""
    if not (os.path.isfile(TOOL) and os.access(TOOL, os.X_OK)):
        return None, None, f"{TOOL} is not built (make builds it where nvcc exists)"
    try:
        r = subprocess.run([TOOL, "--info"], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"{TOOL} --info did not answer in {timeout} s"
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = None
    return r.returncode, j, r.stderr.strip()


def run_tool(patterns, args=(), timeout=600, env=None):
    """Runs the tool with --json on a list of patterns; (exit code, JSON or None, stderr, seconds)."""
    body = json.dumps([dict(api_body(p), name=p["name"]) for p in patterns])
    t0 = time.monotonic()
    r = subprocess.run([TOOL, "--json", *args], input=body, capture_output=True, text=True,
                       timeout=timeout, env=env)
    dt = time.monotonic() - t0
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = None
    return r.returncode, j, r.stderr, dt


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """build/swizzlescope on a free loopback port, measuring with TOOL."""

    def __init__(self, env_extra=None, log_path=None):
        self.port = free_port()
        env = dict(os.environ)
        env.update(env_extra or {})
        self.log = open(log_path or os.devnull, "wb")
        self.proc = subprocess.Popen(
            [SERVER, "--port", str(self.port), "--measure-tool", TOOL,
             "--static", os.path.join(ROOT, "static")],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/health", timeout=2)
                return
            except (OSError, urllib.error.URLError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not come up on port {self.port}")
                time.sleep(0.1)

    def request(self, method, path, body=None, timeout=120, content_type="application/json"):
        """(status, parsed JSON or raw text, seconds)."""
        data = None
        headers = {}
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = content_type
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        dt = time.monotonic() - t0
        try:
            return status, json.loads(text), dt
        except ValueError:
            return status, text, dt

    def get(self, path, timeout=30):
        return self.request("GET", path, timeout=timeout)

    def post(self, path, body, timeout=120):
        return self.request("POST", path, body, timeout=timeout)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def truth_wavefronts(p, result):
    """The ncu number the model's `wavefronts` predicts (tests/unit/test_access.c):
    the hardware counter for loads, the Source-page metric for stores (whose
    hardware counter over-counts by a non-integral amount)."""
    if p["op"] in ("ld", "ldmatrix"):
        return result.get("wavefronts_hw_per_instr")
    return result.get("wavefronts_per_instr")


def cycles_agree(measured, predicted):
    return abs(measured - predicted) <= 0.02 * predicted
