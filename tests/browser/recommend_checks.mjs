// recommend_checks.mjs - browser checks of the scorecard's recommendation
// (/api/recommend, drawn by recommend.js): on the None preset it names the
// API's winner with both verdicts and Apply switches the page to it; on issue
// 26's problems (seed 001's transpose, the 32-row column read) it prints the
// API's layout, whole-tile totals, code for the element type and the three
// fixes; the write list offers the producers, the read list keeps atomics
// apart; the workbench's link carries the problem. It reads the API; it ranks
// nothing. Screenshots at 1440x900 and 390x844.

import path from 'node:path';

export async function recommendChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, afterLoad, text, TIMEOUT, SHOTS } = t;
    const recReady = () => page.waitForFunction(() => document.getElementById('score-rec').dataset.total !== undefined &&
        document.getElementById('score-rec').dataset.total !== '', null, { timeout: TIMEOUT });

    await step('recommend: None preset', async () => {
        await routeReady(page, base + '?b=0&m=4&s=3&wr=row_store&rd=col_read');
        await page.$eval('#scorecard', (e) => e.scrollIntoView());
        await page.waitForSelector('#score-rec-apply', { timeout: TIMEOUT });
        const api = (await getJSON(apiURL(base, 'recommend', { b: 0, m: 4, s: 3, write: 'row_store', read: 'col_read' }))).body;
        const w = api.recommended, now = api.candidates[api.current];
        check('recommend: the API proposes a swizzle with fewer wavefronts than None',
            w && !w.is_current && w.total_wavefronts < now.total_wavefronts, JSON.stringify(w && [w.name, w.total_wavefronts, now.total_wavefronts]));
        check('recommend: the page names the API\'s winner', (await text(page, '#score-rec-name')) === w.name, await text(page, '#score-rec-name'));
        const line = await text(page, '#score-rec');
        check('recommend: both verdicts shown', /write: /.test(line) && /read: /.test(line) &&
            line.includes(`${w.write_cost.wavefronts} wavefront`) && line.includes(`${w.read_cost.wavefronts} wavefront`), line);
        check('recommend: the saving from the API', line.includes(`${w.saves_wavefronts} wavefronts fewer`), line);
        check('recommend: its Triton form', (await text(page, '#score-rec-triton')) === w.code.triton, await text(page, '#score-rec-triton'));

        await afterLoad(page, () => page.click('#score-rec-apply'));
        const u = new URL(page.url());
        check('recommend: Apply sets B/M/S in the URL', u.searchParams.get('b') === String(w.b) &&
            u.searchParams.get('m') === String(w.m) && u.searchParams.get('s') === String(w.s), u.search);
        check('recommend: Apply sets the controls', (await page.inputValue('#b')) === String(w.b) &&
            (await page.inputValue('#m')) === String(w.m) && (await page.inputValue('#s')) === String(w.s));
        await page.waitForFunction(() => document.getElementById('score-rd-out').dataset.wavefronts &&
            !document.getElementById('score-rec-apply'), null, { timeout: TIMEOUT });
        const wf = await page.evaluate(() =>
            ['score-wr-out', 'score-rd-out'].map((id) => Number(document.getElementById(id).dataset.wavefronts)));
        check('recommend: the scorecard now costs what was recommended',
            wf[0] === w.write_cost.wavefronts && wf[1] === w.read_cost.wavefronts, wf.join(' + '));
        check('recommend: the applied swizzle is the best now', /already the best/.test(await text(page, '#score-rec')), await text(page, '#score-rec'));
    });

    // Issue 26's problems: the page prints the API's answer, fixes and code included.
    const problems = [
        { name: 'transpose', url: '?b=0&m=2&s=5&rows=16&elem=fp32&wr=row_store&rd=transpose_read',
            q: { b: 0, m: 2, s: 5, rows: 16, elem: 'fp32', write: 'row_store', read: 'transpose_read' }, ideal: 32 },
        { name: 'column', url: '?b=3&m=4&s=3&rows=32&wr=row_store&rd=col_read',
            q: { b: 3, m: 4, s: 3, rows: 32, write: 'row_store', read: 'col_read' }, ideal: 64 },
    ];
    for (const p of problems) {
        await step(`recommend: ${p.name}`, async () => {
            await routeReady(page, base + p.url);
            await recReady();
            const api = (await getJSON(apiURL(base, 'recommend', p.q))).body;
            const w = api.recommended;
            check(`recommend ${p.name}: the API reaches the ideal ${p.ideal}`, w.total_wavefronts === p.ideal && w.reaches_bound, JSON.stringify([w.name, w.total_wavefronts]));
            check(`recommend ${p.name}: the page names it`, (await text(page, '#score-rec-name')) === w.name, await text(page, '#score-rec-name'));
            const total = await text(page, '#score-rec-total');
            check(`recommend ${p.name}: the whole-tile total`, total.includes(`${w.total_wavefronts} wavefronts (ideal ${w.ideal_wavefronts}`), total);
            check(`recommend ${p.name}: the verdict in the API's words`, (await text(page, '#score-rec-verdict')).includes(w.verdict), await text(page, '#score-rec-verdict'));
            for (const k of ['cute', 'triton', 'c']) {
                const got = await text(page, `#score-rec-${k}`);
                check(`recommend ${p.name}: ${k} code as the API wrote it`, w.code[k] ? got === w.code[k] : /^none/.test(got), got);
            }
            const rows = await page.$$eval('#score-fixes tbody tr', (trs) => trs.map((tr) => ({
                fix: tr.dataset.fix, total: tr.querySelector('.rec-total').textContent, mem: tr.querySelector('.rec-mem').textContent })));
            check(`recommend ${p.name}: three fixes`, rows.map((r) => r.fix).join() === 'swizzle,padding,lane_schedule', JSON.stringify(rows));
            for (const f of api.fixes) {
                const r = rows.find((x) => x.fix === f.fix);
                check(`recommend ${p.name}: ${f.fix} shows the API's total and memory`, !!r &&
                    (f.total_wavefronts === undefined || f.total_wavefronts === null || r.total.includes(`${f.total_wavefronts} wavefront`)) &&
                    (f.extra_bytes === null || r.mem === (f.extra_bytes === 0 ? 'none' : `+${f.extra_bytes} bytes`)), JSON.stringify([f, r]));
            }
            await page.$eval('#scorecard', (e) => e.scrollIntoView());
            await page.setViewportSize({ width: 1440, height: 900 });
            await t.shot(page, { path: path.join(SHOTS, `recommend-${p.name}-1440.png`) });
            await page.setViewportSize({ width: 390, height: 844 });
            await page.$eval('#score-rec', (e) => e.scrollIntoView());
            const wide = await page.evaluate(() => document.documentElement.scrollWidth);
            check(`recommend ${p.name}: no sideways scroll at 390 px`, wide <= 390, String(wide));
            await t.shot(page, { path: path.join(SHOTS, `recommend-${p.name}-390.png`) });
            await page.setViewportSize({ width: 1440, height: 1000 });
        });
    }

    await step('recommend: the write list has producers, the read list keeps atomics apart', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        const pats = (await getJSON(base + 'api/patterns')).body;
        const groups = await page.evaluate(() => Object.fromEntries(['score-wr', 'score-rd'].map((id) =>
            [id, [...document.getElementById(id).querySelectorAll('optgroup')].map((g) => ({ label: g.label, names: [...g.children].map((o) => o.value) }))])));
        const wr = groups['score-wr'].flatMap((g) => g.names);
        check('recommend: stores, st.v4 and stmatrix and the API\'s producers are writes',
            wr.includes('row_store_128') && wr.includes('stmatrix_x4') && pats.producers.every((p) => wr.includes(p.name)), JSON.stringify(groups['score-wr']));
        const atomics = pats.patterns.filter((p) => p.op === 'atom' || p.op === 'red').map((p) => p.name);
        const rdAtom = groups['score-rd'].find((g) => g.label === 'Atomics'), rdLoad = groups['score-rd'].find((g) => g.label === 'Loads');
        check('recommend: atomics in their own group', !!rdAtom && !!rdLoad && atomics.every((a) => rdAtom.names.includes(a)) &&
            !rdLoad.names.some((n) => atomics.includes(n)), JSON.stringify(groups['score-rd']));
        await afterLoad(page, () => page.selectOption('#score-wr', 'tma_box')).catch(() => {});
        await page.waitForFunction(() => /async proxy/.test(document.getElementById('score-wr-out').textContent), null, { timeout: TIMEOUT });
        await recReady();
        const api = (await getJSON(apiURL(base, 'recommend', { b: 3, m: 4, s: 3, write: 'tma_box', read: 'col_read' }))).body;
        check('recommend: TMA write: the page names the API\'s answer', (await text(page, '#score-rec')).includes(api.recommended.name), await text(page, '#score-rec'));
    });

    await step('recommend: the workbench link keeps the problem', async () => {
        const linReady = () => page.evaluate(() => Number(document.body.dataset.linearReady || 0));
        await page.goto(base + 'linear.html');
        await page.waitForFunction(() => Number(document.body.dataset.linearReady || 0) >= 1 && document.body.dataset.inflight === '0', null, { timeout: TIMEOUT });
        const before = await linReady();
        await page.click('#lin-optimal');
        await page.waitForFunction((n) => Number(document.body.dataset.linearReady || 0) > n && document.body.dataset.inflight === '0', before, { timeout: TIMEOUT });
        const href = await page.getAttribute('#lin-open-main', 'href');
        const u = new URL(href, base);
        check('workbench link: rows, element and pair', u.searchParams.get('rows') === '16' && u.searchParams.get('elem') === 'fp32' &&
            u.searchParams.get('wr') === 'row_store' && u.searchParams.get('rd') === 'transpose_read', href);
        await gotoReady(page, u.toString());
        await recReady();
        const api = (await getJSON(apiURL(base, 'recommend', { b: u.searchParams.get('b'), m: u.searchParams.get('m'), s: u.searchParams.get('s'), rows: 16, elem: 'fp32', write: 'row_store', read: 'transpose_read' }))).body;
        check('workbench link: the swizzle page recommends the workbench\'s optimum (1 + 1 a step, is current)',
            api.recommended.is_current && api.recommended.write_cost.wavefronts === 1 && api.recommended.read_cost.wavefronts === 1 &&
            /already the best/.test(await text(page, '#score-rec')), JSON.stringify([api.recommended.name, await text(page, '#score-rec')]));
    });
}
