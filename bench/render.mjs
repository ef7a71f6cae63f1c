// render.mjs - how long the page takes from a control change to the finished
// re-render, in headless chromium against a running server. Three changes:
//   preset: the preset menu, 128B <-> 64B: new maps, all six redrawn, and every
//           panel (access view, scorecard, trace) asked again
//   match:  tick "Match row width to the bank row": at 128B the maps come back
//           the same (kept, not redrawn) but every panel is asked again
//   step:   the access view's "next step" button (one /api/access + its charts
//           and the map outlines)
// at the 128B preset with 64 and with 1024 grid rows. "ready" is the page's own
// stamp (data-cycle-ms / data-access-ms: change event to last panel drawn);
// "painted" adds the next animation frame, measured around the click.
// Usage: node bench/render.mjs BASE_URL [N]   (bench/render.sh starts a server)

import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';

const BASE = process.argv[2] || 'http://127.0.0.1:8080/';
const N = Number(process.argv[3] || 30);
const CHROMIUM = process.env.SWZ_CHROMIUM || '/usr/bin/chromium';
const TARGET = { 64: 16, 1024: 100 };

function stats(xs) {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
    return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
}

// Click `sel` in the page (or, for '#preset', switch 128B <-> 64B); resolve
// with [ready ms (page stamp), painted ms].
function timedClick(page, sel, readyKey, stampKey) {
    return page.evaluate(([sel, readyKey, stampKey]) => new Promise((resolve) => {
        const before = document.body.dataset[readyKey];
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
            if (document.body.dataset[readyKey] === before) return;
            obs.disconnect();
            const ready = Number(document.body.dataset[stampKey]);
            requestAnimationFrame(() => setTimeout(() => resolve([ready, performance.now() - t0]), 0));
        });
        obs.observe(document.body, { attributes: true });
        // The step walks forward and back between 0 and its last step.
        let target = sel;
        if (sel === '#acc-next') {
            const r = document.querySelector('#acc-step');
            if (Number(r.value) >= Number(r.max)) window.__swzBack = true;
            if (Number(r.value) <= 0) window.__swzBack = false;
            if (window.__swzBack) target = '#acc-prev';
        }
        if (sel === '#preset') {
            const p = document.querySelector('#preset');
            p.value = p.value === '128B' ? '64B' : '128B';
            p.dispatchEvent(new Event('change', { bubbles: true }));
            return;
        }
        document.querySelector(target).click();
    }), [sel, readyKey, stampKey]);
}

async function run(page, rows) {
    await page.goto(`${BASE}?b=3&m=4&s=3&rows=${rows}&pat=col_read`);
    await page.waitForFunction(() => document.body.dataset.ready);
    const out = {};
    for (const [name, sel, readyKey, stampKey] of [
        ['preset', '#preset', 'ready', 'cycleMs'],
        ['match', '#match', 'ready', 'cycleMs'],
        ['step', '#acc-next', 'accessReady', 'accessMs'],
    ]) {
        // Warm up, then N timed changes.
        for (let i = 0; i < 3; i++) await timedClick(page, sel, readyKey, stampKey);
        const ready = [], painted = [];
        for (let i = 0; i < N; i++) {
            const [r, p] = await timedClick(page, sel, readyKey, stampKey);
            ready.push(r); painted.push(p);
        }
        out[name] = { ready: stats(ready), painted: stats(painted) };
    }
    return out;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
const f = (x) => x.toFixed(1).padStart(6);
console.log(`swizzlescope render bench: ${N} changes each, chromium headless, ${BASE}`);
console.log('rows  change   ready median   p95   painted median   p95   target (p95)');
let ok = true;
for (const rows of [64, 1024]) {
    const r = await run(page, rows);
    for (const name of ['preset', 'match', 'step']) {
        const x = r[name];
        const pass = x.painted.p95 <= TARGET[rows];
        ok = ok && pass;
        console.log(`${String(rows).padStart(4)}  ${name.padEnd(6)}  ${f(x.ready.median)} ms ${f(x.ready.p95)}   ${f(x.painted.median)} ms ${f(x.painted.p95)}   <= ${TARGET[rows]} ms ${pass ? 'met' : 'MISSED'}`);
    }
}
await browser.close();
console.log(ok ? 'all targets met' : 'some targets missed');
process.exit(0);
