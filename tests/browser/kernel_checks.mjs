// kernel_checks.mjs - browser checks of the "Your kernel" page
// (static/kernel.html): an example dump's ops listed as POST /api/ttgir
// answers them, costliest first; the selected op's bank view costing what the
// API costs; the fix printed as the API's TTGIR text; the workbench link; a
// screenshot at 1440x900 (build/screenshots/kernel.png).

import path from 'node:path';
import { EXAMPLES } from '../../static/js/kernelstate.js';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

export async function kernelChecks(t) {
    const { page, base, check, step, gotoReady, text, SHOTS } = t;
    await step('kernel page: an example dump', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        const ex = EXAMPLES.find((e) => e.id === 'operand');
        await gotoReady(page, base + 'kernel.html?ex=operand');
        const { status, body: a } = await postJSON(base + 'api/ttgir', { text: ex.text });
        const rows = await page.$$eval('#krn-ops tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
        check('kernel: one row per op the API costed', status === 200 && rows.length === a.ops.length, `${rows.length} vs ${a.ops.length}`);
        const top = a.ops.reduce((m, o) => (o.conflict_wavefronts_per_warp > m.conflict_wavefronts_per_warp ? o : m), a.ops[0]);
        check('kernel: the costliest op first, with the API\'s numbers',
            rows.length > 0 && rows[0][0] === String(top.line) && rows[0][7] === String(top.conflict_wavefronts_per_warp), JSON.stringify(rows[0]));
        const wf = await page.$eval('#krn-verdict', (e) => Number(e.dataset.wavefronts || -1));
        check('kernel: the selected op\'s bank view costs the API\'s wavefronts', wf === top.wavefronts_per_instruction, `${wf} vs ${top.wavefronts_per_instruction}`);
        check('kernel: bank chart drawn', (await page.$$('#krn-banks svg')).length === 1);
        const fixText = await text(page, '#krn-fixtext');
        check('kernel: the fix is the API\'s TTGIR text', fixText === top.fix.ttgir, fixText.slice(0, 120));
        const href = await page.$eval('#krn-wb', (e) => e.getAttribute('href'));
        check('kernel: the workbench link opens linear.html with the op\'s layout', /^linear\.html\?p=custom&shape=128x64/.test(href), href);
        check('kernel: the example is in the URL', new URL(page.url()).searchParams.get('ex') === 'operand', page.url());
        await page.screenshot({ path: path.join(SHOTS, 'kernel.png') });
    });

    await step('workbench: a pasted encoding becomes its bases', async () => {
        await page.goto(base + 'linear.html?p=mma', { waitUntil: 'load' });
        await page.waitForFunction(() => document.body.dataset.linearReady, null, { timeout: 20000 });
        const enc = '#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>\n' +
            '#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>';
        const { body: d } = await postJSON(base + 'api/layout/distributed', { layout: '#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>', aliases: enc, shape: [16, 16] });
        const before = Number(await page.evaluate(() => document.body.dataset.linearReady));
        await page.fill('#lin-B', enc);
        await page.$eval('#lin-B', (e) => e.dispatchEvent(new Event('change')));
        await page.waitForFunction((b) => Number(document.body.dataset.linearReady) > b, before, { timeout: 20000 });
        const u = new URL(page.url());
        const want = ['register', 'lane', 'warp'].map((k) => d[k].map(([a, b]) => `${a},${b}`).join('_')).join('~');
        check('workbench: B is the API\'s bases for the pasted dot_op', u.searchParams.get('B') === want, `${u.searchParams.get('B')} vs ${want}`);
        check('workbench: no error banner', await page.$eval('#lin-banner', (e) => e.hidden));
    });
}
