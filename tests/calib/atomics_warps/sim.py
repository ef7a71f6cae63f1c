#!/usr/bin/env python3
"""sim.py - an exploratory cycle-level simulation of the tool's atomic loops (issue 41), to
decide whether a scheduler-level rule can replace A14's fluid shares.  It is calibration
tooling, not the product: the server answers with A14 (server/model/atomic_warps.c), and
nothing here is read by it.  Usage: sim.py OP LAT [W,W,...]: the simulated cycles per
instruction against tests/data/atomic_warps_all_h200.json, per wavefront count and warp count.

The machine, as the SASS (sass_sm90.txt) and the 1-warp rows have it:
  - each warp runs its loop in order: red = U A A I A A A A A A B, atom = A U A I A A A A A A
    X1 X2 X3 X4 L B (X: the fold, X1 needs results 0-2, X2 3-4, X3 5-6, X4 7; ALU latency 4);
  - warp i on sub-partition i % 4; each sub-partition issues at most one instruction a cycle,
    from the ready warp whose last atomic is oldest (loose round robin by atomic);
  - an ATOMS goes into its sub-partition's one-entry queue; a warp's atomics are at least
    max(4, 2 w) cycles apart (w wavefronts); a taken branch costs BR cycles;
  - a queue drains to the one shared pipe no sooner than 4 cycles after its last, the pipe
    takes w cycles an atomic and serves the sub-partitions round robin; a result returns LAT
    cycles after its last wavefront.
Findings (2026-11-28): red at 1, 2, 4, 8, 32 wavefronts and 1..16 warps within 2% but for one
wavefront at 5 and 7 warps (+3.9%) and 4 wavefronts at 1-2 warps (-5.3%), with BR = 10; a
fixed-priority or greedy scheduler (same BR) misses 5-13 warps by 5-24%.  atom: one latency decides
5-8 warps at one wavefront by 15-20% (LAT 24 against 27), as the hardware itself moves
between runs there (README.md): not adopted."""
import collections, json, os, sys

RED = ['U', 'A', 'A', 'I', 'A', 'A', 'A', 'A', 'A', 'A', 'B']
ATOM = ['A', 'U', 'A', 'I', 'A', 'A', 'A', 'A', 'A', 'A', 'X1', 'X2', 'X3', 'X4', 'L', 'B']
NEED = {'X1': (0, 1, 2), 'X2': (3, 4), 'X3': (5, 6), 'X4': (7,)}
ISSUE, LONE, GAP, BR, ALU = 4, 2, 4, 10, 4
NEVER = 1 << 60


def sim(op, w, warps, iters, lat):
    """Cycles until every warp has run `iters` iterations of the loop."""
    prog = RED if op == 'red' else ATOM
    subs = [[i for i in range(warps) if i % 4 == s] for s in range(4)]
    pc, it, ready = [0] * warps, [0] * warps, [0] * warps
    last_a, k_of = [-NEVER] * warps, [0] * warps
    res = [[NEVER] * 8 for _ in range(warps)]
    queue, sub_last = [None] * 4, [-NEVER] * 4
    pipe_free, rr, done, t = 0, 0, 0, 0
    while done < warps:
        reqs = [s for s in range(4) if queue[s] and t >= sub_last[s] + ISSUE]
        if reqs and t >= pipe_free:
            g = next((rr + d) % 4 for d in range(4) if (rr + d) % 4 in reqs)
            rr = (g + 1) % 4
            wi, k = queue[g]
            queue[g] = None
            sub_last[g], pipe_free = t, t + w
            res[wi][k] = t + w + lat
        for s in range(4):
            for wi in sorted(subs[s], key=lambda x: (last_a[x], x)):
                if it[wi] >= iters or ready[wi] > t:
                    continue
                ins = prog[pc[wi]]
                if ins == 'A':
                    if queue[s] or t < last_a[wi] + max(GAP, LONE * w):
                        continue
                    queue[s] = (wi, k_of[wi])
                    res[wi][k_of[wi]] = NEVER
                    k_of[wi] += 1
                    last_a[wi], ready[wi] = t, t + 1
                elif ins[0] == 'X':
                    if t < max(res[wi][k] for k in NEED[ins]):
                        continue
                    ready[wi] = t + ALU
                else:
                    ready[wi] = t + (BR if ins == 'B' else 1)
                pc[wi] += 1
                if pc[wi] == len(prog):
                    pc[wi], k_of[wi] = 0, 0
                    it[wi] += 1
                    done += it[wi] == iters
                break
        t += 1
    return t


def main():
    op, lat = sys.argv[1], int(sys.argv[2])
    ws = [int(x) for x in sys.argv[3].split(',')] if len(sys.argv) > 3 else list(range(1, 17))
    here = os.path.dirname(os.path.abspath(__file__))
    rows = json.load(open(os.path.join(here, '..', '..', 'data', 'atomic_warps_all_h200.json')))
    meas = collections.defaultdict(list)
    for p in rows['patterns']:
        if p['op'] == op:
            d = 32 if p['name'].endswith('same') else int(p['name'].split('deg')[1])
            meas[(d, p['warps'])].append(p['cycles'])
    for d in (1, 2, 4, 8, 32):
        line = []
        for W in ws:
            c = sim(op, d, W, 64, lat) / (8 * W * 64)
            e = max((x / c - 1 for x in meas[(d, W)]), key=abs)
            line.append('%d:%+.1f%%' % (W, 100 * e))
        print(op, d, ' '.join(line))


if __name__ == '__main__':
    main()
