// lesson.js - the lesson mode, stepped with space / arrows / Escape: each step
// is a URL (lesson=k and its state), outlines what to look at and narrates
// from the answers on screen (access cost and compare, /api/inspect), never
// from numbers written here; the last step measures live on a GPU, or says
// what a measurement would show. It must not compute the model.

import * as api from './api.js';
import { verdict } from './verdict.js';
import { opName } from './ops.js';
import { stamp } from './stamps.js';
import { LOOK } from './classes.js';

const $ = (id) => document.getElementById(id);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const wf = (c) => plural(c.wavefronts, 'wavefront', 'wavefronts');
const CLEAR = { sel: null, tcol: null, acc: '', step: 0, elem: '', show: '', m: '4', s: '3', bank_bytes: '4', banks: '32', match: false };

// Each step: the state it sets, the sections to look at, and its narration
// from what is on screen: n(x) with x = {d: /api/swizzle, r: the access
// view's result, ins: /api/inspect of the selection or null, m: measure}.
const STEPS = [
    {
        title: 'Banks, and a row read', look: ['access'],
        state: { ...CLEAR, b: '0', rows: '8', pat: 'row_load_32' },
        n: ({ d, r }) => `Shared memory is ${d.params.banks} banks of ${d.params.bank_bytes} bytes: one bank row is ${d.bank_row_bytes} bytes. ` +
            `A warp in which lane t reads word t of one ${d.grid.row_bytes}-byte row: ${verdict(r.cost).text}. Each lane has a bank of its own.`,
    },
    {
        title: 'A column read: every lane on one bank', look: ['access'],
        state: { ...CLEAR, b: '0', rows: '32', pat: 'col_read' },
        n: ({ d, r }) => `Now lane t reads word 0 of row t, down a column of ${d.grid.rows} rows of ${d.grid.row_bytes} bytes. ` +
            `Each row is one bank row, so every lane lands on bank ${r.cost.phases[0].worst_bank}: ${verdict(r.cost).text}. The hardware serves them one by one.`,
    },
    {
        title: 'The XOR idea, on one tile', look: ['tile-swz'],
        state: { ...CLEAR, b: '3', rows: '8', pat: 'col_read', sel: [1, 0], tcol: 0 },
        n: ({ d, ins }) => `${d.name} cuts the grid into ${d.tile.size} × ${d.tile.size} tiles of ${d.unit.bytes}-byte units. ` +
            (ins && ins.slot_rule === 'col_xor_row'
                ? `Row ${ins.logical.row}'s column ${ins.logical.col} is stored at slot ${ins.tile.col_in_tile} XOR ${ins.tile.row_mod} = ${ins.tile.slot}, on bank${ins.banks.list.length > 1 ? 's' : ''} ${ins.banks.list.join(', ')}: `
                : '') +
            'each row of a tile moves the same column to a different slot, so down a column every row lands in other banks.',
    },
    {
        title: 'The presets', look: ['access'],
        state: { ...CLEAR, b: '3', rows: '32', pat: 'col_read' },
        n: ({ d, r, presets }) => {
            const cmp = r.access && r.access.compare;
            const each = cmp ? cmp.swizzles.map((c, i) => (c.wavefronts === undefined ? null : `${presets[i].label} ${c.wavefronts}`)).filter(Boolean).join(', ') : '';
            return `The same 32-row column read on each preset, in wavefronts: ${each}. ` +
                `${d.name} spreads ${d.tile.size} rows, so ${d.grid.rows} rows still share banks: ${verdict(r.cost).text}.`;
        },
    },
    {
        title: 'ldmatrix on 128-byte rows, no swizzle', look: ['access'],
        state: { ...CLEAR, b: '0', rows: '8', pat: 'ldmatrix_x4' },
        n: ({ d, r }) => `${opName(r.cost)}: lane t gives the 16-byte row t mod 8 of matrix t / 8, and the rows are ${d.grid.row_bytes} bytes apart, one bank row. ` +
            `All 8 rows of a matrix sit on the same ${r.cost.lanes[0].nbanks} banks: ${verdict(r.cost).text}, the conflict that throttles the tensor cores.`,
    },
    {
        title: 'ldmatrix with the 128B swizzle', look: ['access'],
        state: { ...CLEAR, b: '3', rows: '8', pat: 'ldmatrix_x4' },
        n: ({ d, r }) => `With ${d.name} row r's 16-byte chunk c moves to slot c XOR r: the 8 rows of each matrix spread over all ${d.params.banks} banks. ` +
            `${verdict(r.cost).text}` + (r.access && r.access.compare ? `, where the same loads took ${plural(r.access.compare.unswizzled.wavefronts, 'wavefront', 'wavefronts')} without it.` : '.'),
    },
    {
        title: 'A 16×32 fp32 transpose, unswizzled', look: ['access'],
        state: { ...CLEAR, b: '0', m: '2', s: '5', rows: '16', pat: 'transpose_read', elem: 'fp32' },
        n: ({ d, r }) => `Seed of the linear-layout story: lanes 0-15 read column 2r, lanes 16-31 column 2r+1 of a 16 × 32 fp32 tile (${d.grid.row_bytes}-byte rows). ` +
            `Every row starts on the same bank: ${verdict(r.cost).text}.`,
    },
    {
        title: 'The transpose with a 16-row XOR', look: ['access'],
        state: { ...CLEAR, b: '4', m: '2', s: '5', rows: '16', pat: 'transpose_read', elem: 'fp32' },
        n: ({ d, r }) => `${d.name} XORs the row into the word index: the 16 rows of a column now use 16 banks, but columns 2r and 2r+1 share them: ${verdict(r.cost).text}.`,
    },
    {
        title: 'The transpose, conflict-free', look: ['access'],
        state: { ...CLEAR, b: '4', m: '3', s: '4', rows: '16', pat: 'transpose_read', elem: 'fp32' },
        n: ({ d, r }) => `${d.name} moves 8-byte pairs instead, keeping the two columns apart: ${verdict(r.cost).text}. ${wf(r.cost)} per read, from 16.`,
    },
    {
        title: 'Measure it', look: ['measure'], measure: true,
        state: { ...CLEAR, b: '3', rows: '8', pat: 'ldmatrix_x4' },
        n: ({ r, m }) => {
            const c = r.cost, n = c.ncu || {};
            if (m && m.measured) {
                const got = m.measured;
                return `Measured on ${(m.device && m.device.name) || 'the GPU'}: ${got.cycles_per_instr.toFixed(2)} cycles per ${opName(c)} (predicted ${c.cycles})` +
                    (typeof got.wavefronts_per_instr === 'number' ? ` and ${got.wavefronts_per_instr} wavefronts from ncu (predicted ${c.wavefronts}).` : '; ncu counters were not readable here.');
            }
            const why = m && m.error ? m.error.message : m && m.reason ? m.reason : 'the server has no GPU measurement';
            return `No GPU here (${why}). On a GPU, "Measure on GPU" runs this ${opName(c)} on one SM: the model predicts ${c.cycles} cycles per instruction, ` +
                `and Nsight Compute's ${n.wavefronts_metric || 'wavefront counter'} would read ${n.wavefronts_per_instruction} per instruction, ${n.conflicts_per_instruction} of them bank conflicts.`;
        },
    },
];

/* ctx: the PageCtx of app.js; parts: {access(): the access view's result,
 * measure(): measure.js}. */
export function createLesson(ctx, parts) {
    const ui = { bar: null, start: $('lesson-start') };
    let seq = 0;

    function bar() {
        if (ui.bar) return ui.bar;
        const el = document.createElement('aside');
        el.id = 'lesson';
        el.className = 'lesson';
        el.setAttribute('aria-live', 'polite');
        el.innerHTML = `<div class="lesson-head"><span id="lesson-step"></span><b id="lesson-title"></b>
<span class="lesson-keys">Space / &rarr; next &middot; &larr; back &middot; Esc leaves</span>
<button type="button" class="btn icon" id="lesson-prev" aria-label="Previous step">&#9664;</button><button type="button" class="btn icon" id="lesson-next" aria-label="Next step">&#9654;</button><button type="button" class="btn" id="lesson-exit">Leave</button></div>
<p id="lesson-text"></p>`;
        document.body.appendChild(el);
        el.querySelector('#lesson-prev').addEventListener('click', () => go(ctx.state().lesson - 1));
        el.querySelector('#lesson-next').addEventListener('click', () => go(ctx.state().lesson + 1));
        el.querySelector('#lesson-exit').addEventListener('click', leave);
        ui.bar = el;
        return el;
    }

    const differs = (st, want) => Object.keys(want).some((k) => JSON.stringify(st[k]) !== JSON.stringify(want[k]));

    function go(k) {
        if (k < 0 || k >= STEPS.length) return;
        ctx.go({ ...STEPS[k].state, lesson: k });
        sync();
    }

    function leave() {
        for (const e of document.querySelectorAll('.' + LOOK)) e.classList.remove(LOOK);
        if (ui.bar) ui.bar.hidden = true;
        document.documentElement.dataset.lesson = '';
        stamp('lesson', '');
        ctx.go({ lesson: null });
    }

    // Show the state's step: set its state when the URL lacks it, outline what
    // to look at, then narrate from the answers once they are drawn.
    async function sync() {
        const st = ctx.state(), k = st.lesson, my = ++seq;
        if (k === null || k === undefined) { if (ui.bar) ui.bar.hidden = true; return; }
        const s = STEPS[Math.max(0, Math.min(STEPS.length - 1, k))];
        if (differs(st, s.state)) { ctx.go(s.state); }
        const el = bar();
        el.hidden = false;
        document.documentElement.dataset.lesson = '1';
        el.querySelector('#lesson-step').textContent = `Step ${k + 1} of ${STEPS.length}`;
        el.querySelector('#lesson-title').textContent = s.title;
        el.querySelector('#lesson-text').textContent = '\u2026';
        for (const e of document.querySelectorAll('.' + LOOK)) e.classList.remove(LOOK);
        await ctx.loaded();
        if (my !== seq) return;
        const looks = s.look.map((id) => $(id)).filter(Boolean);
        for (const e of looks) e.classList.add(LOOK);
        if (looks[0]) looks[0].scrollIntoView({ block: 'start' });
        const d = ctx.data(), r = parts.access();
        if (!d || !r) { el.querySelector('#lesson-text').textContent = 'This step has nothing on screen to talk about: the page could not draw it.'; stamp('lesson', k); return; }
        let ins = null, m = null;
        if (st.sel) { try { ins = await api.inspect(ctx.query(), st.sel[0], st.sel[1]); } catch { ins = null; } }
        if (s.measure) {
            const mm = parts.measure(), h = mm.health();
            m = h.available ? await mm.run() : { reason: h.reason };
        }
        if (my !== seq) return;
        el.querySelector('#lesson-text').textContent = s.n({ d, r, ins, m, presets: ctx.presets() });
        stamp('lesson', k);
    }

    // Space / arrows / Escape while a lesson runs; true when the key was its.
    function onKey(e) {
        const k = ctx.state().lesson;
        if (k === null || k === undefined || e.altKey || e.ctrlKey || e.metaKey) return false;
        if (e.target.closest && e.target.closest('input, select, textarea, button')) return false;
        const step = { ' ': 1, ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 }[e.key];
        if (step) { e.preventDefault(); go(k + step); return true; }
        if (e.key === 'Escape') { e.preventDefault(); leave(); return true; }
        return false;
    }

    if (ui.start) ui.start.addEventListener('click', () => go(0));
    return { sync, onKey, steps: STEPS.length };
}
