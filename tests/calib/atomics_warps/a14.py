#!/usr/bin/env python3
"""a14.py - a Python copy of rule A14 (server/model/atomic_warps.c, atomic_warps_cycles) to
explore it against the tool's measured atomic rows (issue 41).  Team-written calibration
tooling: the server never reads it, and the C rule stays the one answer; keep the two equal
(`a14.py --c DUMP` compares them row by row, DUMP being a14_dump.c's output on the
data files).  Usage:
  a14.py                 per data file: rows answered exact, outside 2%, within 2% not exact
  a14.py --rows          also every row outside 2% or answered not exact
  a14.py --grid OP       measured / model per (wavefronts, warps) of atomic_warps_all
The floor (atomic.c's 16-warp answer for these rows: 1.02 cycles at one wavefront, else the
wavefronts) is applied as atomic_warps_apply does."""
import json
import os
import sys

SUBS, ISSUE, RED_LOOP, ATOM_TRIP, ATOM_SHARED = 4, 4.0, 8.05, 42.04, 75.1
LONE, LONE_LAST, TAIL_SLIP, N1_SLIP, PAIR_SLIP = 2.0, 2.0, 0.08, 1.7, 3.03


def iteration(op, per, w, k, wait=0.0):
    """One warp's iteration on a sub-partition holding k warps (A14's chain), its atomics
    each waiting `wait` cycles for the pipe besides."""
    path = 8 * LONE * w if k == 1 else 0
    if op == 'red':
        return max(8 * per + RED_LOOP, path) + 8 * wait
    last = LONE * w if k == 1 else w
    t = max(7 * per + last, path - LONE_LAST) + ATOM_TRIP
    return (ATOM_SHARED if k > 1 and t < ATOM_SHARED else t) + 8 * wait


def fair_shares(left, want):
    """Max-min fair shares of one wavefront a cycle over the busy sub-partitions."""
    busy = sorted([s for s in range(SUBS) if left[s] > 1e-9], key=lambda s: want[s])
    share, cap = [0.0] * SUBS, 1.0
    for i, s in enumerate(busy):
        fair = cap / (len(busy) - i)
        share[s] = want[s] if want[s] <= fair + 1e-12 else fair
        cap -= share[s]
    return busy, share


def demands(op, per, w, k, wait):
    return [w * min(8.0 * k[s] / iteration(op, per, w, k[s], wait[s]), 1 / per) if k[s] else 0.0
            for s in range(SUBS)]


def a14(op, w, warps):
    """(cycles per instruction without the floor, exact, bound) as atomic_warps_cycles."""
    per = max(float(w), ISSUE)
    wf = float(w)
    k = [warps // SUBS + (s < warps % SUBS) for s in range(SUBS)]
    left = [8.0 * k[s] for s in range(SUBS)]
    want = demands(op, per, wf, k, [0.0] * SUBS)
    busy, share = fair_shares(left, want)
    ncap = sum(share[s] < want[s] - 1e-12 for s in busy)
    t = 0.0
    n1 = n3 = capped = paced = full = False
    if op == 'atom' and 1 in k and ncap:
        # lone atom warps beside a capped sub-partition: no tail, paced warps wait
        wait = [ncap * wf / 2 if k[s] and share[s] >= want[s] - 1e-12 and
                want[s] < wf / per - 1e-12 else 0.0 for s in range(SUBS)]
        want = demands(op, per, wf, k, wait)
        t = max([8.0 * warps * wf] + [8.0 * k[s] * wf / want[s] for s in range(SUBS) if k[s]])
        if warps == SUBS - 1 and (warps - 1) / LONE == 1 and LONE * wf > per:
            t += warps * PAIR_SLIP      # three lone warps: two fill the pipe in a round trip
        full, busy = True, []
    while busy:
        issue = trip = pipe = False
        rounds = 0.0
        for s in busy:
            if share[s] < want[s] - 1e-12:
                pipe = True
            elif want[s] >= wf / per - 1e-12:
                issue = True
                rounds += 1 / (8.0 * k[s] * per)
            else:
                trip = True
        n1 |= issue and trip
        n3 |= (len(busy) == 1 and k[busy[0]] == 2 and LONE * wf > per and
               TAIL_SLIP / wf > 0.015)
        capped |= pipe
        paced |= trip
        dt = min(left[s] * wf / share[s] for s in busy)
        for s in busy:
            left[s] -= share[s] * dt / wf
        t += dt + (N1_SLIP * rounds * dt if issue and trip else 0.0)
        busy, share = fair_shares(left, want)
    n2 = (op == 'atom' and SUBS - 1 <= warps <= SUBS + 1 and w >= 2 and
          8.0 * wf * (warps - SUBS if warps > SUBS else 0) < ATOM_TRIP)
    bound = ('N3' if n3 else 'N1' if n1 else 'N2' if n2 else 'full' if full else
             'pipe' if capped else 'trip' if paced else 'issue')
    return t / (8.0 * warps), not (n1 or n2 or n3), bound


def answer(op, w, warps):
    """What /api/conflicts answers for one of the tool's rows at `warps`: (cycles, exact)."""
    floor = 1.02 if w == 1 else float(w)
    if warps == 16:
        return floor, True, 'atomic.c'
    c, exact, bound = a14(op, w, warps)
    return max(c, floor), exact, bound


HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, '..', '..', 'data'))
FILES = ['atomic_warps_all_h200.json', 'atomic_warps_h200.json', 'atomic_warps_repeat_h200.json',
         'atomic_warps_ncu_h200.json']


def rows(name):
    for p in json.load(open(os.path.join(DATA, name)))['patterns']:
        w = wavefronts(p['offsets'])
        yield p, w


def wavefronts(offsets):
    """Lanes per bank, the most over the banks: these rows' ATOMS serialize lanes on one
    word too (the lane's value, no ATOMS.POPC.INC), so "same" is 32."""
    banks = {}
    for o in offsets:
        banks[o // 4 % 32] = banks.get(o // 4 % 32, 0) + 1
    return max(banks.values())


def main():
    args = sys.argv[1:]
    if args[:1] == ['--c']:
        bad = n = 0
        for line in open(args[1]):
            f, name, warps, iters, w, floor, cyc, ex = line.split('|')[0].split()[:8]
            op = name.split('_')[0]
            r = answer(op, int(w), int(warps))
            n += 1
            if abs(r[0] - float(cyc)) > 1e-9 or r[1] != bool(int(ex)):
                bad += 1
                print('differs', f, name, warps, r, cyc, ex)
        print('%d rows compared, %d differ' % (n, bad))
        return
    for name in FILES:
        ex = out = flag = n = 0
        for p, w in rows(name):
            c, e = answer(p['op'], w, p['warps'])[:2]
            near = abs(c - p['cycles']) <= 0.02 * c
            n += 1
            ex += e
            out += not near
            flag += near and not e
            if '--rows' in args and (not near or not e):
                print('  %-22s %2d warps: measured %8.4f model %8.4f (%+5.1f%%) %s %s' % (
                    p['name'], p['warps'], p['cycles'], c, 100 * (c / p['cycles'] - 1),
                    'exact' if e else 'not-exact', '' if near else 'OUTSIDE'))
        print('%s: %d rows, %d exact, %d outside 2%%, %d within 2%% not exact' % (name, n, ex, out,
                                                                                   flag))
    if args[:1] == ['--grid']:
        op = args[1]
        cells = {}
        for p, w in rows(FILES[0]):
            if p['op'] == op:
                cells.setdefault((w, p['warps']), []).append(p['cycles'])
        for w in sorted(set(k[0] for k in cells)):
            print('%s deg%d' % (op, w))
            for warps in range(1, 33):
                m = cells[(w, warps)]
                c, e, b = answer(op, w, warps)
                print('  %2d warps: measured %8.4f..%8.4f model %8.4f %+5.1f%% %s %s' % (
                    warps, min(m), max(m), c, 100 * (c / min(m) - 1), 'E' if e else '-', b))


if __name__ == '__main__':
    main()
