// jsgraph.mjs - the one reader of static/js's import graph, for the node
// tier's checks (imports.test.mjs, preload.test.mjs, page.test.mjs): every
// module by its path under js/ ("kit/esc.js"), the modules each names and
// the HTML pages' entry scripts. It must not judge the graph: the tests do.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const STATIC = path.join(ROOT, 'static');
export const JS = path.join(STATIC, 'js');

// The module a file names: `from '<p>'`, `import '<p>'`, `import('<p>')`, with
// <p> relative ('./x.js', '../kit/x.js'); group 1 holds the parenthesis of a
// dynamic import, group 2 the path.
export const EDGE = /(?:\bfrom\s*|\bimport\s*(\(?)\s*)['"](\.{1,2}\/[\w./-]+\.js)['"]/g;
// Any relative module path in quotes: each must be one EDGE reads.
export const ANY = /['"]\.{1,2}\/[\w./-]+\.js['"]/g;

// Every .js under js/, at any depth, as 'folder/name.js' (posix), sorted.
export function modules(dir = JS, rel = '') {
    const out = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) out.push(...modules(path.join(dir, e.name), r));
        else if (e.name.endsWith('.js')) out.push(r);
    }
    return out.sort();
}

export const source = (mod) => fs.readFileSync(path.join(JS, mod), 'utf8');

// The modules mod names, as paths under js/ ('../x.js' from the top may leave
// js/: it stays as written, '../x.js', and no module has that name).
// dynamic: whether import() edges count. Throws when a quoted module path is
// in a form EDGE does not read (a module would drop out of the graph unseen).
export function imports(mod, dynamic = true) {
    const src = source(mod);
    const all = [...src.matchAll(EDGE)];
    const any = (src.match(ANY) || []).length;
    if (all.length !== any) throw new Error(`${mod}: ${any - all.length} module path(s) in a form the graph reader does not read`);
    return all.filter((m) => dynamic || !m[1]).map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(mod), m[2])));
}

// The modules reached from entries (paths under js/); dynamic(mod): whether
// mod's import() edges count. A name that is no module is kept (the rule
// test reports it).
export function graph(entries, dynamic = () => true) {
    const seen = new Set();
    const have = new Set(modules());
    const walk = (m) => {
        if (seen.has(m)) return;
        seen.add(m);
        if (have.has(m)) imports(m, dynamic(m)).forEach(walk);
    };
    [].concat(entries).forEach(walk);
    return seen;
}

// Each static/*.html page and the scripts it starts, as paths under js/
// (its src="js/..." attributes).
export function pages() {
    const out = {};
    for (const f of fs.readdirSync(STATIC).filter((n) => n.endsWith('.html')).sort()) {
        const html = fs.readFileSync(path.join(STATIC, f), 'utf8');
        out[f] = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1].replace(/^js\//, ''));
    }
    return out;
}
