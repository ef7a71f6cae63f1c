// peer.mjs - bench/peer.sh's measurements: the page and the peer page, loaded
// alternately in one Chromium (fresh profile), each round a fresh tab: first
// contentful paint, the load event, the whole page drawn (ours: the
// swz-drawn mark; the peer draws synchronously before load), and a preset
// change painted (to the end of the first frame that shows it) at the peer's
// default view and at 32 rows x 128 banks. Prints medians; it changes neither
// page's files.
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

// The first contentful paint can come after the load event (the peer draws
// before load, and paints after it): wait for its entry.
const paintTimes = () => new Promise((resolve) => {
    const done = (fcp) => resolve({ fcp, load: performance.getEntriesByType('navigation')[0].loadEventEnd });
    const have = performance.getEntriesByName('first-contentful-paint')[0];
    if (have) { done(have.startTime); return; }
    new PerformanceObserver((list, obs) => {
        const e = list.getEntriesByName('first-contentful-paint')[0];
        if (e) { obs.disconnect(); done(e.startTime); }
    }).observe({ type: 'paint', buffered: true });
});

// From a change made in the page to the end of the first frame that shows it
// (as render-lib.mjs's timedChange): a frame callback asked for before the
// change runs first in its frame; once the change is in (done: the page's
// stamp moved; without done, the change is synchronous), a task posted from
// it runs when that frame's style, layout, paint and commit are done.
async function change(page, fn, done) {
    return page.evaluate(([fn, done]) => new Promise((resolve) => {
        const before = done ? document.body.dataset[done] : null;
        const onFrame = () => {
            if (done && document.body.dataset[done] === before) { requestAnimationFrame(onFrame); return; }
            setTimeout(() => resolve(performance.now() - t0), 0);
        };
        requestAnimationFrame(onFrame);
        const t0 = performance.now();
        new Function(fn)();
    }), [fn, done]);
}

const res = { ours: { fcp: [], load: [], drawn: [], pre: [], preBig: [] }, peer: { fcp: [], load: [], drawn: [], pre: [], preBig: [] } };
for (let i = 0; i < ROUNDS; i++) {
    for (const who of i % 2 ? ['peer', 'ours'] : ['ours', 'peer']) {
        const page = await ctx.newPage();
        // build/swizzlescope sends its page's CSP (script-src/style-src 'self')
        // with every file; the peer is one inline <style> and <script>, which
        // that policy blocks: without this its page stays unstyled and undrawn.
        if (who === 'peer') await (await ctx.newCDPSession(page)).send('Page.setBypassCSP', { enabled: true });
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
            const cells = await page.evaluate(() => document.querySelectorAll('#gridWrapper .cell').length);
            if (cells !== 64) throw new Error(`the peer did not draw its 8 x 8 grid (${cells} cells)`);
            const sel = (v) => `const s = document.getElementById('presets'); s.value = '${v}'; s.dispatchEvent(new Event('change', { bubbles: true }));`;
            await page.waitForTimeout(400);   // idle, as ours
            r.pre.push(await change(page, sel('2,4,3'), null));
            // Its largest view: 32 grid rows, 128 banks. Its preset sets 8 rows
            // and unticks "match row width", so the preset goes first.
            const big = await page.evaluate(() => {
                for (const [id, v, ev] of [['presets', '3,4,3', 'change'], ['numBanks', '128', 'input'], ['displayRows', '32', 'input']]) {
                    const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event(ev, { bubbles: true }));
                }
                return { rows: document.querySelectorAll('#bankView .bank-row').length, banks: document.querySelectorAll('#bankView .bank-header-cell').length,
                    swizzle: document.getElementById('canonicalSwizzle').textContent };
            });
            if (big.rows !== 32 || big.banks !== 128 || big.swizzle !== 'Swizzle<3, 4, 3>') throw new Error(`peer's large view is not 32 rows x 128 banks: ${JSON.stringify(big)}`);
            await page.waitForTimeout(400);   // that view painted, idle
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
