// fcp-pair.mjs - first contentful paint of several pages, paired: each round
// loads every URL once, in a fresh tab of one Chromium (fresh profile), the
// order turned by one place each round, and prints per URL the median and
// mean paint and the mean of its per-round difference from the first URL,
// with a bootstrap 90% interval. A paint varies by 10-15 ms from load to load
// on this 2-CPU VM, so a median of 5 (bench/peer.sh) cannot tell a 5 ms
// difference from noise; differences taken within a round can, given some
// 100 rounds (the machine's drift moves both pages of a round alike). It
// times nothing but the paint and changes no page's files.
// Usage: node bench/fcp-pair.mjs ROUNDS URL0 URL1 [URL2 ...]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quantile, mean, meanInterval, PEER_BROWSER, paintTimes } from './render-lib.mjs';

const require = createRequire(new URL('../tests/browser/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const [roundsArg, ...urls] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
if (!(ROUNDS >= 10) || urls.length < 2) {
    console.error('usage: node bench/fcp-pair.mjs ROUNDS(>=10) URL0 URL1 [URL2 ...]');
    process.exit(2);
}
const WARM = 2;   // rounds loaded first and left out: cold caches, a new profile
const prof = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-fcp-'));
const ctx = await chromium.launchPersistentContext(prof, PEER_BROWSER);
// Chromium's own start-up work (its WebUI renderer) takes a CPU for about
// 2 s after launch: let it finish before the first timed load.
await new Promise((r) => setTimeout(r, 3000));

const res = urls.map(() => []);
for (let i = -WARM; i < ROUNDS; i++) {
    for (let j = 0; j < urls.length; j++) {
        const u = (i + WARM + j) % urls.length;
        const page = await ctx.newPage();
        // The peer is one inline <style> and <script>, which the CSP that
        // build/swizzlescope sends with every file blocks (bench/peer.mjs):
        // bypassed for every page alike. Ours has nothing inline.
        await (await ctx.newCDPSession(page)).send('Page.setBypassCSP', { enabled: true });
        await page.goto(urls[u], { waitUntil: 'load' });
        const t = (await page.evaluate(paintTimes)).fcp;
        await page.waitForTimeout(250);   // idle between loads, as bench/peer.mjs
        if (i >= 0) res[u].push(t);
        await page.close();
    }
}
await ctx.close();
fs.rmSync(prof, { recursive: true, force: true });

console.log(`rounds: ${ROUNDS} (ms; difference = this URL's paint minus URL 0's in the same round)`);
urls.forEach((u, i) => {
    const xs = res[i], f = (x) => x.toFixed(1);
    let line = `fcp median ${f(quantile(xs, 0.5))}  mean ${f(mean(xs))}`;
    if (i > 0) {
        const d = meanInterval(xs.map((x, k) => x - res[0][k]));
        line += `  difference mean ${f(d.mean)} [90%: ${f(d.lo)}, ${f(d.hi)}]  ratio of means ${(mean(xs) / mean(res[0])).toFixed(3)}`;
    }
    console.log(`${line}  ${u}`);
});
