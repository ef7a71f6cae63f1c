#!/usr/bin/env python3
"""stagger_summary.py - summarises run_placement.sh's readings with STAGGERS_CSV (issue 41):
whether the warps' starting phase, set at run time, finds the fastest state of the atomic
loop every time, wherever the loop sits.  Per op and warp count:
  phase 0      the 16 pads' fastest-of-5 at stagger 0 (the tool's reading before) and how
               far apart the two processes' readings lie at the worst pad;
  all phases   the 16 pads' fastest over every stagger (6 launches each, warm-up dropped)
               and the worst disagreement between the two processes;
then, over every (op, warps, pad, process), how much the fastest moves when the stagger set
is cut to smaller sets.  It reads data only; it models nothing.
Usage: stagger_summary.py RAW (placement_raw.txt or .xz: PROC op pad warps launch span cpi
copy stagger)."""
import collections
import lzma
import sys


def load(path):
    r = collections.defaultdict(list)
    with (lzma.open(path, 'rt') if path.endswith('.xz') else open(path)) as f:
        for ln in f:
            v = ln.split()
            if int(v[4]) == 0:
                continue
            r[(v[1], int(v[3]), int(v[2]), int(v[8]), int(v[0]))].append(float(v[6]))
    return r


def main():
    r = load(sys.argv[1])
    stag = sorted({k[3] for k in r})
    procs = sorted({k[4] for k in r})
    pads = sorted({k[2] for k in r})
    warps = sorted({k[1] for k in r})
    print('staggers:', ','.join(map(str, stag)), '| processes:', len(procs), '| pads:', len(pads))
    print('op warps | phase 0: pads lo..hi (apart) worst proc-to-proc |'
          ' all phases: pads lo..hi (apart) worst proc-to-proc')
    for op in ('atom', 'red'):
        for w in warps:
            z = [[min(r[(op, w, p, 0, q)][:5]) for q in procs] for p in pads]
            a = [[min(min(r[(op, w, p, s, q)]) for s in stag) for q in procs] for p in pads]
            zl, zh = min(min(x) for x in z), max(min(x) for x in z)
            al, ah = min(min(x) for x in a), max(min(x) for x in a)
            zd = max(max(x) / min(x) - 1 for x in z)
            ad = max(max(x) / min(x) - 1 for x in a)
            print(f'{op:4} {w:2} | {zl:.4f}..{zh:.4f} ({zh / zl - 1:6.1%}) {zd:6.2%} |'
                  f' {al:.4f}..{ah:.4f} ({ah / al - 1:6.1%}) {ad:7.3%}')
    subsets = [[s for s in stag if s <= 48], [s for s in stag if s <= 12],
               [0, 2, 4, 6, 7, 8, 10, 12, 16, 24, 32, 48]]
    for sub in subsets:
        worst, at = 0.0, None
        for op in ('atom', 'red'):
            for w in warps:
                for p in pads:
                    for q in procs:
                        full = min(min(r[(op, w, p, s, q)]) for s in stag)
                        part = min(min(r[(op, w, p, s, q)]) for s in sub)
                        if part / full - 1 > worst:
                            worst, at = part / full - 1, (op, w, p, q)
        print(f'staggers {",".join(map(str, sub))}: fastest moves by up to {worst:.2%} {at}')


if __name__ == '__main__':
    main()
