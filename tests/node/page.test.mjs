// page.test.mjs - the shape of static/js that issue 13 asks for, checked on
// the files themselves: no module over 450 lines, each opening with a 2-6
// line header that says what it must not do, one esc, one writer of the
// data-* stamps (and every stamp the browser tests read declared there),
// PageCtx written down once, and the stamps module itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, modules, source } from './jsgraph.mjs';

// Each module by its path under static/js ('kit/esc.js').
const files = modules();
const src = Object.fromEntries(files.map((f) => [f, source(f)]));

for (const f of files) {
    test(`${f}: at most 450 lines`, () => {
        const n = src[f].split('\n').length - (src[f].endsWith('\n') ? 1 : 0);
        assert.ok(n <= 450, `${n} lines`);
    });
    test(`${f}: opens with a 2-6 line header naming itself and what it must not do`, () => {
        const head = [];
        for (const line of src[f].split('\n')) { if (!line.startsWith('//') || line === '//') break; head.push(line); }
        assert.ok(head.length >= 2 && head.length <= 6, `${head.length} lines`);
        assert.ok(head[0].startsWith(`// ${path.posix.basename(f)} - `), head[0]);
        assert.match(head.map((l) => l.slice(3)).join(' '), /must not/);
    });
}

test('one esc: only kit/esc.js defines it', () => {
    const defs = files.filter((f) => /(const|function|let)\s+esc\b/.test(src[f]));
    assert.deepEqual(defs, ['kit/esc.js']);
});

test('only stamps.js writes the stamps on <body>', () => {
    const writers = files.filter((f) => /document\.body\.dataset/.test(src[f]));
    assert.deepEqual(writers, ['kit/stamps.js']);
});

test('PageCtx is written down once, in app.js, and each panel refers to it', () => {
    assert.deepEqual(files.filter((f) => /@typedef \{Object\} PageCtx/.test(src[f])), ['index/app.js']);
    const takers = files.filter((f) => /export function create\w+\(ctx\b/.test(src[f]));
    assert.ok(takers.length >= 5, takers.join(','));
    for (const f of takers) assert.match(src[f], /ctx: the PageCtx of app\.js/, f);
});

// An op decided by its name (a kind's spelling, a comparison with one, or a
// test on part of one) instead of by the server's table through ops.js.
const SPELLS_OP = /'(ldmatrix|stmatrix)'|[!=]==? '(ld|st|atom|red)'|includes\('matrix'\)|=== 'ld' \|\|/;
test('op names are spelled in ops.js only', () => {
    const spell = files.filter((f) => f !== 'kit/ops.js' && SPELLS_OP.test(src[f]));
    assert.deepEqual(spell, []);
});
test('the op-name guard catches what it is for', () => {
    for (const bad of ["cost.op.includes('matrix')", "side.op === 'st'", "op !== 'red'", "op === 'ld' || x", "['ldmatrix']"]) assert.ok(SPELLS_OP.test(bad), bad);
    for (const fine of ["isMatrix(c.op)", "k === 'state'", "'stmatrices'"]) assert.ok(!SPELLS_OP.test(fine), fine);
});

// The stamps: every body data-* name the browser tests and the render bench
// read or wait on is one stamps.js declares.
const { STAMPS, stamp, bump } = await import('../../static/js/kit/stamps.js');
const readers = ['tests/browser', 'bench'].flatMap((d) => fs.readdirSync(path.join(ROOT, d)).filter((f) => f.endsWith('.mjs')).map((f) => path.join(ROOT, d, f)));
const read = new Set();
for (const f of readers) for (const m of fs.readFileSync(f, 'utf8').matchAll(/document\.body\.dataset\.(\w+)/g)) read.add(m[1]);
for (const name of [...read].sort()) test(`stamp ${name}, read by the tests, is declared in stamps.js`, () => assert.equal(STAMPS[name], name));

test('stamp and bump write <body> data-* attributes', () => {
    globalThis.document = { body: { dataset: {} } };
    try {
        stamp('ready', 3);
        stamp('inspected', '2,5');
        assert.equal(bump('measured'), 1);
        assert.equal(bump('measured'), 2);
        assert.deepEqual({ ...document.body.dataset }, { ready: '3', inspected: '2,5', measured: '2' });
        assert.throws(() => stamp('bogus', 1), /no stamp named bogus/);
    } finally {
        delete globalThis.document;
    }
});
