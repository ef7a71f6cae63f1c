#!/usr/bin/env python3
# gen_ptxas_check.py: which shared-memory atom/red forms PTX allows on sm_90, as
# ptxas says: one tiny kernel per (op, func, type) compiled with nvcc -arch=sm_90
# (no GPU needed) in a temporary folder; writes ptxas_sm90.json ({name: {ok}}).
import itertools, subprocess, os, json, tempfile
os.chdir(tempfile.mkdtemp(prefix='ptxas-'))
here_out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptxas_sm90.json')
funcs=['add','min','max','inc','dec','and','or','xor','exch','cas']
types=['u32','s32','b32','f32','u64','s64','b64','f64','f16x2','bf16x2']
res={}
for op in ('atom','red'):
  for f in funcs:
    for t in types:
      if op=='red' and f in ('exch','cas'): continue
      w64 = t in ('u64','s64','b64','f64')
      rt = 'l' if w64 else ('f' if t=='f32' else ('d' if t=='f64' else 'r'))
      if t=='f64': rt='d'
      noftz = '.noftz' if t in ('f16x2','bf16x2') else ''
      ctype = {'l':'unsigned long long','r':'unsigned','f':'float','d':'double'}[rt]
      if op=='atom':
        if f=='cas':
          asm=f'asm volatile("atom.shared.cas.{t} %0, [%1], %2, %3;" : "={rt}"(d) : "r"(a), "{rt}"(b), "{rt}"(c) : "memory");'
        else:
          asm=f'asm volatile("atom.shared.{f}{noftz}.{t} %0, [%1], %2;" : "={rt}"(d) : "r"(a), "{rt}"(b) : "memory");'
      else:
        asm=f'asm volatile("red.shared.{f}{noftz}.{t} [%0], %1;" :: "r"(a), "{rt}"(b) : "memory");'
      src=f'''
__global__ void k({ctype} *out, {ctype} b, {ctype} c) {{
  __shared__ {ctype} s[64];
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x & 31]);
  {ctype} d = 0;
  {asm}
  __syncthreads();
  out[threadIdx.x] = d + s[threadIdx.x & 31];
}}
'''
      name=f'{op}_{f}_{t}'
      open(name+'.cu','w').write(src)
      r=subprocess.run(['nvcc','-arch=sm_90','-cubin','-o',name+'.cubin',name+'.cu'],capture_output=True,text=True)
      if r.returncode!=0:
        res[name]={'ok':False,'err':r.stderr.strip().splitlines()[-1][:160] if r.stderr else ''}
        continue
      res[name]={'ok':True}; continue
      ins=[l.split(';')[0].split('*/')[-1].strip() for l in sass.splitlines() if ('ATOMS' in l or 'ATOM' in l or 'RED' in l or 'BRA' in l or 'LDS' in l or 'STS' in l)]
      loop = any('BRA' in i and 'BRA 0x' in i for i in ins) and any('CAS' in i for i in ins)
      res[name]={'ok':True,'sass':ins}
json.dump(res,open(here_out,'w'),indent=1)
