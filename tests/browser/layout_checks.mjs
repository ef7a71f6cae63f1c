// layout_checks.mjs - browser checks of the layout page (static/layout.html):
// a preset drawn with the Rosetta the API gives, the seed 004 access (8-way
// without a swizzle, clean with Sw<3,3,3>) shown as the API costs it, the
// state in the URL, a Triton and a TMA layout, and a screenshot at 1440x900
// (build/screenshots/layout.png). Only requests the API answers 200.

import path from 'node:path';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

export async function layoutChecks(t) {
    const { page, base, check, step, gotoReady, afterLoad, text, SHOTS } = t;
    const lay = (q) => base + 'layout.html' + (q ? '?' + new URLSearchParams(q).toString() : '');
    const verdict = () => page.$eval('#acc-verdict', (e) => Number(e.dataset.wavefronts || -1));

    await step('layout page: preset', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, lay(null));
        const rosetta = await text(page, '#lay-rosetta');
        check('layout: the default preset (K_SW128 64x64) reads TMA 128B, B128, SWIZZLE_128B, 1024 bytes',
            /CU_TENSOR_MAP_SWIZZLE_128B/.test(rosetta) && /1 \(B128\)/.test(rosetta) && /2 \(SWIZZLE_128B\)/.test(rosetta) && /1024 bytes/.test(rosetta), rosetta.slice(0, 200));
        check('layout: the tensor is drawn 64 x 64', await page.$eval('#tensor', (c) => c.dataset.rows === '64' && c.dataset.cols === '64'));
        const { body: a } = await postJSON(base + 'api/layout/access', { layout: 'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', element_bits: 16, atom: 'mma_m16n8k16_a_ldmatrix_x4', origin: [0, 0] });
        check('layout: the verdict is the API\'s wavefronts', (await verdict()) === a.wavefronts, `${await verdict()} vs ${a.wavefronts}`);
        check('layout: bank charts drawn', (await page.$$('#acc-banks svg')).length === 1 && (await page.$$('#acc-hits svg')).length === 1);
        await page.screenshot({ path: path.join(SHOTS, 'layout.png') });
    });

    await step('layout page: seed 004 in the URL', async () => {
        await gotoReady(page, lay({ layout: '(_16,_64):(_64,_1)' }));
        check('layout: ldmatrix.x4 on 128-byte rows without a swizzle: 32 wavefronts', (await verdict()) === 32, String(await verdict()));
        await afterLoad(page, async () => {
            await page.fill('#lay-text', 'Sw<3,3,3> o _0 o (_16,_64):(_64,_1)');
        });
        check('layout: with Sw<3,3,3> on fp16: 4 wavefronts', (await verdict()) === 4, String(await verdict()));
        check('layout: the edit is in the URL', new URL(page.url()).searchParams.get('layout') === 'Sw<3,3,3> o _0 o (_16,_64):(_64,_1)', page.url());
    });

    await step('layout page: Triton and TMA presets', async () => {
        await gotoReady(page, lay(null));
        await afterLoad(page, () => page.click('button[data-preset="triton"]'));
        const r = await text(page, '#lay-rosetta');
        check('layout: Triton\'s default 128x64 fp16 encoding is the 128B mode', /CU_TENSOR_MAP_SWIZZLE_128B/.test(r) && /nvmma_shared<\{swizzlingByteWidth = 128/.test(r), r.slice(0, 200));
        check('layout: Triton preset in the URL', new URL(page.url()).searchParams.get('shape') === '128,64');
        check('layout: no GPU TMA panel for a Triton layout', await page.$eval('#tma-measure', (e) => e.hidden));
        await afterLoad(page, () => page.click('button[data-preset="tma"]'));
        check('layout: a tma: box offers the GPU measurement (POST /api/measure/tma)', await page.$eval('#tma-measure', (e) => !e.hidden));
        check('layout: TMA box drawn with the contiguous dim across', await page.$eval('#tensor-title', (e) => /rows = dim 1, columns = dim 0/.test(e.textContent)));
        await afterLoad(page, async () => { await page.fill('#lay-base', '128'); });
        const flags = await page.$$eval('#lay-flags li[data-code]', (ls) => ls.map((l) => l.dataset.code));
        check('layout: a base 128 bytes off is flagged', flags.includes('base_misaligned'), flags.join(','));
    });
}
