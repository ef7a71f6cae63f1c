// layoutstate.js - the layout page's state: what the URL holds, the presets,
// and the request bodies built from them. Pure (imports under node); it must
// not touch the document, fetch, or model anything: the API does.

import { instrChoiceFields } from '../kit/ops.js';

export const PRESETS = [
    { id: 'sw128', label: 'CuTe SW128 K-major atom (fp16)', layout: 'Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)', bits: 16, shape: '' },
    { id: 'sw128x64', label: 'its tile_to_shape 64x64', layout: 'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', bits: 16, shape: '' },
    { id: 'pad33', label: 'padded fp32 tile (stride 33)', layout: '(_32,_32):(_33,_1)', bits: 32, shape: '', atom: 'col_walk_32' },
    { id: 'triton', label: 'Triton default shared, 128x64 fp16 dot operand', layout: '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>', bits: 16, shape: '128,64' },
    // a TMA box's first coordinate is the contiguous one: the atoms assume the second
    { id: 'tma', label: 'TMA 128B box 64x64 (fp16)', layout: 'tma:CU_TENSOR_MAP_SWIZZLE_128B', bits: 16, shape: '64,64', atom: 'row_walk_32' },
    // CuTe's print of a tensor whose pointer is 64 bytes off the swizzle's span (tests/data/cute_prints.json)
    { id: 'tensor440', label: 'CuTe tensor print, pointer 64 bytes off (SW128 fp16)', layout: 'Sw<3,4,3>_smem_ptr[16b](0x7f0000000440) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', bits: 16, shape: '' },
    // print(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, SM80 16x8x16 2x2)) as CuTe prints it
    // (tests/data/cute_prints.json): its Copy_Atom's layouts name the instruction (ldmatrix.x4)
    { id: 'tiledA', label: 'tiled copy: ldmatrix.x4 of A (SM80 2x2) on SW128 32x64', layout: 'Sw<3,3,3> o _0 o ((_8,_4),(_64,_1)):((_64,_512),(_1,_0))', bits: 16, shape: '', atom: '',
      thread: 'TiledCopy\n  Tiler_MN:       (_32,_16)\n  TiledLayout_TV: ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))\nCopy_Atom\n  ThrID:        _32:_1\n  ValLayoutSrc: (_32,_8):(_8,_1)\n  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))\n  ValueType:    16b\n' },
];

export const DEFAULTS = Object.freeze({ layout: PRESETS[1].layout, bits: '16', shape: '', base: '0', desc: '', arch: 'sm90', atom: 'mma_m16n8k16_a_ldmatrix_x4', origin: '0,0', color: 'bank', swap: '', thread: '', op: '', instr: '0' });
const KEYS = Object.keys(DEFAULTS);

// URLSearchParams -> state (unknown keys ignored, missing ones defaulted).
export function fromQuery(params) {
    const s = { ...DEFAULTS };
    for (const k of KEYS) if (params.has(k)) s[k] = params.get(k);
    return s;
}

// state -> query string holding only what differs from the defaults.
export function toQuery(s) {
    const p = new URLSearchParams();
    for (const k of KEYS) if (s[k] !== DEFAULTS[k]) p.set(k, s[k]);
    return p.toString();
}

const ints = (text) => text.split(',').map((x) => x.trim()).filter((x) => x !== '').map(Number);

// The /api/layout body. Values go as typed: the server judges them.
export function layoutBody(s) {
    const b = { layout: s.layout, element_bits: Number(s.bits) };
    if (s.shape.trim() !== '') b.shape = ints(s.shape);
    if (s.base.trim() !== '' && s.base.trim() !== '0') b.base = Number(s.base);
    if (s.desc.trim() !== '') { b.descriptor = s.desc.trim(); b.descriptor_arch = s.arch; }
    return b;
}

// The /api/layout/access body: a pasted thread layout (a CuTe tiled copy's
// print; `op` when its atom names none, `instruction` the one drawn) or the
// chosen atom, at the chosen origin. `fit`: the API offers tile_to_shape
// instead of refusing a thread layout that reaches past the layout.
export function accessBody(s, rank, fit = true) {
    const b = layoutBody(s);
    delete b.base; delete b.descriptor; delete b.descriptor_arch;
    const o = ints(s.origin);
    while (o.length < rank) o.push(0);
    const a = { ...b, origin: o.slice(0, rank) };
    if (s.thread.trim() !== '') {
        a.thread = s.thread;
        if (s.op !== '') Object.assign(a, instrChoiceFields(s.op));     // "cp.async/16/cg": op, bytes, cache
        if (s.instr !== '0' && s.instr !== '') a.instruction = Number(s.instr);
    } else {
        a.atom = s.atom;
    }
    if (fit) a.fit = true;
    return a;
}

// Is there an access to ask for: an atom or a pasted thread layout?
export const wantsAccess = (s) => s.atom !== '' || s.thread.trim() !== '';

// The /api/ncu/explain body: the pasted ncu text, the access on the page and
// the launch picked from the text's ('' for none).
export function ncuBody(s, rank, ncu, instructions, launch = '') {
    const b = { ncu, access: accessBody(s, rank, false) };
    delete b.access.instruction;
    if (String(instructions).trim() !== '') b.instructions = Number(instructions);
    if (String(launch) !== '') b.launch = Number(launch);
    return b;
}

// The body that lists the text's launches (no access needed).
export const ncuListBody = (ncu) => ({ ncu, list: true });

// Which dims are drawn as rows and columns: rows = dim 0 unless the API says
// dim 0 is the contiguous one (then columns are), flipped by `swap`.
export function axes(d, swap) {
    if (d.rank === 1) return { rowDim: -1, colDim: 0 };
    let rowDim = d.equivalents && d.equivalents.contiguous_dim === 0 ? 1 : 0;
    if (swap) rowDim = 1 - rowDim;
    return { rowDim, colDim: 1 - rowDim };
}
