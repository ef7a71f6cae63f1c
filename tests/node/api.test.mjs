// api.test.mjs - the lists a page module keeps, checked against the API's
// answers (not against a copy written here): the slot rules slotrule.js has
// words for are the ones /api/swizzle names, and every element type of the
// menu (elements.js) has a form in /api/swizzle's "elements", and the ranges
// the fix hints name (hints.js through limits.js) are /api/presets' limits.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { RULES } from '../../static/js/index/slotrule.js';
import { ELEMENT_TYPES } from '../../static/js/index/elements.js';
import { fixFor } from '../../static/js/index/hints.js';
import { setLimits, rangeText } from '../../static/js/index/limits.js';

const srv = await startServer();
after(() => srv.stop());

// One swizzle per rule (tests/browser/extras_checks.mjs draws each).
const RULE_OF = [
    [{ b: 0, m: 4, s: 3 }, 'identity'],
    [{ b: 3, m: 4, s: 3 }, 'col_xor_row'],
    [{ b: 2, m: 4, s: -3 }, 'row_xor_col'],
    [{ b: 3, m: 2, s: 3, match_bank_row: 1 }, 'general'],
];

test('slot rules: the four the API names', async () => {
    const named = [];
    for (const [q, want] of RULE_OF) {
        const d = await srv.get('swizzle', q);
        assert.equal(d.slot_rule, want, JSON.stringify(q));
        named.push(d.slot_rule);
    }
    assert.deepEqual([...RULES], named);
    assert.deepEqual([...RULES], ['identity', 'col_xor_row', 'row_xor_col', 'general']);
});

test('element types: every size on the menu has a form in /api/swizzle', async () => {
    const d = await srv.get('swizzle', { b: 3, m: 4, s: 3 });
    for (const e of ELEMENT_TYPES.filter((x) => x.bytes)) {
        const f = d.elements.find((x) => x.bytes === e.bytes);
        assert.ok(f && f.ok, `${e.id}: ${JSON.stringify(d.elements)}`);
    }
});

test('hints: the ranges they name are the ones /api/presets gives (limits.js keeps no copy)', async () => {
    assert.equal(fixFor('b').fix, 'choose B with B <= |S|: lower B or raise |S|', 'before the limits arrive no range is claimed');
    const d = await srv.get('presets', {});
    setLimits(d.limits);
    assert.equal(rangeText('b'), `${d.limits.b.min}..${d.limits.b.max}`);
    assert.ok(fixFor('b').fix.includes(`in ${d.limits.b.min}..${d.limits.b.max} `), fixFor('b').fix);
    assert.ok(fixFor('bank_bytes').fix.includes(`in ${d.limits.bank_bytes.min}..${d.limits.bank_bytes.max}`), fixFor('bank_bytes').fix);
    assert.ok(fixFor('banks').fix.includes(`in ${d.limits.banks.min}..${d.limits.banks.max}`), fixFor('banks').fix);
    setLimits(null);
});
