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

SUBS, ISSUE, RED_LOOP, ATOM_TRIP, ATOM_SHARED = 4, 4.0, 8.3, 44.3, 75.1
LONE, LONE_LAST, TAIL_SLIP = 2.0, 3.0, 0.08


def iteration(op, per, w, k):
    """One warp's iteration on a sub-partition holding k warps (A14's chain)."""
    path = 8 * LONE * w if k == 1 else 0
    if op == 'red':
        return max(8 * per + RED_LOOP, path)
    t = max(7 * per + w, path - LONE_LAST) + ATOM_TRIP
    return ATOM_SHARED if k > 1 and t < ATOM_SHARED else t


def a14(op, w, warps):
    """(cycles per instruction without the floor, exact, bound) as atomic_warps_cycles."""
    per = max(float(w), ISSUE)
    wf = float(w)
    left, want = [0.0] * SUBS, [0.0] * SUBS
    t = 0.0
    n1 = n3 = capped = paced = False
    for s in range(SUBS):
        k = warps // SUBS + (s < warps % SUBS)
        left[s] = 8.0 * k
        if k:
            chain = 8.0 * k / iteration(op, per, wf, k)
            want[s] = wf * (chain if chain < 1 / per else 1 / per)
    while True:
        busy = [s for s in range(SUBS) if left[s] > 1e-9]
        if not busy:
            break
        busy.sort(key=lambda s: want[s])          # stable, as the C insertion sort
        share, cap = [0.0] * SUBS, 1.0
        issue = trip = pipe = False
        for i, s in enumerate(busy):
            fair = cap / (len(busy) - i)
            share[s] = want[s] if want[s] <= fair + 1e-12 else fair
            cap -= share[s]
            if share[s] < want[s] - 1e-12:
                pipe = True
            elif want[s] >= wf / per - 1e-12:
                issue = True
            else:
                trip = True
        n1 |= issue and trip
        n3 |= (len(busy) == 1 and warps // SUBS + (busy[0] < warps % SUBS) == 2 and
               LONE * wf > per and TAIL_SLIP / wf > 0.015)
        capped |= pipe
        paced |= trip
        dt = min(left[s] * wf / share[s] for s in busy)
        for s in busy:
            left[s] -= share[s] * dt / wf
        t += dt
    n2 = (op == 'atom' and SUBS - 1 <= warps < 2 * SUBS and w >= 2 and
          8.0 * wf * (warps - SUBS if warps > SUBS else 0) < ATOM_TRIP)
    bound = ('N3' if n3 else 'N1' if n1 else 'N2' if n2 else 'pipe' if capped
             else 'trip' if paced else 'issue')
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
