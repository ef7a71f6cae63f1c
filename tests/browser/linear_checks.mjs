// linear_checks.mjs - browser checks of the F2 workbench (static/linear.html):
// seed 001's story on the page (16 -> 2 -> 1 load wavefronts as row bits fold
// into column bits, the store always 1), "Optimal" giving offset = 32m + (n ^ 2m),
// every number against /api/linear, the URL as the view, back, a typed layout
// the page cannot read, AMD's published rules named with their source, and the
// bank view: a layout with no CuTe form (the mma preset's optimum) drawn by
// bank with each side's instruction outlined as the API answers it, and its
// "open in the access page" links giving the same wavefronts there, for every
// NVIDIA preset.

import path from 'node:path';
import { PRESETS, HARDWARE, evaluateBody, fromPreset, withOptimum } from '../../static/js/kit/linearstate.js';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

const SEED = {
    shape: [16, 32], bitwidth: 32, num_banks: 32, lanes_per_wavefront: 32,
    A: { register: [[1, 0], [2, 0], [4, 0], [8, 0]], lane: [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp: [] },
    B: { register: [[0, 2], [0, 4], [0, 8], [0, 16]], lane: [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1]], warp: [] },
};
// offset(m, n) = 32 m + (n ^ mask(m)) as offset bases: bit j < 5 holds (0, 2^j),
// bit 5 + i holds (2^i, mask_i).
const foldBases = (masks) => [0, 1, 2, 3, 4].map((j) => [0, 1 << j]).concat(masks.map((c, i) => [1 << i, c]));

export async function linearChecks(t) {
    const { page, base, check, step, SHOTS, TIMEOUT } = t;
    const ready = () => page.evaluate(() => Number(document.body.dataset.linearReady || 0));
    // Run `act` and wait until the page has drawn the view it leads to.
    const drawn = async (act) => {
        const before = await ready();
        await act();
        await page.waitForFunction((n) => Number(document.body.dataset.linearReady || 0) > n && document.body.dataset.inflight === '0', before, { timeout: TIMEOUT });
    };
    const wf = (side) => page.$eval(`.lin-verdict[data-side="${side}"] .lin-wf`, (e) => Number(e.dataset.wf));
    const toggle = (i, j) => drawn(() => page.click(`#lin-toggles button[data-i="${i}"][data-j="${j}"]`));
    const fold = () => new URL(page.url()).searchParams.get('fold');
    // Open the workbench on `query`; the API's evaluate answer for `state`, the view it should show.
    // A workbench already open goes there by its router (linear.js follows popstate; issue 37).
    const openView = async (query, state) => {
        if (/\/linear\.html$/.test(new URL(page.url()).pathname)) await t.route(page, 'linear.html?' + query, 'linearReady');
        else {
            await page.goto(base + 'linear.html?' + query);
            await page.waitForFunction(() => Number(document.body.dataset.linearReady || 0) >= 1 && document.body.dataset.inflight === '0', null, { timeout: TIMEOUT });
        }
        return (await postJSON(base + 'api/linear/evaluate', evaluateBody(state))).body;
    };

    await step('workbench: the seed', async () => {
        await page.goto(base + 'linear.html');
        await page.waitForFunction(() => Number(document.body.dataset.linearReady || 0) >= 1 && document.body.dataset.inflight === '0', null, { timeout: TIMEOUT });
        check('workbench: opens on the seed preset, in the URL', new URL(page.url()).searchParams.get('p') === 'seed', page.url());
        const api = (await postJSON(base + 'api/linear/evaluate', { ...SEED, vec: 1, swizzle_offset_bases: foldBases([0, 0, 0, 0]) })).body;
        check('workbench: row-major load is 16 wavefronts, store 1 (as the API says)',
            (await wf('ld')) === 16 && (await wf('st')) === 1 && api.load.wavefronts_per_instruction === 16 && api.store.wavefronts_per_instruction === 1,
            `${await wf('ld')} / ${await wf('st')}`);
        check('workbench: the algebra shows 2^dim = 16 beside 16 simulated',
            (await page.$eval('.lin-alg[data-side="ld"] .lin-ways', (e) => e.dataset.ways)) === String(api.load.formula.ways) &&
            (await page.$eval('.lin-alg[data-side="ld"] .lin-formula', (e) => e.textContent)) === '16');
        const toggles = await page.$$eval('#lin-toggles button[data-i]', (b) => b.length);
        check('workbench: a toggle grid of 4 row bits x 5 column bits', toggles === 20, `${toggles}`);
    });

    await step('workbench: XOR m, then XOR 2m', async () => {
        for (let i = 0; i < 4; i++) await toggle(i, i);
        check('workbench: XOR m in the URL', fold() === '1,2,4,8', page.url());
        check('workbench: XOR m reads 2 wavefronts, the store still 1', (await wf('ld')) === 2 && (await wf('st')) === 1, `${await wf('ld')}`);
        const inter = await page.$eval('.lin-alg[data-side="ld"] .lin-inter', (e) => e.textContent);
        check('workbench: the surviving direction is m0 \u2295 n0', inter.startsWith('m0\u2295n0'), inter);
        await drawn(() => page.click('#lin-rowmajor'));
        check('workbench: row-major again: 16', (await wf('ld')) === 16 && !fold(), page.url());
        for (let i = 0; i < 4; i++) await toggle(i, i + 1);
        check('workbench: XOR 2m reads 1 wavefront, the store 1', (await wf('ld')) === 1 && (await wf('st')) === 1 && fold() === '2,4,8,16', `${await wf('ld')} ${page.url()}`);
        const api = (await postJSON(base + 'api/linear/evaluate', { ...SEED, vec: 1, swizzle_offset_bases: foldBases([2, 4, 8, 16]) })).body;
        check('workbench: XOR 2m as the API answers it', api.load.wavefronts_per_instruction === 1);
        await page.goBack();
        await page.waitForFunction(() => new URL(location.href).searchParams.get('fold') === '2,4,8,0', null, { timeout: TIMEOUT });
        await page.waitForFunction(() => document.body.dataset.inflight === '0' && document.querySelector('#lin-toggles button[data-i="3"][data-j="4"]')?.getAttribute('aria-pressed') === 'false', null, { timeout: TIMEOUT });
        check('workbench: back undoes the last toggle', (await wf('ld')) === 2, `${await wf('ld')}`);
    });

    await step('workbench: optimal', async () => {
        await drawn(() => page.click('#lin-rowmajor'));
        await drawn(() => page.click('#lin-optimal'));
        const opt = (await postJSON(base + 'api/linear/optimize', SEED)).body;
        check('workbench: Optimal gives offset = 32m + (n ^ 2m): the toggles m_i -> n_(i+1)', fold() === '2,4,8,16', page.url());
        check('workbench: ... which is the API optimum', JSON.stringify(opt.offset_bases) === JSON.stringify(foldBases([2, 4, 8, 16])));
        check('workbench: optimal reads 1 and stores 1', (await wf('ld')) === 1 && (await wf('st')) === 1);
        const pressed = await page.$$eval('#lin-toggles button[aria-pressed="true"]', (b) => b.map((x) => `${x.dataset.i}${x.dataset.j}`));
        check('workbench: pressed toggles are (0,1) (1,2) (2,3) (3,4)', pressed.join() === '01,12,23,34', pressed.join());
        const href = await page.getAttribute('#lin-open-main', 'href');
        const c = opt.equivalents.cute;
        check(`workbench: links the main page to ${c && c.name}, with the seed's rows, element and patterns`,
            !!c && href === `index.html?b=${c.b}&m=${c.m}&s=${c.s}&rows=16&elem=fp32&wr=row_store&rd=transpose_read`, href);
        check('workbench: shows the construction', /4 pairs/.test(await page.$eval('#lin-construction', (e) => e.textContent)));
        await t.shot(page, { path: path.join(SHOTS, 'linear-optimal.png'), fullPage: true });
    });

    await step('workbench: other hardware and typed layouts', async () => {
        await drawn(() => page.selectOption('#lin-preset', 'wave64'));
        const rules = await page.$eval('#lin-rules', (e) => e.textContent);
        check('workbench: AMD answers say "published, not measured here" and cite the source',
            /published, not measured here/.test(rules) && /triton-lang\/triton PR #/.test(rules), rules.slice(0, 200));
        await drawn(() => page.click('#lin-optimal'));
        check('workbench: wave64 optimal is conflict-free both ways',
            (await page.$$eval('.lin-verdict.ok', (v) => v.length)) === 2, `${await wf('st')} ${await wf('ld')}`);
        await drawn(() => page.selectOption('#lin-preset', 'seed'));
        await page.fill('#lin-A', 'register: [1,0] [2,x]');
        await page.locator('#lin-A').blur();
        await page.waitForFunction(() => !document.getElementById('lin-banner').hidden, null, { timeout: TIMEOUT });
        check('workbench: a layout it cannot read is named, A marked',
            (await page.$eval('#lin-banner-field', (e) => e.textContent)) === 'A' && (await page.$eval('#lin-A', (e) => e.classList.contains('invalid'))));
        await page.goto(base + 'linear.html?p=seed&fold=2,4,8,16');
        await page.waitForFunction(() => Number(document.body.dataset.linearReady || 0) >= 1 && document.body.dataset.inflight === '0', null, { timeout: TIMEOUT });
        check('workbench: a link opens its view (fold=2,4,8,16 reads 1)', (await wf('ld')) === 1);
    });

    await step('workbench: the bank view of a layout with no CuTe form', async () => {
        const mma = PRESETS.find((p) => p.id === 'mma');
        const prob = { ...evaluateBody(fromPreset(mma)) };
        delete prob.vec; delete prob.swizzle_offset_bases;
        const opt = (await postJSON(base + 'api/linear/optimize', prob)).body;
        check('bank view: the mma preset\'s optimum has no CuTe, Triton or NVMMA form (the case the swizzle page cannot show)',
            opt.equivalents.cute === null && opt.equivalents.triton === null && opt.equivalents.nvmma === null, JSON.stringify(opt.equivalents));
        await openView('p=mma', fromPreset(mma));
        await drawn(() => page.click('#lin-optimal'));
        const ans = (await postJSON(base + 'api/linear/evaluate', evaluateBody(withOptimum(fromPreset(mma), opt)))).body;
        const bv = ans.bank_view;
        check('bank view: the page shows the optimum (no link to the swizzle page, the bank view instead)',
            !(await page.$('#lin-open-main')) && new URL(page.url()).searchParams.has('mem'), page.url());
        const cells = await t.readView(page, 'lin-bv-map');
        const wrong = cells.filter((c) => c.l !== bv.log_of[c.p] || /^pixels/.test(String(c.label)));
        check('bank view: every element drawn at its physical offset, as the API\'s log_of (canvas read back)',
            cells.length === bv.shown && wrong.length === 0, `${cells.length} of ${bv.shown}, ${wrong.length} wrong: ${JSON.stringify(wrong[0] || null)}`);
        for (const side of ['ld', 'st']) {
            const key = side === 'st' ? 'store' : 'load';
            if (side === 'st') await drawn(() => page.click('.lin-bv-side[data-side="st"]'));
            const ins = bv[key];
            const marks = await page.$$eval('#lin-bv-map rect.mark', (r) => r.map((e) => `${e.dataset.p}:${e.dataset.ph}`).sort());
            const want = ins.cells.slots.map((c) => `${c.slot}:${c.phase}`).sort();
            check(`bank view ${key}: the outlined slots and phases are the API's cells (${want.length})`,
                JSON.stringify(marks) === JSON.stringify(want), `${marks.length} vs ${want.length}`);
            const shown = await page.$eval('.lin-bv-wf', (e) => Number(e.dataset.wf));
            check(`bank view ${key}: marked wavefronts ${shown} = the instruction's cost = evaluate's ${ans[key].wavefronts_per_instruction}`,
                shown === ins.cost.wavefronts && shown === ans[key].wavefronts_per_instruction);
            const chips = await page.$$eval('#lin-bv-chart g.chip', (g) => g.length);
            check(`bank view ${key}: the phase·pass chart has a chip per lane group`, chips > 0, `${chips}`);
        }
        check('bank view: the side is in the URL', new URL(page.url()).searchParams.get('bv') === 'st', page.url());
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.evaluate(() => document.getElementById('lin-banks').scrollIntoView());
        await t.shot(page, { path: path.join(SHOTS, 'linear-banks.png') });
    });

    await step('workbench: phase by phase', async () => {
        const ans = await openView('p=row128', fromPreset(PRESETS.find((p) => p.id === 'row128')));
        const ins = ans.bank_view.load;
        const phases = [...new Set(ins.cells.slots.map((c) => c.phase))].sort((a, b) => a - b);
        const buttons = await page.$$eval('.lin-bv-ph[data-ph]:not([data-ph=""])', (b) => b.map((x) => Number(x.dataset.ph)));
        check('phases: one button per phase of the instruction (16-byte loads: 4)', JSON.stringify(buttons) === JSON.stringify(phases) && phases.length === 4, buttons.join());
        await drawn(() => page.click('.lin-bv-ph[data-ph="2"]'));
        const marks = await page.$$eval('#lin-bv-map rect.mark', (r) => r.map((e) => Number(e.dataset.ph)));
        const want = ins.cells.slots.filter((c) => c.phase === 2).length;
        check('phases: phase 2 alone outlines its slots only', marks.length === want && marks.every((x) => x === 2) && new URL(page.url()).searchParams.get('bph') === '2', `${marks.length} vs ${want}`);
        await drawn(() => page.click('.lin-bv-ph[data-ph=""]'));
        check('phases: all phases again', (await page.$$eval('#lin-bv-map rect.mark', (r) => r.length)) === ins.cells.slots.length);
    });

    await step('workbench: a 64-lane wave in the bank view', async () => {
        const ans = await openView('p=wave64', fromPreset(PRESETS.find((p) => p.id === 'wave64')));
        const ins = ans.bank_view.load;
        const shown = await page.$eval('.lin-bv-wf', (e) => Number(e.dataset.wf));
        const marks = await page.$$eval('#lin-bv-map rect.mark', (r) => r.length);
        check(`wave64: the load's ${ins.lanes} lanes outlined (${marks} slots) with evaluate's ${ans.load.wavefronts_per_instruction} wavefronts, marked published`,
            ins.lanes === 64 && shown === ans.load.wavefronts_per_instruction && marks === ins.cells.slots.length &&
            /published, not measured here/.test(await page.$eval('#lin-bv-summary', (e) => e.textContent)), `${shown} ${marks}`);
        check('wave64: no access page link (it models 32-lane warps), and the page says why',
            (await page.$eval('#lin-open-access-ld', (e) => e.hidden)) && !(await page.$eval('#lin-bv-nolink', (e) => e.hidden)));
    });

    // Each layout's two access-page links, opened in a second tab: the first
    // and the mma optimum's (the one with no CuTe form) by a fresh load, the
    // others through the access page's own router (history.pushState and the
    // popstate a back/forward gives: app.js follow()), as are the workbench
    // views after the first (linear.js's popstate). What the page draws for a
    // URL is the same either way; a fresh load costs about 1.5 CPU-s, a route
    // change about 0.1 (issue 37: 27 loads -> 4).
    await step('workbench: the access page shows the same wavefronts', async () => {
        const acc = await t.ctx.newPage();
        t.watch(acc);
        const { route } = t;
        let accOpen = false;
        const open = async (href, fresh) => {
            const how = fresh || !accOpen ? 'loaded' : 'routed';
            if (how === 'loaded') {
                await t.settled(acc);
                await acc.goto(base + href);
                await acc.waitForFunction(() => document.body.dataset.ready && Number(document.body.dataset.accessReady || 0) >= 1 && document.body.dataset.inflight === '0', null, { timeout: TIMEOUT });
                accOpen = true;
            } else await route(acc, href, 'accessReady');
            return {
                wf: Number(await acc.$eval('#acc-wavefronts', (e) => e.textContent.trim())),
                physical: await acc.isChecked('#acc-space-physical'),
                marks: await acc.$$eval('#banks-swz rect.mark', (r) => r.length),
                url: new URL(acc.url()).search === new URL(base + href).search, how,
            };
        };
        const nv = PRESETS.filter((p) => HARDWARE[p.hw].lanes === 32);
        const mma = PRESETS.find((p) => p.id === 'mma');
        const views = nv.map((p) => ({ name: p.id, q: `p=${p.id}`, state: fromPreset(p) }));
        // the mma optimum (no CuTe form), through the workbench's own URL
        const prob = { ...evaluateBody(fromPreset(mma)) };
        delete prob.vec; delete prob.swizzle_offset_bases;
        const opt = (await postJSON(base + 'api/linear/optimize', prob)).body;
        const mo = withOptimum(fromPreset(mma), opt);
        views.push({ name: 'mma optimum', q: `p=mma&vec=${mo.vec}&mem=${mo.mem.map(([a, b]) => `${a},${b}`).join('_')}`, state: mo, fresh: true });
        const bad = [];
        let n = 0, loads = 0;
        try {
            for (const [i, v] of views.entries()) {
                let ans;
                if (i === 0) ans = await openView(v.q, v.state);
                else {
                    await route(page, 'linear.html?' + v.q, 'linearReady');
                    ans = (await postJSON(base + 'api/linear/evaluate', evaluateBody(v.state))).body;
                }
                const hrefs = { store: await page.getAttribute('#lin-open-access-st', 'href'), load: await page.getAttribute('#lin-open-access-ld', 'href') };
                for (const key of ['store', 'load']) {
                    const got = await open(hrefs[key], !!v.fresh && key === 'store');
                    if (got.how === 'loaded') loads++;
                    const want = ans[key].wavefronts_per_instruction;
                    n++;
                    if (got.wf !== want || !got.physical || got.marks === 0 || !got.url)
                        bad.push(`${v.name} ${key} (${got.how}): access page ${got.wf} (physical ${got.physical}, ${got.marks} marks, URL kept ${got.url}), workbench ${want}`);
                }
            }
        } finally { await acc.close().catch(() => {}); }
        check(`access page: ${n} links (${views.length} layouts x store, load; ${loads} by a fresh load, the rest by the page's router) open offsets taken as physical with the workbench's wavefronts`,
            bad.length === 0 && n === 2 * views.length && loads === 2, bad.join('; '));
    });
}
