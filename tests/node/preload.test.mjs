// preload.test.mjs - boot.js's MODULES, the modules it asks for at once when
// the page starts, is exactly the module graph of the page's entry script
// (static imports, re-exports and dynamic import() read from the files), less
// boot.js itself: a module missing from it is fetched a round trip late, one
// no longer imported is fetched for nothing. It must not edit the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STATIC = path.join(ROOT, 'static');
const JS = path.join(STATIC, 'js');

// The modules a file names: `from './x.js'`, `import './x.js'`, `import('./x.js')`.
const EDGE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]\.\/([\w.-]+\.js)['"]/g;
const ANY = /['"]\.\/[\w.-]+\.js['"]/g;
function imports(file) {
    const src = fs.readFileSync(path.join(JS, file), 'utf8');
    const edges = [...src.matchAll(EDGE)].map((m) => m[1]);
    // Every './x.js' in a module is one of those forms: a form EDGE does not
    // read would otherwise drop a module from the graph unseen.
    assert.equal(edges.length, (src.match(ANY) || []).length, `${file}: a module path EDGE does not read`);
    return edges;
}

function graph(entry) {
    const seen = new Set();
    const walk = (f) => { if (seen.has(f)) return; seen.add(f); imports(f).forEach(walk); };
    walk(entry);
    return seen;
}

test('index.html starts with boot.js alone, and preloads nothing itself', () => {
    const html = fs.readFileSync(path.join(STATIC, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(entries, ['js/boot.js']);
    // Listed in the HTML, the modules were fetched before the first paint and held it up (boot.js).
    assert.doesNotMatch(html, /modulepreload/);
});

test("boot.js's MODULES is the page's module graph", () => {
    const src = fs.readFileSync(path.join(JS, 'boot.js'), 'utf8');
    const m = /const MODULES = \[([^\]]*)\]/.exec(src);
    assert.ok(m, 'no MODULES list');
    const listed = [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
    assert.equal(new Set(listed).size, listed.length, 'a module listed twice');
    const want = [...graph('boot.js')].filter((f) => f !== 'boot.js').sort();
    assert.ok(want.length > 40, `${want.length} modules: the graph reader lost some`);
    assert.deepEqual([...listed].sort(), want);
});

test('the graph reader finds every import form', () => {
    const src = "import { a } from './a.js';\nimport {\n  b,\n} from './b.js';\nexport { c } from './c.js';\nimport './d.js';\nimport('./e.js');";
    assert.deepEqual([...src.matchAll(EDGE)].map((m) => m[1]), ['a.js', 'b.js', 'c.js', 'd.js', 'e.js']);
    assert.equal((src.match(ANY) || []).length, 5);
});
