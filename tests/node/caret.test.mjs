// caret.test.mjs - the caret from the API's `at` (issue 37): caret.js places
// it from {line, column} alone (1-based, the column in characters, as the
// server's sz_text_pos counts), never from the message's words; custom.js's
// expression caret does the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caretAt } from '../../static/js/kit/caret.js';
import { caretHTML } from '../../static/js/index/custom.js';

// the body test_api checks: /api/layout on a three-line Triton encoding
const TEXT = '#ttg.swizzled_shared<{vec = 8,\n  perPhase = 1,\n  maxPhase = x, order = [1, 0]}>';
const AT = { line: 3, column: 14 };

test('caret: the line `at` names and a caret under its column', () => {
    const c = caretAt(TEXT, AT);
    assert.equal(c.line, '  maxPhase = x, order = [1, 0]}>');
    assert.equal(c.mark, ' '.repeat(13) + '^');
    assert.equal(c.line[c.mark.length - 1], 'x');
    assert.equal(TEXT[c.index], 'x');
    assert.deepEqual([c.row, c.col], [3, 14]);
});

test('caret: from `at`, not from the message (a thread-layout message says "line 2, column 24")', () => {
    const thread = '#ttg.blocked<{sizePerThread = [1, 8],\n  threadsPerWarp = [4, x8], warpsPerCTA = [4, 1], order = [1, 0]}>';
    const c = caretAt(thread, { line: 2, column: 24 });
    assert.equal(thread[c.index], 'x');
    assert.equal(c.mark.length, 24);
    // no `at`: no caret, whatever the message says
    assert.equal(caretAt(TEXT, null), null);
    assert.equal(caretAt(TEXT, undefined), null);
    assert.equal(caretAt(TEXT, { line: 0, column: 0 }), null);
    assert.equal(caretAt(TEXT, { line: 9, column: 1 }), null);
});

test('caret: columns count characters, tabs stay tabs, the end of a line is a place', () => {
    const t = 'ab\n\u00e9x\u20acy\u{1F600}z';
    const c = caretAt(t, { line: 2, column: 4 });
    assert.equal(t[c.index], 'y');
    assert.equal(c.mark, '   ^');
    const z = caretAt(t, { line: 2, column: 6 });
    assert.equal(t[z.index], 'z');     // the emoji is one character, two UTF-16 units
    assert.equal(caretAt('\tfoo', { line: 1, column: 3 }).mark, '\t ^');
    const end = caretAt('ab\ncd', { line: 1, column: 3 });
    assert.equal(end.index, 2);
    assert.equal(end.mark, '  ^');
});

test('caret: the expression caret marks the character `at` names, under its line', () => {
    assert.equal(caretHTML('128*t++', { line: 1, column: 7 }),
        '128*t+<mark id="acc-expr-mark">+</mark>\n      ^ column 7');
    assert.equal(caretHTML('t * 2\n  + (r $ 3)\nfoo', { line: 2, column: 8 }),
        't * 2\n  + (r <mark id="acc-expr-mark">$</mark> 3)\n       ^ line 2, column 8\nfoo');
    assert.equal(caretHTML('(t +\n r', { line: 2, column: 3 }),
        '(t +\n r<mark id="acc-expr-mark"> </mark>\n  ^ line 2, column 3');
    assert.equal(caretHTML('128*t++', null), '');
});
