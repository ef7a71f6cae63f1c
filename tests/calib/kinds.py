#!/usr/bin/env python3
"""kinds.py: the instruction kinds the calibration scripts measure, read from
tests/data/ops.json, which is GET /api/ops's answer (server/model/instr.c's table;
test_api fails when the two differ, and `swizzlescope-measure --info --ops`
prints the same table on a GPU machine).  The scripts take their ncu metric
names from here instead of keeping a copy.  Stdlib only.

  kinds.py metrics     every metric the kinds name, one a line (for run_calib.sh)
"""
import json
import os
import sys

OPS_JSON = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'ops.json')


def kinds(path=OPS_JSON):
    """{name: row} of GET /api/ops, in the server's order."""
    with open(os.environ.get('SWZ_OPS_JSON', path)) as f:
        return {k['name']: k for k in json.load(f)['ops']}


def sass_twin(metric):
    """The SASS-counted twin of an executed-instruction metric
    (smsp__inst_executed_op_X -> smsp__sass_inst_executed_op_X), or None."""
    p = 'smsp__inst_executed_op_'
    return 'smsp__sass_inst_executed_op_' + metric[len(p):] if metric and metric.startswith(p) else None


def metrics(rows=None):
    """Every metric the kinds name, each once, in table order."""
    out = []
    for k in (rows or kinds()).values():
        for m in (k['ncu'][f] for f in ('source', 'wavefronts', 'conflicts', 'executed')):
            if m and m not in out:
                out.append(m)
    return out


if __name__ == '__main__':
    if sys.argv[1:] != ['metrics']:
        sys.exit(__doc__)
    print('\n'.join(metrics()))
