#!/usr/bin/env python3
"""flood.py URL SECONDS CLIENTS - issue 36's flood, run by bench/flood.sh.

CLIENTS clients each send the costliest request of every route, the routes in
a shuffled order each round, their query parameters and JSON keys shuffled and
one size varied so that the answer cache misses, for SECONDS seconds; a prober
asks GET /api/health every 50 ms on a fresh connection.  Prints the probes'
p50, p99 and max latency, how many got no answer within 500 ms, and per route
the requests sent, their statuses and their slowest answer.  Reads every
answer whole (these clients read; bench/idle_clients.sh's do not)."""
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse

URL = urllib.parse.urlparse(sys.argv[1])
SECONDS = float(sys.argv[2])
CLIENTS = int(sys.argv[3])
HOST, PORT = URL.hostname, URL.port

TTGIR = open("tests/data/ttgir/amd_block_pingpong_small.mlir").read().split("\n")
TTGIR_TEXT = "\n".join([l for l in TTGIR if l.startswith("#")] +
                       [l for l in TTGIR if not l.startswith("#")] * 33)  # bench/ttgir.sh's 2,052 lines
NCU_ROWS = "".join('"%d","k%d","%d"\n' % (i, i, i % 7) for i in range(2000))
PATTERNS = ["row_store", "row_load_32", "col_read", "transpose_read"]


def q(d):
    items = list(d.items())
    random.shuffle(items)
    return urllib.parse.urlencode(items)


def body(d):
    items = list(d.items())
    random.shuffle(items)
    return json.dumps(dict(items))


# (method, path, builder): builder() -> (query or None, body or None).  Each is the
# costliest request of its route found so far (bench/README.md, "flood.sh").
def routes():
    r = random.randrange
    return [
        ("GET", "/api/recommend", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 8 * r(96, 129),
                                              "write": random.choice(PATTERNS),
                                              "read": random.choice(PATTERNS)}), None)),
        ("GET", "/api/swizzle", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 32768 - 8 * r(0, 64),
                                            "bank_bytes": 4, "banks": 32}), None)),
        ("GET", "/api/inspect", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 32768,
                                            "row": r(0, 32768), "col": r(0, 8)}), None)),
        ("GET", "/api/access", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 1 << r(10, 16),
                                           "pattern": random.choice(PATTERNS)}), None)),
        ("GET", "/api/access", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 1 << r(10, 16),
                                           "expr": "swz((t * %d + r * 4) %% 131072)" % (4 * r(1, 64)),
                                           "bytes": 4}), None)),
        ("GET", "/api/trace", lambda: (q({"b": 3, "m": 4, "s": 3, "rows": 1 << r(10, 16),
                                          "col": r(0, 8)}), None)),
        ("GET", "/api/atoms", lambda: ("", None)),
        ("GET", "/api/patterns", lambda: ("", None)),
        ("POST", "/api/apply", lambda: (None, body({"b": 3, "m": 4, "s": 3,
                                                    "offsets": [r(0, 1 << 30) for _ in range(4096)]}))),
        ("POST", "/api/conflicts", lambda: (None, body({"op": "ldmatrix", "bytes": 16, "matrices": 4,
                                                        "offsets": [r(0, 1 << 16) * 16 for _ in range(32)]}))),
        ("POST", "/api/linear/optimize", lambda: (None, body({
            "shape": [128, 128], "bitwidth": 16,
            "A": {"register": [[1, 0], [2, 0], [4, 0], [0, 32], [0, 64]],
                  "lane": [[8, 0], [16, 0], [32, 0], [64, 0], [0, 1]],
                  "warp": [[0, 2], [0, 4], [0, 8], [0, 16]]},
            "B": {"register": [[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]],
                  "lane": [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]],
                  "warp": [[2, 0], [4, 0], [8, 0], [16, 0]]}}))),
        ("POST", "/api/linear/evaluate", lambda: (None, body({
            "shape": [128, 128], "bitwidth": 16,
            "A": {"layout": "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"},
            "B": {"layout": "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>"},
            "aliases": "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
            "triton": {"vec": 8, "per_phase": 1, "max_phase": 8}}))),
        ("POST", "/api/layout", lambda: (None, body({
            "layout": "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
            "shape": [1024, 1024]}))),
        ("POST", "/api/layout/access", lambda: (None, body({
            "layout": "Sw<3,4,3> o (_%d,_64):(_64,_1)" % (64 * r(1, 17)),
            "thread": "TiledCopy\n  Tiler_MN:       (_32,_16)\n  TiledLayout_TV: ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))\nCopy_Atom\n  ThrID:        _32:_1\n  ValLayoutSrc: (_32,_8):(_8,_1)\n  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))\n  ValueType:    16b\n"}))),
        ("POST", "/api/layout/distributed", lambda: (None, body({
            "layout": "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
            "shape": [1024, 1 << r(6, 11)]}))),
        ("POST", "/api/ttgir", lambda: (None, body({"text": TTGIR_TEXT + "\n" * r(0, 100)}))),
        ("POST", "/api/ncu/explain", lambda: (None, body({
            "ncu": '"ID","Kernel Name","l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"\n' + NCU_ROWS,
            "access": {"op": "ld", "bytes": 4, "offsets": [i * 16 * r(1, 9) for i in range(32)]},
            "instructions": r(1, 100), "kernel": "k%d" % r(1000, 2000)}))),
    ]


stats = {}          # route -> [count, {status: n}, slowest]
lock = threading.Lock()
stop = time.monotonic() + SECONDS


def client(seed):
    random.seed(seed)
    conn = None
    while time.monotonic() < stop:
        rs = routes()
        random.shuffle(rs)
        for method, path, build in rs:
            if time.monotonic() >= stop:
                break
            qs, b = build()
            url = path + ("?" + qs if qs else "")
            hdr = {"Content-Type": "application/json"} if b is not None else {}
            t0 = time.monotonic()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
                conn.request(method, url, body=b, headers=hdr)
                resp = conn.getresponse()
                resp.read()
                status = resp.status
                if resp.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except Exception as e:      # noqa: BLE001 - a refused or dropped request counts
                status = type(e).__name__
                conn = None
            dt = time.monotonic() - t0
            with lock:
                s = stats.setdefault(path, [0, {}, 0.0])
                s[0] += 1
                s[1][status] = s[1].get(status, 0) + 1
                s[2] = max(s[2], dt)


probes = []         # seconds, or None when no answer within 5 s


def prober():
    while time.monotonic() < stop:
        t0 = time.monotonic()
        try:
            c = http.client.HTTPConnection(HOST, PORT, timeout=5)
            c.request("GET", "/api/health")
            r = c.getresponse()
            ok = r.status == 200 and b'"ok":true' in r.read()
            c.close()
            probes.append(time.monotonic() - t0 if ok else None)
        except Exception:               # noqa: BLE001
            probes.append(None)
        left = 0.05 - (time.monotonic() - t0)
        if left > 0:
            time.sleep(left)


threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
threads.append(threading.Thread(target=prober))
for t in threads:
    t.start()
for t in threads:
    t.join()

print("%-26s %7s %9s  %s" % ("route", "sent", "max_ms", "statuses"))
for path in sorted(stats):
    n, st, worst = stats[path]
    print("%-26s %7d %9.1f  %s" % (path, n, worst * 1000,
                                   " ".join("%s:%d" % (k, v) for k, v in sorted(st.items(), key=str))))
lat = sorted(p for p in probes if p is not None)
missed = sum(1 for p in probes if p is None or p > 0.5)
if lat:
    def pct(f):
        return lat[min(len(lat) - 1, int(f * len(lat)))] * 1000
    print("health probes: %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms, no answer within 500 ms: %d"
          % (len(probes), pct(0.5), pct(0.99) if len(lat) == len(probes) else float("inf"),
             lat[-1] * 1000, missed))
else:
    print("health probes: %d, none answered" % len(probes))
p99 = sorted((p if p is not None else 99.0) for p in probes)[int(0.99 * len(probes))] if probes else 99.0
print("health p99: %.1f ms (target: 500 ms) %s" % (p99 * 1000, "PASS" if p99 <= 0.5 else "OVER TARGET"))
sys.exit(0 if p99 <= 0.5 else 1)
