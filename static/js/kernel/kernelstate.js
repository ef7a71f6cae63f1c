// kernelstate.js - the "Your kernel" page's state (kernel.html): the pasted
// TTGIR (in the URL's hash while short), the part of it shown (a lit file's
// module, a dump's pass), the selected op, the examples, the
// ops in the API's order of conflict wavefronts, and the F2 workbench's link
// for an op as it is and as its fix. Pure (imports under node). It must not
// compute a wavefront, a bank, a vector or a layout: the server answers those.

import { toQuery as workbenchQuery } from '../kit/linearstate.js';

// Texts longer than this stay out of the URL (a pasted dump can be large).
export const LINK_MAX = 12000;

const MMA_4x64 = '#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>';
const BLOCKED = '#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';
const DOT = '#ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>';

// Each example: a small dump as TTGIR prints it.
export const EXAMPLES = Object.freeze([
    {
        id: 'gluon9', label: 'MMAv2 accumulator through an unswizzled buffer (Gluon test case, 3 conflicts)',
        text: [MMA_4x64, '#smem = #ttg.shared_memory',
            '%1 = ttg.local_alloc %0 : (tensor<4x64xf16, #mma>) -> !ttg.memdesc<4x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>, #smem>',
            '%2 = ttg.local_load %1 : !ttg.memdesc<4x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>, #smem> -> tensor<4x64xf16, #mma>',
        ].join('\n'),
    },
    {
        id: 'operand', label: 'blocked store, MMAv2 operand A load: no swizzle, then 128B',
        text: [BLOCKED,
            '#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>',
            '#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>',
            '#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>',
            '#smem = #ttg.shared_memory',
            '%a = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #plain, #smem>',
            `%b = ttg.local_load %a : !ttg.memdesc<128x64xf16, #plain, #smem> -> tensor<128x64xf16, ${DOT}>`,
            '%c = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #sw, #smem>',
            `%d = ttg.local_load %c : !ttg.memdesc<128x64xf16, #sw, #smem> -> tensor<128x64xf16, ${DOT}>`,
        ].join('\n'),
    },
]);

export const exampleById = (id) => EXAMPLES.find((e) => e.id === id) || null;

// State: { text, sel, ex, part } where sel is the selected op's index in the
// API's list and part the text's part asked for (null: the API's choice).
export function fromLocation(search, hash) {
    const q = new URLSearchParams(search);
    const h = new URLSearchParams(String(hash || '').replace(/^#/, ''));
    const ex = exampleById(q.get('ex'));
    let text = h.has('text') ? h.get('text') : ex ? ex.text : EXAMPLES[0].text;
    const sel = /^\d{1,4}$/.test(q.get('op') || '') ? Number(q.get('op')) : null;
    const part = /^\d{1,2}$/.test(q.get('part') || '') ? Number(q.get('part')) : null;
    return { text, sel, ex: ex ? ex.id : null, part };
}

// The URL for a state: an example by name, other text in the hash when short.
export function toLocation(s) {
    const q = new URLSearchParams();
    const ex = exampleById(s.ex);
    if (ex && ex.text === s.text) q.set('ex', ex.id);
    if (s.part !== null && s.part !== undefined) q.set('part', String(s.part));
    if (s.sel !== null && s.sel !== undefined) q.set('op', String(s.sel));
    const search = q.toString();
    let hash = '';
    if (!(ex && ex.text === s.text) && s.text.length <= LINK_MAX) hash = new URLSearchParams({ text: s.text }).toString();
    return { search: search ? '?' + search : '', hash: hash ? '#' + hash : '', linkable: !!(ex && ex.text === s.text) || s.text.length <= LINK_MAX };
}

// The POST /api/ttgir body for a state: the text, and its part when one was picked.
export function ttgirBody(s) {
    return s.part === null || s.part === undefined ? { text: s.text } : { text: s.text, part: s.part };
}

// A part's label in the picker, from the API's parts list.
export function partLabel(p) {
    const where = `lines ${p.first_line}-${p.last_line}, ${p.ops} op${p.ops === 1 ? '' : 's'}`;
    return `${p.index + 1}. ${p.title || 'module'} (${where})`;
}

// The ops, each with its index in the API's list, costliest first: the
// API's conflict wavefronts per warp, then the API's order.
export function ranked(ops) {
    return ops.map((op, i) => ({ op, i }))
        .sort((a, b) => (b.op.conflict_wavefronts_per_warp - a.op.conflict_wavefronts_per_warp) || (a.i - b.i));
}

// The workbench's hardware key for the API's lanes and banks.
export function hwKey(lanes, banks) {
    if (lanes === 64) return banks === 64 ? 'mi350' : 'mi300';
    return 'nv';
}

// The F2 workbench's link: the op as it is (its own layout both ways, its
// buffer's offset bases), or the fix (the buffer's writer and reader, the
// fix's offset bases, the fix's vector).
export function workbenchHref(op, which) {
    const wb = op.workbench;
    const fix = op.fix && op.fix.workbench;
    const s = {
        preset: 'custom', shape: wb.shape, bitwidth: wb.bitwidth, hw: hwKey(wb.lanes_per_wavefront, wb.num_banks),
        vec: which === 'fix' && fix ? op.fix.vector_elems : wb.vec,
        A: which === 'fix' && fix ? fix.A : wb.layout,
        B: which === 'fix' && fix ? fix.B : wb.layout,
        mem: which === 'fix' && fix ? fix.swizzle_offset_bases : wb.swizzle_offset_bases,
        side: op.access === 'store' ? 'st' : 'ld',
    };
    return 'linear.html?' + workbenchQuery(s);
}

// The /api/linear/evaluate body that shows this op's instruction in the banks.
export function evaluateBody(op) {
    const wb = op.workbench;
    return {
        shape: wb.shape, bitwidth: wb.bitwidth, num_banks: wb.num_banks, lanes_per_wavefront: wb.lanes_per_wavefront,
        vec: wb.vec, A: wb.layout, B: wb.layout, swizzle_offset_bases: wb.swizzle_offset_bases,
    };
}
