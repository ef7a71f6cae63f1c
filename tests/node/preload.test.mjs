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
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STATIC = path.join(ROOT, 'static');
const JS = path.join(STATIC, 'js');

// The modules a file names: `from './x.js'`, `import './x.js'`, `import('./x.js')`
// (group 1 holds the parenthesis of a dynamic import).
const EDGE = /(?:\bfrom\s*|\bimport\s*(\(?)\s*)['"]\.\/([\w.-]+\.js)['"]/g;
const ANY = /['"]\.\/[\w.-]+\.js['"]/g;
// dynamic: whether import() edges count (else static imports and re-exports only).
function imports(file, dynamic = true) {
    const src = fs.readFileSync(path.join(JS, file), 'utf8');
    const all = [...src.matchAll(EDGE)];
    const edges = all.filter((m) => dynamic || !m[1]).map((m) => m[2]);
    // Every './x.js' in a module is one of those forms: a form EDGE does not
    // read would otherwise drop a module from the graph unseen.
    assert.equal(all.length, (src.match(ANY) || []).length, `${file}: a module path EDGE does not read`);
    return edges;
}

// The graph from entry; dynamic(file): whether file's import() edges count.
function graph(entry, dynamic = () => true) {
    const seen = new Set();
    const walk = (f) => { if (seen.has(f)) return; seen.add(f); imports(f, dynamic(f)).forEach(walk); };
    walk(entry);
    return seen;
}

function list(name) {
    const src = fs.readFileSync(path.join(JS, 'boot.js'), 'utf8');
    const m = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(src);
    assert.ok(m, `no ${name} list in boot.js`);
    const listed = [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
    assert.equal(new Set(listed).size, listed.length, `a module listed twice in ${name}`);
    return listed;
}

// The first screen: boot.js starts app.js by import(); below it, static edges only.
const firstScreen = () => [...graph('boot.js', (f) => f === 'boot.js')].filter((f) => f !== 'boot.js').sort();

test('index.html starts with boot.js alone, and preloads nothing itself', () => {
    const html = fs.readFileSync(path.join(STATIC, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(entries, ['js/boot.js']);
    // Listed in the HTML, the modules were fetched before the first paint and held it up (boot.js).
    assert.doesNotMatch(html, /modulepreload/);
});

test("boot.js's MODULES is the first screen's module graph", () => {
    const want = firstScreen();
    assert.ok(want.length > 30, `${want.length} modules: the graph reader lost some`);
    assert.ok(want.includes('app.js') && want.includes('access.js'), 'the first screen lost app.js or access.js');
    assert.deepEqual([...list('MODULES')].sort(), want);
});

test("boot.js's LATER is the rest of the page's module graph (reached by import() only)", () => {
    const first = new Set(firstScreen());
    const want = [...graph('boot.js')].filter((f) => f !== 'boot.js' && !first.has(f)).sort();
    assert.ok(want.length > 0, 'nothing is loaded later: LATER should be empty, or the reader lost import()');
    assert.deepEqual([...list('LATER')].sort(), want);
    assert.ok(graph('boot.js').size > 45, 'the whole graph: the reader lost some');
});

test('the graph reader finds every import form', () => {
    const src = "import { a } from './a.js';\nimport {\n  b,\n} from './b.js';\nexport { c } from './c.js';\nimport './d.js';\nimport('./e.js');";
    assert.deepEqual([...src.matchAll(EDGE)].map((m) => m[2]), ['a.js', 'b.js', 'c.js', 'd.js', 'e.js']);
    assert.deepEqual([...src.matchAll(EDGE)].map((m) => !!m[1]), [false, false, false, false, true], 'only import() is dynamic');
    assert.equal((src.match(ANY) || []).length, 5);
});
