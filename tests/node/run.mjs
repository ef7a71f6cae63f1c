// run.mjs - runs the node tier (`node --test` over tests/node/*.test.mjs):
// one line per test as the browser test prints them ("ok   name", "FAIL name"
// and node's detail), then "N passed, N failed" last, as tests/run_all.sh
// tallies. Dependency-free: it reads node's TAP report and its "# pass N" /
// "# fail N" summary. Exits nonzero on any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(dir, f));
const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...files], { encoding: 'utf8' });
const out = (r.stdout || '') + (r.stderr || '');
// Top-level results, each failure with node's YAML detail under it.
let detail = false;
for (const line of out.split('\n')) {
    const m = /^(not ok|ok) \d+ - (.*)$/.exec(line);
    if (m) { detail = m[1] === 'not ok'; console.log(`${detail ? 'FAIL' : 'ok  '} ${m[2]}`); continue; }
    if (detail && line.startsWith('  ') && line !== '  ...' && line !== '  ---') console.log('  ' + line);
}
const num = (name) => { const m = new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out); return m ? Number(m[1]) : null; };
const pass = num('pass'), fail = num('fail');
if (pass === null || fail === null) {
    console.log(`node --test printed no summary (exit ${r.status})`);
    console.log('0 passed, 1 failed');
    process.exit(1);
}
// A runner that failed without a failing test (a file that did not load) is a failure too.
const extra = r.status !== 0 && fail === 0 ? 1 : 0;
console.log(`${pass} passed, ${fail + extra} failed`);
process.exit(fail + extra ? 1 : 0);
