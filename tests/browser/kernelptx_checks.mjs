// kernelptx_checks.mjs - browser checks of the kernel page's PTX and CUDA modes
// (static/kernel.html?mode=ptx|cuda, issue 38.4) and of issue 40.6 for it:
// the corpus transpose_naive through the page shows POST /api/ptx's totals and
// lines, most excess first; its costliest line in the bank chart and on the
// swizzle page; a malformed PTX's caret; CUDA compiled (or nvcc's absence in words); 390 px wide
// with no sideways scroll; every page's header links to the kernel page; the
// costliest line's tile fixed by the recommender (GET /api/recommend's answer).
// "Measure on GPU" (POST /api/ptx/measure): without a GPU the route's refusal in
// words; with a fake tool replaying the H200's answer for transpose_naive
// (tests/data/ptx/measure_replay), the measured counts beside the predicted
// ones, each line and kind marked equal; a launch that differs, each flagged.
// Screenshots (build/screenshots/): kernelptx-1440.png, -1440-line, -390, -390-lines,
// -error, -cuda, -swizzle (the link's page), -dark-present, -measured, -measured-differ.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

const nums = (s) => String(s).trim();

export async function kernelptxChecks(t) {
    const { page, base, ROOT, check, step, gotoReady, text, SHOTS, setPhase } = t;
    const corpus = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/data/ptx/corpus.json'), 'utf8'));
    const tn = corpus.find((c) => c.name === 'transpose_naive');
    const ptxText = fs.readFileSync(path.join(ROOT, 'tests/data/ptx', tn.ptx), 'utf8');
    const { body: a } = await postJSON(base + 'api/ptx', {
        ptx: ptxText, kernel: tn.kernel, block: tn.block, grid: tn.grid, params: tn.params, dynamic_shared: tn.dynamic_shared,
    });

    await step('kernelptx: the corpus transpose_naive analysed through the page', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive');
        check('kernelptx: the example is the corpus PTX, verbatim', (await page.inputValue('#kp-text')) === ptxText);
        const fields = await page.evaluate(() => ({
            block: ['kp-bx', 'kp-by', 'kp-bz'].map((i) => document.getElementById(i).value),
            grid: ['kp-gx', 'kp-gy', 'kp-gz'].map((i) => document.getElementById(i).value),
            params: [...document.querySelectorAll('.kp-param')].map((i) => i.value),
            labels: [...document.querySelectorAll('#kp-params label code')].map((c) => c.textContent),
        }));
        check('kernelptx: one launch field per parameter of the entry, named as declared',
            fields.labels.length === 3 && fields.labels[2] === '_Z15transpose_naivePfPKfi_param_2' &&
            JSON.stringify(fields.params) === JSON.stringify(tn.params.map((p) => (p === null ? 'null' : String(p)))), JSON.stringify(fields));
        check('kernelptx: block and grid fields hold the corpus launch',
            fields.block.join(',') === tn.block.join(',') && fields.grid.join(',') === tn.grid.join(','), JSON.stringify(fields));
        const totals = await page.$$eval('#kp-totals tbody tr', (trs) => trs.map((tr) => [tr.dataset.kind, ...[...tr.cells].slice(1).map((c) => c.textContent)]));
        const want = Object.entries(a.totals).map(([k, v]) => [k, v.executions, v.wavefronts, v.ideal, v.excess].map(nums));
        check('kernelptx: totals per kind are the route\'s', JSON.stringify(totals) === JSON.stringify(want), `${JSON.stringify(totals)} vs ${JSON.stringify(want)}`);
        const st = await text(page, '#kp-state');
        check('kernelptx: the exact state is said', a.exact === true && /^Exact/.test(st), st);
        const assume = await text(page, '#kp-assume');
        check('kernelptx: the assumptions are listed (none here, said in words)', a.assumptions.length === 0 && /None/.test(assume), assume);
        const rows = await page.$$eval('#kp-lines tbody tr', (trs) => trs.map((tr) => ({ key: tr.dataset.key, hot: tr.classList.contains('hot'), cells: [...tr.cells].map((c) => c.textContent) })));
        const ex = rows.map((r) => Number(r.cells[6]));
        check('kernelptx: one row per line of the route', rows.length === a.lines.length, `${rows.length} vs ${a.lines.length}`);
        check('kernelptx: lines sorted by excess', ex.every((v, i) => i === 0 || ex[i - 1] >= v) && ex[0] === Math.max(...a.lines.map((l) => l.excess)), JSON.stringify(ex));
        const top = a.lines.reduce((m, l) => (l.excess > m.excess ? l : m));
        check('kernelptx: the costliest line first, marked, with the route\'s numbers',
            rows[0].hot && rows[0].cells[0].trim().endsWith(` transpose_naive.cu:${top.line}`) &&
            rows[0].cells.slice(3).join('|') === [top.executions, top.wavefronts, top.ideal, top.excess].join('|') && !rows[1].hot, JSON.stringify(rows));
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-1440.png'), fullPage: true });

        // A click on the costliest line: its worst warp instruction in the bank chart.
        await page.click('#kp-lines tbody tr:nth-child(2)');
        await page.click('#kp-lines tbody tr:first-child');
        await page.waitForFunction(() => document.querySelectorAll('#kp-banks svg g.chip').length > 0 && !document.getElementById('kp-detail').hidden, null, { timeout: 15000 });
        await t.settled(page);
        const worst = a.instructions.filter((i) => i.line === top.line && i.kind === top.kind)
            .reduce((m, i) => (i.worst.wavefronts - i.worst.ideal > m.worst.wavefronts - m.worst.ideal ? i : m));
        const lanes = await page.$$eval('#kp-banks svg g.chip', (gs) => gs.flatMap((g) => g.dataset.lanes.split(', ').map(Number)));
        check('kernelptx: the costliest line\'s worst access shows 32 lanes in the bank chart',
            new Set(lanes).size === 32 && Math.max(...lanes) === 31, `${lanes.length}: ${lanes.join(' ')}`);
        const banks = await page.$$eval('#kp-banks svg g.chip', (gs) => gs.map((g) => [g.dataset.lanes, Number(g.dataset.bank)]));
        check('kernelptx: each lane on the route\'s bank', banks.every(([ls, b]) => ls.split(', ').every((l) => worst.worst.banks[Number(l)] === b)), JSON.stringify(banks.slice(0, 4)));
        const wf = await page.$eval('#kp-verdict', (e) => Number(e.dataset.wavefronts || -1));
        check('kernelptx: the verdict is the route\'s worst wavefronts', wf === worst.worst.wavefronts, `${wf} vs ${worst.worst.wavefronts}`);
        check('kernelptx: the selected line is in the URL', new URL(page.url()).searchParams.get('line') === `${top.file}:${top.line}:${top.kind}`, page.url());
        // issue 38.4's fix: the column read is the recommender's col_read of a row_store tile
        const tile = a.tiles.find((x) => x.line === top.line && x.kind === top.kind);
        check('kernelptx: the route names the costliest line\'s tile as the recommender\'s pair', tile && tile.write === 'row_store' && tile.read === 'col_read' && tile.rows === 32, JSON.stringify(a.tiles));
        await page.waitForFunction(() => document.getElementById('kp-fix').dataset.name, null, { timeout: 30000 });
        const rec = await (await fetch(base + 'api/recommend?' + new URLSearchParams({ b: '0', m: '4', s: '3', rows: '32', bank_bytes: '4', banks: '32', match_bank_row: '1', write: 'row_store', read: 'col_read', fit: '1' }))).json();
        const fixText = await text(page, '#kp-fix');
        const href = new URL(await page.$eval('#kp-fix-link', (x) => x.href));
        check('kernelptx: the line offers the recommender\'s fix: its swizzle, its cost against the kernel\'s, from GET /api/recommend',
            fixText.includes(rec.recommended.name) && fixText.includes(`${rec.recommended.saves_wavefronts} fewer`) &&
            fixText.includes(`${rec.recommended.write_total.wavefronts} + ${rec.recommended.read_total.wavefronts} wavefronts a tile`), fixText);
        check('kernelptx: the fix opens on the swizzle page with its B, M, S and the tile\'s write and read',
            href.pathname.endsWith('/index.html') && href.searchParams.get('b') === String(rec.recommended.b) && href.searchParams.get('m') === String(rec.recommended.m) &&
            href.searchParams.get('s') === String(rec.recommended.s) && href.searchParams.get('rows') === '32' &&
            // row_store and col_read are the swizzle page's own defaults: its URL writer leaves them out
            (href.searchParams.get('wr') ?? 'row_store') === 'row_store' && (href.searchParams.get('rd') ?? 'col_read') === 'col_read', href.search);
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-1440-line.png'), fullPage: true });

        // One click: the swizzle page with those 32 offsets as its custom offsets.
        await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#kp-swz')]);
        await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 15000 });
        const u = new URL(page.url());
        const offs = (u.searchParams.get('offs') || '').split(',').map(Number);
        check('kernelptx: the link opens index.html with the same 32 offsets as custom offsets',
            u.pathname.endsWith('/index.html') && u.searchParams.get('acc') === 'custom' && JSON.stringify(offs) === JSON.stringify(worst.worst.offsets), page.url());
        await t.settled(page);
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-swizzle.png') });
        const typed = await page.inputValue('#acc-offsets').catch(() => '');
        check('kernelptx: the swizzle page\'s offsets box holds them', typed.split(/[\s,]+/).filter(Boolean).map(Number).join(',') === worst.worst.offsets.join(','), typed.slice(0, 80));
    });

    await step('kernelptx: "Measure on GPU" without a GPU says why', async () => {
        setPhase('kernelptx-measure');
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive');
        const { status, body: e } = await postJSON(base + 'api/ptx/measure', {
            ptx: ptxText, kernel: tn.kernel, block: tn.block, grid: tn.grid, params: tn.params, dynamic_shared: 0 });
        const b = Number(await page.evaluate(() => document.body.dataset.ready));
        await page.click('#kp-measure');
        await page.waitForFunction((x) => Number(document.body.dataset.ready) > x, b, { timeout: 30000 });
        const st = await text(page, '#kp-measure-state');
        check('kernelptx: the route refuses with 503 here (no GPU), and the page says its reason',
            status === 503 && e.error.code === 'gpu_unavailable' && st === `Not measured (503): ${e.error.message}` &&
            await page.$eval('#kp-measure-state', (x) => x.classList.contains('bad')), `${status} ${st}`);
        const heads = await page.$$eval('#kp-lines thead th', (ths) => ths.length);
        check('kernelptx: no measured columns without a measurement', heads === 7, `${heads}`);
        setPhase('valid');
    });

    await step('kernelptx: "Measure on GPU" shows measured beside predicted (the H200\'s answer replayed)', async () => {
        const replay = path.join(ROOT, 'tests/data/ptx/measure_replay/transpose_naive.json');
        const tm = JSON.parse(fs.readFileSync(replay, 'utf8'));
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-ptxm-'));
        const tool = path.join(dir, 'fake-measure.sh');
        fs.writeFileSync(tool, '#!/bin/sh\nif [ "$1" = --info ]; then echo \'{"ok":true,"device":{"name":"NVIDIA H200","cc":"9.0"}}\'; exit 0; fi\n' +
            `cat '${replay}'\n`, { mode: 0o755 });
        let srv = null, page2 = null;
        try {
            srv = await t.startServer(await t.freePort(), ['--measure-tool', tool]);
            page2 = await t.ctx.newPage();
            page2.setDefaultTimeout(t.TIMEOUT);
            t.watch(page2);
            await page2.setViewportSize({ width: 1440, height: 900 });
            await gotoReady(page2, srv.base + 'kernel.html?mode=ptx&ex=transpose_naive');
            const b = Number(await page2.evaluate(() => document.body.dataset.ready));
            await page2.click('#kp-measure');
            await page2.waitForFunction((x) => Number(document.body.dataset.ready) > x, b, { timeout: 30000 });
            const rows = await page2.$$eval('#kp-lines tbody tr', (trs) => trs.map((tr) => ({ key: tr.dataset.key, cls: tr.className, cells: [...tr.cells].map((c) => c.textContent.trim()) })));
            const want = (r) => tm.lines.find((l) => r.key === `${l.file}:${l.line}:${l.kind}`);
            check('kernelptx: each line shows the GPU\'s executions, wavefronts and ideal beside the prediction, marked equal',
                rows.length === 2 && rows.every((r) => { const m = want(r); return m && r.cells.slice(7, 10).join('|') === [m.executions, m.wavefronts, m.ideal].join('|') && r.cells[10] === '= equal' && /kp-agree/.test(r.cls) && r.cells.slice(4, 6).join('|') === [m.wavefronts, m.ideal].join('|'); }),
                JSON.stringify(rows));
            const kinds = await page2.$$eval('#kp-totals tbody tr', (trs) => trs.map((tr) => [tr.dataset.kind, ...[...tr.cells].slice(5).map((c) => c.textContent.trim())]));
            check('kernelptx: each kind\'s totals measured beside predicted, equal',
                JSON.stringify(kinds) === JSON.stringify(Object.keys(a.totals).map((k) => [k, String(tm.totals[k].executions), String(tm.totals[k].wavefronts), String(tm.totals[k].ideal), '= equal'])), JSON.stringify(kinds));
            const st = await text(page2, '#kp-measure-state');
            check('kernelptx: the measurement in a sentence, on the device', st === 'Measured on NVIDIA H200: every kind (2) and all 2 lines equal the prediction.', st);
            await t.shot(page2, { path: path.join(SHOTS, 'kernelptx-measured.png'), fullPage: true });

            // One block instead of the four the GPU ran: every line flagged.
            await page2.fill('#kp-gx', '1');
            await page2.fill('#kp-gy', '1');
            const b2 = Number(await page2.evaluate(() => document.body.dataset.ready));
            await page2.click('#kp-run');
            await page2.waitForFunction((x) => Number(document.body.dataset.ready) > x, b2, { timeout: 15000 });
            check('kernelptx: a new analysis drops the old measurement', (await page2.$$eval('#kp-lines thead th', (ths) => ths.length)) === 7 &&
                (await text(page2, '#kp-measure-state')) === '');
            const b3 = Number(await page2.evaluate(() => document.body.dataset.ready));
            await page2.click('#kp-measure');
            await page2.waitForFunction((x) => Number(document.body.dataset.ready) > x, b3, { timeout: 30000 });
            const diff = await page2.$$eval('#kp-lines tbody tr', (trs) => trs.map((tr) => ({ cls: tr.className, cells: [...tr.cells].map((c) => c.textContent.trim()) })));
            check('kernelptx: lines that differ are flagged, with both numbers',
                diff.length === 2 && diff.every((r) => /kp-differ/.test(r.cls) && r.cells[10] === '\u2260 differs' && r.cells[4] !== r.cells[8]), JSON.stringify(diff));
            const st2 = await text(page2, '#kp-measure-state');
            check('kernelptx: the sentence says how much differs', st2 === 'Measured on NVIDIA H200: 2 of 2 lines and 2 of 2 kinds differ from the prediction.' &&
                await page2.$eval('#kp-measure-state', (x) => x.classList.contains('bad')), st2);
            await t.shot(page2, { path: path.join(SHOTS, 'kernelptx-measured-differ.png'), fullPage: true });
        } finally {
            if (page2) await page2.close().catch(() => {});
            if (srv) srv.child.kill('SIGTERM');
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    await step('kernelptx: an example with an assumption lists it in words', async () => {
        const c = corpus.find((x) => x.name === 'reduce_interleaved');
        const src = fs.readFileSync(path.join(ROOT, 'tests/data/ptx', c.ptx), 'utf8');
        const { body: r } = await postJSON(base + 'api/ptx', { ptx: src, block: c.block, grid: c.grid, params: c.params, dynamic_shared: c.dynamic_shared });
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=reduce_interleaved');
        const items = await page.$$eval('#kp-assume li', (ls) => ls.map((l) => l.textContent));
        const want = [...r.unsure, ...r.assumptions];
        check('kernelptx: every assumption and unsure point of the route listed, with its PTX line',
            want.length > 0 && items.length === want.length && want.every((n, i) => items[i].includes(`PTX line ${n.ptx_line}`) && items[i].includes(n.text)), JSON.stringify(items).slice(0, 200));
        const tot = await page.$$eval('#kp-totals tbody tr', (trs) => trs.map((tr) => [tr.dataset.kind, ...[...tr.cells].slice(1).map((x) => x.textContent)]));
        check('kernelptx: its totals are the route\'s', JSON.stringify(tot) === JSON.stringify(Object.entries(r.totals).map(([k, v]) => [k, v.executions, v.wavefronts, v.ideal, v.excess].map(String))), JSON.stringify(tot));
    });

    await step('kernelptx: a module of two entries gets a kernel menu, and the one chosen is analysed', async () => {
        const start = ptxText.indexOf('.visible .entry'), end = ptxText.lastIndexOf('}') + 1;
        const second = ptxText.slice(start, end).replaceAll('_Z15transpose_naivePfPKfi', '_Z6secondPfPKfi');
        const two = ptxText.slice(0, end) + '\n\n' + second + ptxText.slice(end);
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive');
        await page.fill('#kp-text', two);
        await page.$eval('#kp-text', (e) => e.dispatchEvent(new Event('change')));
        const opts = await page.$$eval('#kp-kernel option', (os) => os.map((o) => o.value));
        check('kernelptx: the menu lists both entries', !(await page.$eval('#kp-kernel', (e) => e.hidden)) &&
            JSON.stringify(opts) === JSON.stringify(['_Z15transpose_naivePfPKfi', '_Z6secondPfPKfi']), JSON.stringify(opts));
        await page.selectOption('#kp-kernel', '_Z6secondPfPKfi');
        const labels = await page.$$eval('#kp-params label code', (cs) => cs.map((c) => c.textContent));
        check('kernelptx: the parameter fields are the chosen entry\'s', labels[0] === '_Z6secondPfPKfi_param_0' && labels.length === 3, JSON.stringify(labels));
        await page.fill('#kp-p2', '64');
        const b = Number(await page.evaluate(() => document.body.dataset.ready));
        await page.click('#kp-run');
        await page.waitForFunction((x) => Number(document.body.dataset.ready) > x, b, { timeout: 15000 });
        const title = await text(page, '#kp-title');
        check('kernelptx: the chosen entry is analysed, and in the URL', title.startsWith('_Z6secondPfPKfi:') && new URL(page.url()).searchParams.get('kernel') === '_Z6secondPfPKfi', title + ' ' + page.url().slice(0, 160));
    });

    await step('kernelptx: 390 px wide, no sideways scroll', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive');
        const sw = await page.evaluate(() => document.documentElement.scrollWidth);
        check('kernelptx: at 390x844 the page is no wider than the screen', sw <= 390, `scrollWidth ${sw}`);
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-390.png'), fullPage: true });
        await t.shot((await page.$('#kp-lines-panel')), { path: path.join(SHOTS, 'kernelptx-390-lines.png') });
        await gotoReady(page, base + 'kernel.html?ex=operand');
        const tw = await page.evaluate(() => document.documentElement.scrollWidth);
        check('kernelptx: at 390x844 the TTGIR mode is no wider than the screen either', tw <= 390, `scrollWidth ${tw}`);
        // issue 40.6: the layout page too (978 px wide before: its 380 px form column beside the results)
        await gotoReady(page, base + 'layout.html');
        const lw = await page.evaluate(() => document.documentElement.scrollWidth);
        await t.shot(page, { path: path.join(SHOTS, 'layout-390.png') });
        check('40.6: at 390x844 the layout page is no wider than the screen', lw <= 390, `scrollWidth ${lw}`);
        await page.setViewportSize({ width: 1440, height: 900 });
    });

    await step('kernelptx: a malformed PTX shows the route\'s error with its caret', async () => {
        setPhase('kernelptx-error');
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive');
        const bad = ptxText.replace('ld.shared.f32 \t%f5, [%r22];', 'ld.shared.f32 \t%f5, , [%r22];');
        const { status, body: e } = await postJSON(base + 'api/ptx', { ptx: bad, kernel: tn.kernel, block: tn.block, grid: tn.grid, params: tn.params, dynamic_shared: 0 });
        await page.fill('#kp-text', bad);
        const before = Number(await page.evaluate(() => document.body.dataset.ready));
        await page.click('#kp-run');
        await page.waitForFunction((b) => Number(document.body.dataset.ready) > b, before, { timeout: 15000 });
        const msg = await text(page, '#kp-error-text');
        const caret = await page.$eval('#kp-caret', (p) => (p.hidden ? '' : p.textContent));
        const [, lineText, mark] = caret.split('\n');
        const badLine = bad.split('\n')[e.error.at.line - 1];
        check('kernelptx: the route refused it with an `at`', status === 400 && e.error.at && e.error.field === 'ptx', JSON.stringify(e));
        check('kernelptx: the error in words', msg.includes(e.error.message) && /PTX/.test(msg), msg);
        check('kernelptx: the caret under the route\'s column of the route\'s line',
            lineText === badLine && mark.length === e.error.at.column && mark.endsWith('^'), JSON.stringify(caret));
        check('kernelptx: no stale results beside the error', await page.$eval('#kp-lines-panel', (p) => p.hidden));
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-error.png') });
        check('kernelptx: the text box the route blamed is marked', await page.$eval('#kp-text', (e) => e.classList.contains('invalid')));
        // A launch field the route blames: named and marked.
        await page.fill('#kp-text', ptxText);
        await page.fill('#kp-p2', 'x');
        const b2 = Number(await page.evaluate(() => document.body.dataset.ready));
        await page.click('#kp-run');
        await page.waitForFunction((b) => Number(document.body.dataset.ready) > b, b2, { timeout: 15000 });
        const m2 = await text(page, '#kp-error-text');
        check('kernelptx: a bad parameter is named and its field marked',
            /params\[2\]/.test(m2) && await page.$eval('#kp-p2', (e) => e.classList.contains('invalid')) &&
            !(await page.$eval('#kp-text', (e) => e.classList.contains('invalid'))), m2);
        setPhase('valid');
    });

    await step('kernelptx: CUDA mode compiles with the server\'s nvcc, each line beside its source', async () => {
        setPhase('kernelptx-error');     // without nvcc the route's 503 is the expected answer
        const req = page.waitForRequest((r) => r.url().endsWith('/api/ptx') && r.method() === 'POST', { timeout: 30000 });
        await gotoReady(page, base + 'kernel.html?mode=cuda&ex=transpose_naive');
        const sent = JSON.parse((await req).postData());
        await page.waitForFunction(() => !document.getElementById('kp-error').hidden || !document.getElementById('kp-lines-panel').hidden, null, { timeout: 30000 });
        const src = await page.inputValue('#kp-text');
        check('kernelptx: CUDA mode offers the CUDA source, and sends it as "cuda"', /__global__ void transpose_naive/.test(src) && sent.cuda === src && !('ptx' in sent), src.slice(0, 80));
        const fields = await page.$$eval('#kp-params label', (ls) => ls.map((l) => [l.querySelector('code').textContent, l.querySelector('.kp-type').textContent]));
        check('kernelptx: CUDA mode builds one field per parameter of the __global__ signature, named and typed as declared',
            JSON.stringify(fields) === JSON.stringify([['out', 'float *'], ['in', 'const float *'], ['n', 'int']]) &&
            JSON.stringify(sent.params) === JSON.stringify(tn.params), JSON.stringify(fields));
        const r = await postJSON(base + 'api/ptx', sent);
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-cuda.png') });
        if (r.status === 503) {
            const msg = await text(page, '#kp-error-text');
            check('kernelptx: without nvcc, the route\'s refusal in words', !(await page.$eval('#kp-error', (d) => d.hidden)) && msg.includes(r.body.error.message) && /install/.test(msg), msg);
        } else {
            const totals = await page.$$eval('#kp-totals tbody tr', (trs) => trs.map((tr) => [tr.dataset.kind, ...[...tr.cells].slice(1).map((c) => c.textContent)]));
            const want = Object.entries(r.body.totals || {}).map(([k, v]) => [k, v.executions, v.wavefronts, v.ideal, v.excess].map(nums));
            check('kernelptx: compiled, the totals per kind are the route\'s', r.status === 200 && want.length > 0 && JSON.stringify(totals) === JSON.stringify(want), `${r.status} ${JSON.stringify(totals)} vs ${JSON.stringify(want)}`);
            const cells = await page.$$eval('#kp-lines tbody tr td.kp-src code', (cs) => cs.map((c) => c.textContent));
            const lines = src.split('\n');
            const shown = r.body.lines.filter((l) => l.file === 'kernel.cu').map((l) => lines[l.line - 1]);
            check('kernelptx: each kernel.cu line shows its source text', cells.length > 0 && cells.every((c) => shown.includes(c)), JSON.stringify(cells.slice(0, 3)));
        }
        setPhase('valid');
    });

    await step('kernelptx: CUDA text with two kernels: a menu, the chosen one\'s fields, before anything compiles', async () => {
        await gotoReady(page, base + 'kernel.html?mode=cuda&ex=transpose_naive');
        const src = await page.inputValue('#kp-text');
        await page.fill('#kp-text', src + '\n__global__ void scale(float *out, float k, unsigned n)\n{\n    out[threadIdx.x] *= k;\n}\n');
        await page.$eval('#kp-text', (e) => e.dispatchEvent(new Event('change')));
        const opts = await page.$$eval('#kp-kernel option', (os) => os.map((o) => o.value));
        check('kernelptx: the menu lists both __global__ functions by their names', !(await page.$eval('#kp-kernel', (e) => e.hidden)) &&
            JSON.stringify(opts) === JSON.stringify(['transpose_naive', 'scale']), JSON.stringify(opts));
        await page.selectOption('#kp-kernel', 'scale');
        const f = await page.$$eval('#kp-params label', (ls) => ls.map((l) => l.textContent.trim()));
        const vals = await page.$$eval('.kp-param', (is) => is.map((i) => i.value));
        check('kernelptx: the fields are scale\'s, a pointer defaulting to its own buffer',
            JSON.stringify(f) === JSON.stringify(['out float *', 'k float', 'n unsigned']) && JSON.stringify(vals) === JSON.stringify(['null', '0', '0']), JSON.stringify([f, vals]));
    });

    await step('kernelptx: every page\'s header links to the kernel page', async () => {
        const pages = ['index.html', 'layout.html', 'linear.html', 'kernel.html'];
        for (const p of pages) {
            await t.settled(page);
            await page.goto(base + p, { waitUntil: 'load' });
            // each page drawn (its requests done) before the next navigation
            await page.waitForFunction((k) => document.body.dataset[k], p === 'linear.html' ? 'linearReady' : 'ready', { timeout: 15000 });
            await t.settled(page);
            // issue 40.6: every page reachable from every page's header
            const hrefs = await page.$$eval('header a[href]', (as) => as.map((a) => a.getAttribute('href').split('?')[0]));
            const missing = pages.filter((q) => q !== p && !hrefs.includes(q));
            check(`40.6: ${p}'s header links to every other page`, missing.length === 0, `missing ${missing.join(', ')}`);
        }
        await t.settled(page);
        await gotoReady(page, base + 'kernel.html?mode=ptx&ex=transpose_naive&theme=dark&present=1');
        const d = await page.evaluate(() => ({ ...document.documentElement.dataset }));
        await t.shot(page, { path: path.join(SHOTS, 'kernelptx-dark-present.png') });
        check('kernelptx: ?theme= and ?present= apply', d.theme === 'dark' && d.present === '1', JSON.stringify(d));
        check('kernelptx: they stay in the URL it writes', /theme=dark/.test(page.url()) && /present=1/.test(page.url()) && /mode=ptx/.test(page.url()), page.url());
    });
}
