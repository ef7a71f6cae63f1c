// render.mjs - how long the page takes from a control change to the finished
// re-render, in headless chromium against a running server. Four changes:
//   preset: the preset menu, 128B <-> 64B: new maps, and every panel (access
//           view, scorecard, trace) asked again
//   match:  tick "Match row width to the bank row": at 128B the maps come back
//           the same (kept) but every panel is asked again
//   step:   the access view's "next step" button (one /api/access + its charts
//           and the map outlines)
//   first:  the preset change 128B -> 64B on a page just opened (reloaded for
//           each change): 64B has never been shown, so its answers come from
//           what the page asked ahead in the pause, or from the network
// at the 128B preset with 64 and with 1024 grid rows.
//
// Each change is timed from just before the change event is dispatched:
//   ready    until the page stamps that what is on screen is drawn (observed
//            here): every panel in sight, the maps and their outlines
//   painted  until the next frame is painted: the first animation frame
//            that begins after ready, then a task right after that frame's
//            style, layout, paint and commit (its callback is asked for before
//            the change, so it runs first). It includes waiting for the
//            display's next frame (60 Hz), which no page can avoid: "floor" is
//            the same wait with nothing changed.
//   work     ready + that frame's own style / layout / paint: painted less
//            the idle wait for the display.
//   all      until the page stamps that everything is drawn: the sections
//            out of sight are drawn right after that frame, and the URL written.
// Between changes the bench pauses like a user (PAUSE_MS, default 300), and
// the page may use the pause to ask ahead (prefetch). Where each change's
// answers came from is counted from the page's api.js tally: "prefetch"
// (asked ahead and already here), "wait" (asked ahead, still on the wire),
// "memory" (asked before by the page), "network" (asked at the change).
// Usage: node bench/render.mjs BASE_URL [N] [PAUSE_MS]   (bench/render.sh starts a server)

import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import { stats, timedChange } from './render-lib.mjs';

const BASE = process.argv[2] || 'http://127.0.0.1:8080/';
const N = Number(process.argv[3] || 30);
const PAUSE = Number(process.argv[4] || 300);
const CHROMIUM = process.env.SWZ_CHROMIUM || '/usr/bin/chromium';
const TARGET = { 64: 16, 1024: 100 };
// SWZ_BENCH_ROWS=64 and SWZ_BENCH_CHANGES=preset,step narrow a run.
const ROWS = (process.env.SWZ_BENCH_ROWS || '64,1024').split(',').map(Number);
const CHANGES = (process.env.SWZ_BENCH_CHANGES || 'preset,match,step,first').split(',');

// The same painted measurement with nothing changed: the wait for the display.
function floor(page, n) {
    return page.evaluate(async (n) => {
        const out = [];
        for (let i = 0; i < n; i++) {
            await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
            const t0 = performance.now();
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
            out.push(performance.now() - t0);
        }
        return out;
    }, n);
}

function summary(runs) {
    const src = { prefetch: 0, prefetchWait: 0, memory: 0, network: 0 };
    let noNet = 0;
    for (const r of runs) {
        for (const k of Object.keys(src)) src[k] += r.src[k] || 0;
        if (!r.src.network && !r.src.prefetchWait) noNet++;
    }
    return {
        ready: stats(runs.map((r) => r.ready)), painted: stats(runs.map((r) => r.painted)),
        work: stats(runs.map((r) => r.ready + r.frame)), all: stats(runs.map((r) => r.all)), src, noNet,
    };
}

async function run(page, rows) {
    const url = `${BASE}?b=3&m=4&s=3&rows=${rows}&pat=col_read`;
    const out = {};
    // first: 128B -> 64B on a page just opened, after one pause: the page has
    // never shown 64B, so its answers are the ones asked ahead, or the network.
    if (CHANGES.includes('first')) {
        const runs = [];
        for (let i = 0; i < N + 1; i++) {
            await page.goto(url);
            await page.waitForFunction(() => document.body.dataset.ready);
            await page.waitForTimeout(PAUSE);
            const shownKey = (await page.evaluate(() => 'shown' in document.body.dataset)) ? 'shown' : 'ready';
            const r = await timedChange(page, '#preset', shownKey, 'ready');
            if (i) runs.push(r);   // the first warms the browser's file cache
        }
        out.first = summary(runs);
    }
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.ready);
    for (let [name, sel, shownKey, readyKey] of [
        ['preset', '#preset', 'shown', 'ready'],
        ['match', '#match', 'shown', 'ready'],
        ['step', '#acc-next', 'accessShown', 'accessReady'],
    ].filter((c) => CHANGES.includes(c[0]))) {
        // A page that does not stamp "shown" (an older one) is timed to "ready".
        if (!(await page.evaluate((k) => k in document.body.dataset, shownKey))) shownKey = readyKey;
        // A user sees what they click: the step buttons are scrolled into
        // view; the preset menu and the match box sit in the sticky sidebar,
        // with the page at its top (the maps).
        await page.evaluate((sel) => {
            if (sel === '#acc-next') document.querySelector(sel).scrollIntoView({ block: 'center' });
            else window.scrollTo(0, 0);
        }, sel);
        // Warm up, then N timed changes, each after a user's pause.
        for (let i = 0; i < 3; i++) { await page.waitForTimeout(PAUSE); await timedChange(page, sel, shownKey, readyKey); }
        const runs = [];
        for (let i = 0; i < N; i++) {
            await page.waitForTimeout(PAUSE);
            runs.push(await timedChange(page, sel, shownKey, readyKey));
        }
        out[name] = summary(runs);
    }
    return out;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
const f = (x) => x.toFixed(1).padStart(6);
console.log(`swizzlescope render bench: ${N} changes each, ${PAUSE} ms apart, chromium ${browser.version()} headless, ${BASE}`);
await page.goto(`${BASE}?b=3&m=4&s=3&rows=64`);
await page.waitForFunction(() => document.body.dataset.ready);
const fl = stats(await floor(page, N));
console.log(`floor (nothing changed, wait for the next frame): median ${fl.median.toFixed(1)} ms, p95 ${fl.p95.toFixed(1)} ms`);
console.log('rows  change   ready median   p95   painted median   p95    work median   p95   target (painted p95)    all drawn median  p95   answers: prefetch/wait/memory/network, changes with no round trip');
let ok = true, okWork = true;
for (const rows of ROWS) {
    const r = await run(page, rows);
    for (const name of CHANGES) {
        const x = r[name];
        const pass = x.painted.p95 <= TARGET[rows];
        ok = ok && pass;
        okWork = okWork && x.work.p95 <= TARGET[rows];
        const s = x.src, known = s.prefetch + s.prefetchWait + s.memory + s.network > 0;
        console.log(`${String(rows).padStart(4)}  ${name.padEnd(6)}  ${f(x.ready.median)} ms ${f(x.ready.p95)}   ${f(x.painted.median)} ms ${f(x.painted.p95)}   ${f(x.work.median)} ms ${f(x.work.p95)}   <= ${String(TARGET[rows]).padStart(3)} ms ${pass ? 'met   ' : 'MISSED'}   ${f(x.all.median)} ms ${f(x.all.p95)}   ` +
            (known ? `${s.prefetch}/${s.prefetchWait}/${s.memory}/${s.network}, ${x.noNet}/${N}` : 'not reported by this page'));
    }
}
await browser.close();
console.log(ok ? 'all targets met (painted p95)' : `some targets missed (painted p95)${okWork ? '; every work p95 is within its target' : ''}`);
process.exit(0);
