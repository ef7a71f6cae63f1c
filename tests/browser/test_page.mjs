// test_page.mjs - drives the real page in Debian's chromium against the real server.
// Starts build/swizzlescope (or $SWZ_BIN) on a free port, loads the page and checks
// that what it draws is what the API answers. Prints one line per check and ends
// with "N passed, N failed"; exits nonzero on any failure.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessChecks } from './access_checks.mjs';
import { extrasChecks } from './extras_checks.mjs';
import { measureChecks } from './measure_checks.mjs';
import { classroomChecks } from './classroom_checks.mjs';
import { linearChecks } from './linear_checks.mjs';
import { layoutChecks } from './layout_checks.mjs';
import { recommendChecks } from './recommend_checks.mjs';
import { kernelChecks } from './kernel_checks.mjs';
import { kernelptxChecks } from './kernelptx_checks.mjs';
import { teachChecks } from './teach_checks.mjs';
import { teach2Checks } from './teach2_checks.mjs';
import { firstscreenChecks } from './firstscreen_checks.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.resolve(ROOT, process.env.SWZ_BIN || 'build/swizzlescope');
const STATIC = path.resolve(ROOT, process.env.SWZ_STATIC || 'static');
// Debian's chromium-headless-shell where installed (run.sh and scripts/deps.sh
// install it): the same release's headless build, about 25% less CPU for the
// same checks (shard 1: 106.8 against 141.9 CPU-s, 2026-11-29); else chromium.
const CHROMIUM = process.env.SWZ_CHROMIUM ||
    (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const SHOTS = path.resolve(ROOT, 'build', 'screenshots');
const TIMEOUT = 15000;
// The check groups, in the order they run, and how SWZ_SHARD=i/n deals them
// out, by their times alone on the 2-CPU machine (2026-11-28, the "# group"
// lines: teach 79 s, extras 48, classroom 39, teach2 36, linear 33, recommend
// 26, firstscreen 24, measure 21, access 16, page 15, layout 9, kernel 2); a
// shard count not listed runs every group in one shard.
const GROUPS = ['page', 'access', 'extras', 'classroom', 'measure', 'linear', 'layout', 'recommend',
    'kernel', 'kernelptx', 'teach', 'teach2', 'firstscreen'];
const SHARDS = {
    2: [['teach', 'teach2', 'kernel', 'page', 'access', 'measure'],
        ['extras', 'classroom', 'recommend', 'kernelptx', 'linear', 'layout', 'firstscreen']],
    3: [['teach', 'teach2', 'kernel'], ['extras', 'classroom', 'recommend', 'kernelptx'],
        ['page', 'access', 'measure', 'linear', 'layout', 'firstscreen']],
};

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
    if (ok) { passed++; console.log(`ok   ${name}`); }
    else { failed++; console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`); }
    return ok;
}
// SWZ_STEP_TIMES=1: each step's wall time and its CPU seconds: this process
// and every process under it (Chromium's, the servers'), their own time and
// that of their children already reaped, read from /proc.  (A cgroup's account
// would count every other program on the machine too: under make test, the
// other shards and the C suites.)
const STEP_TIMES = process.env.SWZ_STEP_TIMES === '1';
function cpuNow() {
    if (!STEP_TIMES) return 0;
    const parent = new Map(), ticks = new Map();
    for (const pid of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        let st;
        try { st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');   // f[0] is field 3 (state)
        parent.set(Number(pid), Number(f[1]));
        ticks.set(Number(pid), Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    }
    let sum = 0;
    for (const [pid, t] of ticks) {
        let p = pid;
        while (p > 1 && p !== process.pid) p = parent.get(p) || 0;
        if (p === process.pid) sum += t;
    }
    return sum / 100;   // USER_HZ
}
async function step(name, fn) {
    const t0 = Date.now(), c0 = cpuNow();
    try { await fn(); } catch (e) { check(name, false, (e && e.message ? e.message : String(e)).split('\n')[0]); }
    if (STEP_TIMES) console.log(`#   step ${((Date.now() - t0) / 1000).toFixed(1)} s, ${(cpuNow() - c0).toFixed(1)} CPU-s: ${name}`);
}

function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.unref();
        s.on('error', reject);
        s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startServer(port, extra = []) {
    const child = spawn(BIN, ['--port', String(port), '--static', STATIC, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    const base = `http://127.0.0.1:${port}/`;
    for (let i = 0; i < 100; i++) {
        if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${log.trim()}`);
        try {
            const r = await fetch(base + 'api/health');
            if (r.ok) return { child, base, log: () => log };
        } catch { /* not up yet */ }
        await sleep(50);
    }
    child.kill('SIGTERM');
    throw new Error('server did not answer /api/health within 5 s: ' + log.trim());
}

// ---- what the page shows ----

// Every drawn cell of one view, in slot order: {p, l, c, key, label, traced}
// (key: the number the cell is coloured by).
// The cells are painted on a canvas; the view says which cell it painted
// where (drawnCells()), and this reads the canvas back to hold it to that:
//   - each cell's fill, sampled inside its corner, is the palette colour of
//     the number it shows (faded over the gap colour when a trace passes it
//     over);
//   - each label's ink (the pixels that are not the fill) is, pixel for
//     pixel within antialiasing, the ink of that label drawn here in the
//     canvas's font at the cell's centre; the same cell with another label
//     must not pass (else the comparison could not tell labels apart).
// A cell that fails either reads label "pixels: ..." so that the counts and
// labels checked against the API fail with what differs.
// The page draws maps out of sight right after the next frame (later.js):
// a read waits until no drawing is held (<body data-held>), so that it sees
// what the page's state says, not the map from before a change.
const drawn = (page) => page.waitForFunction(() => (document.body.dataset.held || '0') === '0', null, { timeout: TIMEOUT, polling: 20 });
async function readView(page, id) {
    await drawn(page);
    return page.evaluate((id) => {
        const el = document.getElementById(id), v = el && el.mapView;
        if (!v || v.el !== el || !el.contains(v.cv)) return [];
        const cells = v.drawnCells();
        if (!cells.length) return [];
        const cv = v.cv, dpr = cv.width / parseFloat(cv.style.width);
        const bx = parseFloat(cv.style.left), by = parseFloat(cv.style.top);
        const img = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
        const at = (x, y) => { const i = (Math.floor((y - by) * dpr) * cv.width + Math.floor((x - bx) * dpr)) * 4; return [img[i], img[i + 1], img[i + 2], img[i + 3]]; };
        // CSS colours as the canvas stores them.
        const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
        const rgb = (css) => { probe.clearRect(0, 0, 1, 1); probe.fillStyle = css; probe.fillRect(0, 0, 1, 1); return [...probe.getImageData(0, 0, 1, 1).data]; };
        const root = getComputedStyle(document.documentElement), d = document.documentElement.dataset;
        const kcol = []; for (let k = 0; k < 16; k++) kcol.push(rgb(root.getPropertyValue('--k' + k).trim()));
        // A faded cell is its colour at 0.32 over the gap colour (the panel's).
        const gap = rgb(root.getPropertyValue('--cell-gap').trim());
        const faded = (c) => c.map((v, i) => (i === 3 ? 255 : 0.32 * v + 0.68 * gap[i]));
        const tracing = cells.some((c) => c.traced);
        const font = cv.getContext('2d').font;
        // Cell c as it should look with label `text`: its sampled fill, then
        // the label drawn here as style.css asks (text colour, the halo of the
        // colour-blind palette) at the same sub-pixel offset as on the page.
        // Returns {n: pixels that differ from the page's, ink: pixels the
        // label covers}, inside the cell less its 2 px edge (the gap stroke).
        const ref = document.createElement('canvas'), rg = ref.getContext('2d', { willReadFrequently: true });
        const textRGB = root.getPropertyValue('--cell-text').trim(), mutedRGB = root.getPropertyValue('--muted').trim(), haloRGB = root.getPropertyValue('--lbl-halo').trim();
        function compare(c, text, bg, dim) {
            const W = Math.ceil(c.w * dpr), H = Math.ceil(c.h * dpr);
            if (ref.width !== W || ref.height !== H) { ref.width = W; ref.height = H; }
            const x0 = Math.floor((c.x - bx) * dpr), y0 = Math.floor((c.y - by) * dpr);
            rg.setTransform(1, 0, 0, 1, 0, 0);
            rg.clearRect(0, 0, W, H);
            rg.fillStyle = `rgba(${bg[0]},${bg[1]},${bg[2]},${bg[3] / 255})`;
            rg.fillRect(0, 0, W, H);
            rg.setTransform(dpr, 0, 0, dpr, (c.x - bx) * dpr - x0, (c.y - by) * dpr - y0);
            rg.font = font; rg.textAlign = 'center'; rg.textBaseline = 'middle'; rg.lineJoin = 'round';
            const muted = dim && d.theme === 'dark';
            if (d.palette === 'cb' && !muted) { rg.lineWidth = 3; rg.strokeStyle = haloRGB; rg.strokeText(text, c.w / 2, c.ly - c.y); }
            rg.fillStyle = muted ? mutedRGB : textRGB;
            rg.fillText(text, c.w / 2, c.ly - c.y);
            const a = rg.getImageData(0, 0, W, H).data, e = Math.ceil(2 * dpr);
            let n = 0, ink = 0;
            for (let j = e; j < H - e; j++) for (let i = e; i < W - e; i++) {
                const r = (j * W + i) * 4, q = ((y0 + j) * cv.width + x0 + i) * 4;
                let dp = 0, db = 0;
                for (let ch = 0; ch < 4; ch++) { dp += Math.abs(a[r + ch] - img[q + ch]); db += Math.abs(a[r + ch] - bg[ch]); }
                if (dp > 64) n++;
                if (db > 64) ink++;
            }
            return { n, ink };
        }
        const bad = (r) => r.n > Math.max(3, 0.1 * r.ink);
        let controlled = false;
        return cells.map((c) => {
            const out = { p: c.p, l: c.l, c: c.c, key: c.key, label: c.label, traced: c.traced };
            const dim = tracing && !c.traced;
            const want = dim ? faded(kcol[c.key % 16]) : kcol[c.key % 16], got = at(c.x + 2.5, c.y + 2.5);
            const okFill = got[3] === 255 && [0, 1, 2].every((i) => Math.abs(got[i] - want[i]) <= 2);
            if (!okFill) { out.label = `pixels: fill ${got} is not colour k${c.key % 16} ${want}${dim ? ' faded' : ''}`; return out; }
            if (c.label === null) return out;
            const r = compare(c, c.label, got, dim);
            if (bad(r)) { out.label = `pixels: label differs from "${c.label}" drawn here in ${r.n} of ${r.ink} px`; return out; }
            if (!controlled) {
                controlled = true;
                const other = c.label === '8' ? '3' : '8';
                if (!bad(compare(c, other, got, dim))) out.label = `pixels: the label check cannot tell "${c.label}" from "${other}"`;
            }
            return out;
        });
    }, id);
}

// The centre of physical slot p in view `id`, in page coordinates, after
// scrolling its box (and the page) so that it shows; null when not drawn.
async function cellPoint(page, id, p) {
    await drawn(page);   // the map as the page's state has it (readView says why)
    await page.evaluate(([id, p]) => {
        const v = document.getElementById(id).mapView;
        if (v) { v.reveal(v.lay.rect(p)); document.getElementById(id).scrollIntoView({ block: 'center' }); }
    }, [id, p]);
    return page.evaluate(([id, p]) => {
        const v = document.getElementById(id).mapView;
        if (!v || !v.drawnCells().some((c) => c.p === p)) return null;
        const [x, y, w, h] = v.lay.rect(p), b = v.svg.getBoundingClientRect();
        return { x: b.left + x + w / 2, y: b.top + y + h / 2 };
    }, [id, p]);
}

async function clickCell(page, id, p) {
    const pt = await cellPoint(page, id, p);
    if (!pt) throw new Error(`slot ${p} of ${id} is not drawn`);
    await page.mouse.click(pt.x, pt.y);
}

// Hover slot p of view `id`; resolves with the hover text shown for it.
async function hoverCell(page, id, p) {
    const pt = await cellPoint(page, id, p);
    if (!pt) return null;
    await page.mouse.move(pt.x, pt.y);
    return page.$eval(`#${id} svg rect.hit`, (e) => (e.getAttribute('visibility') === 'visible' ? e.textContent : null));
}

// Cells drawn in all the map views together (0 when nothing is painted).
const drawnTotal = async (page) => (await drawn(page), page.evaluate(() => {
    let n = 0;
    for (const el of document.querySelectorAll('.view')) {
        const v = el.mapView;
        if (v && v.el === el && el.contains(v.cv)) n += v.drawnCells().length;
        else if (el.querySelector('canvas.cells')) n += 1e6;   // a canvas no view owns
    }
    return n;
}));

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
const readyCount = (page) => page.evaluate(() => Number(document.body.dataset.ready || 0));

// Run `action`, then wait until the page has finished the load it started.
async function afterLoad(page, action) {
    const before = await readyCount(page);
    await action();
    await page.waitForFunction((b) => Number(document.body.dataset.ready || 0) > b, before, { timeout: TIMEOUT });
}

// fn() run with <html data-capture> set: the page shows the maps far from
// the window too (style.css), as a full-page capture needs.
async function captured(page, fn) {
    await page.evaluate(() => { document.documentElement.dataset.capture = '1'; });
    try { return await fn(); } finally { await page.evaluate(() => { delete document.documentElement.dataset.capture; }); }
}

// Pictures that check nothing, for people to look at (build/screenshots/):
// taken with SWZ_SHOTS=1 only (`make shots`).  In every `make test` they
// were about 50 of the browser test's 300 CPU-s (chromium 221 -> 175, node
// 30 -> 27 over three shards, 2026-11-29), a fifth of its time on two
// CPUs.  An element's screenshot waits for it to be visible; a skipped one
// still does, so no check after it runs sooner than it did.
const SHOTS_ON = process.env.SWZ_SHOTS === '1';
async function shot(target, opts) {
    if (SHOTS_ON) return target.screenshot(opts);
    if (typeof target.waitFor === 'function') await target.waitFor({ state: 'visible', timeout: TIMEOUT });
    else if (typeof target.waitForElementState === 'function') await target.waitForElementState('visible');
    return null;
}

// A full-page screenshot: such a capture paints the whole page without
// moving the window, so no map far from it would come near it.
function fullShot(page, file) {
    return SHOTS_ON ? captured(page, () => page.screenshot({ path: file, fullPage: true })) : null;
}

// Load a URL in the page and wait for its first load to finish.
// Before a navigation: the page's own requests have all come back (a request
// still on the wire when the page goes is aborted, which is no product failure
// but would read as one in the network check).
async function settled(page) {
    if (!/^http/.test(page.url())) return;
    await page.waitForFunction(() => (document.body.dataset.inflight || '0') === '0', null, { timeout: TIMEOUT });
}

async function gotoReady(page, url) {
    await settled(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: TIMEOUT });
}

// The same view as gotoReady(page, url) through the page's own router, where
// the page already shows that document: the URL pushed to the history and
// the popstate a back/forward gives (app.js: the page follows the URL as it
// does on load), from the top of the page as a load starts, then wait until
// the page has followed it (its stamp `followed`: the layout loaded when it
// changed, the panels and the lesson as the URL says). A fresh load of
// index.html costs about 1.1 CPU-s on this machine, a route change about 0.13
// (issue 37). The pages that follow every key of their URL on popstate are
// in ROUTED, with the stamp that says they have; another page, or another
// document, gets a load. Not for a check about a load itself
// (first paint, boot, caching, the URL a load writes). A viewport changed just
// before: the page redraws for it 150 ms after (app.js), which a load would
// not; the route waits until that redraw has run (resizedAt: main()).
const ROUTED = { '/': 'followed', '/index.html': 'followed', '/layout.html': 'ready' };   // app.js, layout.js
async function routeReady(page, url) {
    const at = new URL(page.url()), to = new URL(url, at);
    if (at.origin !== to.origin || at.pathname !== to.pathname || !ROUTED[at.pathname]) return gotoReady(page, url);
    await settled(page);
    await page.waitForFunction(() => !(performance.now() - (window.__swzResizedAt ?? -1e9) < 400), null, { timeout: TIMEOUT, polling: 50 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await route(page, url, ROUTED[at.pathname]);
}

// The router step itself: push `url` (absolute or relative), give the
// popstate, and wait until the page's stamp `counter` (body data-*: ready,
// or a panel's own, as accessReady, linearReady) has moved on and its
// requests are back.
async function route(page, url, counter = 'ready') {
    const before = await page.evaluate((k) => Number(document.body.dataset[k] || 0), counter);
    await page.evaluate((u) => { history.pushState(null, '', u); dispatchEvent(new PopStateEvent('popstate')); }, url);
    await page.waitForFunction(([k, n]) => Number(document.body.dataset[k] || 0) > n && document.body.dataset.inflight === '0', [counter, before], { timeout: TIMEOUT });
}

// Compare one view's cells with the API: logOf[p] (null = identity), cols per row.
function sameCells(name, cells, n, logOf, cols) {
    if (!check(`${name}: ${n} cells drawn`, cells.length === n, `got ${cells.length}`)) return;
    let bad = null;
    for (let p = 0; p < n && !bad; p++) {
        const want = logOf ? logOf[p] : p;
        const c = cells[p];
        if (c.p !== p || c.l !== want || c.c !== want % cols || (c.label !== null && c.label !== String(want % cols)))
            bad = `slot ${p}: drew ${JSON.stringify(c)}, API log_of ${want} (column ${want % cols})`;
    }
    check(`${name}: every cell shows the API's logical column`, !bad, bad || '');
}

function apiURL(base, endpoint, q) {
    return base + 'api/' + endpoint + '?' + new URLSearchParams(q).toString();
}

async function getJSON(url) {
    const r = await fetch(url);
    return { status: r.status, body: await r.json() };
}

// Check the readout, stats and every map against /api/swizzle for query q.
async function checkAgainstAPI(page, base, label, q) {
    const { status, body: d } = await getJSON(apiURL(base, 'swizzle', q));
    if (!check(`${label}: API answers ${JSON.stringify(q)}`, status === 200, `status ${status}`)) return null;
    check(`${label}: readout is ${d.name}`, (await text(page, '#readout')) === d.name, await text(page, '#readout'));
    const g = d.grid;
    const gridStat = await text(page, '#stat-grid');
    check(`${label}: grid stat shows ${g.rows}x${g.cols}`, gridStat.startsWith(`${g.rows}\u00d7${g.cols}`), gridStat);
    const unitStat = await text(page, '#stat-unit');
    check(`${label}: unit stat shows ${d.unit.bytes} B`, unitStat.startsWith(`${d.unit.bytes} B`), unitStat);
    check(`${label}: bank row shows ${d.bank_row_bytes} B`, (await text(page, '#bank-row')) === `${d.bank_row_bytes} B`);
    const T = d.tile.size;
    sameCells(`${label} tile without swizzle`, await readView(page, 'tile-plain'), T * T, null, T);
    sameCells(`${label} tile with swizzle`, await readView(page, 'tile-swz'), T * T, d.tile.log_of, T);
    sameCells(`${label} grid without swizzle`, await readView(page, 'grid-plain'), g.rows * g.cols, null, g.cols);
    sameCells(`${label} grid with swizzle`, await readView(page, 'grid-swz'), g.rows * g.cols, g.log_of, g.cols);
    sameCells(`${label} banks with swizzle`, await readView(page, 'banks-swz'), g.rows * g.cols, g.log_of, g.cols);
    return d;
}

async function main() {
    if (!fs.existsSync(BIN)) { check('server binary exists', false, `${BIN} missing: run make`); return; }
    if (!fs.existsSync(CHROMIUM)) { check('chromium exists', false, `${CHROMIUM} missing: apt-get install -y chromium`); return; }
    fs.mkdirSync(SHOTS, { recursive: true });

    const port = await freePort();
    // The server finds the measurement tool next to its own binary; the ASan
    // build lives in build/asan/, the tool in build/: point it there, so that
    // the page says why measuring is unavailable here (no GPU), not that the
    // tool is missing.
    const tool = path.resolve(ROOT, 'build/swizzlescope-measure');
    const srv = await startServer(port, fs.existsSync(tool) ? ['--measure-tool', tool] : []);
    const base = srv.base;
    const health = await getJSON(base + 'api/health');
    check(`server answers /api/health on port ${port}`, health.status === 200 && health.body.ok === true, JSON.stringify(health));

    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-chromium-'));
    // playwright passes --user-data-dir itself for a persistent context: a fresh one per run.
    const ctx = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1440, height: 1000 },
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = ctx.pages()[0] || await ctx.newPage();
    page.setDefaultTimeout(TIMEOUT);
    // When the window last changed size, for routeReady.
    await page.addInitScript(() => addEventListener('resize', () => { window.__swzResizedAt = performance.now(); }));

    // Console errors and failed requests, tagged with the phase they happened in:
    // only the invalid-parameter phase may see the API's 400 (and chromium's log of it).
    // Other phases: 'bad-access' (400s from /api/access and /api/conflicts) and
    // 'measure-errors' (409 / 502 from /api/measure), both provoked on purpose.
    // The page also asks ahead (header X-Swz-Prefetch) for what a change one
    // step away would need: such a request may be refused (the API's 4xx for
    // that other layout, kept for when the user goes there) or aborted by a
    // navigation; neither is the page failing.
    let phase = 'valid';
    const consoleErrors = [], badRequests = [], refusedPrefetch = new Set();
    const isPrefetch = (r) => !!r.headers()['x-swz-prefetch'];
    let loads = 0;     // documents loaded (main frames): the browser test's main cost
    const watch = (pg) => {
        pg.on('load', () => { loads++; });
        pg.on('console', (m) => { if (m.type() === 'error') consoleErrors.push({ phase, text: m.text(), url: (m.location() || {}).url || '' }); });
        pg.on('pageerror', (e) => consoleErrors.push({ phase, text: 'pageerror: ' + e.message }));
        pg.on('requestfailed', (r) => badRequests.push({ phase, prefetch: isPrefetch(r), aborted: /ERR_ABORTED/.test((r.failure() || {}).errorText || ''),
            text: `${r.url()} ${r.failure() && r.failure().errorText}` }));
        pg.on('response', (r) => {
            if (r.status() === 204 && r.headers()['x-swz-refused'] && isPrefetch(r.request())) refusedPrefetch.add(r.url());
            if (r.status() < 400) return;
            const prefetch = isPrefetch(r.request());
            badRequests.push({ phase, prefetch, status: r.status(), url: r.url(), text: `${r.status()} ${r.url()}` });
        });
    };
    watch(page);
    // What the check modules get: the page, the server, the harness.
    const t = {
        page, ctx, base, ROOT, SHOTS, TIMEOUT, check, step, shot, text, afterLoad, gotoReady, routeReady, route, settled, drawn, readView, clickCell, hoverCell, cellPoint, drawnTotal,
        getJSON, apiURL, freePort, sleep, watch,
        startServer: (p, extra) => startServer(p, extra),
        setPhase: (p) => { phase = p; },
    };

    // SWZ_CHECKS=classroom,access,...: only those groups (while working on them);
    // unset: all of them, and the hygiene checks at the end.
    // SWZ_SHARD=i/n: shard i of n (SHARDS: make test runs the shards at once,
    // each with its own server and browser), with the hygiene checks of what
    // it ran.
    const only = (process.env.SWZ_CHECKS || '').split(',').filter(Boolean);
    const shard = /^(\d+)\/(\d+)$/.exec(process.env.SWZ_SHARD || '');
    const inShard = (g) => !shard || (SHARDS[Number(shard[2])] || [GROUPS])[Number(shard[1]) - 1].includes(g);
    const want = (g) => (!only.length || only.includes(g)) && inShard(g);
    let groupStart = Date.now(), groupCPU = cpuNow(), groupName = 'page';
    const timed = (g) => {     // one line per group: where the browser test's time goes
        const now = Date.now(), cpu = cpuNow();
        if (want(groupName)) console.log(`# ${groupName}: ${((now - groupStart) / 1000).toFixed(1)} s, ${loads} page loads`
            + (STEP_TIMES ? `, ${(cpu - groupCPU).toFixed(1)} CPU-s` : ''));
        groupStart = now, groupCPU = cpu, groupName = g, loads = 0;
        return want(g);
    };
    try {
      if (want('page')) {
        // ---- default view ----
        await step('default page loads', async () => {
            await gotoReady(page, base);
            const u = new URL(page.url());
            check('default: URL carries the state (b, m, s, bank_bytes, banks)',
                ['b', 'm', 's', 'bank_bytes', 'banks'].every((k) => u.searchParams.has(k)), u.search);
            const q = { b: u.searchParams.get('b'), m: u.searchParams.get('m'), s: u.searchParams.get('s'),
                bank_bytes: u.searchParams.get('bank_bytes'), banks: u.searchParams.get('banks'), match_bank_row: '0' };
            await checkAgainstAPI(page, base, 'default', q);
            check('default: no banner', await page.$eval('#banner', (e) => e.hidden));
            const presets = (await getJSON(base + 'api/presets')).body.presets;
            const opts = await page.$$eval('#preset option', (os) => os.map((o) => o.value));
            check('preset menu lists every API preset and custom',
                presets.every((p) => opts.includes(p.id)) && opts.includes('custom'), opts.join(','));
            await fullShot(page, path.join(SHOTS, 'default.png'));
        });

        // ---- switch to the 128B preset ----
        const q128 = { b: '3', m: '4', s: '3', bank_bytes: '4', banks: '32', match_bank_row: '0' };
        let d128 = null;
        await step('128B preset', async () => {
            await afterLoad(page, () => page.selectOption('#preset', '128B'));
            const u = new URL(page.url());
            check('128B: URL has b=3 m=4 s=3', u.searchParams.get('b') === '3' && u.searchParams.get('m') === '4' && u.searchParams.get('s') === '3', u.search);
            check('128B: B/M/S inputs follow the preset',
                (await page.inputValue('#b')) === '3' && (await page.inputValue('#m')) === '4' && (await page.inputValue('#s')) === '3');
            d128 = await checkAgainstAPI(page, base, '128B', q128);
        });

        // ---- hover title ----
        await step('hover title', async () => {
            const t = (await hoverCell(page, 'grid-swz', 9)) || '';
            const l = d128.grid.log_of[9];
            const want = `physical slot 9 <- logical column ${l % d128.grid.cols}`;
            check('hover title names the physical slot and logical column', t.split('\n')[0] === want, JSON.stringify(t));
        });

        // ---- click to inspect ----
        await step('inspector', async () => {
            const P = 10;
            const l = d128.grid.log_of[P], cols = d128.grid.cols;
            const row = Math.floor(l / cols), col = l % cols;
            const before = await page.evaluate(() => document.body.dataset.inspected || '');
            await clickCell(page, 'grid-swz', P);
            await page.waitForFunction((want) => document.body.dataset.inspected === want, `${row},${col}`, { timeout: TIMEOUT });
            check('click: URL has sel=row,col', new URL(page.url()).searchParams.get('sel') === `${row},${col}`, page.url());
            check('click: selection changed', before !== `${row},${col}`);
            const { status, body: ins } = await getJSON(apiURL(base, 'inspect', { ...q128, row, col }));
            check('click: /api/inspect answers', status === 200, `status ${status}`);
            const bin = (s) => String(s).replace(/^0b/, '');
            check('inspector: original address (dec)', (await text(page, '#ins-orig .dec')) === String(ins.logical.addr));
            check('inspector: original address (hex)', (await text(page, '#ins-orig .hex')) === ins.logical.hex);
            check('inspector: original address (bin)', (await text(page, '#ins-orig .bin')).replace(/\s/g, '') === bin(ins.logical.bin));
            check('inspector: swizzled address (dec)', (await text(page, '#ins-swz .dec')) === String(ins.physical.addr));
            check('inspector: swizzled address (hex)', (await text(page, '#ins-swz .hex')) === ins.physical.hex);
            check('inspector: swizzled address (bin)', (await text(page, '#ins-swz .bin')).replace(/\s/g, '') === bin(ins.physical.bin));
            const yBits = await page.$$eval('#ins-orig .bin span.yyy', (s) => s.length);
            const zBits = await page.$$eval('#ins-orig .bin span.zzz', (s) => s.length);
            check('inspector: YYY and ZZZ bit ranges coloured', yBits === ins.yyy.hi - ins.yyy.lo && zBits === ins.zzz.hi - ins.zzz.lo, `${yBits} yyy, ${zBits} zzz`);
            const chips = await page.$$eval('#ins-banks .chip', (c) => c.map((e) => Number(e.textContent)));
            check('inspector: banks', JSON.stringify(chips) === JSON.stringify(ins.banks.list), `${chips} vs ${ins.banks.list}`);
            check('inspector: grid positions', (await text(page, '#ins-logical')) === `(${ins.logical.row}, ${ins.logical.col})` &&
                (await text(page, '#ins-physical')) === `(${ins.physical.row}, ${ins.physical.col})`);
            check('inspector: the API names the 128B slot rule col_xor_row, and the page shows that form',
                ins.slot_rule === 'col_xor_row' && (await page.getAttribute('#ins-xor', 'data-rule')) === ins.slot_rule, `${ins.slot_rule}`);
            check('inspector: col in tile XOR row mod = slot',
                (await text(page, '#ins-col-in-tile')) === String(ins.tile.col_in_tile) &&
                (await text(page, '#ins-row-mod')) === String(ins.tile.row_mod) &&
                (await text(page, '#ins-slot')) === String(ins.tile.slot));
            // The selection is outlined in every view, on the right cell.
            const selAt = (id, p) => page.evaluate(([id, p]) => {
                const s = document.querySelector(`#${id} rect.sel`), v = document.getElementById(id).mapView;
                const c = v && v.drawnCells().find((x) => x.p === p);
                return !!(s && c && s.getAttribute('visibility') === 'visible' &&
                    Number(s.getAttribute('x')) === c.x && Number(s.getAttribute('y')) === c.y);
            }, [id, p]);
            const T = d128.tile.size, tl = ins.tile.row_in_tile * T + ins.tile.col_in_tile;
            const mirrored = {
                'grid-plain': l, 'grid-swz': d128.grid.phys_of[l], 'banks-plain': l, 'banks-swz': d128.grid.phys_of[l],
                'tile-plain': tl, 'tile-swz': d128.tile.phys_of[tl],
            };
            for (const [id, p] of Object.entries(mirrored)) check(`selection mirrored in ${id} (slot ${p})`, await selAt(id, p));
            await shot(page, { path: path.join(SHOTS, 'inspect.png'), fullPage: false });
        });

        // ---- back / forward ----
        await step('history', async () => {
            await page.goBack();
            await page.waitForFunction(() => !document.body.dataset.inspected, null, { timeout: TIMEOUT });
            check('back: selection undone', !new URL(page.url()).searchParams.get('sel'));
            await afterLoad(page, () => page.goBack());
            check('back: previous swizzle restored', (await text(page, '#readout')) === 'Swizzle<2,4,3>' && (await page.inputValue('#preset')) === '64B',
                await text(page, '#readout'));
            await afterLoad(page, () => page.goForward());
            check('forward: 128B again', (await text(page, '#readout')) === 'Swizzle<3,4,3>');
        });

        // ---- the tile boxes hold their height ----
        await step('tile box height', async () => {
            // grid: the grid's top less the tile box's (the readout above
            // them may change height with the swizzle; the tiles must not
            // move what is below them).
            const where = () => page.evaluate(() => ({
                grid: document.getElementById('grid-plain').getBoundingClientRect().top - document.getElementById('tile-swz').getBoundingClientRect().top,
                box: document.getElementById('tile-swz').getBoundingClientRect().height,
                tile: document.getElementById('tile-swz').mapView.lay.H,   // the map's own height
                svg: Number(document.querySelector('#tile-swz svg').getAttribute('height')),
            }));
            const at128 = await where();
            check('tile box: an 8x8 tile fills its box', Math.abs(at128.box - at128.tile) <= 1, JSON.stringify(at128));
            for (const p of ['64B', 'none', '32B']) {
                await afterLoad(page, () => page.selectOption('#preset', p));
                const w = await where();
                check(`tile box: at ${p} the tile is smaller than its box, and the grids stay where they were`,
                    w.tile < at128.tile && w.box === at128.box && w.grid === at128.grid, `${JSON.stringify(w)} vs ${JSON.stringify(at128)}`);
                // mapview.js: a smaller tile leaves the SVG over it as it was (a preset change need not raster it again)
                check(`tile box: at ${p} the SVG over the tile keeps the box's size`, w.svg === at128.svg, `${JSON.stringify(w)} vs ${JSON.stringify(at128)}`);
            }
            for (const [id, v] of [['#s', '4'], ['#b', '4']]) await afterLoad(page, async () => { await page.fill(id, v); await page.press(id, 'Enter'); });
            const w16 = await where();
            check('tile box: a 16x16 tile taller than an 8x8 one grows its box', w16.tile > at128.tile && Math.abs(w16.box - w16.tile) <= 1, JSON.stringify(w16));
            await afterLoad(page, () => page.selectOption('#preset', '128B'));
        });

        // ---- maps far from the window hide their canvases ----
        await step('far maps', async () => {
            const vis = () => page.evaluate(() => Object.fromEntries(['grid-swz', 'banks-swz'].map((id) => {
                const el = document.getElementById(id);
                return [id, `${el.classList.contains('far') ? 'far' : 'near'} ${getComputedStyle(el.querySelector('canvas.cells')).visibility}`];
            })));
            await page.evaluate(() => window.scrollTo(0, 0));
            await page.waitForFunction(() => document.getElementById('banks-swz').classList.contains('far'), null, { timeout: TIMEOUT });
            const top = await vis();
            check('far: at the top of the page the grid canvas shows, the bank map\'s (far below) is hidden',
                top['grid-swz'] === 'near visible' && top['banks-swz'] === 'far hidden', JSON.stringify(top));
            // A jump straight to the bank map: its canvas shows in the first
            // frame drawn after the jump (the scroll event runs before it).
            const jumped = await page.evaluate(() => new Promise((resolve) => {
                const el = document.getElementById('banks-swz');
                window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 100);
                requestAnimationFrame(() => resolve(getComputedStyle(el.querySelector('canvas.cells')).visibility));
            }));
            check('far: a jump to the bank map shows its canvas in the first frame', jumped === 'visible', jumped);
            await page.evaluate(() => window.scrollTo(0, 0));
            await page.waitForFunction(() => document.getElementById('banks-swz').classList.contains('far'), null, { timeout: TIMEOUT });
            await page.emulateMedia({ media: 'print' });
            const printed = await vis();
            await page.emulateMedia({ media: 'screen' });
            check('far: a printed page shows every canvas', printed['banks-swz'] === 'far visible', JSON.stringify(printed));
            const cap = await captured(page, vis);
            check('far: with data-capture every canvas shows', cap['banks-swz'] === 'far visible', JSON.stringify(cap));
        });

        // ---- match the bank row ----
        await step('match bank row', async () => {
            await afterLoad(page, () => page.selectOption('#banks', '64'));
            await afterLoad(page, () => page.check('#match'));
            const u = new URL(page.url());
            check('match: URL has match=1 and banks=64', u.searchParams.get('match') === '1' && u.searchParams.get('banks') === '64', u.search);
            check('match: preset still 128B (bank geometry is not part of it)', (await page.inputValue('#preset')) === '128B');
            await checkAgainstAPI(page, base, 'match', { ...q128, banks: '64', match_bank_row: '1' });
            await afterLoad(page, () => page.uncheck('#match'));
            await afterLoad(page, () => page.selectOption('#banks', '32'));
        });

        // ---- editing a parameter switches the preset to custom ----
        await step('custom', async () => {
            await afterLoad(page, async () => { await page.fill('#m', '3'); await page.press('#m', 'Enter'); });
            check('edit: preset reads custom', (await page.inputValue('#preset')) === 'custom');
            await checkAgainstAPI(page, base, 'custom', { ...q128, m: '3' });
        });

        // ---- a large grid is drawn in bands and stays right when scrolled ----
        await step('large grid', async () => {
            await routeReady(page, base + '?b=3&m=4&s=3&rows=1024');
            const { body: d } = await getJSON(apiURL(base, 'swizzle', { ...q128, rows: '1024' }));
            const ms = Number(await page.evaluate(() => document.body.dataset.renderMs));
            check(`large: 1024x8 grid renders in under 500 ms (${ms} ms)`, ms < 500);
            const drawn = (await readView(page, 'grid-swz')).length;
            check('large: only a band of the grid is in the DOM', drawn > 0 && drawn < d.grid.rows * d.grid.cols, `${drawn}`);
            await page.$eval('#grid-swz', (e) => { e.scrollTop = e.scrollHeight; });
            const last = d.grid.rows * d.grid.cols - 1;
            await page.waitForFunction((last) => document.getElementById('grid-swz').mapView.drawnCells().some((c) => c.p === last), last, { timeout: TIMEOUT });
            const cells = await readView(page, 'grid-swz');
            const bad = cells.find((c) => c.l !== d.grid.log_of[c.p] || c.c !== d.grid.log_of[c.p] % d.grid.cols);
            check('large: scrolled band matches the API', cells.length > 0 && !bad, JSON.stringify(bad));
            const plainTop = await page.$eval('#grid-plain', (e) => e.scrollTop);
            const swzTop = await page.$eval('#grid-swz', (e) => e.scrollTop);
            check('large: the two grids scroll together', plainTop === swzTop && swzTop > 0, `${plainTop} vs ${swzTop}`);
        });

        // ---- invalid parameters: banner, no stale grid ----
        await step('invalid', async () => {
            await routeReady(page, base + '?b=3&m=4&s=3');
            check('invalid: a grid is drawn before', (await readView(page, 'grid-swz')).length === 64);
            phase = 'invalid';
            await afterLoad(page, async () => { await page.fill('#s', '1'); await page.locator('#s').blur(); });
            const { status, body } = await getJSON(apiURL(base, 'swizzle', { ...q128, s: '1' }));
            check('invalid: API rejects s=1 with b=3', status === 400 && body.error && body.error.field === 's', `status ${status}`);
            check('invalid: banner shown', await page.$eval('#banner', (e) => !e.hidden));
            check('invalid: banner shows error.message', (await text(page, '#banner-message')) === body.error.message, await text(page, '#banner-message'));
            check('invalid: banner names the field', (await text(page, '#banner-field')) === 's');
            check('invalid: the s input is marked', await page.$eval('#s', (e) => e.classList.contains('invalid')));
            check('invalid: no stale cells in any view', (await drawnTotal(page)) === 0, `${await drawnTotal(page)} drawn`);
            // The same from a link.
            await gotoReady(page, base + '?b=3&m=4&s=1');
            check('invalid URL: banner shown and no cells',
                (await page.$eval('#banner', (e) => !e.hidden)) && (await drawnTotal(page)) === 0);
            await shot(page, { path: path.join(SHOTS, 'invalid.png'), fullPage: false });
            phase = 'valid';
            await gotoReady(page, base + '?b=3&m=4&s=3&sel=2,5');
            await page.waitForFunction(() => document.body.dataset.inspected === '2,5', null, { timeout: TIMEOUT });
            check('valid again: banner gone, grid back, selection from the URL inspected',
                (await page.$eval('#banner', (e) => e.hidden)) && (await readView(page, 'grid-swz')).length === 64);
            await page.keyboard.press('ArrowRight');
            await page.waitForFunction(() => document.body.dataset.inspected === '2,6', null, { timeout: TIMEOUT });
            check('arrow key moves the selection', new URL(page.url()).searchParams.get('sel') === '2,6');
            await fullShot(page, path.join(SHOTS, 'page.png'));
        });

      }
        if (timed('access')) await accessChecks(t);
        if (timed('extras')) await extrasChecks(t);
        if (timed('classroom')) await classroomChecks(t);
        if (timed('measure')) await measureChecks(t);
        if (timed('linear')) await linearChecks(t);
        if (timed('layout')) await layoutChecks(t);
        if (timed('recommend')) await recommendChecks(t);
        if (timed('kernel')) await kernelChecks(t);
        if (timed('kernelptx')) await kernelptxChecks(t);
        if (timed('teach')) await teachChecks(t);
        if (timed('teach2') || want('teach')) await teach2Checks(t);
        if (timed('firstscreen')) await firstscreenChecks(t);
        timed('');
        phase = 'valid';
        if (only.length) return;

        // ---- console and network hygiene ----
        // An invalid layout also fails the access and scorecard requests the page sends with it.
        const expected400 = (r) => (r.phase === 'invalid' && r.status === 400 && /\/api\/(swizzle|access)\?/.test(r.url)) ||
            (r.phase === 'bad-access' && r.status === 400 && /\/api\/(access\?|conflicts$)/.test(r.url)) ||
            (r.phase === 'measure-errors' && (r.status === 409 || r.status === 502) && /\/api\/measure$/.test(r.url)) ||
            // issue 27 (teach_checks): a layout text with an error, and a page framed by an origin the server does not name
            (r.phase === 'layout-error' && r.status === 400 && /\/api\/layout$/.test(r.url)) ||
            // issue 37 (layout_checks): a thread layout with an error
            (r.phase === 'thread-error' && r.status === 400 && /\/api\/layout\/access$/.test(r.url)) ||
            // issue 38.4 (kernelptx_checks): a malformed PTX, and CUDA refused
            (r.phase === 'kernelptx-error' && r.status === 400 && /\/api\/ptx$/.test(r.url)) ||
            // issue 38.6: "Measure on GPU" where there is no GPU
            (r.phase === 'kernelptx-measure' && r.status === 503 && /\/api\/ptx\/measure$/.test(r.url)) ||
            // issue 39.5 (layout_checks): an ncu text of several launches, none picked yet
            (r.phase === 'ncu-error' && r.status === 400 && /\/api\/ncu\/explain$/.test(r.url)) ||
            (r.phase === 'frame-refused' && /ERR_BLOCKED_BY_RESPONSE/.test(r.text || '')) ||
            // issue 40.4: the page a refused frame gets instead (a 403 that says why)
            (r.phase === 'frame-refused' && r.status === 403 && /\?embed=1/.test(r.url));
        // A prefetch the server refuses is a 204 (never a 4xx: no console line);
        // one the page stops on the wire when the state moves on is aborted.
        const prefetchOk = (r) => r.prefetch && r.aborted;
        const unexpectedReq = badRequests.filter((r) => !expected400(r) && !prefetchOk(r));
        check('no failed requests (besides the expected 400s and aborted prefetches)', unexpectedReq.length === 0, unexpectedReq.map((r) => `${r.phase}: ${r.text}`).join(' | '));
        if (want('page')) {     // what the page group's own steps must have caused
            check('some prefetches were refused, each with a 204', refusedPrefetch.size > 0, `${refusedPrefetch.size}`);
            check('the invalid phase did get its 400', badRequests.some((r) => !r.prefetch && expected400(r)));
        }
        const unexpectedCon = consoleErrors.filter((c) => !(
            ((c.phase === 'invalid' || c.phase === 'bad-access') && /status of 400/.test(c.text)) ||
            (c.phase === 'measure-errors' && /status of (409|502)/.test(c.text)) ||
            ((c.phase === 'layout-error' || c.phase === 'thread-error' || c.phase === 'kernelptx-error' || c.phase === 'ncu-error') && /status of 400/.test(c.text)) ||
            (c.phase === 'kernelptx-measure' && /status of 503/.test(c.text)) ||
            (c.phase === 'frame-refused' && /violates the following Content Security Policy directive: "frame-ancestors 'none'"/.test(c.text)) ||
            (c.phase === 'frame-refused' && /status of 403/.test(c.text))));
        check('no console errors', unexpectedCon.length === 0, unexpectedCon.map((c) => `${c.phase}: ${c.text}`).join(' | '));
    } finally {
        await ctx.close().catch(() => {});
        srv.child.kill('SIGTERM');
        fs.rmSync(profile, { recursive: true, force: true });
    }
}

try {
    await main();
} catch (e) {
    check('browser test ran', false, e && e.stack ? e.stack.split('\n').slice(0, 3).join(' ') : String(e));
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
