// peer.mjs - bench/peer.sh's measurements: the page and the peer page, loaded
// alternately in one Chromium (fresh profile), each round a fresh tab: first
// contentful paint, the load event, the whole page drawn (ours: the 'ready'
// stamp; the peer draws synchronously before load), and a preset change
// painted (to the first frame after it) at the peer's default view and at 32
// rows x 128 banks. Prints medians; it changes neither page.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stats } from './render-lib.mjs';

const require = createRequire(new URL('../tests/browser/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const [ours, peer, roundsArg] = process.argv.slice(2);
const ROUNDS = Number(roundsArg || 7);
const prof = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-peer-'));
const ctx = await chromium.launchPersistentContext(prof, {
    executablePath: process.env.SWZ_CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const paintTimes = () => ({
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
    load: performance.getEntriesByType('navigation')[0].loadEventEnd,
});

// From a change made in the page to the first frame that begins after it is on screen.
async function change(page, fn, done) {
    return page.evaluate(([fn, done]) => new Promise((resolve) => {
        const before = done ? document.body.dataset[done] : null;
        const t0 = performance.now();
        new Function(fn)();
        const wait = () => {
            if (done && document.body.dataset[done] === before) { requestAnimationFrame(wait); return; }
            requestAnimationFrame(() => resolve(performance.now() - t0));
        };
        wait();
    }), [fn, done]);
}

const res = { ours: { fcp: [], load: [], drawn: [], pre: [], preBig: [] }, peer: { fcp: [], load: [], drawn: [], pre: [], preBig: [] } };
for (let i = 0; i < ROUNDS; i++) {
    for (const who of i % 2 ? ['peer', 'ours'] : ['ours', 'peer']) {
        const page = await ctx.newPage();
        const r = res[who];
        if (who === 'ours') {
            await page.goto(ours + '?b=3&m=4&s=3', { waitUntil: 'load' });
            await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
            const t = await page.evaluate(paintTimes);
            r.fcp.push(t.fcp); r.load.push(t.load);
            r.drawn.push(await page.evaluate(() => performance.getEntriesByName('swz-drawn')[0].startTime));
            await page.waitForTimeout(400);   // idle: the page asks ahead for the other presets, as it does for a user
            const sel = (v) => `const s = document.getElementById('preset'); s.value = '${v}'; s.dispatchEvent(new Event('change', { bubbles: true }));`;
            r.pre.push(await change(page, sel('64B'), 'shown'));
            await page.goto(ours + '?b=3&m=4&s=3&rows=32&banks=128', { waitUntil: 'load' });
            await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
            await page.waitForTimeout(400);
            r.preBig.push(await change(page, sel('64B'), 'shown'));
        } else {
            await page.goto(peer, { waitUntil: 'load' });
            const t = await page.evaluate(paintTimes);
            r.fcp.push(t.fcp); r.load.push(t.load); r.drawn.push(t.load);
            const sel = (v) => `const s = document.getElementById('presets'); s.value = '${v}'; s.dispatchEvent(new Event('change', { bubbles: true }));`;
            r.pre.push(await change(page, sel('2,4,3'), null));
            await page.evaluate(() => {
                for (const [id, v] of [['numBanks', '128'], ['displayRows', '32'], ['presets', '3,4,3']]) {
                    const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event(id === 'presets' ? 'change' : 'input', { bubbles: true })); e.dispatchEvent(new Event('change', { bubbles: true }));
                }
            });
            r.preBig.push(await change(page, sel('2,4,3'), null));
        }
        await page.close();
    }
}
await ctx.close();
fs.rmSync(prof, { recursive: true, force: true });
const f = (x) => x.toFixed(1);
console.log(`rounds: ${ROUNDS} (ms, median [min-max])`);
for (const k of ['fcp', 'load', 'drawn', 'pre', 'preBig']) {
    const o = stats(res.ours[k]), p = stats(res.peer[k]);
    console.log(`${k.padEnd(7)} ours ${f(o.median)} [${f(o.min)}-${f(o.max)}]  peer ${f(p.median)} [${f(p.min)}-${f(p.max)}]  ratio ${f(o.median / p.median)}`);
}
