#!/usr/bin/env python3
"""collect.py: joins one wgmma run.sh folder (clock.csv, ncu.csv, ncu_prog.txt,
sass.txt) with patterns.txt into tests/data/wgmma_reads_<device>.json: per
pattern the kernel (dtype, N, A from registers or shared, tnspA/B), both
descriptors' fields, ncu's op_gmma wavefronts and conflicts per warpgroup
instruction and the probe's clock64 per instruction.  Reports; never models.
Stdlib only.  Usage: collect.py OUTDIR DEVICE_TXT DATE OUT_JSON
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ncu_raw  # noqa: E402
from ncu_raw import num  # noqa: E402

METHOD = ("tests/calib/wgmma/wgmma_probe.cu (issue 23 part 4, sm_90a): one warpgroup (128 "
          "threads) issues wgmma.mma_async m64nNk* with B (and A unless 'areg') from shared "
          "memory through descriptors built from the row's fields (layout type 0 interleave, 1 "
          "128B, 2 64B, 3 32B; LBO, SBO, base offset, start byte offset from a 1024-aligned "
          "buffer; A at 0, B at 32768), each followed by commit_group + wait_group 0. ncu --page "
          "raw over a 4-instruction launch (3 launches per pattern: the last is kept): "
          "'wavefronts' = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma / 4, 'conflicts' = "
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma / 4 (per warpgroup "
          "instruction), 'arbitration' = l1tex__data_bank_conflicts_type_arbitration.sum over the "
          "launch, 'gmma_warp_instructions' = smsp__inst_executed_pipe_tensor_op_gmma.sum; "
          "'cycles' = clock64 per wgmma over 64 dependent, waited-for instructions (latency), "
          "best of 3. Operand bytes read per instruction: A 64 x K-bytes (2 KB) unless from "
          "registers, B N x K-bytes.")


def main():
    out, device_txt, date, dest = sys.argv[1:5]
    here = __file__.rsplit('/', 1)[0]
    pats = {}
    for line in open(f'{here}/patterns.txt'):
        f = line.split()
        v = list(map(int, f[2:12]))
        keys = ["layout_type", "lbo", "sbo", "base_offset", "start"]
        pats[f[0]] = {"kernel": f[1], "a": dict(zip(keys, v[:5])), "b": dict(zip(keys, v[5:]))}
    clock, prog, rows = ncu_raw.run_folder(out, 3)
    clock = {name: float(c) for name, _, c in clock}
    sass = ncu_raw.sass_seen(f'{out}/sass.txt', 'GMMA')
    res = []
    for i, (name, kern, _) in enumerate(prog):
        r = rows[3 * i + 2]
        p = {"name": name}
        p.update(pats[name])
        p.update({"wavefronts": num(r, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum') / 4,
                  "conflicts": num(r, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum') / 4,
                  "arbitration": num(r, 'l1tex__data_bank_conflicts_type_arbitration.sum'),
                  "gmma_warp_instructions": num(r, 'smsp__inst_executed_pipe_tensor_op_gmma.sum'),
                  "cycles": clock.get(name)})
        res.append(p)
    ncu_raw.dump(dest, ncu_raw.data_file(device_txt, date, METHOD, sass_seen=sass, patterns=res),
                 f"; SASS {sass}")


if __name__ == '__main__':
    main()
