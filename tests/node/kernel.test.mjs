// kernel.test.mjs - the "Your kernel" page's pure module: its URL round trip
// (examples by name, short text in the hash, long text kept out), the order
// of the ops (the API's own numbers), and its links into the F2 workbench read
// back by the workbench's own URL reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXAMPLES, LINK_MAX, fromLocation, toLocation, ranked, hwKey, workbenchHref, evaluateBody, ttgirBody, partLabel } from '../../static/js/kernel/kernelstate.js';
import { fromQuery as workbenchFromQuery } from '../../static/js/kit/linearstate.js';

test('kernel: examples and short text round-trip through the URL; long text stays out', () => {
    for (const e of EXAMPLES) {
        const s = { text: e.text, sel: 2, ex: e.id, part: null };
        const { search, hash, linkable } = toLocation(s);
        assert.equal(search, `?ex=${e.id}&op=2`);
        assert.equal(hash, '');
        assert.ok(linkable);
        assert.deepEqual(fromLocation(search, hash), s);
    }
    const own = { text: '%1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf16, #d>', sel: null, ex: null, part: null };
    const loc = toLocation(own);
    assert.deepEqual(fromLocation(loc.search, loc.hash), own);
    const long = { text: 'x'.repeat(LINK_MAX + 1), sel: null, ex: null };
    assert.equal(toLocation(long).hash, '');
    assert.equal(toLocation(long).linkable, false);
});

test('kernel: the part picked (a lit file\'s module, a dump\'s pass) round-trips and is asked for', () => {
    const s = { text: '// -----\n%1 = ttg.local_load %0', sel: 1, ex: null, part: 3 };
    const { search, hash } = toLocation(s);
    assert.equal(search, '?part=3&op=1');
    assert.deepEqual(fromLocation(search, hash), s);
    assert.deepEqual(ttgirBody(s), { text: s.text, part: 3 });
    assert.deepEqual(ttgirBody({ ...s, part: null }), { text: s.text });
    assert.equal(fromLocation('?part=x', hash).part, null);
    assert.equal(partLabel({ index: 1, title: '@second', first_line: 13, last_line: 23, ops: 2 }), '2. @second (lines 13-23, 2 ops)');
    assert.equal(partLabel({ index: 0, title: null, first_line: 1, last_line: 4, ops: 1 }), '1. module (lines 1-4, 1 op)');
});

test('kernel: ops listed by the API\'s conflict wavefronts per warp, then in order', () => {
    const ops = [3, 0, 7, 7].map((c) => ({ conflict_wavefronts_per_warp: c }));
    assert.deepEqual(ranked(ops).map((r) => r.i), [2, 3, 0, 1]);
});

test('kernel: the workbench links carry the API\'s layouts and bases, read back by the workbench', () => {
    const L = { register: [[0, 1]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp: [] };
    const F = { register: [[1, 0]], lane: [[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]], warp: [] };
    const op = {
        access: 'load',
        workbench: { shape: [8, 8], bitwidth: 16, num_banks: 32, lanes_per_wavefront: 32, vec: 2, layout: L,
            swizzle_offset_bases: [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]] },
        fix: { vector_elems: 1, workbench: { A: F, B: L, swizzle_offset_bases: [[0, 1], [0, 2], [0, 4], [1, 1], [2, 2], [4, 4]] } },
    };
    const cur = workbenchFromQuery('?' + workbenchHref(op, 'current').split('?')[1]);
    assert.deepEqual([cur.shape, cur.bitwidth, cur.hw, cur.vec, cur.A, cur.B, cur.mem, cur.side],
        [[8, 8], 16, 'nv', 2, L, L, op.workbench.swizzle_offset_bases, 'ld']);
    const fix = workbenchFromQuery('?' + workbenchHref(op, 'fix').split('?')[1]);
    assert.deepEqual([fix.vec, fix.A, fix.B, fix.mem], [1, F, L, op.fix.workbench.swizzle_offset_bases]);
    assert.deepEqual([hwKey(32, 32), hwKey(64, 32), hwKey(64, 64)], ['nv', 'mi300', 'mi350']);
    assert.deepEqual(evaluateBody(op).A, L);
    assert.equal(evaluateBody(op).vec, 2);
});
