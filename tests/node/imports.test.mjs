// imports.test.mjs - the import rule of static/js (issue 37; README "The
// pages' modules"): a folder per page and kit/; a page's folder imports its
// own folder and kit/ only, kit/ imports kit/ only, no module reaches itself,
// kit/ holds only what two or more pages reach, and every folder says in its
// README what it holds and must not. Prints each broken import; it must not
// edit the page (tests/layers.py holds the server's rule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JS, modules, imports, graph, pages } from './jsgraph.mjs';

const KIT = 'kit';
const folderOf = (m) => (m.includes('/') ? m.slice(0, m.indexOf('/')) : '');
const all = modules();
const have = new Set(all);
const entries = pages();
// A page's folder: the one folder, other than kit/, its entry scripts live in.
const pageFolder = Object.fromEntries(Object.entries(entries).map(([html, s]) => [html, [...new Set(s.map(folderOf))].filter((f) => f !== KIT)]));
const PAGE_FOLDERS = new Set(Object.values(pageFolder).flat());

// Every import that breaks the rule, as the line the failure prints.
function broken(mods = all, importsOf = imports) {
    const bad = [];
    for (const m of mods) {
        const from = folderOf(m);
        for (const to of importsOf(m)) {
            const there = folderOf(to);
            if (!have.has(to)) bad.push(`${m} imports ${to}: no such module under static/js`);
            else if (from === KIT && there !== KIT) bad.push(`${m} imports ${to}: upward (kit/ imports kit/ only)`);
            else if (from !== KIT && there !== from && there !== KIT) bad.push(`${m} imports ${to}: sideways (${from}/ imports ${from}/ and kit/ only)`);
        }
    }
    return bad;
}

test('each page starts from its own folder (and kit/), one folder a page', () => {
    assert.ok(Object.keys(entries).length >= 4, Object.keys(entries).join(' '));
    for (const [html, scripts] of Object.entries(entries)) {
        assert.equal(pageFolder[html].length, 1, `${html}: scripts ${scripts.join(' ')} (one page folder, plus kit/)`);
        for (const s of scripts) assert.ok(have.has(s), `${html}: script js/${s} is no module under static/js`);
    }
});

test('every module sits in kit/ or a page\'s folder', () => {
    const stray = all.filter((m) => { const f = folderOf(m); return m.split('/').length !== 2 || (f !== KIT && !PAGE_FOLDERS.has(f)); });
    assert.deepEqual(stray, [], `${stray.join(' ')}: not in kit/ or a page's folder (${[...PAGE_FOLDERS].filter(Boolean).map((f) => f + '/').join(' ')})`);
});

test('no import runs up or sideways: a page folder imports itself and kit/, kit/ imports kit/', () => {
    const bad = broken();
    assert.deepEqual(bad, [], `imports against the rule:\n${bad.join('\n')}`);
});

test('the rule catches what it is for (an upward, a sideways and a lost import)', () => {
    const planted = { 'kit/dom.js': ['index/app.js'], 'kernel/kernelstate.js': ['linear/linearview.js', 'kit/esc.js'], 'layout/layout.js': ['layout/nothere.js'] };
    const bad = broken(Object.keys(planted), (m) => planted[m]);
    assert.equal(bad.length, 3, bad.join('\n'));
    assert.match(bad[0], /upward/);
    assert.match(bad[1], /sideways/);
    assert.match(bad[2], /no such module/);
});

test('no module reaches itself through its imports (import() included)', () => {
    const circles = all.filter((m) => { const g = graph(imports(m)); return g.has(m); });
    assert.deepEqual(circles, [], `in an import circle: ${circles.join(' ')}`);
});

test('kit/ holds what two or more pages reach; every module is reached by a page', () => {
    const reach = Object.fromEntries(Object.entries(entries).map(([html, s]) => [html, graph(s)]));
    for (const m of all) {
        const by = Object.keys(reach).filter((html) => reach[html].has(m));
        if (folderOf(m) === KIT) assert.ok(by.length >= 2, `${m}: reached by ${by.join(' ') || 'no page'} only (move it to that page's folder)`);
        else assert.ok(by.length >= 1, `${m}: no page reaches it`);
    }
});

test('each folder says in its README what it holds and must not', () => {
    for (const f of [KIT, ...PAGE_FOLDERS]) {
        const p = path.join(JS, f, 'README');
        assert.ok(fs.existsSync(p), `static/js/${f}/README missing`);
        const text = fs.readFileSync(p, 'utf8').trim();
        assert.equal(text.split('\n').length, 1, `static/js/${f}/README: one line`);
        assert.ok(text.startsWith(`${f}/: `) && /[Mm]ust not/.test(text), text);
    }
});
