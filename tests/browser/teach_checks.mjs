// teach_checks.mjs - browser checks of issue 27 (in front of a class, and in a
// teacher's own hands): one step per numbered item and per built feature. Each
// reads what the page shows and holds it to the API's answers, fetched here;
// each failed on the page before its fix (run alone: SWZ_CHECKS=teach).

import { drawnNeighbours } from './teach2_checks.mjs';

const qs = (o) => new URLSearchParams(o).toString();

export async function teachChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, afterLoad, text } = t;
    const L = { bank_bytes: '4', banks: '32', match_bank_row: '0' };
    const api = async (endpoint, q) => (await getJSON(apiURL(base, endpoint, q))).body;
    const lessonAt = (k) => page.waitForFunction((k) => document.body.dataset.lesson === String(k), k, { timeout: t.TIMEOUT });

    // ---- 1. the trace reads every drawn row ----
    await step('issue 27.1: the trace follows the map at small B', async () => {
        // The first by a load, the others through the page's router (routeReady).
        for (const [i, [b, m, s]] of [[0, 4, 3], [1, 4, 3], [3, 4, 3]].entries()) {
            await (i ? routeReady : gotoReady)(page, base + `?b=${b}&m=${m}&s=${s}`);
            await page.evaluate(() => document.getElementById('trace').scrollIntoView());
            await page.waitForFunction(() => document.querySelectorAll('#trace-table tbody tr').length > 0, null, { timeout: t.TIMEOUT });
            const d = await api('swizzle', { b: String(b), m: String(m), s: String(s), ...L });
            const tr = await api('trace', { b: String(b), m: String(m), s: String(s), ...L, col: '0' });
            const rows = await page.$$eval('#trace-table tbody tr', (r) => r.length);
            const want = Math.min(d.grid.rows, 32);
            check(`27.1: <${b},${m},${s}> traces the grid's ${want} rows`, rows === want && tr.rows === want, `${rows} rows shown, API ${tr.rows}`);
            const wf = await page.$eval('#trace-plain', (e) => Number(e.dataset.wavefronts));
            check(`27.1: <${b},${m},${s}> unswizzled trace is the API's ${tr.plain.wavefronts} wavefronts, a conflict`, wf === tr.plain.wavefronts && wf > 1, `${wf}`);
        }
    });

    // ---- 2. the lesson hears the clicker ----
    await step('issue 27.2: lesson keys reach the lesson', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?present=1');
        await page.click('#lesson-start');
        await lessonAt(0);
        // Step 2 is a question: its first forward key reveals (issue 40.1), the next moves on.
        for (const [key, k, shown] of [['Space', 1, 'ask'], ['ArrowRight', 1, 'shown'], ['ArrowRight', 2, ''], ['PageDown', 3, '']]) {
            await page.keyboard.press(key);
            await lessonAt(k);
            await page.waitForFunction((p) => document.body.dataset.predict === p, shown, { timeout: t.TIMEOUT });
            check(`27.2: ${key} right after a click ${shown === 'shown' ? 'reveals the question' : 'steps on'} (step ${k + 1})`, true);
        }
        check('27.2: the lesson holds the focus', await page.evaluate(() => !!document.activeElement.closest('#lesson')));
        await page.focus('#lesson-next');
        await page.keyboard.press('Space');
        await lessonAt(4);
        await t.sleep(300);
        check('27.2: Space on the lesson\'s own Next button steps once', await page.evaluate(() => document.body.dataset.lesson) === '4');
        await page.focus('#lesson-prev');
        await page.keyboard.press('PageUp');
        await lessonAt(3);
        check('27.2: PageUp on its Back button steps back once', true);
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 3. the lesson shows what it talks about, plainly ----
    await step('issue 27.3: the lesson shows what it narrates', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?lesson=0&present=1&side=hide');
        await lessonAt(0);
        const h = (await getJSON(base + 'api/health')).body;
        const lessonJSON = (await getJSON(base + 'lessons/intro.json')).body;
        const n = lessonJSON && lessonJSON.steps ? lessonJSON.steps.length : 10;
        check('27.3: the built-in lesson is a data file, and the bar plays all its steps', !!(lessonJSON && lessonJSON.steps) &&
            (await page.evaluate(() => Number(document.getElementById('lesson').dataset.steps))) === n, `${n}`);
        for (let k = 0; k < n; k++) {
            if (k && lessonJSON.steps[k - 1].question) {   // its first key reveals (issue 40.1)
                await page.keyboard.press('ArrowRight');
                await page.waitForFunction(() => document.body.dataset.predict === 'shown', null, { timeout: t.TIMEOUT });
            }
            if (k) { await page.keyboard.press('ArrowRight'); await lessonAt(k); }
            const vis = await page.evaluate(() => {
                const bar = document.getElementById('lesson').getBoundingClientRect();
                const f = document.querySelector('.look-focus');
                if (!f) return 'no focus element';
                const r = f.getBoundingClientRect();
                // above the bar, or beside it (docked right on a wide screen: issue 40.5), in the window
                const beside = bar.left >= r.right || bar.right <= r.left;
                return r.top >= 0 && r.bottom <= (beside ? innerHeight : bar.top + 1) ? '' : `focus ${f.id} ${Math.round(r.top)}..${Math.round(r.bottom)}, bar at ${Math.round(bar.top)}`;
            });
            check(`27.3: step ${k + 1}'s subject is above the lesson bar`, vis === '', vis);
            const say = await text(page, '#lesson-text');
            check(`27.3: step ${k + 1} speaks plainly`, !/seed|libcuda|cuInit|CUDA_ERROR|dlopen/i.test(say) && !/\{[a-z.0-9_]+\}/.test(say), say);
            if (k === 3) {
                const cmp = (await api('access', { b: '3', m: '4', s: '3', rows: '32', ...L, pattern: 'col_read',
                    compare: (await api('presets', {})).presets.map((p) => `${p.b},${p.m},${p.s}`).join(';') })).compare;
                const shown = await page.$$eval('#lesson-numbers tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent.trim())));
                check('27.3: step 4 shows the per-preset numbers it quotes, as the API answers them',
                    cmp && shown.length === cmp.swizzles.length && cmp.swizzles.every((c, i) => shown[i][1] === String(c.wavefronts)), JSON.stringify(shown));
            }
            if (k === n - 1 && !(h.measure && h.measure.available)) check('27.3: the last step says "No GPU on this machine"', /^No GPU on this machine\./.test(say), say);
        }
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 4. typing is one request, one history entry ----
    await step('issue 27.4: typed Rows wait for a pause; one history entry', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        // history.length stops at 50 in Chromium: count the page's pushes instead.
        await page.evaluate(() => { window.__pushes = 0; const push = history.pushState.bind(history); history.pushState = (...a) => { window.__pushes++; return push(...a); }; });
        const pushes = () => page.evaluate(() => window.__pushes);
        const reqs = [];
        const onReq = (r) => { if (/\/api\/swizzle\?/.test(r.url())) reqs.push(new URL(r.url()).searchParams.get('rows')); };
        page.on('request', onReq);
        try {
            await page.fill('#rows', '');
            // Keystrokes back to back: each is its own input event (a page that applied
            // every one would ask for 2, 20 and 204 too), but a loaded machine cannot
            // stretch a 60 ms gap between them past the 350 ms pause (it did, twice).
            await afterLoad(page, async () => { await page.focus('#rows'); await page.keyboard.type('2048'); });
            await t.sleep(400);
        } finally { page.off('request', onReq); }
        const rowsAsked = reqs.filter((r) => r !== null);   // null: a preset's default grid, asked ahead
        check('27.4: typing 2048 asks for rows=2048 only', rowsAsked.length >= 1 && rowsAsked.every((r) => r === '2048'), reqs.join(','));
        check('27.4: the URL follows the typed rows', new URL(page.url()).searchParams.get('rows') === '2048', page.url());
        await afterLoad(page, async () => { await page.keyboard.press('Backspace'); await page.keyboard.type('0', { delay: 60 }); });
        await page.keyboard.press('Enter');
        await t.sleep(200);
        check('27.4: one edit (typing, fixing a digit, Enter) is one history entry', (await pushes()) === 1, `${await pushes()} pushes`);
        await page.focus('#b');
        for (const k of ['ArrowDown', 'ArrowDown', 'ArrowUp']) await afterLoad(page, () => page.keyboard.press(k));
        await page.focus('#m');
        check('27.4: three spinner steps in B are one more history entry', (await pushes()) === 2, `${await pushes()} pushes`);
        await afterLoad(page, () => page.goBack());
        check('27.4: Back returns to before the steps', new URL(page.url()).searchParams.get('b') === '3' && new URL(page.url()).searchParams.get('rows') === '2040', page.url());
        void qs;
    });

    // ---- 5. comparison cards carry the atomic split; physical offsets are not re-swizzled ----
    await step('issue 27.5: comparison cards say one thing', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&pat=atom_hist256_adversarial');
        const presets = (await api('presets', {})).presets;
        const a = await api('access', { b: '3', m: '4', s: '3', ...L, pattern: 'atom_hist256_adversarial', step: '0', fit: '1', compare: presets.map((p) => `${p.b},${p.m},${p.s}`).join(';') });
        const best = a.compare.swizzles[a.compare.best];
        const cur = await text(page, '#acc-base-cur'), bestCard = await text(page, '#acc-base-best');
        const words = (s) => s.replace(/^.*?(\d+ wavefronts?)/, '$1');
        check('27.5: the API carries the atomic split into the comparison', typeof best.conflict_wavefronts === 'number' && best.serial_wavefronts === a.cost.atomic.serial_wavefronts, JSON.stringify(best));
        check('27.5: the same swizzle reads the same in this card and the best-preset card', best.b === 3 && words(cur) === words(bestCard) &&
            cur.includes(`${a.cost.atomic.serial_wavefronts} same-address`), `${cur} | ${bestCard}`);
        const offs = Array.from({ length: 32 }, (_, i) => 128 * i).join(',');
        await routeReady(page, base + `?b=3&m=4&s=3&rows=32&acc=custom&space=physical&offs=${offs}`);
        check('27.5: physical offsets: no best-preset card, and the page says the swizzle does not apply', !(await page.$('#acc-base-best')) &&
            /does not apply/.test(await text(page, '#acc-baseline')), await text(page, '#acc-baseline'));
    });

    // ---- 6. presenter labels whole; links readable in the dark; display on every page ----
    await step('issue 27.6: presenter mode and the dark theme read well', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?present=1&b=4&m=2&s=5&rows=16&elem=fp32&pat=transpose_read');
        await page.evaluate(() => document.getElementById('acc-hits').scrollIntoView());
        const cut = await page.$$eval('#acc-hits svg text.val', (ts) => ts.filter((e) => e.getBBox().y < 0).length);
        const nval = await page.$$eval('#acc-hits svg text.val', (ts) => ts.length);
        check('27.6: presenter mode: no bank-hit count is cut at the top of the chart', nval > 0 && cut === 0, `${cut} of ${nval} cut`);
        const contrast = () => page.evaluate(() => {
            const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
            const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
            const bgOf = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (!/rgba\(0, 0, 0, 0\)|transparent/.test(c)) return c; } return 'rgb(255,255,255)'; };
            return [...document.querySelectorAll('header a')].map((a) => { const l1 = lum(rgb(getComputedStyle(a).color)), l2 = lum(rgb(bgOf(a))); return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05); });
        });
        for (const pg of ['', 'layout.html', 'linear.html']) {
            for (const pr of ['0', '1']) {
                // index.html: done (ready) before it is left, as gotoReady has it: its
                // panels off the first screen ask the API after it, and a page left
                // with requests on the wire reads as failed requests (the network check).
                if (pg) await page.goto(base + `${pg}?theme=dark&present=${pr}`, { waitUntil: 'load' });
                else await gotoReady(page, base + `?theme=dark&present=${pr}`);
                await page.waitForFunction(() => !!document.documentElement.dataset.theme, null, { timeout: 3000 }).catch(() => {});
                const ds = await page.evaluate(() => ({ ...document.documentElement.dataset }));
                const cs = await contrast();
                check(`27.6: ${pg || 'index.html'} present=${pr}: dark theme and presenter mode from the URL`, ds.theme === 'dark' && ds.present === pr && !!(await page.$('#theme')) && !!(await page.$('#present')), JSON.stringify(ds));
                check(`27.6: ${pg || 'index.html'} present=${pr}: header links at WCAG AA (4.5:1) on the dark theme`, cs.length > 0 && cs.every((c) => c >= 4.5), cs.map((c) => c.toFixed(2)).join(', '));
            }
        }
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 7. arrows move to the neighbouring drawn cell ----
    await step('issue 27.7: arrows follow the drawn map', async () => {
        await gotoReady(page, base + '?b=3&m=4&s=3');
        const d = await api('swizzle', { b: '3', m: '4', s: '3', ...L });
        await drawnNeighbours(t, 'grid-swz', d.grid.cols, d.grid.log_of, 'the swizzled grid');
    });

    // ---- 8. the verdict in the first screen; labels with parameters; a legend ----
    await step('issue 27.8: a plain verdict in the first screen', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await routeReady(page, base + '?b=0&m=4&s=3');
        const a = await api('access', { b: '0', m: '4', s: '3', ...L, pattern: 'col_read', step: '0' });
        await page.waitForFunction(() => !!document.getElementById('verdict-line-text'), null, { timeout: t.TIMEOUT });
        const box = await page.$eval('#verdict-line-text', (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, w: r.width }; });
        const v = await text(page, '#verdict-line-text');
        check('27.8: one verdict sentence within the first 1440x900 screen', box.w > 0 && box.bottom <= 900 && box.top >= 0, JSON.stringify(box));
        check(`27.8: it says the API's cost (${a.cost.wavefronts} wavefronts)`, v.includes(`${a.cost.wavefronts} wavefronts`) && /conflict/.test(v), v);
        const presets = (await api('presets', {})).presets;
        const opts = await page.$$eval('#preset option', (os) => os.map((o) => [o.value, o.textContent]));
        check('27.8: preset labels carry their parameters', presets.every((p) => opts.some(([v2, txt]) => v2 === p.id && txt.includes(`<${p.b},${p.m},${p.s}>`))), opts.map((o) => o[1]).join(' | '));
        const d = await api('swizzle', { b: '0', m: '4', s: '3', ...L });
        const sw = await page.$$eval('#legend .maplegend-item', (x) => x.length);
        check('27.8: a colour legend, one swatch per column colour', sw === Math.min(d.grid.cols, 16), `${sw}`);
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 9. the layout page greys the last answer under an error, with a caret ----
    await step('issue 27.9: the layout page under an error', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, base + 'layout.html');
        const good = await page.inputValue('#lay-text');
        const cut = good.lastIndexOf(')');
        const bad = good.slice(0, cut) + good.slice(cut + 1);
        t.setPhase('layout-error');
        await afterLoad(page, () => page.fill('#lay-text', bad));
        const r = await fetch(base + 'api/layout', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ layout: bad, element_bits: Number(await page.inputValue('#lay-bits')) }) });
        const e = (await r.json()).error || {};
        const col = /at column (\d+)/.exec(e.message || '');
        check('27.9: the API names a column', r.status === 400 && !!col, JSON.stringify(e));
        check('27.9: the last good Rosetta, tensor and access are marked stale and greyed', await page.$eval('#lay-results', (x) => x.dataset.stale === '1' && Number(getComputedStyle(x.querySelector('.panel')).opacity) < 0.5));
        const caret = await page.$eval('#lay-caret', (x) => (x.hidden ? null : x.textContent));
        const lines = caret ? caret.split('\n') : [];
        const at = lines.length > 1 ? lines[1].indexOf('^') : -1;
        const lineStart = bad.lastIndexOf('\n', Number(col && col[1]) - 2) + 1;
        check('27.9: a caret under the column the API names', !!caret && at >= 0 && lines[0][at] === bad[Number(col[1]) - 1] && at === Number(col[1]) - 1 - lineStart, JSON.stringify(caret));
        await afterLoad(page, () => page.fill('#lay-text', good));
        t.setPhase('valid');
        check('27.9: fixed again: nothing stale, no caret', await page.$eval('#lay-results', (x) => x.dataset.stale !== '1') && await page.$eval('#lay-caret', (x) => x.hidden));
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- embed: ?embed=1 in a page on another origin, allowed by --embed-origins ----
    await step('issue 27 embed: a view framed by a page on another origin', async () => {
        const http = await import('node:http');
        const hostPort = await t.freePort(), swzPort = await t.freePort();
        const other = `http://127.0.0.1:${hostPort}`;
        const srv2 = await t.startServer(swzPort, ['--embed-origins', other]);
        const frameURL = (b) => `${b}?embed=1&b=3&m=4&s=3&pat=ldmatrix_x4`;
        let target = '';
        const host = http.createServer((req, res) => {
            res.writeHead(200, { 'Content-Type': 'text/html' });
            res.end(`<!doctype html><title>slides</title><h1>Slide 3</h1><iframe id="f" src="${target}" width="1200" height="800"></iframe>`);
        });
        await new Promise((r) => host.listen(hostPort, '127.0.0.1', r));
        const framed = async (b) => {
            target = frameURL(b);
            await page.goto(other + '/', { waitUntil: 'load' });
            await page.waitForTimeout(500);
            const f = page.frames().find((x) => x.url().startsWith(b));
            if (!f) return null;
            try { await f.waitForFunction(() => document.body && document.body.dataset.ready, null, { timeout: 5000 }); } catch { return { ready: false }; }
            return f.evaluate(() => ({ ready: true, embed: document.documentElement.dataset.embed, header: getComputedStyle(document.querySelector('.topbar')).display, side: getComputedStyle(document.querySelector('.sidebar')).display, maps: document.querySelectorAll('#grid-swz canvas').length }));
        };
        try {
            const ok = await framed(srv2.base);
            check('27 embed: the named origin frames the view, without header and sidebar', !!ok && ok.ready && ok.embed === '1' && ok.header === 'none' && ok.side === 'none' && ok.maps > 0, JSON.stringify(ok));
            await t.shot(page, { path: t.SHOTS + '/teach-embed.png' });
            t.setPhase('frame-refused');
            const refused = await framed(base);
            t.setPhase('valid');
            check('27 embed: a server without --embed-origins is not framed', !refused || !refused.ready, JSON.stringify(refused));
        } finally {
            host.close();
            srv2.child.kill('SIGTERM');
        }
    });

    // ---- issue 40.4: ?embed=1&view= shows one panel sized to its frame; a refused frame says why ----
    await step('issue 40.4: one embedded view per frame, and a refused frame that says so', async () => {
        const http = await import('node:http');
        const hostPort = await t.freePort(), swzPort = await t.freePort(), elsePort = await t.freePort();
        const other = `http://127.0.0.1:${hostPort}`;
        const srv2 = await t.startServer(swzPort, ['--embed-origins', other]);
        const srv3 = await t.startServer(elsePort, ['--embed-origins', 'https://slides.example.org']);
        let target = '', fw = 880, fh = 600;
        const host = http.createServer((req, res) => {
            res.writeHead(200, { 'Content-Type': 'text/html' });
            res.end(`<!doctype html><title>slides</title><body style="margin:16px;font:20px sans-serif"><h1 style="margin:0 0 8px">Slide 3: the XOR staircase</h1><iframe id="f" src="${target}" width="${fw}" height="${fh}" style="border:2px solid #888"></iframe></body>`);
        });
        await new Promise((r) => host.listen(hostPort, '127.0.0.1', r));
        const frameOf = async (b) => {
            await page.goto(other + '/', { waitUntil: 'load' });
            for (let i = 0; i < 50; i++) {
                const f = page.frames().find((x) => x.url().startsWith(b));
                if (f) return f;
                await page.waitForTimeout(100);
            }
            return null;
        };
        try {
            await page.setViewportSize({ width: 1440, height: 900 });
            for (const [view, w, h] of [['tiles', 880, 600], ['grid', 880, 600], ['banks', 880, 600], ['access', 880, 600], ['recommend', 880, 600], ['tiles', 480, 360]]) {
                target = `${srv2.base}?embed=1&view=${view}&b=3&m=4&s=3&rows=32&pat=col_read`; fw = w; fh = h;
                const f = await frameOf(srv2.base);
                const ready = f && await f.waitForFunction(() => document.body && document.body.dataset.ready, null, { timeout: 8000 }).then(() => true, () => false);
                if (!check(`40.4 ${view} in ${w}x${h}: the frame loads the page`, !!ready)) continue;
                await page.waitForTimeout(300);
                const got = await f.evaluate((view) => {
                    const shown = [...document.querySelectorAll('main > section, .topbar, .sidebar')].filter((e) => getComputedStyle(e).display !== 'none');
                    const p = document.querySelector(`[data-panel="${view}"]`), r = p.getBoundingClientRect();
                    const cells = (id) => { const v = document.getElementById(id).mapView; return v ? v.drawnCells().length : 0; };
                    const inside = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth; };
                    return { shown: shown.map((e) => e.dataset.panel || e.className), H: innerHeight, W: innerWidth, scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth,
                        top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height),
                        drawn: view === 'tiles' ? cells('tile-swz') : view === 'grid' ? cells('grid-swz') : view === 'banks' ? cells('banks-swz') : view === 'access' ? (document.getElementById('acc-summary').textContent.trim() ? 1 : 0) : (document.getElementById('score-rec').textContent.trim() ? 1 : 0),
                        tileInside: view === 'tiles' ? inside('tile-swz') && inside('tile-plain') : true,
                        // a map that scrolls in its box: the swizzled one starts in the frame, with room to show rows
                        swzShows: ['grid', 'banks'].includes(view) ? document.getElementById(`${view}-swz`).getBoundingClientRect().top < innerHeight - 120 : true };
                }, view);
                check(`40.4 ${view} in ${w}x${h}: that panel alone shows`, got.shown.length === 1 && got.shown[0] === view, got.shown.join(','));
                check(`40.4 ${view} in ${w}x${h}: the page is the frame's size (no scrolling the slide's frame)`, got.scrollH <= got.H + 1 && got.scrollW <= got.W + 1, `page ${got.scrollW}x${got.scrollH} in ${got.W}x${got.H}`);
                check(`40.4 ${view} in ${w}x${h}: the panel fills the frame and shows what it draws`, got.top >= 0 && got.bottom <= got.H + 1 && got.height >= 0.8 * got.H && got.drawn > 0 && got.tileInside && got.swzShows, JSON.stringify(got));
                if (view === 'tiles' && w === 880) await t.shot(page, { path: t.SHOTS + '/embed-tiles-other-origin.png' });
                if (view === 'grid') await t.shot(page, { path: t.SHOTS + '/embed-grid-other-origin.png' });
            }
            // Refused: a server naming another origin, and one naming none.
            t.setPhase('frame-refused');
            for (const [name, b, says] of [['an origin the server does not name', srv3.base, new RegExp(`${other.replace(/[.]/g, '\\.')} is not one of them`)], ['a server without --embed-origins', base, /started without --embed-origins/]]) {
                target = `${b}?embed=1&view=tiles&b=3&m=4&s=3`; fw = 880; fh = 600;
                const f = await frameOf(b);
                const msg = f && await f.waitForSelector('#frame-refused', { timeout: 5000 }).then(() => f.evaluate(() => {
                    const m = document.getElementById('frame-refused'), r = m.getBoundingClientRect();
                    return { text: m.textContent, h: r.height, color: getComputedStyle(m).borderTopColor };
                }), () => null);
                check(`40.4 refused (${name}): the frame shows a message saying why and what to start the server with`, !!msg && says.test(msg.text) && msg.text.includes(`--embed-origins ${other}`) && msg.h > 40, JSON.stringify(msg));
                await t.shot(page, { path: t.SHOTS + `/embed-refused-${b === base ? 'no-flag' : 'other-origin'}.png` });
            }
            // The page itself keeps its refusal for everything but the refused frame.
            const plain = await fetch(srv3.base + '?embed=1', { headers: { 'Sec-Fetch-Dest': 'iframe', Referer: 'https://slides.example.org/deck' } });
            check('40.4: a named origin framing gets the page, its CSP naming only that origin', plain.status === 200 && /frame-ancestors https:\/\/slides\.example\.org;/.test(plain.headers.get('content-security-policy') || ''), `${plain.status} ${plain.headers.get('content-security-policy')}`);
            t.setPhase('valid');
        } finally {
            t.setPhase('valid');
            host.close();
            srv2.child.kill('SIGTERM');
            srv3.child.kill('SIGTERM');
            await page.setViewportSize({ width: 1440, height: 1000 });
        }
    });

    // ---- predict, then reveal ----
    await step('issue 27 predict: the answer hides until a guess', async () => {
        await gotoReady(page, base + '?b=0&m=4&s=3&predict=1');
        const a = await api('access', { b: '0', m: '4', s: '3', ...L, pattern: 'col_read', step: '0' });
        const hidden = (sel) => page.$eval(sel, (e) => { for (let x = e; x; x = x.parentElement) { const cs = getComputedStyle(x); if (cs.visibility === 'hidden' || cs.display === 'none') return true; } return false; });
        await page.waitForFunction(() => document.body.dataset.predict === 'ask', null, { timeout: t.TIMEOUT });
        check('27 predict: verdict, wavefronts, bank-hit chart and the first-screen verdict hidden while asking',
            await hidden('#acc-verdict') && await hidden('#acc-wavefronts') && await hidden('#acc-hits') && await hidden('#verdict-line'), '');
        // issue 40.5: the recommender's "N wavefronts fewer than now" gives the answer away
        await page.waitForFunction(() => document.getElementById('score-rec').textContent.includes('Recommended'), null, { timeout: t.TIMEOUT });
        check('40.5: the recommender (how many wavefronts it saves) hides while asking', await hidden('#score-rec'),
            await page.$eval('#score-rec', (e) => e.textContent.slice(0, 120)));
        await page.fill('#predict-wf', '1');
        await page.fill('#predict-bank', '0');
        await page.click('#predict-reveal');
        await page.waitForFunction(() => document.body.dataset.predict === 'shown', null, { timeout: t.TIMEOUT });
        check('40.5: after the reveal the recommender shows again', !(await hidden('#score-rec')));
        check('27 predict: the reveal shows the guess beside the API\'s answer', (await text(page, '#predict-guess-wf')) === '1' && (await text(page, '#predict-answer-wf')) === String(a.cost.wavefronts) && !(await hidden('#acc-verdict')), `${await text(page, '#predict-answer-wf')}`);
        await t.shot(page, { path: t.SHOTS + '/teach-predict-shown.png' });
        await page.keyboard.press('p');
        await page.waitForFunction(() => document.body.dataset.predict === '', null, { timeout: t.TIMEOUT });
        check('27 predict: the P key turns the mode off (and the URL follows)', !new URL(page.url()).searchParams.has('predict'), page.url());
        // A lesson step marked as a question asks, then reveals.
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?lesson=1&present=1&side=hide');
        await lessonAt(1);
        check('27 predict: a question step of the lesson asks first', (await page.evaluate(() => document.body.dataset.predict)) === 'ask' && await hidden('#lesson-text'));
        check('27 predict: while it asks, the lesson bar says what to do, not an empty space', !(await hidden('#lesson-ask')) && /press Reveal/.test(await text(page, '#lesson-ask')));
        await t.shot(page, { path: t.SHOTS + '/teach-question-ask.png' });
        await page.fill('#predict-wf', '4');
        await page.click('#predict-reveal');
        await page.waitForFunction(() => document.body.dataset.predict === 'shown', null, { timeout: t.TIMEOUT });
        check('27 predict: after the guess the narration shows', !(await hidden('#lesson-text')) && await hidden('#lesson-ask'));
        await page.evaluate(() => document.getElementById('predict').scrollIntoView({ block: 'start' }));
        await t.shot(page, { path: t.SHOTS + '/teach-question-shown.png' });
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- issue 40.1: a clicker reveals a question, then moves on ----
    await step('issue 40.1: a clicker reveals a question before it moves on', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?lesson=4&present=1&side=hide');
        await lessonAt(4);
        await page.waitForFunction(() => document.body.dataset.predict === 'ask', null, { timeout: t.TIMEOUT });
        await t.shot(page, { path: t.SHOTS + '/class-clicker-before.png' });
        await page.keyboard.press('PageDown');          // a clicker, the guess box empty
        await page.waitForFunction(() => document.body.dataset.predict === 'shown', null, { timeout: t.TIMEOUT });
        const shownWf = await page.$eval('#acc-wavefronts', (e) => e.textContent.trim());
        check('40.1: PageDown on an unanswered question reveals it (no guess beside the answer), the step stays', (await page.evaluate(() => document.body.dataset.lesson)) === '4'
            && (await text(page, '#predict-guess-wf')) === 'no guess' && (await text(page, '#predict-answer-wf')) === shownWf && Number(shownWf) > 0,
            `step ${await page.evaluate(() => document.body.dataset.lesson)}, guess ${await text(page, '#predict-guess-wf')}, answer ${await text(page, '#predict-answer-wf')}, access panel ${shownWf}`);
        await t.shot(page, { path: t.SHOTS + '/class-clicker-after.png' });
        await page.keyboard.press('PageDown');
        await lessonAt(5);
        check('40.1: the next PageDown moves on', true);
        await page.keyboard.press('PageUp');
        await lessonAt(4);
        await page.waitForFunction(() => document.body.dataset.predict === 'ask', null, { timeout: t.TIMEOUT });
        await page.fill('#predict-wf', '8');
        await page.keyboard.press('Space');     // typed in the box: Space is the box's, not the clicker's
        check('40.1: Space typed in the guess box neither reveals nor steps', (await page.evaluate(() => [document.body.dataset.lesson, document.body.dataset.predict].join())) === '4,ask');
        await page.focus('#lesson');
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- issue 40.5: the lesson bar covers nothing on a projector ----
    await step('issue 40.5: at 1920x1080 the lesson bar covers neither the subject nor the bank chart', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        for (const k of [3, 4]) {
            await routeReady(page, base + `?lesson=${k}&present=1&side=hide`);
            await lessonAt(k);
            const hit = await page.evaluate(() => {
                const bar = document.getElementById('lesson').getBoundingClientRect();
                const over = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return r.right > bar.left && r.left < bar.right && r.bottom > bar.top && r.top < bar.bottom ? id : ''; };
                return ['acc-summary', 'acc-banks', 'acc-hits'].map(over).filter(Boolean).join(', ');
            });
            check(`40.5: step ${k + 1}: the bar overlaps none of the access summary, the bank chart, the hits`, hit === '', `covered: ${hit}`);
        }
        await t.shot(page, { path: t.SHOTS + '/class-lesson-docked.png' });
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- issue 40.2: a saved step looks at what the teacher looked at ----
    await step('issue 40.2: "Add this view" takes the panel in view and the selected cell', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&sel=1,0&tcol=0');
        await page.evaluate(() => localStorage.removeItem('swizzlescope-lesson-draft'));
        // The teacher scrolls to the staircase and opens the dialog (a click that moves nothing).
        await page.evaluate(() => document.getElementById('tile-swz').scrollIntoView({ block: 'center' }));
        await page.evaluate(() => document.getElementById('lesson-edit').click());
        await page.waitForSelector('#lesson-dialog[open]');
        const chosen = await page.$eval('#le-look', (e) => e.value).catch(() => 'no choice in the dialog');
        check('40.2: the dialog offers what the class looks at, the tiles in view chosen', chosen === 'tiles', chosen);
        check('40.2: it says the step keeps the selected cell and the traced column', /selected cell \(row 1, column 0\).*traced column 0/.test(await text(page, '#le-look-note').catch(() => '')));
        await page.fill('#le-title', 'The staircase');
        await page.fill('#le-text', '{swizzle.name}: row 1 moves.');
        await page.click('#le-add');
        // The teacher picks another panel for the next step.
        await page.selectOption('#le-look', 'banks').catch(() => {});
        await page.fill('#le-title', 'Banks');
        await page.click('#le-add');
        const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('swizzlescope-lesson-draft')).steps.map((s) => ({ state: s.state, look: s.look, focus: s.focus })));
        check('40.2: the saved step looks at the tiles and keeps sel and tcol', saved.length === 2 && saved[0].focus === 'tile-swz' && saved[0].look.includes('tile-swz')
            && /(^|&)sel=1%2C0|(^|&)sel=1,0/.test(saved[0].state) && /(^|&)tcol=0/.test(saved[0].state), JSON.stringify(saved[0]));
        check('40.2: the one the teacher chose looks at the banks', saved.length === 2 && saved[1].focus === 'banks-swz', JSON.stringify(saved[1]));
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.click('#le-play');
        await lessonAt(0);
        await page.waitForFunction(() => /moves/.test(document.getElementById('lesson-text').textContent), null, { timeout: t.TIMEOUT });
        const where = await page.evaluate(() => {
            const r = document.getElementById('tile-swz').getBoundingClientRect(), b = document.getElementById('lesson').getBoundingClientRect();
            const under = r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
            return { top: Math.round(r.top), bottom: Math.round(r.bottom), under, look: document.getElementById('tile-swz').classList.contains('look') || !!document.querySelector('.look #tile-swz, #tile-swz.look') };
        });
        check('40.2: the saved step plays with the swizzled tile in the window, clear of the lesson bar, outlined', where.top >= 0 && where.bottom <= 900 && !where.under && where.look, JSON.stringify(where));
        await t.shot(page, { path: t.SHOTS + '/lesson-own-step-tiles.png' });
        await page.keyboard.press('ArrowRight');
        await lessonAt(1);
        const banks = await page.evaluate(() => { const r = document.getElementById('banks-swz').getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom) }; });
        check('40.2: the next saved step brings the bank map into the window', banks.top >= 0 && banks.top < 900, JSON.stringify(banks));
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- lessons as data: placeholders, add a view, share link, a file ----
    await step('issue 27 lessons: a teacher\'s lesson', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&pat=ldmatrix_x4');
        await page.evaluate(() => localStorage.removeItem('swizzlescope-lesson-draft'));
        await page.click('#lesson-edit');
        await page.fill('#le-title', 'ldmatrix, swizzled');
        await page.fill('#le-text', '{swizzle.name} with {op}: {verdict}, {access.wavefronts} wavefronts.');
        await page.click('#le-add');
        check('27 lessons: "Add this view as a step" adds the view', (await text(page, '#le-count')).startsWith('1 step'), await text(page, '#le-count'));
        await page.click('#le-share');
        const link = await page.inputValue('#le-link');
        check('27 lessons: a share link carries the lesson', /#lesson=[A-Za-z0-9_-]+$/.test(link), link.slice(0, 120));
        await page.click('#le-form button[type=submit]');
        const a = await api('access', { b: '3', m: '4', s: '3', ...L, pattern: 'ldmatrix_x4', step: '0' });
        await page.goto('about:blank');
        await page.goto(link, { waitUntil: 'load' });
        await lessonAt(0);
        const say = await text(page, '#lesson-text');
        check('27 lessons: the link plays the lesson, its placeholders filled from the API', say.startsWith('Swizzle<3,4,3> with ldmatrix') && say.includes(`${a.cost.wavefronts} wavefronts.`) && !/[{}?]/.test(say), say);
        await page.keyboard.press('Escape');
        // A lesson file: a step with a placeholder no answer has shows "?", and the file is checked.
        await gotoReady(page, base);
        await page.click('#lesson-edit');
        const file = { title: 't', steps: [{ title: 'One', state: 'b=1&m=4&s=3&rows=8', text: 'Rows: {swizzle.grid.rows}.' }] };
        await page.setInputFiles('#le-file', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
        await lessonAt(0);
        const d1 = await api('swizzle', { b: '1', m: '4', s: '3', rows: '8', ...L });
        check('27 lessons: a lesson opened from a file plays', (await text(page, '#lesson-text')) === `Rows: ${d1.grid.rows}.` && new URL(page.url()).searchParams.get('b') === '1', await text(page, '#lesson-text'));
        await page.keyboard.press('Escape');
        await page.click('#lesson-edit');
        await page.setInputFiles('#le-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"steps":[{"title":"x"}]}') });
        check('27 lessons: a bad file is refused with the step and field named', /step 1: "text"/.test(await text(page, '#le-error')), await text(page, '#le-error'));
        await page.click('#le-form button[type=submit]');
        await page.goto(base + '?lsrc=lessons/intro.json&lesson=0', { waitUntil: 'load' });
        await lessonAt(0);
        check('27 lessons: ?lsrc= opens a lesson file from a URL', (await page.evaluate(() => document.getElementById('lesson').dataset.steps)) === '10');
        await page.keyboard.press('Escape');
    });

    // ---- the printed handout ----
    await step('issue 27 print: a handout page per view', async () => {
        await gotoReady(page, base + '?b=3&m=4&s=3&lesson=5');
        await lessonAt(5);
        await page.emulateMedia({ media: 'print' });
        const shown = (sel) => page.$eval(sel, (e) => { for (let x = e; x; x = x.parentElement) if (getComputedStyle(x).display === 'none') return false; return true; });
        check('27 print: no form controls, no header', !(await shown('#controls')) && !(await shown('.topbar')) && !(await shown('#acc-pattern')));
        check('27 print: the state, the map, the verdict and the narration', await shown('#readout') && await shown('#grid-swz') && await shown('#verdict-line') && await shown('#lesson-text'));
        await page.emulateMedia({ media: null });   // page.pdf() prints with print media unless told screen
        const pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true });
        const fs = await import('node:fs');
        fs.writeFileSync(t.SHOTS + '/teach-handout.pdf', pdf);
        const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
        check('27 print: the step prints on one A4 page (was 11)', pages === 1, `${pages} pages`);
        await page.keyboard.press('Escape');
    });

    // ---- screenshots for the eye (build/screenshots/teach-*.png) ----
    // Pictures for people to look at, no check: taken with SWZ_SHOTS=1 only.
    if (process.env.SWZ_SHOTS) await step('issue 27 screenshots', async () => {
        const shots = [['present-light', 1920, 1080, '?present=1&b=4&m=2&s=5&rows=16&elem=fp32&pat=transpose_read'],
            ['present-dark', 1920, 1080, '?present=1&theme=dark&b=4&m=2&s=5&rows=16&elem=fp32&pat=transpose_read'],
            ['1440', 1440, 900, '?b=3&m=4&s=3'], ['390', 390, 844, '?b=3&m=4&s=3']];
        for (const [name, w, h, q] of shots) {
            await page.setViewportSize({ width: w, height: h });
            await gotoReady(page, base + q);
            await t.shot(page, { path: `${t.SHOTS}/teach-${name}.png` });
        }
        await page.setViewportSize({ width: 1440, height: 1000 });
    });
}
