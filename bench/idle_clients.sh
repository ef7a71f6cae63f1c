#!/bin/bash
# idle_clients.sh - issue 36 item 3's bound: 100 clients that POST the largest
# /api/layout (a 2^20-element Triton nvmma layout, bench/layout.sh's) and never
# read the answer keep the server under 300 MB.  Starts the -O2 server
# (IDLE_SERVER, default build/swizzlescope) on a free loopback port, opens the
# clients, samples the server's VmHWM/VmRSS for IDLE_SECONDS (default 15), and
# prints the peak RSS and the clients' first status lines (most get none: their
# answers wait, unread, or were refused 503 overloaded).  Exits 1 over 300 MB.
#   bash bench/idle_clients.sh      # IDLE_CLIENTS=100 IDLE_SECONDS=15
set -eu
cd "$(dirname "$0")/.."
SERVER=${IDLE_SERVER:-build/swizzlescope}
[ -n "${IDLE_SERVER:-}" ] || make -s build/swizzlescope >/dev/null
. bench/serve.sh
trap 'kill $PIDS 2>/dev/null' EXIT
serve static "$SERVER"
PID=$SERVED
echo "server: $SERVER ($URL), ${IDLE_CLIENTS:-100} clients, ${IDLE_SECONDS:-15} s"
python3 - "$URL" "$PID" "${IDLE_CLIENTS:-100}" "${IDLE_SECONDS:-15}" <<'PY'
import json, socket, sys, time, urllib.parse
url, pid, n, secs = urllib.parse.urlparse(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
body = json.dumps({"layout": "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                             "elementBitWidth = 16}>", "shape": [1024, 1024]}).encode()
head = ("POST /api/layout HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
        "Content-Length: %d\r\n\r\n" % (url.hostname, url.port, len(body))).encode()
def rss():
    kb = {}
    for line in open("/proc/%s/status" % pid):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            kb[k] = int(v.split()[0])
    return kb
socks = []
for _ in range(n):
    s = socket.create_connection((url.hostname, url.port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # and never read
    s.sendall(head + body)
    socks.append(s)
peak, end = 0, time.monotonic() + secs
while time.monotonic() < end:
    peak = max(peak, rss()["VmRSS"])
    time.sleep(0.1)
r = rss()
statuses = {}
for s in socks:
    s.setblocking(False)
    try:
        line = s.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed"
    except BlockingIOError:
        line = "nothing yet"
    except OSError as e:
        line = type(e).__name__
    statuses[line] = statuses.get(line, 0) + 1
    s.close()
print("first lines:", ", ".join("%s: %d" % kv for kv in sorted(statuses.items())))
hwm = max(peak, r["VmHWM"]) / 1024
print("peak RSS: %.0f MB (VmHWM; sampled peak %.0f MB; bound 300 MB) %s"
      % (hwm, peak / 1024, "PASS" if hwm < 300 else "OVER BOUND"))
sys.exit(0 if hwm < 300 else 1)
PY
