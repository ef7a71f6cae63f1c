// render-pair.mjs - two versions of the page compared change by change: one
// headless chromium, two tabs per version, and one kind of change (the preset
// change 128B <-> 64B at 64 grid rows unless SWZ_PAIR_CHANGE says otherwise;
// the kinds and their timing are render.mjs's) made in A, then in B, then in
// B, then in A, and so on, so that each pair of changes sees the same machine.
// On this VM the speed drifts by a third over minutes; alternating runs
// (render-ab.sh) still compare minutes apart, pairs compare a second apart.
//
// Each change is timed as render.mjs's `work`: from just before the change
// event to the page's "shown" stamp (the access view's, for a step), plus the
// style, layout, paint and commit of the next frame (the idle wait for the
// display left out). Reports each version's median / p95 and the paired
// difference B - A: its median and quartiles, and how many pairs B won.
// Usage: [SWZ_PAIR_CHANGE=preset|match|step|first] [SWZ_PAIR_QUERY=?...] node bench/render-pair.mjs URL_A URL_B [PAIRS, default 100] [PAUSE ms, default 300]
// (bench/render-pair.sh serves a git revision's static/ and the working tree's.)

import { chromium } from '../tests/browser/node_modules/playwright-core/index.mjs';
import { quantile as q, timedChange } from './render-lib.mjs';

const [A, B] = [process.argv[2], process.argv[3]];
const PAIRS = Number(process.argv[4] || 100);
const PAUSE = Number(process.argv[5] || 300);
// SWZ_PAIR_CHANGE: which change, as render.mjs names them: preset (the
// default), match, step, or first (the preset change on a page just opened:
// both tabs of a pair are reopened before it).
const KIND = process.env.SWZ_PAIR_CHANGE || 'preset';
if (!['preset', 'match', 'step', 'first'].includes(KIND)) { console.error(`SWZ_PAIR_CHANGE: ${KIND}: one of preset, match, step, first`); process.exit(2); }
// SWZ_PAIR_QUERY: the page's query (default: 64 grid rows; bench/peer.sh's
// large view is ?b=3&m=4&s=3&rows=32&banks=128).
const QUERY = process.env.SWZ_PAIR_QUERY || '?b=3&m=4&s=3&rows=64&pat=col_read';
if (!A || !B) { console.error('usage: node bench/render-pair.mjs URL_A URL_B [PAIRS] [PAUSE_MS]'); process.exit(2); }

// One change of kind KIND in `page`, timed by render.mjs's own timedChange;
// resolves with its work in ms (the change to the page's "shown" stamp, plus
// the next frame's style, layout, paint and commit).
const SEL = { preset: '#preset', first: '#preset', match: '#match', step: '#acc-next' }[KIND];
async function change(page) {
    // A page that does not stamp "shown" (an older one) is timed to "ready".
    let [shownKey, readyKey] = KIND === 'step' ? ['accessShown', 'accessReady'] : ['shown', 'ready'];
    if (!(await page.evaluate((k) => k in document.body.dataset, shownKey))) shownKey = readyKey;
    const r = await timedChange(page, SEL, shownKey, readyKey);
    return r.ready + r.frame;
}

// Open (or, for "first", reopen) the page at 128B and put what the change
// needs in view, as render.mjs does.
async function open(page, url) {
    await page.goto(url + QUERY);
    await page.waitForFunction(() => document.body.dataset.ready);
    await page.evaluate((kind) => {
        if (kind === 'step') document.querySelector('#acc-next').scrollIntoView({ block: 'center' });
    }, KIND);
}

const browser = await chromium.launch({
    executablePath: process.env.SWZ_CHROMIUM || '/usr/bin/chromium',
    // A tab in the background must still get its frames.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'],
});
// Two tabs per version, opened A B B A: an A/A run (the same page on both
// sides) with one tab each read B about 0.5 ms faster, whatever the order of
// the changes; which tab opened first is not to favour a version.
const tabs = [];
for (const url of [A, B, B, A]) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await open(page, url);
    page.url0 = url;
    tabs.push(page);
}
const sets = [[tabs[0], tabs[1]], [tabs[3], tabs[2]]];   // [A tab, B tab]
// Warm up every tab, then pairs: A B in one set of tabs, B A in the other, and
// so on (neither the second change of a pair nor a tab falls always to one version).
for (let i = 0; i < 4; i++) for (const page of tabs) { await page.bringToFront(); await page.waitForTimeout(PAUSE); await change(page); }
const work = [[], []], diff = [];
for (let i = 0; i < PAIRS; i++) {
    const pages = sets[i % 2], order = Math.floor(i / 2) % 2 ? [1, 0] : [0, 1];
    const t = [0, 0];
    if (KIND === 'first') for (const k of order) await open(pages[k], pages[k].url0);
    for (const k of order) {
        await pages[k].bringToFront();
        await pages[k].waitForTimeout(PAUSE);
        t[k] = await change(pages[k]);
    }
    work[0].push(t[0]); work[1].push(t[1]); diff.push(t[1] - t[0]);
}
await browser.close();
const f = (x) => x.toFixed(1).padStart(5);
console.log(`render pairs: ${PAIRS} ${KIND} changes (at 128B, ${QUERY}) in each version, alternated, ${PAUSE} ms apart; work ms`);
console.log(`A ${f(q(work[0], 0.5))} median ${f(q(work[0], 0.95))} p95   ${A}`);
console.log(`B ${f(q(work[1], 0.5))} median ${f(q(work[1], 0.95))} p95   ${B}`);
const wins = diff.filter((d) => d < 0).length;
console.log(`B - A, paired: median ${q(diff, 0.5).toFixed(2)} ms, quartiles ${q(diff, 0.25).toFixed(2)} / ${q(diff, 0.75).toFixed(2)}; B faster in ${wins} of ${PAIRS} pairs`);
