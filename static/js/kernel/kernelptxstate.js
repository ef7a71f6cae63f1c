// kernelptxstate.js - the kernel page's PTX / CUDA state (kernel.html?mode=): the launch
// fields in the URL, the text in the hash while short, the examples (the corpus, served as
// kernels/), entries and parameters read from PTX or CUDA text, the /api/ptx body, lines by
// excess, a measurement's rows, and the swizzle page's links (a warp access, a tile's fix).
// Pure (imports under node). It must not compute a wavefront, a bank or an address: the API does.

import { DEFAULTS as PAGE_DEFAULTS, toSearch as pageSearch } from '../kit/state.js';
import { formatOffsets } from '../kit/offsets.js';

export const MODES = Object.freeze(['ttgir', 'ptx', 'cuda']);
export const LINK_MAX = 12000;   // texts longer than this stay in this tab (sessionStorage)

// Corpus kernels (tests/data/ptx/corpus, which the server serves as kernels/) with
// the launch the corpus measured them with.
export const PTX_EXAMPLES = Object.freeze([
    { id: 'transpose_naive', label: 'transpose through an unpadded 32x32 tile (32-way column read)', block: '32,8,1', grid: '2,2,1', params: 'null,null,64', dyn: '0' },
    { id: 'transpose_padded', label: 'the same transpose, 33-float rows (conflict-free)', block: '32,8,1', grid: '2,2,1', params: 'null,null,64', dyn: '0' },
    { id: 'transpose_xor', label: 'the same transpose, XOR-swizzled tile', block: '32,8,1', grid: '2,2,1', params: 'null,null,64', dyn: '0' },
    { id: 'reduce_interleaved', label: 'block sum, interleaved addressing (2..16-way)', block: '256,1,1', grid: '2,1,1', params: 'null,null', dyn: '1024' },
    { id: 'hist_lane', label: 'shared histogram, per-lane atomics', block: '256,1,1', grid: '2,1,1', params: 'null,1024', dyn: '0' },
]);
export const ptxExample = (id) => PTX_EXAMPLES.find((e) => e.id === id) || null;
export const exampleUrl = (ex, mode) => `kernels/${ex.id}.${mode === 'cuda' ? 'cu' : 'ptx'}`;

/** The module's entries as declared: [{name, params: [{type, name}]}], read
 *  from `.entry NAME(` and its `.param .TYPE NAME` lines only, for the launch
 *  form (the route refuses a request without a launch before it parses). */
export function entriesOf(text) {
    const out = [];
    const re = /\.entry\s+([A-Za-z_$%.][\w$%.]*)\s*\(([^)]*)\)/g;
    let m;
    while ((m = re.exec(String(text || '')))) {
        const params = [];
        const pre = /\.param\s+\.(\w+)(?:\s+\.ptr(?:\s+\.\w+)*)?(?:\s+\.align\s+\d+)?\s+([A-Za-z_$%.][\w$%.]*)/g;
        let p;
        while ((p = pre.exec(m[2]))) params.push({ type: p[1], name: p[2] });
        out.push({ name: m[1], params });
    }
    return out;
}

/** The CUDA source's kernels as declared: [{name, params: [{type, name}]}],
 *  read from each `__global__` function's parameter list (comments and
 *  strings blanked first; `__launch_bounds__(...)` skipped), for the launch
 *  form before anything is compiled.  The route names each parameter's PTX
 *  type once it has compiled; this is only what the text says. */
export function cudaEntriesOf(text) {
    const src = String(text || '').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) => m.replace(/[^\n]/g, ' '));
    const out = [];
    const re = /\b__global__\b/g;
    let m;
    while ((m = re.exec(src))) {
        let i = m.index + m[0].length, name = null;
        // the first identifier followed by "(" is the function (past __launch_bounds__(...))
        const id = /([A-Za-z_]\w*)\s*\(/y;
        for (; i < src.length && !name; i++) {
            id.lastIndex = i;
            const w = id.exec(src);
            if (!w) { if (src[i] === ';' || src[i] === '{') break; continue; }
            i = id.lastIndex - 1;
            if (w[1] === '__launch_bounds__') { i = closing(src, i); continue; }
            name = w[1];
        }
        if (!name) continue;
        const end = closing(src, i - 1);
        if (end < 0) continue;
        const list = src.slice(i, end);
        const params = split(list).map((p) => p.replace(/=[\s\S]*$/, '').trim()).filter((p) => p && p !== 'void').map((p) => {
            const n = /([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)$/.exec(p);
            return n ? { type: (p.slice(0, n.index) + n[2]).replace(/\s+/g, ' ').trim(), name: n[1] } : { type: p.replace(/\s+/g, ' '), name: '' };
        });
        out.push({ name, params });
    }
    return out;
}
// The index of the ")" closing the "(" at i, or -1.
function closing(s, i) {
    for (let d = 0; i < s.length; i++) {
        if (s[i] === '(') d++;
        else if (s[i] === ')' && --d === 0) return i;
    }
    return -1;
}
// A parameter list split at its top-level commas (not inside <>, (), []).
function split(list) {
    const parts = [];
    let d = 0, from = 0;
    for (let i = 0; i < list.length; i++) {
        const c = list[i];
        if ('<([{'.includes(c)) d++;
        else if ('>)]}'.includes(c)) d--;
        else if (c === ',' && d === 0) { parts.push(list.slice(from, i)); from = i + 1; }
    }
    parts.push(list.slice(from));
    return parts;
}

// A parameter's field before the user types: null for a 64-bit integer or a
// C pointer (as the route's own default: its own zero-filled buffer), 0 for the others.
export const paramDefault = (p) => (/^[bsu]64$/.test(p.type) || p.type.includes('*') ? 'null' : '0');

/** State from the URL: {mode, ex, text, kernel, block, grid, params, dyn, sel}. */
export function fromLocation(search, hash) {
    const q = new URLSearchParams(search);
    const h = new URLSearchParams(String(hash || '').replace(/^#/, ''));
    const mode = MODES.includes(q.get('mode')) ? q.get('mode') : 'ttgir';
    const ex = ptxExample(q.get('ex'));
    const field = (k, d) => (q.has(k) ? q.get(k).trim() : d);
    return {
        mode, ex: ex ? ex.id : null, text: h.has(mode) ? h.get(mode) : null,
        kernel: field('kernel', ''), block: field('block', ex ? ex.block : '32,1,1'),
        grid: field('grid', ex ? ex.grid : '1,1,1'), params: field('params', ex ? ex.params : ''),
        dyn: field('dyn', ex ? ex.dyn : '0'), sel: q.has('line') ? q.get('line') : null,
    };
}

/** The URL for a state: {search, hash, linkable}; text is in the hash unless
 *  it is an unchanged example or longer than LINK_MAX. */
export function toLocation(s, exampleText = null) {
    const q = new URLSearchParams();
    q.set('mode', s.mode);
    if (s.ex) q.set('ex', s.ex);
    for (const k of ['kernel', 'block', 'grid', 'params', 'dyn']) if (s[k] !== '' && s[k] !== null) q.set(k, s[k]);
    if (s.sel !== null && s.sel !== undefined) q.set('line', s.sel);
    const same = s.ex && exampleText !== null && exampleText === s.text;
    const fits = (s.text || '').length <= LINK_MAX;
    const hash = !same && s.text && fits ? '#' + new URLSearchParams({ [s.mode]: s.text }).toString() : '';
    return { search: '?' + q.toString().replace(/%2C/g, ','), hash, linkable: same || fits };
}

// "32, 8" -> [32, 8]; a token that is not a number goes as typed (the server names it).
function list(v) {
    return String(v).split(/[\s,]+/).filter(Boolean).map((t) => (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(t) ? Number(t) : /^null$/i.test(t) ? null : t));
}
const num = (v) => (/^\d+$/.test(String(v).trim()) ? Number(v) : String(v).trim());

/** The POST /api/ptx body for state s and its text. */
export function ptxBody(s) {
    const b = { [s.mode === 'cuda' ? 'cuda' : 'ptx']: s.text || '' };
    if (s.kernel) b.kernel = s.kernel;
    b.block = list(s.block);
    if (String(s.grid).trim()) b.grid = list(s.grid);
    if (String(s.params).trim()) b.params = list(s.params);
    if (String(s.dyn).trim()) b.dynamic_shared = num(s.dyn);
    return b;
}

// A line's key in the URL and the table: "file:line:kind".
export const lineKey = (l) => `${l.file}:${l.line}:${l.kind}`;

/** The answer's lines, most excess first (the answer's order among equals). */
export function byExcess(lines) {
    return lines.map((l, i) => ({ l, i })).sort((a, b) => (b.l.excess - a.l.excess) || (a.i - b.i)).map((x) => x.l);
}

/** Keys of the costliest lines: those with excess, at least half the worst's. */
export function costliest(lines) {
    const max = Math.max(0, ...lines.map((l) => l.excess));
    return new Set(max > 0 ? lines.filter((l) => l.excess * 2 >= max).map(lineKey) : []);
}

/** The instruction of line l whose worst warp access costs the most excess
 *  (as the answer counts it), or null. */
export function worstOf(answer, l) {
    const mine = answer.instructions.filter((i) => i.file === l.file && i.line === l.line && i.kind === l.kind && i.worst);
    if (!mine.length) return null;
    return mine.reduce((a, b) => ((b.worst.wavefronts - b.worst.ideal) > (a.worst.wavefronts - a.worst.ideal) ? b : a));
}

/** The /api/conflicts body of a worst warp access (every field it carries
 *  but its answer's own counts and banks). */
export function conflictsBody(w) {
    const { banks, wavefronts, ideal, ...rest } = w;
    return rest;
}

// The swizzle page's unit for a lane's width (MBase = log2 of its bytes), so
// that its maps draw one cell a lane; its rows are then one 128-byte bank row.
const UNIT_BITS = { 1: 0, 2: 1, 4: 2, 8: 3, 16: 4 };

/** The swizzle page (index.html) with a warp access's 32 lane offsets as its
 *  custom offsets, taken as physical, no swizzle (BBits 0); written by its own
 *  URL writer. */
export function swizzlePageHref(w) {
    const m = UNIT_BITS[w.bytes] ?? 2;
    const st = {
        ...PAGE_DEFAULTS, b: '0', m: String(m), s: String(7 - m), acc: 'custom', offs: formatOffsets(w.offsets), space: 'physical',
        op: String(w.op), bytes: String(w.bytes),
    };
    return 'index.html' + pageSearch(st);
}

/** A measurement (POST /api/ptx/measure)'s rows of compare.lines by lineKey,
 *  and apart the lines the GPU counted that the analysis has none of. */
export function measuredLines(m) {
    const byKey = new Map(), only = [];
    for (const l of (m && m.compare ? m.compare.lines : [])) {
        if (l.predicted) byKey.set(lineKey(l), l);
        else only.push(l);
    }
    return { byKey, only };
}

/** compare.totals by kind. */
export const measuredKinds = (m) => new Map((m && m.compare ? m.compare.totals : []).map((t) => [t.kind, t]));

/** The measurement in one sentence: where, and how much of it agrees. */
export function measureSummary(m) {
    const c = m.compare, dev = (m.measured && m.measured.device && m.measured.device.name) || 'the GPU';
    if (c.agree === null) return `Ran on ${dev}, but Nsight Compute gave no counts: ${(m.measured.ncu && m.measured.ncu.reason) || 'no reason given'}.`;
    const kinds = c.totals.filter((t) => t.agree).length;
    return c.agree
        ? `Measured on ${dev}: every kind (${kinds}) and all ${c.lines_total} lines equal the prediction.`
        : `Measured on ${dev}: ${c.lines_total - c.lines_agree} of ${c.lines_total} lines and ${c.totals.length - kinds} of ${c.totals.length} kinds differ from the prediction.`;
}

/** The tile line l's worst access is a step of (the answer's "tiles": the
 *  recommender's write and read patterns, rows, base), or null. */
export const tileOf = (answer, l) => (answer.tiles || []).find((t) => lineKey(t) === lineKey(l)) || null;

/** GET /api/recommend's view for a tile as the kernel lays it out: no
 *  swizzle (Swizzle<0,4,3> is the identity), its rows of one bank row. */
export const recommendView = (tile) => ({ b: '0', m: '4', s: '3', rows: String(tile.rows), bank_bytes: '4', banks: '32', match_bank_row: '1' });

/** The swizzle page with the recommender's layout, the tile's rows and its
 *  write and read patterns (its scorecard), written by its own URL writer. */
export function fixHref(tile, rec) {
    return 'index.html' + pageSearch({ ...PAGE_DEFAULTS, b: String(rec.b), m: String(rec.m), s: String(rec.s), rows: String(tile.rows), match: true, wr: tile.write, rd: tile.read });
}

/** The basename of a source file (the table shows it; the title the whole name). */
export const baseName = (f) => String(f).split('/').pop();
