// linearstate.js - the F2 workbench's state (linear.html): the presets, the
// layout text people type, the URL that holds every view (the bank view's
// side, phase and cell labels included), the toggle grid as offset bases, the
// API bodies and the swizzle page's link for an instruction. Pure (imports
// under node). It must not compute a wavefront, a span, an intersection, an
// offset or a bank: the server answers those.

import { DEFAULTS as PAGE_DEFAULTS, toSearch as pageSearch } from './state.js';
import { formatOffsets } from './offsets.js';

// The hardware a request models: NVIDIA warps (measured) or AMD waves on the
// LDS whose phase rules are published (MI300: 32 banks, MI350: 64 banks).
export const HARDWARE = Object.freeze({
    nv: { lanes: 32, banks: 32, label: 'NVIDIA (32 lanes, 32 banks)' },
    mi300: { lanes: 64, banks: 32, label: 'AMD MI300 (64 lanes, 32 banks)' },
    mi350: { lanes: 64, banks: 64, label: 'AMD MI350 (64 lanes, 64 banks)' },
});

const L = (register, lane, warp = []) => ({ register, lane, warp });
const transpose = (l) => {
    const t = (v) => v.map(([a, b]) => [b, a]);
    return L(t(l.register), t(l.lane), t(l.warp));
};
const F8 = L([[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], [[0, 16], [0, 32], [0, 64], [4, 0], [8, 0]],
    [[16, 0], [32, 0], [64, 0]]);

// Each preset: a store layout A, a load layout B, the tile and the element.
export const PRESETS = Object.freeze([
    {
        id: 'seed', label: 'Seed: 16x32 fp32 transpose', shape: [16, 32], bitwidth: 32, hw: 'nv', vec: 1,
        note: 'A writes row r with thread t at (r, t); B gives thread t the element (t % 16, 2r + t / 16).',
        page: { wr: 'row_store', rd: 'transpose_read' },    // the swizzle page's patterns for A and B
        A: L([[1, 0], [2, 0], [4, 0], [8, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]),
        B: L([[0, 2], [0, 4], [0, 8], [0, 16]], [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1]]),
    },
    {
        id: 'mma', label: 'mma fragment feed: 16x16 bf16', shape: [16, 16], bitwidth: 16, hw: 'nv', vec: 1,
        note: 'A blocked store; B the mma.m16n8k16 operand fragment (Triton SwizzleTest Test16x16Bf16BlockedMma).',
        A: L([[0, 1], [0, 2], [0, 4]], [[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]),
        B: L([[0, 1], [8, 0], [0, 8]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]),
    },
    {
        id: 'row128', label: '128-bit blocked rows: 16x64 fp16', shape: [16, 64], bitwidth: 16, hw: 'nv', vec: 8,
        note: 'A stores 8 halves (16 bytes) a lane along rows; B reads 16 bytes a lane from 8 rows at once, as ldmatrix does.',
        A: L([[0, 1], [0, 2], [0, 4], [8, 0]], [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], [[4, 0]]),
        B: L([[0, 1], [0, 2], [0, 4], [0, 32]], [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], [[0, 16]]),
    },
    {
        id: 'f16t', label: 'fp16 transpose: 128x128, 16 warps', shape: [128, 128], bitwidth: 16, hw: 'nv', vec: 1,
        note: 'Triton SwizzleTest Test128x128F16Transpose.',
        A: L([[1, 0], [2, 0], [4, 0], [0, 32], [0, 64]], [[8, 0], [16, 0], [32, 0], [64, 0], [0, 1]], [[0, 2], [0, 4], [0, 8], [0, 16]]),
        B: L([[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], [[2, 0], [4, 0], [8, 0], [16, 0]]),
    },
    {
        id: 'f8t', label: 'fp8 transpose: 128x128, 8 warps', shape: [128, 128], bitwidth: 8, hw: 'nv', vec: 1,
        note: 'Triton SwizzleTest Test128x128Float8Transpose: B is A transposed.',
        A: F8, B: transpose(F8),
    },
    {
        id: 'wave64', label: 'AMD wave64: 64x128 fp16 to MFMA', shape: [64, 128], bitwidth: 16, hw: 'mi350', vec: 8,
        note: 'Triton SwizzleTest Test64x128F16BlockedMfma64Bank: 64-lane waves, published LDS rules.',
        A: L([[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0]], [[4, 0], [8, 0]]),
        B: L([[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [32, 0]], [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], [[0, 0], [0, 0]]),
    },
]);

export const BITWIDTHS = [4, 8, 16, 32, 64];
export const VECS = [1, 2, 4, 8, 16];
export const DIMS = ['register', 'lane', 'warp'];

export const presetById = (id) => PRESETS.find((p) => p.id === id) || null;
export const log2 = (x) => Math.round(Math.log2(x));

// ---- the layout as text: "register: [1,0] [2,0]" a line per dimension ----

export function layoutText(l) {
    return DIMS.map((d) => `${d}: ${(l[d] || []).map(([a, b]) => `[${a},${b}]`).join(' ')}`).join('\n');
}

// Text to {register, lane, warp}; Triton's printed form ("register = [[1, 0], ...]")
// reads too. Returns {layout} or {error}; the server judges what it means.
export function parseLayout(text) {
    const out = { register: [], lane: [], warp: [] };
    const re = /(register|reg|lane|warp)\s*[:=]?\s*([^a-z]*)/gi;
    let m, seen = 0;
    while ((m = re.exec(String(text))) !== null) {
        const key = m[1].toLowerCase() === 'reg' ? 'register' : m[1].toLowerCase();
        const body = m[2].replace(/\s+/g, '');
        const pairs = [...body.matchAll(/\[(\d+),(\d+)\]/g)].map((p) => [Number(p[1]), Number(p[2])]);
        const leftover = body.replace(/\[(\d+),(\d+)\]/g, '').replace(/[,[\]"'-]/g, '');
        if (leftover) return { error: `${key}: cannot read "${leftover.slice(0, 20)}": write bases as [dim0,dim1]` };
        out[key] = pairs;
        seen++;
    }
    if (!seen) return { error: 'write one line per dimension, e.g. "lane: [0,1] [0,2] ..."' };
    return { layout: out };
}

// ---- the URL ----

const pairsOut = (v) => v.map(([a, b]) => `${a},${b}`).join('_');
const pairsIn = (s) => (s ? s.split('_').filter(Boolean).map((p) => p.split(',').map(Number)) : []);
export const layoutToParam = (l) => DIMS.map((d) => pairsOut(l[d] || [])).join('~');
export function layoutFromParam(s) {
    const parts = String(s).split('~');
    const l = {};
    DIMS.forEach((d, i) => { l[d] = pairsIn(parts[i] || ''); });
    return l;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The default view: the seed, row-major.
export function defaultState() {
    return fromPreset(PRESETS[0]);
}

// The linear problem's two sides, as /api/linear/evaluate names them (store, then load).
export const SIDES = Object.freeze(['st', 'ld']);

// The bank view's own choices, which ask the server nothing: the side whose
// instruction is outlined (st: A's store, ld: B's load), the phase shown (null:
// all) and what cells show (col: the element's column n, row: its row m).
export const BANK_VIEW = Object.freeze({ side: 'ld', phase: null, show: 'col' });

// view: the bank view's choices to keep (a preset change keeps them).
export function fromPreset(p, view = BANK_VIEW) {
    return {
        preset: p.id, shape: [...p.shape], bitwidth: p.bitwidth, hw: p.hw, vec: p.vec,
        A: structuredClone(p.A), B: structuredClone(p.B), fold: rowMajorFold(p.shape), mem: null,
        side: view.side, phase: view.phase, show: view.show,
    };
}

// No row bit folded: offset = C * row + col.
export const rowMajorFold = (shape) => Array(log2(shape[0])).fill(0);

// Query string -> state. Unknown or broken values fall back to the preset's
// (a link typed by hand shows something; the server judges the rest).
export function fromQuery(search) {
    const q = new URLSearchParams(search);
    const p = presetById(q.get('p')) || PRESETS[0];
    const s = fromPreset(p);
    if (q.get('p') === 'custom') s.preset = 'custom';
    const shape = /^(\d+)x(\d+)$/.exec(q.get('shape') || '');
    if (shape) s.shape = [Number(shape[1]), Number(shape[2])];
    if (BITWIDTHS.includes(Number(q.get('bw')))) s.bitwidth = Number(q.get('bw'));
    if (q.get('hw') in HARDWARE) s.hw = q.get('hw');
    if (VECS.includes(Number(q.get('vec')))) s.vec = Number(q.get('vec'));
    if (q.has('A')) s.A = layoutFromParam(q.get('A'));
    if (q.has('B')) s.B = layoutFromParam(q.get('B'));
    s.fold = rowMajorFold(s.shape);
    if (q.has('mem')) { s.mem = pairsIn(q.get('mem')); s.fold = null; } else if (q.has('fold')) {
        const f = q.get('fold').split(',').map(Number);
        if (f.length === s.fold.length && f.every((x) => Number.isInteger(x) && x >= 0 && x < s.shape[1])) s.fold = f;
    }
    if (SIDES.includes(q.get('bv'))) s.side = q.get('bv');
    if (/^\d{1,2}$/.test(q.get('bph') || '')) s.phase = Number(q.get('bph'));
    if (q.get('bshow') === 'row') s.show = 'row';
    return s;
}

// State -> query string: what differs from the preset, so a preset's link is short.
export function toQuery(s) {
    const p = presetById(s.preset);
    const q = new URLSearchParams();
    q.set('p', p ? p.id : 'custom');
    if (!p || !same(s.shape, p.shape)) q.set('shape', `${s.shape[0]}x${s.shape[1]}`);
    if (!p || s.bitwidth !== p.bitwidth) q.set('bw', String(s.bitwidth));
    if (!p || s.hw !== p.hw) q.set('hw', s.hw);
    if (!p || s.vec !== p.vec) q.set('vec', String(s.vec));
    if (!p || !same(s.A, p.A)) q.set('A', layoutToParam(s.A));
    if (!p || !same(s.B, p.B)) q.set('B', layoutToParam(s.B));
    if (s.mem) q.set('mem', pairsOut(s.mem));
    else if (s.fold && s.fold.some((x) => x)) q.set('fold', s.fold.join(','));
    if (s.side && s.side !== BANK_VIEW.side) q.set('bv', s.side);
    if (s.phase !== null && s.phase !== undefined) q.set('bph', String(s.phase));
    if (s.show === 'row') q.set('bshow', 'row');
    return q.toString();
}

// The bank view's choices of state s (what a new view keeps).
export const bankViewOf = (s) => ({ side: s.side || BANK_VIEW.side, phase: s.phase ?? null, show: s.show || BANK_VIEW.show });

// ---- the memory layout ----

// The toggle grid as offset bases: offset bits below log2(C) hold the column
// bits (the element [0, 2^j]); offset bit log2(C) + i holds row bit i with the
// columns it folds into ([2^i, fold[i]]): offset(m, n) = C m + (n ^ mask(m)).
// This writes down the user's input; what it costs is the server's to say.
export function foldBases(shape, fold) {
    const cols = log2(shape[1]);
    const out = [];
    for (let j = 0; j < cols; j++) out.push([0, 1 << j]);
    fold.forEach((mask, i) => out.push([1 << i, mask]));
    return out;
}

// Offset bases of that form back to the toggles; null when they are not
// (an optimum that moves vector or bank bits, say).
export function basesToFold(shape, bases) {
    const cols = log2(shape[1]), rows = log2(shape[0]);
    if (!Array.isArray(bases) || bases.length !== cols + rows) return null;
    for (let j = 0; j < cols; j++) if (bases[j][0] !== 0 || bases[j][1] !== 1 << j) return null;
    const fold = [];
    for (let i = 0; i < rows; i++) {
        if (bases[cols + i][0] !== 1 << i) return null;
        fold.push(bases[cols + i][1]);
    }
    return fold;
}

export const memBases = (s) => s.mem || foldBases(s.shape, s.fold);

// Toggle "fold row bit i into column bit j".
export function toggled(s, i, j) {
    const fold = s.fold ? [...s.fold] : rowMajorFold(s.shape);
    fold[i] ^= 1 << j;
    return { ...s, fold, mem: null };
}

// ---- the API bodies (README, POST /api/linear/*) ----

export function problemBody(s) {
    const hw = HARDWARE[s.hw] || HARDWARE.nv;
    return {
        shape: [...s.shape], bitwidth: s.bitwidth, num_banks: hw.banks, lanes_per_wavefront: hw.lanes,
        A: s.A, B: s.B,
    };
}

export const evaluateBody = (s) => ({ ...problemBody(s), vec: s.vec, swizzle_offset_bases: memBases(s) });
export const optimizeBody = (s) => problemBody(s);

// The state an optimize answer leads to: its offset bases (as toggles where
// they are that form) and its vector width.
export function withOptimum(s, answer) {
    const fold = basesToFold(s.shape, answer.offset_bases);
    return { ...s, vec: answer.vector_elems, fold: fold || null, mem: fold ? null : answer.offset_bases };
}

// The main page's link for a CuTe swizzle the server named (index.html's URL),
// keeping what the workbench state s says of the problem: the tile's rows, the
// element type, and the write / read patterns of a preset the swizzle page
// names (an edited problem has none).
const PAGE_ELEM = { 32: 'fp32', 16: 'fp16', 8: 'fp8' };
export function mainPageHref(cute, s = null) {
    if (!cute) return null;
    let h = `index.html?b=${cute.b}&m=${cute.m}&s=${cute.s}`;
    if (!s) return h;
    h += `&rows=${s.shape[0]}`;
    if (PAGE_ELEM[s.bitwidth]) h += `&elem=${PAGE_ELEM[s.bitwidth]}`;
    const p = s.preset !== 'custom' ? presetById(s.preset) : null;
    if (p && p.page) h += `&wr=${p.page.wr}&rd=${p.page.rd}`;
    return h;
}

// The swizzle page showing one instruction of the evaluate answer's bank view
// (`ins`: bank_view.store or .load): its access_view (no swizzle, bank rows,
// the tile's rows) with the instruction's own offsets as custom offsets taken
// as physical, written by the swizzle page's own URL writer (state.js). Every
// number comes from the answer; this only spells the link.
export function accessPageHref(ins) {
    if (!ins || !ins.access_view) return null;
    const v = ins.access_view;
    const st = {
        ...PAGE_DEFAULTS, b: String(v.b), m: String(v.m), s: String(v.s), bank_bytes: String(v.bank_bytes),
        banks: String(v.banks), rows: String(v.rows), match: v.match_bank_row === 1,
        acc: 'custom', offs: formatOffsets(ins.offsets), space: v.space === 'physical' ? 'physical' : '',
        op: ins.op, bytes: String(ins.bytes),
    };
    return 'index.html' + pageSearch(st);
}

// Lane numbers as runs: [0,1,2,3,20,21] -> "0-3, 20-21" (how they are written).
export function laneRuns(lanes) {
    const out = [];
    for (let i = 0; i < lanes.length; i++) {
        let j = i;
        while (j + 1 < lanes.length && lanes[j + 1] === lanes[j] + 1) j++;
        out.push(j > i ? `${lanes[i]}-${lanes[j]}` : `${lanes[i]}`);
        i = j;
    }
    return out.join(', ');
}

// A coordinate [d0, d1] as the XOR of the row bits m_i and column bits n_j it
// sets: how the seed writes segment vectors ("m0 ^ n1"); 0 for the zero vector.
export function bitName([d0, d1]) {
    const parts = [];
    for (let i = 0; d0 >> i; i++) if ((d0 >> i) & 1) parts.push(`m${i}`);
    for (let j = 0; d1 >> j; j++) if ((d1 >> j) & 1) parts.push(`n${j}`);
    return parts.length ? parts.join('\u2295') : '0';
}
