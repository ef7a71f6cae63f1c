#!/usr/bin/env python3
"""atomic_sass.py - every atomic kernel of the measurement tool, as ptxas
compiled it for sm_90, against the SASS form the model names: for each
atomic_kernel<F, Each, V, I> instantiation (cuda/kernels.cu) the shared
atomics cuobjdump shows (ATOMS.*) and the branches around them (BSSY), and
POST /api/conflicts's "sass" for the request that kernel runs.  It only reads
the SASS and asks the server; it measures nothing and changes no data.

A native form passes when its ATOMS opcodes are exactly the model's one, and
guard "each" shows a BSSY per atomic (8) where guard "none" shows none, besides
the one BSSY of the starting-phase wait before the timed loop (kernels.cu:
`if (a.stagger)`, in every atomic kernel); a non-native form when the model's
ATOMS.CAST.SPIN is among its opcodes.
Usage: python3 tests/gpu/atomic_sass.py [SASS_FILE]   (no file: runs
cuobjdump -sass -arch sm_90 on build/swizzlescope-measure; needs cuobjdump,
which the GPU machines have).  Prints one line a kernel, then "N passed,
N failed".
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swzgpu  # noqa: E402

# _Z13atomic_kernelI13F_RED_ADD_U32Lb1ELi2ELin1EEv9ProbeArgs: F, Each, V, I
MANGLED = re.compile(r"atomic_kernelI\d+F_([A-Z]+)_([A-Z]+)_([A-Z0-9]+)Lb([01])ELi(\d+)ELi(n?\d+)E")
VALUES = {0: "lane", 1: "uniform"}   # kernels.cu's AV_LANE, AV_UNIFORM; 2 is AV_IMM
STAGGER_BSSY = 1   # the wait for the warp's starting phase, outside the timed loop


def kernels(sass_text):
    """[(mangled name, [opcodes])] of every atomic_kernel in the dump."""
    out, cur = [], None
    for line in sass_text.splitlines():
        if "Function :" in line:
            name = line.split("Function :")[1].strip()
            cur = (name, []) if "atomic_kernel" in name else None
            if cur:
                out.append(cur)
        elif cur is not None:
            m = re.search(r"\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
            if m:
                cur[1].append(m.group(2))
    return out


def request(name):
    m = MANGLED.search(name)
    if not m:
        return None
    op, fn, ty, each, v, imm = m.groups()
    value = VALUES.get(int(v), int(imm.replace("n", "-")))
    offsets = [4 * t for t in range(32)] if ty not in ("U64", "S64", "B64", "F64") \
        else [8 * t for t in range(32)]
    return {"op": op.lower(), "func": fn.lower(), "type": ty.lower(), "value": value,
            "guard": "each" if each == "1" else "none", "offsets": offsets}


def binary():
    """The tool's ELF: SWZ_MEASURE may be a wrapper script (bench/gpu_session.sh's,
    which sets LD_LIBRARY_PATH), which cuobjdump cannot read."""
    with open(swzgpu.TOOL, "rb") as f:
        elf = f.read(4) == b"\x7fELF"
    return swzgpu.TOOL if elf else os.path.join(swzgpu.ROOT, "build", "swizzlescope-measure")


def dump():
    return subprocess.run(["cuobjdump", "-sass", "-arch", "sm_90", binary()],
                          capture_output=True, text=True, check=True).stdout


def check_all(server, sass_text, report):
    """report(ok, line) for every kernel; returns (passed, failed)."""
    passed = failed = 0
    for name, ops in kernels(sass_text):
        req = request(name)
        if req is None:
            report(False, f"sass {name}: not an atomic_kernel<F, Each, V, I> name")
            failed += 1
            continue
        st, pred, _ = server.post("/api/conflicts", req)
        atoms = sorted(set(o for o in ops if o.startswith("ATOMS")))
        bssy = sum(o == "BSSY" for o in ops)
        want = (pred.get("atomic") or {}).get("sass") if st == 200 and isinstance(pred, dict) \
            else None
        native = st == 200 and pred.get("native")
        if native:
            ok = atoms == [want] and bssy == (8 if req["guard"] == "each" else 0) + STAGGER_BSSY
        else:
            ok = want is not None and want in atoms
        label = (f"{req['op']}.{req['func']}.{req['type']} value {req['value']} "
                 f"guard {req['guard']}")
        report(ok, f"sass {label}: {' '.join(atoms) or 'no ATOMS'}, {bssy} BSSY; model "
                   f"{want}{'' if native else ' (not native)'}")
        passed += ok
        failed += not ok
    return passed, failed


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            text = f.read()
    else:
        text = dump()

    def report(ok, line):
        print(("ok   " if ok else "FAIL ") + line, flush=True)

    with swzgpu.Server() as server:
        passed, failed = check_all(server, text, report)
    print(f"atomic_sass: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
