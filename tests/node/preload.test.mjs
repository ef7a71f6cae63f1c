// preload.test.mjs - boot.js's MODULES, the modules it asks for at once when
// the page starts, is exactly the first screen's module graph: what the entry
// script starts (its import('./app.js') too) and every static import and
// re-export below it; LATER is the rest of the page's graph, the modules only
// reached through a dynamic import() (read from the files), which load once
// the first screen is drawn. A module missing from MODULES is fetched a round
// trip late, one no longer imported is fetched for nothing; a module in
// neither list, or in the wrong one, fails. It must not edit the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { STATIC, JS, EDGE, ANY, graph } from './jsgraph.mjs';

const BOOT = 'index/boot.js';

function list(name) {
    const src = fs.readFileSync(path.join(JS, BOOT), 'utf8');
    const m = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(src);
    assert.ok(m, `no ${name} list in ${BOOT}`);
    const listed = [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
    assert.equal(new Set(listed).size, listed.length, `a module listed twice in ${name}`);
    return listed;
}

// The first screen: boot.js starts app.js by import(); below it, static edges only.
const firstScreen = () => [...graph(BOOT, (f) => f === BOOT)].filter((f) => f !== BOOT).sort();

test('index.html starts with boot.js alone, and preloads nothing itself', () => {
    const html = fs.readFileSync(path.join(STATIC, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(entries, ['js/' + BOOT]);
    // Listed in the HTML, the modules were fetched before the first paint and held it up (boot.js).
    assert.doesNotMatch(html, /modulepreload/);
});

test("boot.js's MODULES is the first screen's module graph", () => {
    const want = firstScreen();
    assert.ok(want.length > 30, `${want.length} modules: the graph reader lost some`);
    assert.ok(want.includes('index/app.js') && want.includes('index/access.js'), 'the first screen lost app.js or access.js');
    assert.deepEqual([...list('MODULES')].sort(), want);
});

test("boot.js's LATER is the rest of the page's module graph (reached by import() only)", () => {
    const first = new Set(firstScreen());
    const want = [...graph(BOOT)].filter((f) => f !== BOOT && !first.has(f)).sort();
    assert.ok(want.length > 0, 'nothing is loaded later: LATER should be empty, or the reader lost import()');
    assert.deepEqual([...list('LATER')].sort(), want);
    assert.ok(graph(BOOT).size > 45, 'the whole graph: the reader lost some');
});

test('the graph reader finds every import form', () => {
    const src = "import { a } from './a.js';\nimport {\n  b,\n} from '../kit/b.js';\nexport { c } from './c.js';\nimport './d.js';\nimport('../kit/e.js');";
    assert.deepEqual([...src.matchAll(EDGE)].map((m) => m[2]), ['./a.js', '../kit/b.js', './c.js', './d.js', '../kit/e.js']);
    assert.deepEqual([...src.matchAll(EDGE)].map((m) => !!m[1]), [false, false, false, false, true], 'only import() is dynamic');
    assert.equal((src.match(ANY) || []).length, 5);
});
