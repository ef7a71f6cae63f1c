// linear.test.mjs - the F2 workbench's pure modules: the URL round trip of
// every preset and of edited views, the layout text (ours and Triton's
// printed form), the toggle grid as offset bases and back, the API bodies,
// the bank view's choices in the URL, the access page's link for an
// instruction (read back by the swizzle page's own URL reader), and the
// panels' markup drawing the answer's numbers, not its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    PRESETS, HARDWARE, fromPreset, fromQuery, toQuery, defaultState, layoutText, parseLayout, layoutToParam, layoutFromParam,
    foldBases, basesToFold, toggled, evaluateBody, optimizeBody, withOptimum, mainPageHref, bitName, laneRuns,
    BANK_VIEW, bankViewOf, accessPageHref,
} from '../../static/js/kit/linearstate.js';
import { fromSearch as pageFromSearch } from '../../static/js/kit/state.js';
import { toggleGrid, matrix, verdict, algebra, equivalents, phaseRule } from '../../static/js/linear/linearview.js';

test('linear: every preset round-trips through its URL, and the link is short', () => {
    for (const p of PRESETS) {
        const s = fromPreset(p);
        const q = toQuery(s);
        assert.equal(q, `p=${p.id}`);
        assert.deepEqual(fromQuery('?' + q), s);
        assert.ok(p.A.lane.length === (HARDWARE[p.hw].lanes === 64 ? 6 : 5), p.id);
    }
    assert.deepEqual(fromQuery(''), defaultState());
});

test('linear: an edited view round-trips (toggles, memory bases, layouts, hardware)', () => {
    let s = toggled(toggled(defaultState(), 0, 1), 3, 4);
    assert.deepEqual(s.fold, [2, 0, 0, 16]);
    assert.deepEqual(fromQuery('?' + toQuery(s)), s);
    assert.match(toQuery(s), /fold=2%2C0%2C0%2C16/);
    s = { ...s, preset: 'custom', hw: 'mi350', bitwidth: 16, vec: 2, fold: null, mem: [[0, 2], [0, 1]] };
    const back = fromQuery('?' + toQuery(s));
    assert.deepEqual(back, s);
    const l = PRESETS[2].B;
    assert.deepEqual(layoutFromParam(layoutToParam(l)), l);
});

test('linear: broken URL values fall back to the preset', () => {
    const s = fromQuery('?p=seed&bw=7&hw=zz&vec=3&fold=1,2');
    assert.deepEqual(s, defaultState());
});

test('linear: layout text, ours and Triton\'s printed form', () => {
    const l = PRESETS[0].A;
    assert.deepEqual(parseLayout(layoutText(l)).layout, l);
    const triton = ' - register=[[1, 0], [2, 0]]\n - lane=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]\n - warp=[]';
    assert.deepEqual(parseLayout(triton).layout, { register: [[1, 0], [2, 0]], lane: [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp: [] });
    assert.match(parseLayout('register: [1,0] [2,x]').error, /register: cannot read/);
    assert.ok(parseLayout('nothing here').error);
});

test('linear: the toggle grid as offset bases (offset = 32m + (n ^ mask(m))) and back', () => {
    const b = foldBases([16, 32], [2, 4, 8, 16]);
    assert.deepEqual(b, [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 2], [2, 4], [4, 8], [8, 16]]);
    assert.deepEqual(basesToFold([16, 32], b), [2, 4, 8, 16]);
    assert.equal(basesToFold([16, 32], [[0, 2], [0, 1], ...b.slice(2)]), null);
    assert.equal(basesToFold([16, 32], b.slice(1)), null);
});

test('linear: the API bodies', () => {
    const s = defaultState();
    assert.deepEqual(evaluateBody(s), {
        shape: [16, 32], bitwidth: 32, num_banks: 32, lanes_per_wavefront: 32, A: s.A, B: s.B, vec: 1,
        swizzle_offset_bases: foldBases([16, 32], [0, 0, 0, 0]),
    });
    assert.equal(optimizeBody(s).vec, undefined);
    assert.equal(optimizeBody(fromPreset(PRESETS[5])).lanes_per_wavefront, 64);
    const opt = withOptimum(s, { vector_elems: 1, offset_bases: foldBases([16, 32], [2, 4, 8, 16]) });
    assert.deepEqual([opt.fold, opt.mem], [[2, 4, 8, 16], null]);
    const odd = withOptimum(s, { vector_elems: 2, offset_bases: [[0, 2], [0, 1]] });
    assert.deepEqual([odd.fold, odd.mem, odd.vec], [null, [[0, 2], [0, 1]], 2]);
    assert.equal(mainPageHref({ b: 4, m: 3, s: 4 }), 'index.html?b=4&m=3&s=4');
    assert.equal(mainPageHref(null), null);
    // the workbench's problem travels: rows, element type, and the seed's pattern pair
    const seed = defaultState();
    assert.equal(mainPageHref({ b: 4, m: 3, s: 4 }, seed),
        'index.html?b=4&m=3&s=4&rows=16&elem=fp32&wr=row_store&rd=transpose_read');
    assert.equal(mainPageHref({ b: 4, m: 3, s: 4 }, { ...seed, preset: 'custom' }),
        'index.html?b=4&m=3&s=4&rows=16&elem=fp32');
});

test('linear: names and runs as the seed writes them', () => {
    assert.equal(bitName([1, 2]), 'm0\u2295n1');
    assert.equal(bitName([0, 0]), '0');
    assert.equal(laneRuns([0, 1, 2, 3, 20, 21, 22, 23]), '0-3, 20-23');
    assert.equal(laneRuns([5]), '5');
});

// An answer shaped as /api/linear/evaluate's side (numbers chosen so that
// none of them could be derived from another: the markup must copy them).
const side = {
    op: 'ld', wavefronts_per_instruction: 7, lower_bound: 3, bank_conflicts_per_instruction: 4, bytes_per_lane: 4,
    lanes_per_phase: 32, phases: 3, paired: false, simulated: { instructions: 11, instructions_simulated: 9 },
    segment_basis: [[1, 1]], thread_basis: [[2, 0]],
    formula: { wavefronts_per_instruction: 7, conflict_dim: 5, ways: 13, conflict_basis: [[1, 1]] },
    lemma_9_4: { wavefronts_per_instruction: 6, dim: 2, ways: 4 }, agree: true, formula_undercounts: true,
    phase_rule: { phase0_lanes: [0, 1, 2, 3, 20, 21, 22, 23], rule: 'r<x>', status: 'published, not measured here', source: 'src' },
};

test('linear: the panels draw the answer\'s numbers', () => {
    const v = verdict(side, 'Load');
    assert.match(v, /data-wf="7"/);
    assert.match(v, /4 bank conflicts: ideal 3 \(3 phases of 32 lanes/);
    assert.match(v, /simulated 9 of 11 instructions/);
    assert.match(v, /data-undercounts="1"/);
    const a = algebra(side, 'Load');
    assert.match(a, /data-ways="13"/);
    assert.match(a, /m0\u2295n0/);
    assert.match(a, /dim 5/);
    const r = phaseRule(side);
    assert.match(r, /r&lt;x&gt;/);
    assert.match(r, /0-3, 20-23/);
    assert.match(r, /published, not measured here/);
    const e = equivalents({ cute: { b: 4, m: 3, s: 4, name: 'Swizzle<4,3,4>' }, triton: null, nvmma: null });
    assert.match(e, /href="index.html\?b=4&amp;m=3&amp;s=4"/);
    assert.match(equivalents({ cute: null, triton: null, nvmma: null }), /No CuTe swizzle/);
    // no swizzled form: the API's shared_linear text is what Triton takes
    assert.match(equivalents({ cute: null, triton: null, nvmma: null, shared_linear: '#ttg.shared_linear<{offset = [[0, 1]]}, alignment = 16>' }),
        /<code id="lin-shared-linear">#ttg.shared_linear&lt;\{offset = \[\[0, 1\]\]\}, alignment = 16&gt;<\/code>/);
});

test('linear: toggle grid and matrices', () => {
    const g = toggleGrid([16, 32], [2, 0, 0, 0]);
    assert.equal((g.match(/data-i=/g) || []).length, 20);
    assert.match(g, /data-i="0" data-j="1" aria-pressed="true"/);
    assert.equal((toggleGrid([16, 32], null).match(/ disabled/g) || []).length, 20);
    const m = matrix([2, 4], [{ name: 'lane', short: 't', bases: [[1, 2]] }], 'x');
    // rows n0, n1, m0: [1, 2] sets n1 and m0
    assert.deepEqual([...m.matchAll(/class="(lin-one|lin-zero)/g)].map((x) => x[1] === 'lin-one' ? 1 : 0), [0, 1, 1]);
});

test('linear: the bank view\'s side, phase and labels live in the URL; defaults stay out of it', () => {
    const s = { ...defaultState(), side: 'st', phase: 2, show: 'row' };
    const q = toQuery(s);
    assert.match(q, /bv=st/);
    assert.match(q, /bph=2/);
    assert.match(q, /bshow=row/);
    assert.deepEqual(fromQuery('?' + q), s);
    assert.equal(toQuery({ ...s, ...BANK_VIEW }), 'p=seed');
    assert.deepEqual(bankViewOf(fromQuery('?p=seed&bv=xx&bph=x1&bshow=zz')), BANK_VIEW);
    // a preset change keeps what the user chose to look at
    const next = fromPreset(PRESETS[1], bankViewOf(s));
    assert.deepEqual([next.side, next.phase, next.show], ['st', 2, 'row']);
    assert.equal(next.preset, PRESETS[1].id);
});

test('linear: the access page link spells the answer\'s access_view and offsets, marked physical', () => {
    const ins = {
        op: 'st', bytes: 16, offsets: Array.from({ length: 32 }, (_, t) => 16 * (t ^ 3)),
        access_view: { b: 0, m: 4, s: 3, bank_bytes: 4, banks: 64, rows: 8, match_bank_row: 1, space: 'physical' },
    };
    const href = accessPageHref(ins);
    assert.ok(href.startsWith('index.html?'), href);
    const st = pageFromSearch(href.slice('index.html'.length));
    assert.deepEqual([st.b, st.m, st.s, st.bank_bytes, st.banks, st.rows, st.match], ['0', '4', '3', '4', '64', '8', true]);
    assert.deepEqual([st.acc, st.space, st.op, st.bytes], ['custom', 'physical', 'st', '16']);
    assert.equal(st.offs, ins.offsets.join(','));
    // a load of 4 bytes: the page's defaults, left out of the link and read back
    const ld = pageFromSearch(accessPageHref({ ...ins, op: 'ld', bytes: 4 }).slice('index.html'.length));
    assert.deepEqual([ld.op, ld.bytes], ['ld', '4']);
    assert.equal(accessPageHref(null), null);
});
