// baseline.test.mjs - the access view's baseline words (baseline.js): an
// atomic's extra wavefronts are named by the API's split (bank conflict or
// same-address serialization), a load's by its ways; a form that is not
// native has no count. The answers are written out by hand, each with the
// verdict_class the API gives it (tests/api_cases.h checks the server's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costWords, baselineHTML } from '../../static/js/index/baseline.js';

const load = { verdict_class: 'conflict', wavefronts: 8, bank_conflicts: 7, ways: 8 };
const atom = (serial, conflict) => ({
    verdict_class: serial ? (conflict ? 'conflict_and_serialization' : 'serialization') : conflict ? 'conflict' : 'conflict_free',
    wavefronts: 1 + serial + conflict, bank_conflicts: serial + conflict,
    ways: conflict ? conflict + 1 : 1, atomic: { native: true, serial_wavefronts: serial, conflict_wavefronts: conflict } });
const CASES = [
    ['clean load', { verdict_class: 'conflict_free', wavefronts: 1, bank_conflicts: 0, ways: 1 }, 'conflict-free'],
    ['8-way load', load, '8-way'],
    ['atomic, one word', atom(31, 0), 'same-address serialization'],
    ['atomic, both', atom(24, 7), 'bank conflict + same-address'],
    ['atomic, conflicts only', atom(0, 3), '4-way'],
    ['atomic, clean', atom(0, 0), 'conflict-free'],
    ['not native', { verdict_class: 'not_native', wavefronts: null, bank_conflicts: null, atomic: { native: false } }, 'not native: no exact count'],
];
for (const [name, c, words] of CASES)
    test(`baseline words: ${name}`, () => assert.equal(costWords(c), words));

test('baseline: a histogram on one word is not called a bank conflict', () => {
    const cmp = { unswizzled: atom(31, 0), swizzles: [atom(31, 0)], best: 0 };
    const html = baselineHTML(cmp, [{ id: 'none', label: 'None', b: 0, m: 4, s: 3 }], atom(31, 0), 'Swizzle<3,4,3>');
    assert.match(html, /32 wavefronts <small>same-address serialization<\/small>/);
    assert.doesNotMatch(html, /bank conflict/);
});

test('baseline: a loop form says so instead of "null wavefronts"', () => {
    const c = { verdict_class: 'not_native', wavefronts: null, bank_conflicts: null, atomic: { native: false } };
    const html = baselineHTML({ unswizzled: c, swizzles: [], best: -1 }, [], c, 'Swizzle<3,4,3>');
    assert.match(html, /loop <small>not native: no exact count<\/small>/);
    assert.doesNotMatch(html, /null/);
});

test('baseline: an atomic\'s split reads the same in every card (issue 27.5)', () => {
    const flat = (c) => ({ ...c, conflict_wavefronts: c.atomic.conflict_wavefronts, serial_wavefronts: c.atomic.serial_wavefronts });
    const cur = atom(3, 0);
    const cmp = { unswizzled: flat(atom(24, 7)), swizzles: [flat(cur)], best: 0 };
    const html = baselineHTML(cmp, [{ id: '128B', label: '128B', b: 3, m: 4, s: 3 }], cur, 'Swizzle<3,4,3>');
    const card = (id) => new RegExp(`id="${id}"[^]*?<span class="bl-cost">(.*?)</span></div>`).exec(html)[1];
    assert.equal(card('acc-base-cur'), card('acc-base-best'));
    assert.match(card('acc-base-cur'), /\(3 same-address, 0 conflict\)/);
    assert.match(card('acc-base-none'), /\(24 same-address, 7 conflict\)/);
    assert.match(baselineHTML(cmp, [], cur, 'x', true), /does not apply/);
});
