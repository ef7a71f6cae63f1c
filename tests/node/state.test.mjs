// state.test.mjs - the URL state (static/js/kit/state.js): parse, print, defaults
// and round trips. Expected values are written out by hand from the URL
// format (README: "All state is in the URL"), not produced by the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, fromSearch, toSearch, apiQuery, sameParams } from '../../static/js/kit/state.js';

test('defaults: an empty query is the 64B swizzle, 32 banks of 4 bytes', () => {
    const st = fromSearch('');
    assert.deepEqual(
        { b: st.b, m: st.m, s: st.s, bank_bytes: st.bank_bytes, banks: st.banks, rows: st.rows, match: st.match, sel: st.sel, tcol: st.tcol },
        { b: '2', m: '4', s: '3', bank_bytes: '4', banks: '32', rows: '', match: false, sel: null, tcol: null });
    assert.deepEqual({ acc: st.acc, pat: st.pat, step: st.step, offs: st.offs, op: st.op, bytes: st.bytes, mats: st.mats, trans: st.trans, wr: st.wr, rd: st.rd },
        { acc: '', pat: 'col_read', step: 0, offs: '', op: 'ld', bytes: '4', mats: '4', trans: false, wr: 'row_store', rd: 'col_read' });
    assert.deepEqual({ theme: st.theme, present: st.present, palette: st.palette, elem: st.elem, show: st.show },
        { theme: '', present: false, palette: '', elem: '', show: '' });
});

const PARSE = [
    // [query, the fields it sets]
    ['?b=3&m=4&s=3', { b: '3', m: '4', s: '3' }],
    ['?b=%203%20', { b: '3' }],                                  // trimmed
    ['?s=-4&rows=16', { s: '-4', rows: '16' }],
    ['?b=x', { b: 'x' }],                                        // kept as typed: the server judges
    ['?match=1', { match: true }], ['?match=true', { match: true }], ['?match=0', { match: false }],
    ['?sel=2,5', { sel: [2, 5] }], ['?sel=%202%20,%205', { sel: [2, 5] }],
    ['?sel=2', { sel: null }], ['?sel=-1,2', { sel: null }], ['?sel=a,b', { sel: null }],
    ['?tcol=7', { tcol: 7 }], ['?tcol=x', { tcol: null }], ['?tcol=', { tcol: null }],
    ['?step=5', { step: 5 }], ['?step=-1', { step: 0 }], ['?step=1234567890', { step: 0 }],
    ['?theme=dark', { theme: 'dark' }], ['?theme=blue', { theme: '' }],
    ['?theme=presenter', { theme: '', present: true }],           // older links
    ['?present=1', { present: true }], ['?palette=cb', { palette: 'cb' }], ['?palette=x', { palette: '' }],
    ['?elem=fp16', { elem: 'fp16' }], ['?elem=fp64', { elem: '' }],
    ['?show=row', { show: 'row' }], ['?show=col', { show: '' }],
    ['?acc=custom', { acc: 'custom' }], ['?acc=other', { acc: '' }],
    ['?offs=0,4,-&op=ldmatrix&mats=2&trans=1', { offs: '0,4,-', op: 'ldmatrix', mats: '2', trans: true }],
    ['?wr=st_row&rd=ld_col', { wr: 'st_row', rd: 'ld_col' }],
];
for (const [q, want] of PARSE) {
    test(`fromSearch ${q}`, () => {
        const st = fromSearch(q);
        for (const [k, v] of Object.entries(want)) assert.deepEqual(st[k], v, k);
    });
}

const PRINT = [
    // [state changes from DEFAULTS, the query printed]
    [{}, '?b=2&m=4&s=3&bank_bytes=4&banks=32'],
    [{ rows: '16', match: true }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&rows=16&match=1'],
    [{ sel: [2, 5], tcol: 5 }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&sel=2,5&tcol=5'],
    [{ theme: 'dark', present: true, palette: 'cb' }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&theme=dark&present=1&palette=cb'],
    [{ elem: 'fp8', show: 'row' }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&elem=fp8&show=row'],
    [{ acc: 'custom', offs: '0,16,-', op: 'st', bytes: '16' }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&acc=custom&offs=0,16,-&op=st&bytes=16'],
    [{ pat: 'col_read', step: 3 }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&step=3'],    // the default pattern is left out
    [{ op: 'ldmatrix', mats: '2', trans: true }, '?b=2&m=4&s=3&bank_bytes=4&banks=32&op=ldmatrix&mats=2&trans=1'],
    [{ s: '-3' }, '?b=2&m=4&s=-3&bank_bytes=4&banks=32'],
];
for (const [part, want] of PRINT) {
    test(`toSearch ${JSON.stringify(part)}`, () => assert.equal(toSearch({ ...DEFAULTS, ...part }), want));
}

// A printed query read back prints the same (the URL is the state).
for (const [, q] of PRINT) {
    test(`round trip ${q}`, () => assert.equal(toSearch(fromSearch(q)), q));
}

test('apiQuery: the layout parameters, match as 0/1', () => {
    assert.deepEqual(apiQuery({ ...DEFAULTS, b: '3', rows: '16', match: true }),
        { b: '3', m: '4', s: '3', bank_bytes: '4', banks: '32', rows: '16', match_bank_row: '1' });
    assert.equal(apiQuery(DEFAULTS).match_bank_row, '0');
});

const SAME = [
    [{}, {}, true],
    [{ sel: [1, 1], theme: 'dark', step: 4 }, {}, true],          // not layout parameters
    [{ b: '3' }, {}, false], [{ rows: '8' }, {}, false], [{ match: true }, {}, false], [{ banks: '64' }, {}, false],
];
for (const [a, b, want] of SAME) {
    test(`sameParams ${JSON.stringify(a)} ${JSON.stringify(b)}`, () => assert.equal(sameParams({ ...DEFAULTS, ...a }, { ...DEFAULTS, ...b }), want));
}
