#!/usr/bin/env python3
"""placement_summary.py - summarises run_placement.sh's raw readings (issue 41): per op,
warp count and pad (the loop's start in its kernel), the median, min and max over every
timed launch (3 processes x 30, warm-up dropped), the range of the tool's own statistic
(the fastest of 5 consecutive launches, 18 groups), and a class:
  stable     max/min - 1 <= 1%
  two-state  sorted readings have one gap > 2% of the median with >= 3 launches each side
  spread     otherwise (launch to launch, no single gap)
plus, per op and warp count, how far the pads' medians lie apart.  It reads data only;
it models nothing.  Usage: placement_summary.py RAW [RAW2] (RAW2: a COPIES=2 run, whose
copy 1 is shown beside copy 0)."""
import collections
import statistics as st
import sys

LOOP = {'atom': 0x160, 'red': 0x140}   # loop start at pad 0 (sass_placement.txt)


def load(path):
    r = collections.defaultdict(list)
    for ln in open(path):
        f = ln.split()
        if int(f[4]) == 0:
            continue
        r[(f[1], int(f[2]), int(f[3]), int(f[7]) if len(f) > 7 else 0)].append(
            (int(f[0]), float(f[6])))
    return r


def klass(v):
    s = sorted(v)
    if s[-1] / s[0] - 1 <= 0.01:
        return 'stable'
    m = st.median(s)
    for i in range(3, len(s) - 2):
        if (s[i] - s[i - 1]) / m > 0.02:
            return 'two-state'
    return 'spread'


def fastest5(pv):
    out = []
    for p in sorted({p for p, _ in pv}):
        c = [x for q, x in pv if q == p]
        out += [min(c[i:i + 5]) for i in range(0, len(c) - 4, 5)]
    return out


def main():
    runs = [load(a) for a in sys.argv[1:]]
    keys = runs[0]
    for op in ('atom', 'red'):
        for w in sorted({k[2] for k in keys}):
            meds = []
            print(f'{op} {w} warps: pad loop mod128 | median min max | fastest-of-5 range | class'
                  + (' | copy1 median class' if len(runs) > 1 else ''))
            for pad in range(16):
                pv = keys[(op, pad, w, 0)]
                v = [x for _, x in pv]
                f5 = fastest5(pv)
                meds.append(st.median(v))
                line = (f'  {pad:2d} {LOOP[op] + 16 * pad:#05x} {(LOOP[op] + 16 * pad) % 128:3d} | '
                        f'{st.median(v):.4f} {min(v):.4f} {max(v):.4f} | {min(f5):.4f}..{max(f5):.4f} | {klass(v)}')
                if len(runs) > 1 and (op, pad, w, 1) in runs[1]:
                    v1 = [x for _, x in runs[1][(op, pad, w, 1)]]
                    line += f' | {st.median(v1):.4f} {klass(v1)}'
                print(line)
            print(f'  pads: medians {min(meds):.4f}..{max(meds):.4f} '
                  f'({100 * (max(meds) / min(meds) - 1):.1f}% apart)')


if __name__ == '__main__':
    main()
