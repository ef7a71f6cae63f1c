#!/usr/bin/env python3
# gen_probe.py: writes atom_probe.cu (run from this folder, build with
# nvcc -O3 -arch=sm_90 -diag-suppress 550 -o atom_probe atom_probe.cu; run.sh runs it): one kernel per (op, func, type) accepted by ptxas for sm_90,
# timing 8 independent shared-memory atomics per loop iteration with clock64.
import json
combos=[k for k,v in json.load(open('ptxas_sm90.json')).items() if v['ok']]
combos=[tuple(c.split('_')) for c in combos]
# atom with the result unused: the same PTX, d not read afterwards
combos += [('atomu',f,t) for (o,f,t) in combos if o=='atom' and f not in ('cas','exch')]
kern=[]
for i,(op,f,t) in enumerate(combos):
    w64 = t in ('u64','s64','b64','f64')
    rt = 'l' if w64 else 'r'
    if t=='f32': rt='f'
    if t=='f64': rt='d'
    ctype = {'l':'unsigned long long','r':'unsigned','f':'float','d':'double'}[rt]
    noftz = '.noftz' if t in ('f16x2','bf16x2') else ''
    body=[]
    for k in range(8):
        o=k*256
        if op=='red':
            body.append(f'asm volatile("{{.reg .pred p; setp.ne.u32 p, %0, 0; @p red.shared.{f}{noftz}.{t} [%1+{o}], %2;}}" :: "r"(act), "r"(addr), "{rt}"(b) : "memory");')
        elif f=='cas':
            body.append(f'asm volatile("{{.reg .pred p; setp.ne.u32 p, %1, 0; @p atom.shared.cas.{t} %0, [%2+{o}], %3, %4;}}" : "={rt}"(d[{k}]) : "r"(act), "r"(addr), "{rt}"(b), "{rt}"(c) : "memory");')
        else:
            body.append(f'asm volatile("{{.reg .pred p; setp.ne.u32 p, %1, 0; @p atom.shared.{f}{noftz}.{t} %0, [%2+{o}], %3;}}" : "={rt}"(d[{k}]) : "r"(act), "r"(addr), "{rt}"(b) : "memory");')
    use = '' if op in ('red','atomu') else 'acc ^= (unsigned)(unsigned long long)(' + ' + '.join(f'd[{k}]' for k in range(8)) + ');'
    kern.append(f'''
__global__ void __launch_bounds__(512,1) k{i}(Args a) {{
  extern __shared__ __align__(16) unsigned char smem[];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const unsigned addr = (unsigned)__cvta_generic_to_shared(smem) + a.off[lane];
  const unsigned act = (a.active >> lane) & 1u;
  {ctype} b = ({ctype})(a.seed + lane), c = ({ctype})(a.seed ^ lane); (void)c;
  {ctype} d[8] = {{0}}; (void)d;
  unsigned acc = 0;
  __syncthreads();
  long long t0 = clock64();
  #pragma unroll 1
  for (int i = 0; i < a.iters; i++) {{
    {" ".join(body)}
    {use}
  }}
  long long t1 = clock64();
  __syncthreads();
  if (lane == 0) {{ a.t0[warp] = t0; a.t1[warp] = t1; }}
  a.sink[threadIdx.x] = acc;
}}''')
names=[f'{o}_{f}_{t}' for (o,f,t) in combos]
src='''#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
struct Args { unsigned off[32]; unsigned active; unsigned seed; int iters; long long *t0, *t1; unsigned *sink; };
''' + '\n'.join(kern) + '''
typedef void (*KF)(Args);
static KF kf[] = {''' + ','.join(f'k{i}' for i in range(len(combos))) + '''};
static const char *kn[] = {''' + ','.join(f'"{n}"' for n in names) + '''};
static const int kw[] = {''' + ','.join('8' if t in ('u64','s64','b64','f64') else '4' for (o,f,t) in combos) + '''};
/* name is one of the comma-separated entries of list */
static int listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p; ) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}
int main(int argc, char **argv) {
  // stdin: lines "name width active_hex o0 .. o31"; argv[1]: iters; argv[2]: warps;
  // argv[3] (optional): a comma-separated list of kernel names ("atom_exch_b64,red_add_u32"): only those run
  int iters = atoi(argv[1]), warps = atoi(argv[2]);
  long long *t0, *t1; unsigned *sink;
  cudaMalloc(&t0, 64*8); cudaMalloc(&t1, 64*8); cudaMalloc(&sink, 2048*4);
  char name[128]; int w; unsigned act; unsigned off[32];
  int nk = sizeof kf / sizeof kf[0];
  for (int i = 0; i < nk; i++) cudaFuncSetAttribute(kf[i], cudaFuncAttributeMaxDynamicSharedMemorySize, 64*1024);
  while (scanf("%127s %d %x", name, &w, &act) == 3) {
    for (int t = 0; t < 32; t++) scanf("%u", &off[t]);
    for (int i = 0; i < nk; i++) {
      if (kw[i] != w) continue;
      if (argc > 3 && !listed(argv[3], kn[i])) continue;
      Args a; memcpy(a.off, off, sizeof off); a.active = act; a.seed = 12345; a.iters = iters; a.t0 = t0; a.t1 = t1; a.sink = sink;
      double best = 1e30;
      for (int rep = 0; rep < (iters > 8 ? 3 : 1); rep++) {
        kf[i]<<<1, warps*32, 64*1024>>>(a);
        cudaError_t e = cudaGetLastError();   /* a bad launch configuration */
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { fprintf(stderr, "%s %s: %s\\n", kn[i], name, cudaGetErrorString(e)); return 4; }
        long long h0[64], h1[64];
        cudaMemcpy(h0, t0, warps*8, cudaMemcpyDeviceToHost); cudaMemcpy(h1, t1, warps*8, cudaMemcpyDeviceToHost);
        long long mn = h0[0], mx = h1[0];
        for (int k = 0; k < warps; k++) { if (h0[k] < mn) mn = h0[k]; if (h1[k] > mx) mx = h1[k]; }
        double c = (double)(mx - mn) / ((double)warps * iters * 8);
        if (c < best) best = c;
      }
      printf("%s,%s,%.4f\\n", kn[i], name, best);
      fflush(stdout);
    }
  }
  return 0;
}
'''
open('atom_probe.cu','w').write(src)
print(len(combos),'kernels')
