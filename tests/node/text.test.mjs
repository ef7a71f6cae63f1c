// text.test.mjs - the small pure page modules: esc (esc.js), offsets parsing
// (offsets.js), fix hints (hints.js), element notation (elements.js), op
// helpers (ops.js) and slot-rule words (slotrule.js). Expected values are
// written out by hand from each module's stated rule; the instruction kinds
// come from the API's answer (tests/data/ops.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { esc } from '../../static/js/kit/esc.js';
import { parseOffsets, formatOffsets } from '../../static/js/kit/offsets.js';
import { fixFor } from '../../static/js/index/hints.js';
import { ELEMENT_TYPES, elementType, cellLabel, cellTitle, elementSwizzle } from '../../static/js/index/elements.js';
import { setOps, opKinds, menuOps, FORM_OPERANDS, isMatrix, isStore, opName, opLabel, opShort, opBits, instrBody, instrQuery, instrState } from '../../static/js/kit/ops.js';
import fs from 'node:fs';

// The server's instruction kinds: tests/data/ops.json is GET /api/ops's answer
// (test_api fails when the two differ), so these tests read the API's list.
const OPS_ANSWER = JSON.parse(fs.readFileSync(new URL('../../tests/data/ops.json', import.meta.url), 'utf8'));
setOps(OPS_ANSWER);
import { RULES, bitRange, bitsXor, gridLines, fieldWords } from '../../static/js/index/slotrule.js';

const ESC = [
    ['plain', 'plain'],
    ['<b>', '&lt;b&gt;'],
    ['a & b', 'a &amp; b'],
    ['"q" \'s\'', '&quot;q&quot; &#39;s&#39;'],
    ['&amp;', '&amp;amp;'],                       // escapes once more: it never guesses
    [5, '5'], [null, 'null'], [undefined, 'undefined'],
];
for (const [s, want] of ESC) test(`esc(${JSON.stringify(s)})`, () => assert.equal(esc(s), want));

const PARSE = [
    ['0, 4,8', [0, 4, 8]],
    ['0\n4;8\t12', [0, 4, 8, 12]],
    ['0x10 0X1f', [16, 31]],
    ['- null NULL', [null, null, null]],
    ['x 5 -3 1.5', ['x', 5, '-3', '1.5']],        // not offsets: passed on for the server to name
    ['', []], [' , ,', []],
];
for (const [text, want] of PARSE) {
    test(`parseOffsets(${JSON.stringify(text)})`, () => assert.deepEqual(parseOffsets(text), { offsets: want, count: want.length }));
}
const FORMAT = [[[0, 16, null, undefined, 'x'], '0,16,-,-,x'], [[], '']];
for (const [offs, want] of FORMAT) test(`formatOffsets(${JSON.stringify(offs)})`, () => assert.equal(formatOffsets(offs), want));

// Every field the API may blame has a hint; the names are the controls' labels.
const HINTS = [
    ['b', 'B (BBits)'], ['m', 'M (MBase)'], ['s', 'S (SShift)'], ['rows', 'Rows'], ['bank_bytes', 'Bytes per bank'],
    ['banks', 'Banks'], ['match_bank_row', 'Match row width'], ['row', 'row'], ['col', 'col'], ['pattern', 'Pattern'],
    ['step', 'Step'], ['op', 'Instruction'], ['bytes', 'Bytes per lane'], ['matrices', 'Matrices'], ['trans', '.trans'],
    ['offsets', 'Offsets'], ['offsets[7]', "lane 7's offset"], ['offsets[31]', "lane 31's offset"],
];
for (const [field, name] of HINTS) {
    test(`fixFor(${field})`, () => {
        const fx = fixFor(field);
        assert.equal(fx.name, name);
        assert.ok(fx.fix.length > 10);
    });
}
test('fixFor: the lane of offsets[n]', () => assert.equal(fixFor('offsets[7]').lane, 7));
for (const field of [null, '', 'nope', 'offsets[x]', 'expr']) test(`fixFor(${JSON.stringify(field)}) = null`, () => assert.equal(fixFor(field), null));

test('elements: the menu lists units and four element types', () => {
    assert.deepEqual(ELEMENT_TYPES.map((e) => [e.id, e.bytes]), [['', 0], ['fp32', 4], ['fp16', 2], ['fp8', 1], ['bytes', 1]]);
    assert.equal(elementType('fp64').id, '');
});
const LABEL = [
    // [elem, unit bytes, column, label]: the first element index a unit holds = col * unit / elem
    ['fp16', 16, 3, '24'], ['fp32', 16, 3, '12'], ['fp8', 16, 2, '32'], ['fp32', 2, 5, '2'], ['bytes', 4, 7, '28'],
];
for (const [e, u, c, want] of LABEL) test(`cellLabel(${e}, ${u})(${c}) = ${want}`, () => assert.equal(cellLabel(e, u)(c), want));
test('cellLabel / cellTitle for units: null (the column number)', () => { assert.equal(cellLabel('', 16), null); assert.equal(cellTitle('', 16), null); });
const TITLE = [
    ['fp32', 16, 1, 'fp32 elements 4..7 of the row'],
    ['fp16', 4, 0, 'fp16/bf16 elements 0..1 of the row'],
    ['fp32', 2, 3, '1/2 of fp32 element 1 of the row'],
    ['fp32', 1, 6, '1/4 of fp32 element 1 of the row'],
];
for (const [e, u, c, want] of TITLE) test(`cellTitle(${e}, ${u})(${c})`, () => assert.equal(cellTitle(e, u)(c), want));
// The words for the element form /api/swizzle gives: each case's answer
// carries the entry the server gives (tests/api_cases.h checks those four).
const ans = ([b, m, s], entry) => ({ params: { b, m, s }, unit: { bytes: 2 ** m }, elements: entry ? [entry] : [] });
const ESWZ = [
    // Swizzle<B, M - log2(elem bytes), S> when a unit holds whole elements
    ['fp16', [3, 4, 3], { bytes: 2, log2: 1, ok: true, b: 3, m: 3, s: 3, name: 'Swizzle<3,3,3>' },
        { ok: true, text: 'Swizzle<3,3,3>', note: 'on fp16/bf16 element indices (M 4 - log2(2) = 3)' }],
    ['fp32', [2, 4, 3], { bytes: 4, log2: 2, ok: true, b: 2, m: 2, s: 3, name: 'Swizzle<2,2,3>' },
        { ok: true, text: 'Swizzle<2,2,3>', note: 'on fp32 element indices (M 4 - log2(4) = 2)' }],
    ['fp8', [3, 4, -3], { bytes: 1, log2: 0, ok: true, b: 3, m: 4, s: -3, name: 'Swizzle<3,4,-3>' },
        { ok: true, text: 'Swizzle<3,4,-3>', note: 'on fp8 element indices (M 4 - log2(1) = 4)' }],
    ['fp32', [1, 1, 1], { bytes: 4, log2: 2, ok: false, needs_m: 2 },
        { ok: false, text: 'no element form: a 2-byte unit splits a 4-byte fp32 element (needs M >= 2)' }],
    ['', [3, 4, 3], null, null],
];
for (const [e, [b, m, s], entry, want] of ESWZ) test(`elementSwizzle(${e}, ${b}, ${m}, ${s})`, () => assert.deepEqual(elementSwizzle(e, ans([b, m, s], entry)), want));

test('ops: every kind of the API, in its order', () => assert.deepEqual(opKinds().map((k) => k.name), OPS_ANSWER.ops.map((k) => k.name)));
test('ops: the menu offers each kind whose fields the form has, and only those', () => {
    const menu = menuOps().map((k) => k.name);
    for (const k of OPS_ANSWER.ops) assert.equal(menu.includes(k.name), k.operands.every((f) => FORM_OPERANDS.includes(f)), k.name);
    assert.ok(menu.length >= 4, menu.join());
});
test('ops: an unknown op is neither matrix nor store', () => { assert.equal(isMatrix('nope'), false); assert.equal(isStore('nope'), false); });
test('ops: before setOps nothing is known (no list of its own)', async () => {
    const fresh = await import('../../static/js/kit/ops.js?fresh');
    assert.deepEqual([...fresh.opKinds()], []);
    assert.equal(fresh.isMatrix('ldmatrix'), false);
});
const OPKIND = [['ld', false, false], ['st', false, true], ['ldmatrix', true, false], ['stmatrix', true, true], ['atom', false, false]];
for (const [op, m, s] of OPKIND) test(`isMatrix / isStore(${op})`, () => { assert.equal(isMatrix(op), m); assert.equal(isStore(op), s); });
const LABELS = [
    // [instruction, opName, opLabel, opShort]
    [{ op: 'ld', bytes: 4 }, 'ld', 'ld, 4 B per lane', 'ld 4 B'],
    [{ op: 'st', bytes: 16 }, 'st', 'st, 16 B per lane', 'st 16 B'],
    [{ op: 'ldmatrix', matrices: 4, trans: false }, 'ldmatrix.x4', 'ldmatrix.x4', 'ldmatrix.x4'],
    [{ op: 'ldmatrix', matrices: 2, trans: true }, 'ldmatrix.x2.trans', 'ldmatrix.x2.trans', 'ldmatrix.x2'],
    [{ op: 'stmatrix', matrices: 1, trans: true }, 'stmatrix.x1.trans', 'stmatrix.x1.trans', 'stmatrix.x1'],
];
const BITS = [[{ op: 'ld', bytes: 4 }, 'ld.32b'], [{ op: 'ldmatrix', matrices: 4, trans: true }, 'ldmatrix.x4.trans']];
for (const [c, want] of BITS) test(`opBits(${c.op})`, () => assert.equal(opBits(c), want));
// The instruction hints read the kinds: with the API's table they say what they said by hand.
test('fixFor(op) names every kind the menu offers', () => {
    const fix = fixFor('op').fix;
    assert.match(fix, /^pick /);
    for (const k of menuOps()) assert.ok(fix.includes(k.name), k.name);
});
const KIND_HINTS = [
    ['bytes', 'use 1, 2, 4, 8 or 16 bytes; ldmatrix / stmatrix rows are 16 bytes'],
    ['matrices', 'use 1, 2 or 4 matrices, and only with ldmatrix / stmatrix'],
    ['trans', 'untick .trans unless the instruction is ldmatrix / stmatrix'],
];
for (const [field, want] of KIND_HINTS) test(`fixFor(${field}) from the kinds`, () => assert.equal(fixFor(field).fix, want));
for (const [c, name, label, short] of LABELS) {
    test(`op words for ${JSON.stringify(c)}`, () => assert.deepEqual([opName(c), opLabel(c), opShort(c)], [name, label, short]));
}
test('instrBody: a vector access carries bytes, no matrices', () => {
    assert.deepEqual(instrBody({ op: 'ld', bytes: 8, matrices: 1, trans: false, bank_bytes: 4, banks: 32 }, [0, null]),
        { op: 'ld', bytes: 8, offsets: [0, null], bank_bytes: 4, banks: 32 });
});
test('instrBody: a cp.async answer carries its cache and global side (the copy measured is the copy costed)', () => {
    const g = Array.from({ length: 32 }, (_, t) => 32 * t);
    const b = instrBody({ op: 'cp.async', bytes: 16, matrices: 1, trans: false, cache: 'cg', global_offsets: g, bank_bytes: 4, banks: 32 }, [0]);
    assert.equal(b.cache, 'cg');
    assert.deepEqual(b.global_offsets, g);
    assert.equal('cache' in instrBody({ op: 'ld', bytes: 4, matrices: 1, trans: false, bank_bytes: 4, banks: 32 }, [0]), false);
});

test('instrBody: a matrix op carries matrices and the given .trans', () => {
    const c = { op: 'ldmatrix', bytes: 16, matrices: 4, trans: false, bank_bytes: 4, banks: 32 };
    assert.deepEqual(instrBody(c, [0]), { op: 'ldmatrix', bytes: 16, offsets: [0], matrices: 4, trans: false, bank_bytes: 4, banks: 32 });
    assert.equal(instrBody(c, [0], true).trans, true);
});
const QUERY = [
    [{ op: 'ld', bytes: '8', mats: '4' }, { op: 'ld', bytes: '8' }],
    [{ op: 'stmatrix', bytes: '4', mats: '2' }, { op: 'stmatrix', matrices: '2' }],
];
for (const [st, want] of QUERY) test(`instrQuery(${st.op})`, () => assert.deepEqual(instrQuery(st), want));
const STATE = [
    [{ op: 'st', bytes: 16, matrices: 1, trans: false }, { op: 'st', bytes: '16' }],
    [{ op: 'ldmatrix', bytes: 16, matrices: 2, trans: true }, { op: 'ldmatrix', mats: '2', trans: true }],
];
for (const [c, want] of STATE) test(`instrState(${c.op})`, () => assert.deepEqual(instrState(c), want));

// Swizzle<3,4,3>'s masks: YYY bits [7, 10), ZZZ bits [4, 7).
const MK = { yyy_lo: 7, yyy_hi: 10, zzz_lo: 4, zzz_hi: 7 };
// The slot rules' names are checked against the API in api.test.mjs.
// tests/data/slot_rules.json lists the server's names (test_swizzle fails when they differ).
const SLOT_RULES = JSON.parse(fs.readFileSync(new URL('../../tests/data/slot_rules.json', import.meta.url), 'utf8')).slot_rules;
test('slot rules: the ones the API names', () => assert.deepEqual([...RULES], SLOT_RULES));
test('bitRange', () => { assert.equal(bitRange(4, 7), 'bits [4, 7)'); assert.equal(bitRange(4, 4), 'no bits'); });
test('bitsXor: ZZZ ^= YYY as address bits', () => assert.equal(bitsXor(MK), 'address bits [4, 7) ^= bits [7, 10)'));
const LINES = [
    ['col_xor_row', 8, [['col_in_tile   = col mod 8', ''], ['row_mod       = row mod 8', ''], ['physical slot = col_in_tile XOR row_mod', 'inside its tile; the tile does not move']]],
    ['row_xor_col', 4, [['row_in_tile   = row mod 4', ''], ['col_mod       = col mod 4', ''], ['physical row  = row_in_tile XOR col_mod', 'inside its tile; every unit keeps its column']]],
    ['general', 8, [['address bits [4, 7) ^= bits [7, 10)', 'on this grid a unit moves across both rows and columns']]],
    ['identity', 1, [['physical slot = logical slot', 'B = 0: nothing moves']]],
    [undefined, 8, []], ['bogus', 8, []],
];
for (const [rule, T, want] of LINES) test(`gridLines(${rule})`, () => assert.deepEqual(gridLines(rule, T, MK), want));
test('gridLines: the XOR of column and row appears only under col_xor_row', () => {
    for (const rule of RULES) assert.equal(gridLines(rule, 8, MK).some(([code]) => code.includes('col_in_tile XOR row_mod')), rule === 'col_xor_row', rule);
});
const WORDS = [
    ['col_xor_row', { yyy: 'row in tile', zzz: 'column in tile, XORed with YYY' }],
    ['row_xor_col', { yyy: 'column in tile', zzz: 'row in tile, XORed with YYY' }],
    ['general', { yyy: 'the source bits', zzz: 'XORed with YYY' }],
    ['identity', { yyy: 'the source bits', zzz: 'XORed with YYY' }],
];
for (const [rule, want] of WORDS) test(`fieldWords(${rule})`, () => assert.deepEqual(fieldWords(rule), want));

// measure.js's reasonParts: /api/health's reason as a plain sentence and the
// tool's words after it (cuda/probe.cu's two no-device messages), every word kept.
import { reasonParts } from '../../static/js/index/measure.js';
const REASONS = [
    ['No GPU on this machine: no NVIDIA driver (libcuda.so.1 cannot be loaded: x)', ['No GPU on this machine', 'no NVIDIA driver (libcuda.so.1 cannot be loaded: x)']],
    ['No GPU on this machine (cudaGetDeviceCount: no CUDA-capable device is detected)', ['No GPU on this machine', '(cudaGetDeviceCount: no CUDA-capable device is detected)']],
    ['no measurement tool configured', ['no measurement tool configured', '']],
    ['the measurement tool crashed (signal 11): boom', ['the measurement tool crashed', '(signal 11): boom']],
    ['ends in a colon:', ['ends in a colon:', '']],
    ['checking the server\u2026', ['checking the server\u2026', '']],
];
for (const [r, want] of REASONS) test(`reasonParts(${JSON.stringify(r)})`, () => assert.deepEqual(reasonParts(r), want));


// Issue 39 item 6: the layout page's instruction menu offers every kind at
// every width the server's table gives it (and each matrix count, .trans and
// cp.async's two caches), and each entry reads back as the request fields it
// stands for; a bare kind name (an older link) is the op alone.
import { instrChoices, instrChoiceFields } from '../../static/js/kit/ops.js';
import { accessBody, ncuBody, ncuListBody, DEFAULTS } from '../../static/js/layout/layoutstate.js';
test('instrChoices: every kind and width of /api/ops, read back by instrChoiceFields', () => {
    const choices = instrChoices();
    for (const k of OPS_ANSWER.ops) {
        const mine = choices.map((c) => instrChoiceFields(c.value)).filter((f) => f.op === k.name);
        if (k.matrix) {
            assert.deepEqual(mine.map((f) => `${f.matrices}${f.trans ? 't' : ''}`).sort(), k.matrices.flatMap((m) => [`${m}`, `${m}t`]).sort(), k.name);
        } else {
            const caches = k.operands.includes('cache') ? ['ca', 'cg'] : [undefined];
            assert.deepEqual(mine.map((f) => `${f.bytes}/${f.cache}`).sort(), caches.flatMap((c) => k.widths.map((b) => `${b}/${c}`)).sort(), k.name);
        }
    }
    assert.deepEqual(instrChoiceFields('cp.async/16/cg'), { op: 'cp.async', bytes: 16, cache: 'cg' });
    assert.deepEqual(instrChoiceFields('ldmatrix/x2/trans'), { op: 'ldmatrix', matrices: 2, trans: true });
    assert.deepEqual(instrChoiceFields('ldmatrix'), { op: 'ldmatrix' });
});
test('accessBody and ncuBody carry the menu\'s fields and the launch picked', () => {
    const s = { ...DEFAULTS, thread: '% Layout S TV: ...', op: 'cp.async/8' };
    const a = accessBody(s, 2);
    assert.equal(a.op, 'cp.async'); assert.equal(a.bytes, 8); assert.equal(a.cache, undefined);
    assert.equal(ncuBody(s, 2, 'text', '', '7').launch, 7);
    assert.equal('launch' in ncuBody(s, 2, 'text', '', ''), false);
    assert.deepEqual(ncuListBody('t'), { ncu: 't', list: true });
});
