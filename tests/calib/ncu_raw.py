"""ncu_raw.py: what the issue-23 calib scripts share: one run.sh folder read
(the probe's clock64 lines, the launches ncu profiled, the data rows of its
`ncu --csv --page raw` log), a metric of a row as a number, the opcodes of each
kernel in a `cuobjdump -sass` listing, a lane-pattern file, and a generator's
write-or-check.  Stdlib only; reads and writes files, never models."""
import collections
import csv
import io
import re


def rows(path):
    """The data rows of an ncu --csv --page raw log (the units row and ==PROF== lines dropped)."""
    lines = [l for l in open(path).read().splitlines() if l.startswith('"')]
    return [r for r in csv.DictReader(io.StringIO('\n'.join(lines))) if r.get('ID', '').isdigit()]


def num(r, m, absent=None):
    """Metric m of row r as a float ("1,536" reads 1536), `absent` when absent."""
    v = r.get(m)
    return float(v.replace(',', '')) if v not in (None, '', 'n/a') else absent


def run_folder(out, prog_fields):
    """One run.sh output folder OUT: (clock, prog, rows).  clock: the fields of
    each OUT/clock.csv line (the probe's timings, in order); prog: the fields of
    each OUT/ncu_prog.txt line with `prog_fields` fields (the launches ncu
    profiled, in order; its other lines are not launches); rows: rows(OUT/ncu.csv),
    one a profiled launch."""
    def fields(name):
        return [l.strip().split(',') for l in open(f'{out}/{name}')]
    prog = [f for f in fields('ncu_prog.txt') if len(f) == prog_fields]
    return fields('clock.csv'), prog, rows(f'{out}/ncu.csv')


def sass_seen(path, word):
    """The distinct opcodes (second field) of the lines of a cuobjdump -sass
    listing that hold `word` ("LDGSTS", "GMMA"), sorted."""
    return sorted({l.split()[1] for l in open(path) if word in l})


def lane_patterns(path):
    """{name: 32 offsets, None for a lane off} from a pattern file of lines
    `name width active_hex o0 .. o31` (atomics, atomic_forms)."""
    pats = {}
    for line in open(path):
        f = line.split()
        act, offs = int(f[2], 16), list(map(int, f[3:]))
        pats[f[0]] = [offs[t] if act >> t & 1 else None for t in range(32)]
    return pats


def sass_ops(path, kernel_name):
    """{kernel: Counter(opcode)} from cuobjdump -sass; kernel_name(function line) names a
    kernel or returns None for one to skip."""
    ops = collections.defaultdict(collections.Counter)
    kernel = None
    for line in open(path):
        if 'Function :' in line:
            kernel = kernel_name(line)
            continue
        m = re.search(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
        if m and kernel:
            ops[kernel][m.group(1)] += 1
    return ops


def write_or_check(path, text, generator, what):
    """A generator's last step: with --check in argv, exit 1 if `path` is not `text`
    (stale: run `generator`); else write it.  `what` names the lines ("patterns")."""
    import os
    import sys
    if "--check" in sys.argv:
        ok = os.path.exists(path) and open(path).read() == text
        print(f"{path}: {'up to date' if ok else 'STALE: run ' + generator}")
        sys.exit(0 if ok else 1)
    open(path, "w").write(text)
    print(f"{path}: {text.count(chr(10))} {what}")


def data_file(device_txt, date, method, **extra):
    """The head every issue-23 data file opens with (device and driver from an
    `nvidia-smi --query-gpu=name,driver_version` line, the toolchain, date,
    method), plus `extra` (sass_seen, metrics_requested, patterns...)."""
    name, driver = [x.strip() for x in open(device_txt).read().split(',')[:2]]
    meta = {"device": name, "driver": driver, "cc": "9.0", "date": date,
            "cuda": "13.0 (nvcc V13.0.88)", "ncu_version": "2025.3.1.0", "method": method}
    meta.update(extra)
    return meta


def dump(dest, meta, note=""):
    """Write `meta` to `dest` (one value a line) and say what was written."""
    import json
    with open(dest, 'w') as fh:
        json.dump(meta, fh, indent=0)
        fh.write('\n')
    print(f"{dest}: {len(meta['patterns'])} rows on {meta['device']}{note}")


def dump_rows(dest, meta):
    """Write `meta` to `dest` with its "patterns" one row a line (2000 rows of 70
    numbers stay readable in a diff) and say what was written."""
    import json
    rows = meta.pop("patterns")
    head = json.dumps(meta, indent=1)[:-2]
    with open(dest, "w") as fh:
        fh.write(head + ',\n"patterns": [\n' +
                 ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]}\n")
    print(f"{dest}: {len(rows)} rows on {meta['device']}")
