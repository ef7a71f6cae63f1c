#!/usr/bin/env python3
"""check_strided.py [--port P] [--misses] | --port P --atomics: issue 41's hypothesis for .ca cp.async (rule
"L1" below, README.md) checked against every measured .ca row of
tests/data/cp_strided_h200.json and cp_async_h200.json; with --port, the server's
current model (POST /api/conflicts on a running `build/swizzlescope --port 0`) too,
.ca and .cg.  Prints the exact counts and, with --misses, each row either gets wrong.
Stdlib only.

L1 (a hypothesis fitted to these rows, not a documented behaviour), per warp
instruction of b-byte .ca copies (LDGSTS.E / .64 / .128):
  1. Order the active lanes by global 128-byte line (lines in the order their first
     lane appears, lanes in lane order within a line) and cut that sequence into
     phases of 128/b lanes (32, 16, 8).  Phases are served one after another.
  2. In a phase, lines are served in that order: line i (0-based) may start at
     wavefront i (the fills pipeline, one line a wavefront; counted from the line's
     index, not from line i-1's start, which step 3 may have delayed: issue 41's
     second session, "ca8.s_sw343_col8div.g_s32" 10).  Each of its lanes, in lane order, takes
     the first wavefront >= the line's start in which each of its 4-byte shared words'
     banks and each of its global words is still free (one word per bank per wavefront;
     lanes on one shared word do not merge; one lane per global word: no broadcast).
  3. Except: when line i writes a bank that an earlier line j of the phase also writes,
     and the set of source words (global word index mod 32) feeding that bank differs
     between the two lines, line i starts no earlier than wavefront e_j + (i - j), e_j
     being the wavefront after line j's last (for j = i-1: one idle wavefront).
  4. A phase costs its last wavefront (idle ones included); the instruction the sum.
"""
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data")


def active(r):
    return [t for t in range(32) if r["offsets"][t] is not None and r["offsets"][t] >= 0]


def sh_words(r, t):
    return [r["offsets"][t] // 4 + i for i in range(r["bytes"] // 4)]


def gl_words(r, t):
    return [r["global_offsets"][t] // 4 + i for i in range(r["bytes"] // 4)]


def line(r, t):
    return r["global_offsets"][t] // 128


def phases(r):
    order = []
    for t in active(r):
        if line(r, t) not in order:
            order.append(line(r, t))
    seq = [t for L in order for t in active(r) if line(r, t) == L]
    n = 128 // r["bytes"]
    return [seq[i:i + n] for i in range(0, len(seq), n)]


def sources(r, lanes):
    """bank -> the set of source words (global word mod 32) that write it"""
    d = {}
    for t in lanes:
        for s, g in zip(sh_words(r, t), gl_words(r, t)):
            d.setdefault(s % 32, set()).add(g % 32)
    return d


def phase_cost(r, lanes, window=None):
    """The phase's wavefronts under L1 (window None: every earlier line of the phase is
    compared, rule 3) or L1-consecutive (window 1: line i-1 alone)."""
    lines = []
    for t in lanes:
        if line(r, t) not in lines:
            lines.append(line(r, t))
    bank_free, gword_free = {}, {}
    S, E, SRC = [], [], []
    for i, L in enumerate(lines):
        ls = [t for t in lanes if line(r, t) == L]
        src = sources(r, ls)
        s = i
        for j in range(0 if window is None else max(0, i - window), i):
            if any(b in SRC[j] and SRC[j][b] != v for b, v in src.items()):
                s = max(s, E[j] + (i - j))
        e = s
        for t in ls:
            c = s
            while (any(bank_free.get(w % 32, 0) > c for w in sh_words(r, t)) or
                   any(gword_free.get(g, 0) > c for g in gl_words(r, t))):
                c += 1
            for w in sh_words(r, t):
                bank_free[w % 32] = c + 1
            for g in gl_words(r, t):
                gword_free[g] = c + 1
            e = max(e, c + 1)
        S.append(s)
        E.append(e)
        SRC.append(src)
    return max(E) if E else 0


def rule_l1(r, window=None):
    return sum(phase_cost(r, p, window) for p in phases(r) if p)


def rows():
    out = []
    for f, tag in (("cp_strided_h200.json", "strided"), ("cp_async_h200.json", "first")):
        for r in json.load(open(os.path.join(DATA, f)))["patterns"]:
            out.append(dict(r, set=tag))
    return out


def model(port, r):
    body = {k: r[k] for k in ("op", "bytes", "cache", "offsets", "global_offsets")}
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/conflicts",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    a = json.load(urllib.request.urlopen(req))
    return a["source_wavefronts"], a["wavefronts_exact"]


def atomics(port):
    """atomic_used_h200.json against the model's cycles and wavefronts (--port needed)."""
    d = json.load(open(os.path.join(DATA, "atomic_used_h200.json")))
    n = ok_w = ok_c = 0
    for r in d["patterns"]:
        body = {k: r[k] for k in ("op", "func", "type", "value", "guard", "offsets")}
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/conflicts",
                                     data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        a = json.load(urllib.request.urlopen(req))
        mc = a["cycles"]
        n += 1
        ok_w += a["wavefronts"] == r["wavefronts"]
        ok_c += abs(mc - r["cycles"]) <= 0.02 * r["cycles"]
        print(f"  {r['name']:22s} wavefronts {r['wavefronts']:g} (model {a['wavefronts']})  "
              f"cycles w8 {r.get('cycles_w8')} w16 {r['cycles']} w32 {r.get('cycles_w32')}  "
              f"model {mc:.3f}")
    print(f"atomics: {n} rows; model wavefronts exact on {ok_w}, cycles within 2% of the "
          f"16-warp clock64 on {ok_c}")


def main():
    if "--atomics" in sys.argv:
        return atomics(int(sys.argv[sys.argv.index("--port") + 1]))
    port = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else None
    misses = "--misses" in sys.argv
    rs = rows()
    for tag in ("strided", "first"):
        for cache in ("ca", "cg"):
            sel = [r for r in rs if r["set"] == tag and r["cache"] == cache]
            line_ = f"{tag:8s} .{cache}: {len(sel)} rows"
            if cache == "ca":
                ok = sum(rule_l1(r) == r["wavefronts"] for r in sel)
                ok1 = sum(rule_l1(r, 1) == r["wavefronts"] for r in sel)
                line_ += f"; L1 exact on {ok} (comparing line i-1 alone: {ok1})"
            if port:
                m = [(r, *model(port, r)) for r in sel]
                ok = sum(w == r["wavefronts"] for r, w, _ in m)
                bad_exact = sum(x and w != r["wavefronts"] for r, w, x in m)
                line_ += f"; model exact on {ok} (answers wavefronts_exact: true on {bad_exact} it misses)"
            print(line_)
            if misses:
                for r in sel:
                    l1 = rule_l1(r) if cache == "ca" else None
                    mw = model(port, r) if port else (None, None)
                    if (l1 is not None and l1 != r["wavefronts"]) or (port and mw[0] != r["wavefronts"]):
                        print(f"  {r['name']:36s} measured {r['wavefronts']:g}  L1 {l1}  "
                              f"model {mw[0]} exact={mw[1]}")


if __name__ == "__main__":
    main()
