// readme.test.mjs - the README reads as a newcomer needs it (issue 40.7):
// what the tool is for, the two commands, then the pages with their pictures,
// and the server's flags and limits only after the pages, the model and the
// API; every picture it shows exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const heads = text.split('\n').filter((l) => /^## /.test(l)).map((l) => l.slice(3));
const at = (h) => heads.findIndex((x) => x.startsWith(h));

test('README: the two commands, then the page, before the API and the limits', () => {
    for (const h of ['Two commands', 'The page', 'API', 'Server flags, limits']) assert.ok(at(h) >= 0, `no "## ${h}..." section: ${heads.join(' | ')}`);
    assert.equal(at('Two commands'), 0, heads.join(' | '));
    assert.equal(at('The page'), 1, heads.join(' | '));
    assert.ok(at('API') < at('Server flags, limits'), heads.join(' | '));
    assert.ok(at('Live measurement') < at('API'), heads.join(' | '));
});

test('README: the page section starts on the first screenful (line < 40)', () => {
    const line = text.split('\n').findIndex((l) => l === '## The page') + 1;
    assert.ok(line > 0 && line < 40, `"## The page" at line ${line}`);
});

test('README: every picture it shows is in the tree', () => {
    const pics = [...text.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(pics.length >= 2, `${pics.length} pictures`);
    for (const p of pics) assert.ok(fs.existsSync(path.join(ROOT, p)), p);
});
