#!/usr/bin/env python3
"""slowloris.py - a slow-head attack on the server while a prompt client keeps asking.

Starts build/swizzlescope on a free loopback port (or uses --port), opens
--conns connections that each send one byte of an endless request head every
--interval seconds, and meanwhile sends GET /api/health every 0.5 s from a
separate, prompt client (2 s timeout).  Prints how many prompt requests were
answered, the longest run of failures, and how many attack connections the
server closed and when.  --reconnect reopens each closed attack connection at
once, as a determined attacker would.  Loopback only; everything it started is
stopped on exit.  Needs ulimit -n above --conns (it raises its own soft limit).

  python3 bench/slowloris.py                      # 1100 connections, 5 s, 60 s
  python3 bench/slowloris.py --conns 1100 --seconds 40 --reconnect

Slow bodies instead of slow heads (issue 28): --body N sends a whole
`POST /api/layout` head with `Content-Length: N` at once, then --burst bytes of
the body at once, then one body byte every --interval.  With the server it
started, the server's peak RSS is printed too (--bin picks the binary, to
compare builds):

  python3 bench/slowloris.py --conns 1030 --body 1000 --seconds 30
  python3 bench/slowloris.py --conns 300 --body 2097152 --burst 2000000 --seconds 20

--layout N: clients that post an N-element /api/layout request at once and
never read the answer (issue 28 item 2):

  python3 bench/slowloris.py --conns 200 --layout 1048576 --seconds 20
"""
import argparse
import os
import resource
import socket
import subprocess
import sys
import time

HEAD = b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: "


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def open_attack(port, first=b""):
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    # socket, trickled bytes sent, opened at, what to send at once, how much of it
    return [s, 0, time.time(), first, 0]


def body_head(n):
    return (b"POST /api/layout HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % n)


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def probe(port):
    t = time.time()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.settimeout(2)
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        data = s.recv(64)
        s.close()
        return data.startswith(b"HTTP/1.1 200"), time.time() - t
    except OSError:
        return False, time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=0, help="attack a running server instead")
    ap.add_argument("--conns", type=int, default=1100)
    ap.add_argument("--interval", type=float, default=5.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--reconnect", action="store_true")
    ap.add_argument("--server-args", default="", help="extra flags for the server")
    ap.add_argument("--body", type=int, default=0,
                    help="slow bodies: a whole POST head with this Content-Length")
    ap.add_argument("--burst", type=int, default=0,
                    help="with --body: body bytes sent at once after the head")
    ap.add_argument("--bin", default="build/swizzlescope", help="the server binary")
    ap.add_argument("--layout", type=int, default=0,
                    help="clients that never read: each posts a TMA layout of this many "
                         "elements (a power of two) at once and reads nothing")
    a = ap.parse_args()
    first = body_head(a.body) + b" " * min(a.burst, a.body) if a.body else b""
    trickle = a.body - min(a.burst, a.body) if a.body else None  # None: an endless head
    if a.layout:
        side = 1 << ((a.layout.bit_length() - 1) // 2)
        body = (b'{"layout":"tma:CU_TENSOR_MAP_SWIZZLE_128B","shape":[%d,%d]}'
                % (side, a.layout // side))
        first, trickle = body_head(len(body)).replace(b"/api/layout ", b"/api/layout ") + body, 0

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, a.conns + 256)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    server = None
    port = a.port
    if port == 0:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        port = free_port()
        server = subprocess.Popen(
            [os.path.join(root, a.bin), "--port", str(port),
             "--measure-tool", "none"] + a.server_args.split(),
            cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
    try:
        attack = [open_attack(port, first) for _ in range(a.conns)]
        peak = 0
        closed, reopened = [], 0
        t0 = time.time()
        next_probe = t0
        ok = total = 0
        denied_since, worst = None, 0.0     # a run of failed probes, in seconds
        lat = []
        while time.time() - t0 < a.seconds:
            now = time.time()
            # one byte per connection per interval, spread over the interval
            for c in attack:
                if c[0] is None:
                    continue
                if c[4] < len(c[3]):    # the head and burst, as fast as it takes them
                    try:
                        c[4] += c[0].send(c[3][c[4]:c[4] + 65536])
                    except (BlockingIOError, InterruptedError):
                        pass
                    except OSError:
                        closed.append(now - c[2])
                        c[0].close()
                        c[0] = None
                    continue
                if now - c[2] < (c[1] + 1) * a.interval:
                    continue
                if trickle is not None and c[1] >= trickle:
                    continue            # the whole body is sent: wait for the answer
                try:
                    if trickle is None:
                        c[0].send(HEAD[c[1]:c[1] + 1] if c[1] < len(HEAD) else b"a")
                    else:
                        c[0].send(b" ")
                    c[1] += 1
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    closed.append(now - c[2])
                    c[0].close()
                    if a.reconnect:
                        c[:] = open_attack(port, first)
                        reopened += 1
                    else:
                        c[0] = None
            if server is not None:
                peak = max(peak, rss_kb(server.pid))
            if now >= next_probe:
                good, dt = probe(port)
                total += 1
                if good:
                    ok += 1
                    lat.append(dt)
                    if denied_since is not None:
                        worst = max(worst, now - denied_since)
                    denied_since = None
                elif denied_since is None:
                    denied_since = now
                next_probe = time.time() + 0.5
            time.sleep(0.01)
        if denied_since is not None:
            worst = max(worst, time.time() - denied_since)
        lat.sort()
        what = (f"a POST head with Content-Length {a.body}, {min(a.burst, a.body)} body bytes "
                f"at once, then one body byte" if a.body else
                f"a {a.layout}-element /api/layout request at once, never reading the "
                f"answer, and nothing" if a.layout else "one head byte")
        print(f"attack: {a.conns} connections, {what} every {a.interval:g} s, "
              f"{a.seconds:g} s{', reconnecting' if a.reconnect else ''}")
        print(f"prompt client: {ok}/{total} answered, longest without an answer {worst:.1f} s, "
              f"median {1000 * lat[len(lat) // 2] if lat else 0:.1f} ms")
        if closed:
            closed.sort()
            print(f"attack connections closed by the server: {len(closed)} "
                  f"(first after {closed[0]:.1f} s, median {closed[len(closed) // 2]:.1f} s)"
                  f"{f', reopened {reopened}' if a.reconnect else ''}")
        else:
            print("attack connections closed by the server: none")
        if server is not None:
            print(f"server peak RSS: {peak / 1024:.0f} MB ({a.bin})")
        for c in attack:
            if c[0] is not None:
                c[0].close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
