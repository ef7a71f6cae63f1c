#!/usr/bin/env python3
"""gen_probe.py: writes wgmma_probe.cu and patterns.txt, issue 23 part 4: wgmma
(HGMMA) reading A and B from shared memory through descriptors of every
layout type (0 interleave, 1 128B, 2 64B, 3 32B swizzle), K- and MN-major
(the tnsp immediates), f16, tf32 and e4m3, N 8/64/256, A from registers too;
canonical and deliberately mismatched LBO / SBO / base offsets.  The probe only
measures (ncu's op_gmma counters, clock64 per instruction); nothing is modelled.
Stdlib only.  Usage: python3 gen_probe.py [--check]
Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wgmma_probe wgmma_probe.cu
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, dtype ptx, k, n, a_from_regs, tnspA, tnspB)
KERNELS = []
for n in (8, 64, 256):
    for ta in (0, 1):
        for tb in (0, 1):
            KERNELS.append((f"f16_n{n}_a{ta}_b{tb}", "f16", 16, n, False, ta, tb))
for tb in (0, 1):
    KERNELS.append((f"f16_n64_areg_b{tb}", "f16", 16, 64, True, 0, tb))
KERNELS.append(("tf32_n64", "tf32", 8, 64, False, 0, 0))
KERNELS.append(("e4m3_n64", "e4m3", 32, 64, False, 0, 0))


def kernel(i, name, dt, k, n, areg, ta, tb):
    nacc = n // 2
    accs = ", ".join(f"%{j}" for j in range(nacc))
    outs = ", ".join(f'"+f"(c[{j}])' for j in range(nacc))
    if areg:
        a_ops = "{" + ", ".join(f"%{nacc + j}" for j in range(4)) + "}"
        b_op = f"%{nacc + 4}"
        ins = ", ".join(f'"r"(ar[{j}])' for j in range(4)) + ', "l"(db)'
        tail = f", 1, 1, 1, {tb}" if dt == "f16" else ", 1, 1, 1"
    else:
        a_ops, b_op = f"%{nacc}", f"%{nacc + 1}"
        ins = '"l"(da), "l"(db)'
        tail = f", 1, 1, 1, {ta}, {tb}" if dt == "f16" else ", 1, 1, 1"
    typ = {"f16": "f32.f16.f16", "tf32": "f32.tf32.tf32", "e4m3": "f32.e4m3.e4m3"}[dt]
    asm = (f'asm volatile("wgmma.mma_async.sync.aligned.m64n{n}k{k}.{typ} {{{accs}}}, '
           f'{a_ops}, {b_op}{tail};" : {outs} : {ins} : "memory");')
    return f'''
__global__ void __launch_bounds__(128, 1) k{i}(Args g) {{
  extern __shared__ __align__(1024) unsigned char smem[];
  float c[{nacc}];
  for (int j = 0; j < {nacc}; j++) c[j] = 0.f;
  unsigned ar[4] = {{0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u}}; (void)ar;
  unsigned base = (unsigned)__cvta_generic_to_shared(smem);
  for (unsigned q = threadIdx.x; q < 65536 / 4; q += 128) ((unsigned *)smem)[q] = 0x3c003c00u;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  unsigned long long da = g.da + ((base >> 4) & 0x3fff), db = g.db + ((base >> 4) & 0x3fff);
  long long t0 = clock64();
  #pragma unroll 1
  for (int it = 0; it < g.iters; it++) {{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    {asm}
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }}
  long long t1 = clock64();
  float s = 0.f;
  for (int j = 0; j < {nacc}; j++) s += c[j];
  g.sink[threadIdx.x] = s;
  if (threadIdx.x == 0) g.cyc[0] = t1 - t0;
}}'''


MAIN = r'''
typedef void (*KF)(Args);
static KF kf[] = {KF_LIST};
static const char *kn[] = {KN_LIST};
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(4); } } while (0)
/* descriptor: start addr (added on the device) | LBO>>4 << 16 | SBO>>4 << 32 |
   base offset << 49 | layout type << 62; start is the byte offset in smem. */
static unsigned long long desc(unsigned start, unsigned lbo, unsigned sbo, unsigned bo, unsigned lt) {
  return (unsigned long long)((start >> 4) & 0x3fff) | (unsigned long long)((lbo >> 4) & 0x3fff) << 16 |
         (unsigned long long)((sbo >> 4) & 0x3fff) << 32 | (unsigned long long)(bo & 7) << 49 |
         (unsigned long long)(lt & 3) << 62;
}
int main(int argc, char **argv) {
  /* stdin: "name kernel ltA lboA sboA boA startA ltB lboB sboB boB startB"; argv[1] iters */
  int iters = atoi(argv[1]);
  float *sink; long long *cyc;
  CK(cudaMalloc(&sink, 128 * 4)); CK(cudaMalloc(&cyc, 8));
  int nk = sizeof kf / sizeof kf[0];
  for (int i = 0; i < nk; i++) CK(cudaFuncSetAttribute(kf[i], cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  char name[128], kname[64];
  unsigned v[10];
  while (scanf("%127s %63s %u %u %u %u %u %u %u %u %u %u", name, kname, &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6], &v[7], &v[8], &v[9]) == 12) {
    int i = 0;
    while (i < nk && strcmp(kn[i], kname)) i++;
    if (i == nk) { printf("%s,%s,nokernel\n", name, kname); continue; }
    Args a; a.iters = iters; a.sink = sink; a.cyc = cyc;
    a.da = desc(v[4], v[1], v[2], v[3], v[0]) & ~0x3fffull;
    a.da |= (unsigned long long)((v[4] >> 4) & 0x3fff);
    a.db = desc(v[9], v[6], v[7], v[8], v[5]);
    /* the kernel adds the smem base to the start field: pass start only */
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      kf[i]<<<1, 128, 65536>>>(a);
      cudaError_t e = cudaGetLastError();
      if (e == cudaSuccess) e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("%s,%s,error %s\n", name, kname, cudaGetErrorString(e)); fflush(stdout); return 6; }
      long long h; CK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
      if (h < best) best = (double)h;
    }
    printf("%s,%s,%.3f\n", name, kname, best / iters);
    fflush(stdout);
  }
  return 0;
}
'''


def source():
    src = ("// wgmma_probe.cu: GENERATED by gen_probe.py (issue 23 part 4); do not edit.\n"
           "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cuda_runtime.h>\n"
           "struct Args { unsigned long long da, db; int iters; float *sink; long long *cyc; };\n")
    src += "".join(kernel(i, *k) for i, k in enumerate(KERNELS))
    src += (MAIN.replace("KF_LIST", ",".join(f"k{i}" for i in range(len(KERNELS))))
            .replace("KN_LIST", ",".join(f'"{k[0]}"' for k in KERNELS)))
    return src


# canonical K-major descriptors for a 64 x 16 f16 operand (32 B of K a row):
# interleave: 8x16 B core matrices, the two along K 128 B apart (LBO), the
# 8-row groups 256 B apart (SBO); swizzled: rows at the span, SBO 8 rows.
CANON = {0: (128, 256), 1: (16, 1024), 2: (16, 512), 3: (16, 256)}
LT_NAME = {0: "inter", 1: "sw128", 2: "sw64", 3: "sw32"}


def patterns():
    out = []
    A0, B0 = 0, 32768

    def add(name, k, a, b):
        out.append(" ".join([name, k] + [str(x) for x in a + b]))
    for lt in range(4):
        lbo, sbo = CANON[lt]
        for k in KERNELS:
            add(f"{k[0]}.{LT_NAME[lt]}.canon", k[0], [lt, lbo, sbo, 0, A0], [lt, lbo, sbo, 0, B0])
        for lbo2 in (16, 128, 256, 1024):
            for sbo2 in (16, 128, 256, 512, 1024, 2048):
                if (lbo2, sbo2) == (lbo, sbo):
                    continue
                add(f"f16_n64_a0_b0.{LT_NAME[lt]}.l{lbo2}_s{sbo2}", "f16_n64_a0_b0",
                    [lt, lbo2, sbo2, 0, A0], [lt, lbo2, sbo2, 0, B0])
        for bo in range(1, 8):
            add(f"f16_n64_a0_b0.{LT_NAME[lt]}.base{bo}", "f16_n64_a0_b0",
                [lt, lbo, sbo, bo, A0], [lt, lbo, sbo, bo, B0])
        # start offset off the swizzle atom: 16, 128, 512 bytes in
        for st in (16, 128, 512):
            add(f"f16_n64_a0_b0.{LT_NAME[lt]}.start{st}", "f16_n64_a0_b0",
                [lt, lbo, sbo, 0, A0 + st], [lt, lbo, sbo, 0, B0 + st])
        # A and B disagreeing on the layout type: B mislabelled
        for lt2 in range(4):
            if lt2 != lt:
                add(f"f16_n64_a0_b0.{LT_NAME[lt]}.b_as_{LT_NAME[lt2]}", "f16_n64_a0_b0",
                    [lt, lbo, sbo, 0, A0], [lt2, lbo, sbo, 0, B0])
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    files = {"wgmma_probe.cu": source(), "patterns.txt": patterns()}
    stale = [f for f, t in files.items()   # the .cu is generated at run time (run.sh)
             if "--check" in sys.argv and not f.endswith(".cu") and
             (not os.path.exists(os.path.join(HERE, f))
                                           or open(os.path.join(HERE, f)).read() != t)]
    if "--check" in sys.argv:
        print("STALE: " + " ".join(stale) if stale else "up to date")
        sys.exit(1 if stale else 0)
    for f, t in files.items():
        open(os.path.join(HERE, f), "w").write(t)
    print(f"{len(KERNELS)} kernels, {files['patterns.txt'].count(chr(10))} patterns")
