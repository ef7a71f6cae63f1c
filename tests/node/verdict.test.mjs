// verdict.test.mjs - the verdict words for a cost answer (verdict.js): loads
// and stores by bank conflict, atomics by what the API says their extra
// wavefronts are (bank conflict, same-address serialization, or no exact count
// for a form that is not native). The answers are written out by hand, each
// with the verdict_class the API gives it (tests/api_cases.h checks the
// server's classes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verdict, verdictHTML } from '../../static/js/index/verdict.js';

const base = { verdict_class: 'conflict_free', wavefronts: 1, ideal_wavefronts: 1, bank_conflicts: 0, cycles: 1, ways: 1,
    phases: [{ reason: 'clean' }], calibrated: true, banks: 32, bank_bytes: 4 };
const CASES = [
    ['clean load', base, 'ok', 'conflict-free: 1 wavefront (ideal 1)'],
    ['8-way load', { ...base, verdict_class: 'conflict', wavefronts: 32, ideal_wavefronts: 4, bank_conflicts: 28, ways: 8 },
        'bad', '8-way conflict: 32 wavefronts, ideal 4'],
    ['histogram: serialization only', { ...base, verdict_class: 'serialization', wavefronts: 5, bank_conflicts: 4,
        atomic: { native: true, serial_wavefronts: 4, conflict_wavefronts: 0, verdict: 'x' } },
        'bad', 'same-address serialization: 5 wavefronts, ideal 1'],
    ['both', { ...base, verdict_class: 'conflict_and_serialization', wavefronts: 31, bank_conflicts: 30,
        atomic: { native: true, serial_wavefronts: 24, conflict_wavefronts: 7, verdict: 'x' } },
        'bad', 'bank conflict and same-address serialization: 31 wavefronts, ideal 1'],
    ['atomic, conflicts only', { ...base, verdict_class: 'conflict', wavefronts: 4, bank_conflicts: 3, ways: 4,
        atomic: { native: true, serial_wavefronts: 0, conflict_wavefronts: 3, verdict: 'x' } },
        'bad', '4-way conflict: 4 wavefronts, ideal 1'],
    ['not native', { ...base, verdict_class: 'not_native', wavefronts: null, ideal_wavefronts: null, bank_conflicts: null,
        cycles: null, atomic: { native: false, sass: 'ATOMS.CAST.SPIN loop', verdict: 'x' } },
        'bad', 'not native (ATOMS.CAST.SPIN loop): no exact count'],
];
for (const [name, c, cls, text] of CASES)
    test(`verdict: ${name}`, () => assert.deepEqual(verdict(c), { cls, text }));

test('verdictHTML: a count the model does not claim prints as a dash, the API\'s words follow', () => {
    const c = CASES[5][1];
    const html = verdictHTML({ ...c, atomic: { ...c.atomic, verdict: 'a <loop>' } });
    assert.match(html, /id="acc-wavefronts">&mdash;</);
    assert.match(html, /id="acc-cycles">&mdash;</);
    assert.match(html, /id="acc-atomic">a &lt;loop&gt;</);
    assert.doesNotMatch(html, />null</);
});

test('verdictHTML: cycles the API calls not exact say so (cp.async C4, atomics at a warp count)', () => {
    const copy = { ...base, cycles: 14, wavefronts: 14, wavefronts_exact: true, cycles_exact: false };
    assert.match(verdictHTML(copy), /id="acc-cycles-inexact"><strong>Cycles not exact<\/strong> \(cycles_exact: false\): the hardware counter/);
    assert.doesNotMatch(verdictHTML({ ...copy, cycles_exact: true }), /cycles-inexact/);
    assert.doesNotMatch(verdictHTML(base), /cycles-inexact/);
    const atom = { ...base, cycles: 1.09, atomic: { native: true, cycles_exact: false, warps: 11,
        warps_bound: 'sub-partitions <colliding>', verdict: 'x' } };
    assert.match(verdictHTML(atom), /id="acc-cycles-inexact">.*at 11 warps a block, sub-partitions &lt;colliding&gt;\./);
    assert.doesNotMatch(verdictHTML({ ...atom, atomic: { ...atom.atomic, cycles_exact: true } }), /cycles-inexact/);
});
