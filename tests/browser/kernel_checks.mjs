// kernel_checks.mjs - browser checks of the "Your kernel" page
// (static/kernel.html): an example dump's ops listed as POST /api/ttgir
// answers them, costliest first; the selected op's bank view costing what the
// API costs; the fix printed as the API's TTGIR text; the workbench link; a
// screenshot at 1440x900 (build/screenshots/kernel.png); issue 39: the
// instruction Triton emits in the list (ldmatrix for the operand), per warp and
// per CTA, a two-module lit text's part picker and its convert_layout through
// shared memory (kernel-parts.png).

import path from 'node:path';
import { EXAMPLES } from '../../static/js/kernel/kernelstate.js';

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
        const ldsm = a.ops.findIndex((o) => o.instruction.op === 'ldmatrix');
        const row = rows.find((r) => r[0] === String(a.ops[ldsm]?.line));
        check('kernel: the operand load is listed as the ldmatrix Triton emits, per warp (per CTA)',
            ldsm >= 0 && row && row[4].startsWith(a.ops[ldsm].instruction.name) &&
            row[6] === `${a.ops[ldsm].instructions_per_warp} (${a.ops[ldsm].instructions_per_cta})`, JSON.stringify(row));
        await t.shot(page, { path: path.join(SHOTS, 'kernel.png') });
    });

    await step('kernel page: a lit file of two modules, one part at a time', async () => {
        const mod = (name, warps) => [
            `#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [${warps}, 1], order = [1, 0]}>`,
            '#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>',
            `module attributes {"ttg.num-warps" = ${warps} : i32} {`,
            `  tt.func @${name}(%a: tensor<128x64xf16, #blocked>) {`,
            '    %A = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory>',
            '    tt.return', '  }', '}'].join('\n');
        const cvt = '    %t = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>>';
        const lit = [mod('team_four', 4), '', '// -----', '', mod('team_eight', 8).replace('    tt.return', cvt + '\n    tt.return')].join('\n');
        await gotoReady(page, base + 'kernel.html#' + new URLSearchParams({ text: lit }).toString());
        const opts = await page.$$eval('#krn-part option', (os) => os.map((o) => o.textContent));
        check('kernel: the picker lists both modules', !(await page.$eval('#krn-part-box', (e) => e.hidden)) && opts.length === 2 &&
            opts[1].includes('@team_eight'), JSON.stringify(opts));
        const b = Number(await page.evaluate(() => document.body.dataset.ready));
        await page.selectOption('#krn-part', '1');
        await page.waitForFunction((x) => Number(document.body.dataset.ready) > x, b, { timeout: 15000 });
        const { body: a } = await postJSON(base + 'api/ttgir', { text: lit, part: 1 });
        const rows = await page.$$eval('#krn-ops tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
        check('kernel: part 2 shown as the API answers it (its own #blocked, 8 warps)', new URL(page.url()).searchParams.get('part') === '1' &&
            rows.length === 1 && rows[0][0] === String(a.ops[0].line) && a.ops[0].warps === 8 &&
            rows[0][6] === `${a.ops[0].instructions_per_warp} (${a.ops[0].instructions_per_cta})`, JSON.stringify(rows));
        check('kernel: no error with two modules defining one alias', (await text(page, '#krn-error')) === '');
        const cvts = await page.$$eval('#krn-cvts tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
        const c0 = a.converts[0];
        check('kernel: the convert_layout through shared memory, each side as the API costs it', cvts.length === 1 && c0.through_shared &&
            cvts[0][0] === String(c0.line) && cvts[0][4].startsWith(c0.store.instruction) &&
            cvts[0][5].endsWith(`${c0.load.instructions_per_warp} (${c0.load.instructions_per_cta})`), JSON.stringify(cvts));
        await t.shot(page, { path: path.join(SHOTS, 'kernel-parts.png') });
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
