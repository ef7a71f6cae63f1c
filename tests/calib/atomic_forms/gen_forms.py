#!/usr/bin/env python3
"""gen_forms.py: writes forms_probe.cu and patterns.txt, the sweep of issue 23
part 1: shared-memory atomics as people write them (CUDA's atomicAdd/Sub/Inc/
Dec in C++, and PTX atom/red with immediates, warp-uniform and per-lane
values, result used or not), each timed UNCONDITIONALLY (no setp + @p, so
ptxas adds no BSSY + BRA around the ATOMS) and, for a few, also guarded by
`if (lane is active)` as a bounds-checked histogram is written.
It must not change ../atomics (the issue-17 sweep and its data stay as measured).
Stdlib only.  Usage: python3 gen_forms.py [--check]
run.sh writes forms_probe.cu with it (untracked), builds it with
nvcc -O3 -std=c++17 -arch=sm_90 and runs it.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, width, statement, result used, guarded).  In a statement $P is this
# lane's (unsigned *) for access k (smem + off + k*256: 256 bytes apart, as the
# issue-17 probe), $I the same as int *, $O the byte offset k*256 from `a` (the
# lane's shared address), $d / $e where a used 32- / 64-bit result goes.
def forms():
    f = []
    C = lambda name, stmt, used=False, guard=False: f.append((name, 4, stmt, used, guard))
    # CUDA C++ as written
    C("cu_add_1", "atomicAdd($P, 1u);")
    C("cu_add_1_used", "$d = atomicAdd($P, 1u);", used=True)
    C("cu_add_1_s32", "atomicAdd($I, 1);")
    C("cu_add_m1_s32", "atomicAdd($I, -1);")
    C("cu_add_2", "atomicAdd($P, 2u);")
    C("cu_add_7", "atomicAdd($P, 7u);")
    C("cu_add_uni", "atomicAdd($P, uni);")
    C("cu_add_uni_used", "$d = atomicAdd($P, uni);", used=True)
    C("cu_add_lane", "atomicAdd($P, lanev);")
    C("cu_add_lane_used", "$d = atomicAdd($P, lanev);", used=True)
    C("cu_sub_1", "atomicSub($P, 1u);")
    C("cu_sub_1_used", "$d = atomicSub($P, 1u);", used=True)
    C("cu_inc_max", "atomicInc($P, 0xffffffffu);")
    C("cu_inc_15", "atomicInc($P, 15u);")
    C("cu_dec_max", "atomicDec($P, 0xffffffffu);")
    C("cu_inc_max_used", "$d = atomicInc($P, 0xffffffffu);", used=True)
    C("cu_add_1_if", "if (act) atomicAdd($P, 1u);", guard=True)
    C("cu_add_lane_if", "if (act) atomicAdd($P, lanev);", guard=True)
    C("cu_add_1_used_if", "if (act) $d = atomicAdd($P, 1u);", used=True, guard=True)
    # PTX as written in inline asm
    A = lambda name, ptx, used=False, guard=False, w=4: f.append(
        (name, w, ptx, used, guard))
    A("red_add_u32_i1", 'asm volatile("red.shared.add.u32 [%0+$O], 1;" :: "r"(a) : "memory");')
    A("red_add_s32_im1", 'asm volatile("red.shared.add.s32 [%0+$O], -1;" :: "r"(a) : "memory");')
    A("red_add_u32_i2", 'asm volatile("red.shared.add.u32 [%0+$O], 2;" :: "r"(a) : "memory");')
    A("red_inc_u32_imax", 'asm volatile("red.shared.inc.u32 [%0+$O], -1;" :: "r"(a) : "memory");')
    A("red_dec_u32_imax", 'asm volatile("red.shared.dec.u32 [%0+$O], -1;" :: "r"(a) : "memory");')
    A("red_add_u32_uni", 'asm volatile("red.shared.add.u32 [%0+$O], %1;" :: "r"(a), "r"(uni) : "memory");')
    A("red_add_u32_lane", 'asm volatile("red.shared.add.u32 [%0+$O], %1;" :: "r"(a), "r"(lanev) : "memory");')
    A("atom_add_u32_i1_used", 'asm volatile("atom.shared.add.u32 %0, [%1+$O], 1;" : "=r"($d) : "r"(a) : "memory");', used=True)
    A("atom_add_u32_i1_unused", 'asm volatile("{.reg .u32 x; atom.shared.add.u32 x, [%0+$O], 1;}" :: "r"(a) : "memory");')
    A("atom_add_u32_lane_used", 'asm volatile("atom.shared.add.u32 %0, [%1+$O], %2;" : "=r"($d) : "r"(a), "r"(lanev) : "memory");', used=True)
    A("red_xor_b32_lane", 'asm volatile("red.shared.xor.b32 [%0+$O], %1;" :: "r"(a), "r"(lanev) : "memory");')
    A("red_max_s32_lane", 'asm volatile("red.shared.max.s32 [%0+$O], %1;" :: "r"(a), "r"(lanev) : "memory");')
    A("atom_exch_b32_used", 'asm volatile("atom.shared.exch.b32 %0, [%1+$O], %2;" : "=r"($d) : "r"(a), "r"(lanev) : "memory");', used=True)
    A("atom_cas_b32_used", 'asm volatile("atom.shared.cas.b32 %0, [%1+$O], %2, %3;" : "=r"($d) : "r"(a), "r"(lanev), "r"(uni) : "memory");', used=True)
    # the issue-17 probe's own guard: setp + @p on a lane-dependent predicate
    A("red_add_u32_lane_p", 'asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; @p red.shared.add.u32 [%0+$O], %2;}" :: "r"(a), "r"(act), "r"(lanev) : "memory");', guard=True)
    A("red_add_u32_i1_p", 'asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; @p red.shared.add.u32 [%0+$O], 1;}" :: "r"(a), "r"(act) : "memory");', guard=True)
    A("red_add_s32_i1", 'asm volatile("red.shared.add.s32 [%0+$O], 1;" :: "r"(a) : "memory");')
    A("atom_inc_u32_imax_used", 'asm volatile("atom.shared.inc.u32 %0, [%1+$O], -1;" : "=r"($d) : "r"(a) : "memory");', used=True)
    A("atom_exch_b64_used", 'asm volatile("atom.shared.exch.b64 %0, [%1+$O], %2;" : "=l"($e) : "r"(a), "l"(lanel) : "memory");', used=True, w=8)
    A("atom_cas_b64_used", 'asm volatile("atom.shared.cas.b64 %0, [%1+$O], %2, %3;" : "=l"($e) : "r"(a), "l"(lanel), "l"(unil) : "memory");', used=True, w=8)
    return f


# What each form is as a /api/conflicts request (op, func, type, value, guard):
# the PTX it is (nvcc -ptx: CUDA's atomicAdd/Sub/Inc/Dec on shared memory are
# atom.shared.add/inc/dec.u32, atomicSub(p, 1) an add of -1, int too), an atom
# whose result is unused as red (the same SASS, issue 17's A4), and the guard:
# "each" where ptxas branches around every atomic (setp + @p), "none" where no
# branch is per atomic (unconditional, or one `if` around the 8 of an iteration).
def request(name):
    used = name.endswith("_used") or "_used_" in name
    op = "atom" if used else "red"
    func = "inc" if "_inc_" in name else "dec" if "_dec_" in name else \
        "xor" if "_xor_" in name else "max" if "_max_" in name else \
        "exch" if "_exch_" in name else "cas" if "_cas_" in name else "add"
    typ = "b64" if name.endswith("b64_used") else "s32" if ("_s32_i" in name or "max_s32" in name) \
        else "b32" if func in ("xor", "exch", "cas") else "u32"
    if func in ("exch", "cas"):
        op = "atom"
    tail = name.split("_")
    if "uni" in tail:
        value = "uniform"
    elif "lane" in tail or func in ("xor", "max", "exch", "cas"):
        value = "lane"
    elif "_sub_1" in name or "_m1" in name or "imax" in tail or "max" in tail or "im1" in tail:
        value = -1
    else:
        value = int(next(t.lstrip("i") for t in tail[2:] if t.lstrip("i").isdigit()))
    guard = "each" if name.endswith("_p") else "once" if name.endswith("_if") else "none"
    return {"op": op, "func": func, "type": typ, "value": value, "guard": guard}


def kernel(i, name, w, stmt, used, guard):
    body = []
    for k in range(8):
        s = stmt.replace("$P", f"(P0 + {k * 64})").replace("$I", f"(I0 + {k * 64})") \
                .replace("$O", f"{k * 256}").replace("$d", f"d[{k}]").replace("$e", f"e[{k}]")
        body.append(s)
    use = ""
    if used:
        use = "acc += " + " + ".join(f"(unsigned)(d[{k}] + e[{k}])" for k in range(8)) + ";"
    return f'''
__global__ void __launch_bounds__(512, 1) k{i}(Args g) {{
  extern __shared__ __align__(16) unsigned char smem[];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  unsigned *P0 = (unsigned *)(smem + g.off[lane]);
  int *I0 = (int *)P0; (void)I0; (void)P0;
  const unsigned a = (unsigned)__cvta_generic_to_shared(smem) + g.off[lane]; (void)a;
  const unsigned act = (g.active >> lane) & 1u; (void)act;
  const unsigned uni = g.seed, lanev = g.seed + lane; (void)uni; (void)lanev;
  const unsigned long long unil = uni, lanel = lanev; (void)unil; (void)lanel;
  unsigned d[8] = {{0}}; unsigned long long e[8] = {{0}}; (void)d; (void)e;
  unsigned acc = 0;
  __syncthreads();
  long long t0 = clock64();
  #pragma unroll 1
  for (int i = 0; i < g.iters; i++) {{
    {chr(10).join("    " + b for b in body)}
    {use}
  }}
  long long t1 = clock64();
  __syncthreads();
  if (lane == 0) {{ g.t0[warp] = t0; g.t1[warp] = t1; }}
  g.sink[threadIdx.x] = acc;
}}'''


MAIN = r'''
typedef void (*KF)(Args);
static KF kf[] = {KF_LIST};
static const char *kn[] = {KN_LIST};
static const int kw[] = {KW_LIST};
static const int kg[] = {KG_LIST};   /* guarded: runs partial warps too */
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 4; } } while (0)
int main(int argc, char **argv) {
  /* stdin: "name width active_hex o0 .. o31"; argv[1] iters, argv[2] warps.
     Unguarded kernels run full warps only (every lane does the atomic). */
  int iters = atoi(argv[1]), warps = atoi(argv[2]);
  long long *t0, *t1; unsigned *sink;
  CK(cudaMalloc(&t0, 64 * 8)); CK(cudaMalloc(&t1, 64 * 8)); CK(cudaMalloc(&sink, 2048 * 4));
  int nk = sizeof kf / sizeof kf[0];
  for (int i = 0; i < nk; i++) CK(cudaFuncSetAttribute(kf[i], cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  char name[128]; int w; unsigned act; unsigned off[32];
  while (scanf("%127s %d %x", name, &w, &act) == 3) {
    for (int t = 0; t < 32; t++) if (scanf("%u", &off[t]) != 1) return 3;
    for (int i = 0; i < nk; i++) {
      if (kw[i] != w || (!kg[i] && act != 0xffffffffu)) continue;
      Args a; memcpy(a.off, off, sizeof off); a.active = act; a.seed = 12345; a.iters = iters;
      a.t0 = t0; a.t1 = t1; a.sink = sink;
      double best = 1e30;
      for (int rep = 0; rep < (iters > 8 ? 3 : 1); rep++) {
        kf[i]<<<1, warps * 32, 64 * 1024>>>(a);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        long long h0[64], h1[64];
        CK(cudaMemcpy(h0, t0, warps * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h1, t1, warps * 8, cudaMemcpyDeviceToHost));
        long long mn = h0[0], mx = h1[0];
        for (int k = 0; k < warps; k++) { if (h0[k] < mn) mn = h0[k]; if (h1[k] > mx) mx = h1[k]; }
        double c = (double)(mx - mn) / ((double)warps * iters * 8);
        if (c < best) best = c;
      }
      printf("%s,%s,%.4f\n", kn[i], name, best);
      fflush(stdout);
    }
  }
  return 0;
}
'''


def source():
    fs = forms()
    src = ("// forms_probe.cu: GENERATED by gen_forms.py (issue 23 part 1); do not edit.\n"
           "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cuda_runtime.h>\n"
           "struct Args { unsigned off[32]; unsigned active; unsigned seed; int iters;"
           " long long *t0, *t1; unsigned *sink; };\n")
    src += "".join(kernel(i, *f) for i, f in enumerate(fs))
    src += (MAIN.replace("KF_LIST", ",".join(f"k{i}" for i in range(len(fs))))
            .replace("KN_LIST", ",".join(f'"{f[0]}"' for f in fs))
            .replace("KW_LIST", ",".join(str(f[1]) for f in fs))
            .replace("KG_LIST", ",".join("1" if f[4] else "0" for f in fs)))
    return src


def patterns():
    """issue 17's 4- and 8-byte patterns and floor patterns, plus histogram shapes
    that tell merging by address from merging by bank."""
    lines = open(os.path.join(HERE, "../atomics/patterns.txt")).read().splitlines()
    lines += open(os.path.join(HERE, "../atomics/patterns_floor.txt")).read().splitlines()
    full = "ffffffff"
    extra = []
    # g groups of 32/g lanes, each group on its own word of bank 0 (g-way in
    # distinct words; 32/g lanes per word)
    for g in (2, 4, 8, 16):
        extra.append((f"h4_bank0_words{g}", [(t % g) * 128 for t in range(32)]))
    # g words in distinct banks, lanes spread over them
    for g in (2, 8):
        extra.append((f"h4_banks_words{g}", [(t % g) * 4 for t in range(32)]))
    # 2 words of bank 0 taken by 31 and 1 lanes
    extra.append(("h4_bank0_31_1", [0] * 31 + [128]))
    # 64 bins of 4 B, lanes t -> (t*7) % 64: 32 distinct words, two per bank for 16 banks
    extra.append(("h4_bins64_t7", [((t * 7) % 64) * 4 for t in range(32)]))
    for n, offs in extra:
        lines.append(" ".join([n, "4", full] + [str(o) for o in offs]))
    return "\n".join(lines) + "\n"


def masks():
    """patterns_masks.txt (--masks): the lanes-off shapes behind A10's atom
    floor (cu_add_1_used_if: 1.06 with 16 or 1 lanes on, 1.21 with 31): every
    lane on its own word of its own bank (1 wavefront), with the first k lanes
    on (k = 1..32), the last k, all but lane j, and strided masks; only the
    guarded forms run partial warps."""
    out = []

    def emit(name, mask):
        out.append(" ".join([name, "4", f"{mask:08x}"] + [str(4 * t) for t in range(32)]))
    for k in range(1, 33):
        emit(f"mk_first{k}", (1 << k) - 1)
    for k in (1, 2, 4, 8, 16, 24, 28, 30, 31):
        emit(f"mk_last{k}", ((1 << k) - 1) << (32 - k))
    for j in (0, 1, 7, 8, 15, 16, 24, 30, 31):
        emit(f"mk_hole{j}", 0xffffffff & ~(1 << j))
    for name, m in (("mk_even", 0x55555555), ("mk_odd", 0xaaaaaaaa), ("mk_every4", 0x11111111),
                    ("mk_hole0_31", 0x7ffffffe), ("mk_hole_16_31", 0x7fff7fff)):
        emit(name, m)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import json
    if "--masks" in sys.argv:
        sys.path.insert(0, os.path.join(HERE, ".."))
        import ncu_raw
        ncu_raw.write_or_check(os.path.join(HERE, "patterns_masks.txt"), masks(), "gen_forms.py --masks",
                               "patterns")
        sys.exit(0)
    out = {"forms_probe.cu": source(), "patterns.txt": patterns(),
           "requests.json": json.dumps({f[0]: request(f[0]) for f in forms()}, indent=0) + "\n"}
    stale = []
    for fn, text in out.items():
        path = os.path.join(HERE, fn)
        if "--check" in sys.argv and fn.endswith(".cu"):
            continue   # generated at run time (run.sh), not tracked
        if "--check" in sys.argv:
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(fn)
        else:
            open(path, "w").write(text)
    if stale:
        print("STALE: run gen_forms.py:", " ".join(stale))
        sys.exit(1)
    print(f"{len(forms())} forms, {out['patterns.txt'].count(chr(10))} patterns")
