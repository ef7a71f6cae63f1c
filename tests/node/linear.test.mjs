// linear.test.mjs - the F2 workbench's pure modules: the URL round trip of
// every preset and of edited views, the layout text (ours and Triton's
// printed form), the toggle grid as offset bases and back, the API bodies,
// and the panels' markup drawing the answer's numbers, not its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    PRESETS, HARDWARE, fromPreset, fromQuery, toQuery, defaultState, layoutText, parseLayout, layoutToParam, layoutFromParam,
    foldBases, basesToFold, toggled, evaluateBody, optimizeBody, withOptimum, mainPageHref, bitName, laneRuns,
} from '../../static/js/linearstate.js';
import { toggleGrid, matrix, verdict, algebra, equivalents, phaseRule } from '../../static/js/linearview.js';

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
