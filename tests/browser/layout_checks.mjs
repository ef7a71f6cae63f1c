// layout_checks.mjs - browser checks of the layout page (static/layout.html):
// a preset drawn with the Rosetta the API gives, the seed 004 access (8-way
// without a swizzle, clean with Sw<3,3,3>) shown as the API costs it, the
// state in the URL, a Triton and a TMA layout, and a screenshot at 1440x900
// (build/screenshots/layout.png). Only requests the API answers 200, but for
// the thread-layout errors (phase 'thread-error': a caret from the API's `at`).

import fs from 'node:fs';
import path from 'node:path';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

export async function layoutChecks(t) {
    const { page, base, check, step, gotoReady, routeReady, afterLoad, text, SHOTS, setPhase } = t;
    // The page's next 400 from /api/layout/access, as this harness sees it: an
    // error phase ends only once it has, since the page can show the error
    // before the response event reaches Node (it was once counted in the next,
    // valid phase, under load).
    const accessRefused = () => page.waitForResponse((r) => /\/api\/layout\/access$/.test(r.url()) && r.status() === 400, { timeout: t.TIMEOUT });
    const lay = (q) => base + 'layout.html' + (q ? '?' + new URLSearchParams(q).toString() : '');
    const verdict = () => page.$eval('#acc-verdict', (e) => Number(e.dataset.wavefronts || -1));

    await step('layout page: preset', async () => {
        await page.setViewportSize({ width: 1440, height: 900 });
        await gotoReady(page, lay(null));   // a load: the first view of the page
        const rosetta = await text(page, '#lay-rosetta');
        check('layout: the default preset (K_SW128 64x64) reads TMA 128B, B128, SWIZZLE_128B, 1024 bytes',
            /CU_TENSOR_MAP_SWIZZLE_128B/.test(rosetta) && /1 \(B128\)/.test(rosetta) && /2 \(SWIZZLE_128B\)/.test(rosetta) && /1024 bytes/.test(rosetta), rosetta.slice(0, 200));
        check('layout: the tensor is drawn 64 x 64', await page.$eval('#tensor', (c) => c.dataset.rows === '64' && c.dataset.cols === '64'));
        const { body: a } = await postJSON(base + 'api/layout/access', { layout: 'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', element_bits: 16, atom: 'mma_m16n8k16_a_ldmatrix_x4', origin: [0, 0] });
        check('layout: the verdict is the API\'s wavefronts', (await verdict()) === a.wavefronts, `${await verdict()} vs ${a.wavefronts}`);
        check('layout: bank charts drawn', (await page.$$('#acc-banks svg')).length === 1 && (await page.$$('#acc-hits svg')).length === 1);
        await t.shot(page, { path: path.join(SHOTS, 'layout.png') });
    });

    await step('layout page: seed 004 in the URL', async () => {
        await routeReady(page, lay({ layout: '(_16,_64):(_64,_1)' }));
        check('layout: ldmatrix.x4 on 128-byte rows without a swizzle: 32 wavefronts', (await verdict()) === 32, String(await verdict()));
        await afterLoad(page, async () => {
            await page.fill('#lay-text', 'Sw<3,3,3> o _0 o (_16,_64):(_64,_1)');
        });
        check('layout: with Sw<3,3,3> on fp16: 4 wavefronts', (await verdict()) === 4, String(await verdict()));
        check('layout: the edit is in the URL', new URL(page.url()).searchParams.get('layout') === 'Sw<3,3,3> o _0 o (_16,_64):(_64,_1)', page.url());
    });

    await step('layout page: Triton and TMA presets', async () => {
        await routeReady(page, lay(null));
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
        // Issue 37: a preset chosen is a history entry (the base typed replaced
        // the TMA one): Back walks to the Triton preset, Forward to the TMA box.
        const shown = async () => [await page.inputValue('#lay-text'), new URL(page.url()).searchParams.get('layout'), /shape \[([\d, ]+)\]/.exec(await text(page, '#lay-rosetta'))?.[1]];
        await afterLoad(page, () => page.goBack());
        const back = await shown();
        check('layout: Back returns to the Triton preset: form, URL and Rosetta', /^#ttg\.swizzled_shared/.test(back[0]) && back[1] === back[0] && back[2] === '128, 64' &&
            !(await page.$eval('#tma-measure', (e) => !e.hidden)), JSON.stringify(back));
        await afterLoad(page, () => page.goForward());
        const fwd = await shown();
        check('layout: Forward returns to the TMA box with its typed base', fwd[0] === 'tma:CU_TENSOR_MAP_SWIZZLE_128B' && fwd[1] === fwd[0] && fwd[2] === '64, 64' && (await page.inputValue('#lay-base')) === '128' &&
            (await page.$eval('#tma-measure', (e) => !e.hidden)), JSON.stringify(fwd));
    });

    // CuTe's print_latex(tiled_copy) of make_tiled_copy_A(SM75_U32x4_LDSM_N, 2x2 SM80 16x8x16) (tests/data/cute_prints.json)
    const ldsm = '% Layout S TV: ArithTuple(_0,_0) o ((_16,_2,_2,_2),(_8,_1)):((_1@0,_8@1,_16@0,_0),(_1@1,_0))';

    await step('layout page: a tiled copy, every instruction', async () => {
        await routeReady(page, lay({ layout: '(_32,_64):(_64,_1)', thread: ldsm, op: 'ldmatrix' }));
        const { body: a } = await postJSON(base + 'api/layout/access', { layout: '(_32,_64):(_64,_1)', element_bits: 16, thread: ldsm, op: 'ldmatrix', origin: [0, 0], fit: true });
        const rows = await page.$$eval('#acc-tiled tr[data-index]', (rs) => rs.map((r) => Number(r.children[3].textContent)));
        check('layout: the tiled copy\'s instructions are the API\'s (4 ldmatrix.x4, 32 wavefronts each)',
            rows.length === a.tiled.instructions && rows.every((w, i) => w === a.tiled.list[i].wavefronts) && rows.length === 4 && rows[0] === 32, JSON.stringify(rows));
        await afterLoad(page, () => page.click('#acc-tiled tr[data-index="2"]'));
        check('layout: a row picks the instruction drawn', new URL(page.url()).searchParams.get('instr') === '2' &&
            await page.$eval('#acc-tiled tr.sel', (r) => r.dataset.index === '2'), page.url());
        await page.fill('#ncu-text', 'smsp__inst_executed_op_ldsm.sum 400\nl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 11200\n');
        const before = await page.evaluate(() => Number(document.body.dataset.ncuReady || 0));
        await page.click('#ncu-go');
        await page.waitForFunction((n) => Number(document.body.dataset.ncuReady || 0) > n, before);
        const v = await page.$eval('.lay-ncu-verdict', (e) => [e.dataset.verdict, e.dataset.predicted]);
        check('layout: ncu explained: 100 tiles x 4 x (32 - 4) = 11200 reproduced', v[0] === 'reproduced' && v[1] === '11200', v.join(' '));
        // Another layout drawn: the explanation is asked again for it (it
        // stayed, speaking of the layout before): the same copy on a 128-byte
        // swizzle has no conflict left to explain the 11200.
        const swz = 'Sw<3,3,3> o (_32,_64):(_64,_1)';
        const { body: want } = await postJSON(base + 'api/layout/access', { layout: swz, element_bits: 16, thread: ldsm, op: 'ldmatrix', origin: [0, 0], fit: true });
        const again = await page.evaluate(() => Number(document.body.dataset.ncuReady || 0));
        await page.fill('#lay-text', swz);
        await page.waitForFunction((n) => Number(document.body.dataset.ncuReady || 0) > n, again);
        const v2 = await page.$eval('.lay-ncu-verdict', (e) => [e.dataset.verdict, e.dataset.predicted]);
        check('layout: a layout drawn after an explanation is explained again (SW128: none of the 11200 predicted)',
            want.tiled && want.tiled.list[2].wavefronts === 4 && v2[0] !== 'reproduced' && v2[1] === '0',
            `${v2.join(' ')}; the API: ${want.tiled ? want.tiled.list.map((i) => i.wavefronts).join(',') : JSON.stringify(want).slice(0, 200)}`);
        // the text taken away: the layouts of the steps below are not asked
        // about it (another copy's access may not fit its counters: a 400)
        await page.fill('#ncu-text', '');
        await t.shot(page, { path: path.join(SHOTS, 'layout_tiled.png'), fullPage: true });
    });

    // Issue 37: an error in the thread field (a Triton distributed encoding, a
    // CuTe TV print) gets a caret under the place the API's `at` names.
    await step('layout page: a thread-layout error gets its caret', async () => {
        const layout = '(_32,_64):(_64,_1)';
        setPhase('thread-error');
        for (const [what, thread] of [
            ['a Triton distributed encoding', '#ttg.blocked<{sizePerThread = [1, 8],\n  threadsPerWarp = [4, x8], warpsPerCTA = [4, 1], order = [1, 0]}>'],
            ['a CuTe TV print', ldsm + '\nfoo bar\n'],
        ]) {
            await routeReady(page, lay({ layout, thread }));
            const { status, body } = await postJSON(base + 'api/layout/access', { layout, element_bits: 16, thread, origin: [0, 0], fit: true });
            const at = body.error && body.error.at;
            check(`37: ${what}: the API points at a line and column of the thread field`,
                status === 400 && body.error.field === 'thread' && !!at && at.line === 2, JSON.stringify(body));
            const caret = await page.$eval('#acc-caret', (x) => (x.hidden ? null : x.textContent));
            const lines = caret ? caret.split('\n') : [];
            const line = at ? thread.split('\n')[at.line - 1] : '';
            check(`37: ${what}: a caret under the place \`at\` names`, !!caret && !!at && lines[0] === line &&
                lines[1].indexOf('^') === at.column - 1 && lines[1].endsWith(`line ${at.line}, column ${at.column}`), JSON.stringify(caret));
        }
        await routeReady(page, lay({ layout }));
        setPhase('valid');
        check('37: no thread error, no caret', await page.$eval('#acc-caret', (x) => x.hidden));
    });

    await step('layout page: an atom that does not fit, tiled in one click', async () => {
        await routeReady(page, lay({ layout: 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)' }));
        const label = await page.$eval('#lay-fix', (b) => b.textContent);
        check('layout: the 8-row atom under ldmatrix.x4 offers tile_to_shape (16, 64)', /tile_to_shape\(layout, \(16, 64\)\)/.test(label), label);
        await afterLoad(page, () => page.click('#lay-fix'));
        check('layout: one click tiles it, and the access is costed (4 wavefronts)', (await verdict()) === 4 &&
            new URL(page.url()).searchParams.get('layout') === 'Sw<3,3,3> o _0 o ((_8,_2),(_64,_1)):((_64,_512),(_1,_0))', page.url());
    });

    await step('layout page: the CuTe tensor and tiled-copy presets', async () => {
        await routeReady(page, lay(null));
        await afterLoad(page, () => page.click('button[data-preset="tensor440"]'));
        const r = await text(page, '#lay-rosetta');
        const { body: d } = await postJSON(base + 'api/layout', { layout: 'Sw<3,4,3>_smem_ptr[16b](0x7f0000000440) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', element_bits: 16 });
        check('layout: a tensor print\'s pointer row says what the API says (64-byte aligned, not the span, elements moved)',
            r.includes('0x7f0000000440: 64-byte aligned') && r.includes('(not aligned)') && r.includes(`${d.address.moved} elements moved`), r.slice(0, 400));
        await afterLoad(page, () => page.click('button[data-preset="tiledA"]'));
        const n = await page.$$eval('#acc-tiled tr[data-index]', (rs) => rs.length);
        check('layout: the tiled-copy preset lists its 4 ldmatrix.x4, conflict-free on SW128', n === 4 &&
            await page.$eval('.lay-tiled-sum', (e) => e.dataset.wavefronts === '16'), String(n));
        await t.shot(page, { path: path.join(SHOTS, 'layout_tensor_tiled.png'), fullPage: true });
    });

    // Issue 39, items 5-7, as a kernel engineer pastes them.
    await step('layout page: issue 39: the form an error tried, the copy instruction named, ncu launches by name', async () => {
        // 7: a Triton memdesc whose encoding is an alias, and a bare TMA mode
        setPhase('layout-error');
        await routeReady(page, lay({ layout: '!ttg.memdesc<64x64xf16, #shared, #smem, mutable>' }));
        const err = await text(page, '#lay-error');
        check('39.7: a memdesc with an alias encoding: the error names the form tried and the alias',
            /read as Triton memdesc/.test(err) && /#shared is an alias/.test(err), err);
        await routeReady(page, lay({ layout: '(_8,_64):(_64' }));
        const cerr = await text(page, '#lay-error');
        check('39.7: a CuTe text error says it was read as CuTe', /^layout: read as CuTe/.test(cerr), cerr);
        setPhase('valid');
        await routeReady(page, lay({ layout: 'CU_TENSOR_MAP_SWIZZLE_128B', shape: '64,64', atom: 'row_walk_32' }));
        check('39.7: a bare CU_TENSOR_MAP_SWIZZLE_128B is read as TMA', (await text(page, '#lay-error')) === '' &&
            /^tma, 16-bit/.test(await page.$eval('#lay-rosetta tr td:nth-child(2)', (e) => e.textContent)));
        await routeReady(page, lay({ layout: '!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #smem, mutable>', atom: 'row_walk_32' }));
        check('39.7: a memdesc with its encoding inline is drawn 64 x 64', (await text(page, '#lay-error')) === '' &&
            await page.$eval('#tensor', (c) => c.dataset.rows === '64' && c.dataset.cols === '64'));

        // 6: print_latex of a cp.async copy (CuTe's own lines, cute_prints.json), the instruction named
        const cp = '% Layout S TV: ArithTuple(_0,_0) o ((_4,_32),(_8,_1)):((_8@1,_1@0),(_1@1,_0))\n% Layout D TV: ArithTuple(_0,_0) o ((_4,_32),(_8,_1)):((_8@1,_1@0),(_1@1,_0))';
        // The print names no instruction and cp.async has several widths: the
        // API asks for the bytes (a 400 the page shows) until one is picked.
        setPhase('thread-error');
        const asked = accessRefused();
        await routeReady(page, lay({ layout: '(_32,_32):(_32,_1)', thread: cp }));
        await asked;
        setPhase('valid');
        const opts = await page.$$eval('#lay-op option', (os) => os.map((o) => o.value));
        check('39.6: the menu offers cp.async at each width and cache, and st at 16 bytes',
            ['cp.async/4/ca', 'cp.async/8/ca', 'cp.async/16/ca', 'cp.async/16/cg', 'st/16', 'ld/1', 'ldmatrix/x4/trans'].every((v) => opts.includes(v)), opts.join(' '));
        await afterLoad(page, () => page.selectOption('#lay-op', 'cp.async/16/cg'));
        const { body: a } = await postJSON(base + 'api/layout/access', { layout: '(_32,_32):(_32,_1)', element_bits: 16, thread: cp, op: 'cp.async', bytes: 16, cache: 'cg', origin: [0, 0], fit: true });
        const sum = await page.$eval('.lay-tiled-sum', (e) => [e.dataset.instructions, e.dataset.wavefronts]);
        check('39.6: cp.async.cg 16 B: the API\'s 4 instructions, 16 wavefronts, no conflict',
            a.tiled.totals.bank_conflicts === 0 && sum[0] === String(a.tiled.instructions) && sum[1] === String(a.tiled.totals.wavefronts) &&
            (await verdict()) === a.wavefronts && /no bank conflict/.test(await text(page, '#acc-verdict')), `${sum} ${await text(page, '#acc-verdict')}`);
        check('39.6: the choice is in the URL', new URL(page.url()).searchParams.get('op') === 'cp.async/16/cg', page.url());
        setPhase('thread-error');
        const refused = accessRefused();
        await routeReady(page, lay({ layout: '(_32,_32):(_32,_1)', thread: cp, op: 'st' }));
        await refused;
        const aerr = await text(page, '#acc-error');
        check('39.6: a kind without its width: the API asks for the bytes (no 4-way conflict drawn)',
            /^bytes: required/.test(aerr) && (await verdict()) === -1, aerr);
        setPhase('valid');
        const ssA = '% LayoutA: ArithTuple(_0,_0) o ((_128,_1,_1),((_64,_16),(_1,_1))):((_0,_0,_0),((_1@0,_1@1),(_0,_0)))';
        await routeReady(page, lay({ layout: 'Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))', thread: ssA }));
        const wv = await text(page, '#acc-verdict');
        check('39.6: an SM90 SS LayoutA: read by descriptor, the measured 4 wavefronts a warp instruction, no conflict',
            await page.$eval('#acc-verdict', (e) => e.dataset.descriptor === '1') && (await verdict()) === 4 && /by descriptor/.test(wv) && /no bank conflict/.test(wv) &&
            (await text(page, '#acc-error')) === '', wv);

        // 5: ncu --csv --metrics of three launches with long names: none picked, then one
        await routeReady(page, lay({ layout: '(_64,_64):(_64,_1)', atom: 'row_walk_32' }));
        const names = [0, 1, 2].map((k) => `void gemm_kernel<cutlass::half_t, ${k}, cute::Layout<cute::tuple<cute::C<${8 * (k + 1)}>, cute::C<64>>>>(const T *, T *, int)`);
        const head = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n';
        const row = (k, m, v) => `"${k}","1","app","h","${names[k]}","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","Command line profiler metrics","${m}","","${v}"\n`;
        const csv = head + [0, 1, 2].map((k) => row(k, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 6 * k) + row(k, 'smsp__inst_executed_op_shared_ld.sum', 2)).join('');
        await page.fill('#ncu-text', csv);
        setPhase('ncu-error');
        let before = await page.evaluate(() => Number(document.body.dataset.ncuReady || 0));
        await page.click('#ncu-go');
        await page.waitForFunction((n) => Number(document.body.dataset.ncuReady || 0) > n, before);
        setPhase('valid');
        const listed = await page.$$eval('#ncu-launch option', (os) => os.map((o) => o.textContent));
        check('39.5: three launches and none picked: the menu lists them by their full names',
            await page.$eval('#ncu-launch', (e) => !e.hidden) && names.every((n, k) => listed.includes(`${k}: ${n}`)) &&
            /launch: the text holds 3 launches/.test(await text(page, '#ncu-out')), listed.join(' | '));
        before = await page.evaluate(() => Number(document.body.dataset.ncuReady || 0));
        await page.selectOption('#ncu-launch', '2');
        await page.waitForFunction((n) => Number(document.body.dataset.ncuReady || 0) > n, before);
        const out = await text(page, '#ncu-out');
        check('39.5: the launch picked is explained, named in full, and the command quotes its regex',
            out.includes(names[2]) && /= 12/.test(out) && out.includes("-k 'regex:^void gemm_kernel") && out.includes('\\(const T \\*, T \\*, int\\)$\''), out.slice(0, 600));
        await t.shot(page, { path: path.join(SHOTS, 'layout_issue39.png'), fullPage: true });
    });

    await step('layout page: issue 39.5: ncu --page details with sections, as ncu 2025.3 wrote it on an H200', async () => {
        // tests/data/ncu_details: a 32x32 fp32 tile read by columns, 32 loads of 32 wavefronts
        await routeReady(page, lay({ layout: '(_32,_32):(_32,_1)', bits: '32', atom: 'col_walk_32' }));
        const explainText = async (file) => {
            await page.fill('#ncu-text', fs.readFileSync(new URL('../data/ncu_details/' + file, import.meta.url), 'utf8'));
            const before = await page.evaluate(() => Number(document.body.dataset.ncuReady || 0));
            await page.click('#ncu-go');
            await page.waitForFunction((n) => Number(document.body.dataset.ncuReady || 0) > n, before);
            return {
                v: await page.$eval('.lay-ncu-verdict', (e) => [e.dataset.verdict, e.dataset.predicted]),
                out: await text(page, '#ncu-out'),
                rerun: await page.$$eval('.lay-rerun', (es) => es.map((e) => e.textContent)),
            };
        };
        const raw = await explainText('raw_sections.csv');
        const all = await explainText('details_all.csv');
        check('39.5: --print-details all: read as details, the raw page\'s 992 of 32 x 31, reproduced, no re-run offered',
            all.v.join() === 'reproduced,992' && raw.v.join() === all.v.join() && /read as\s*details, launch 0: column_read\(float \*, const float \*\)/.test(all.out) &&
            /l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld\.sum = 992/.test(all.out) && all.rerun.length === 0, all.out.slice(0, 400));
        const def = await explainText('details_sections.csv');
        check('39.5: the default details page: the rule\'s numbers, said to be the rule\'s, and the command that prints the counters',
            def.v.join() === 'reproduced,992' && /ncu's rule text, not a counter: SharedMemoryConflicts \(line 8\): 32 requests, 992 bank conflicts, 1024 wavefronts of shared loads/.test(def.out) &&
            def.rerun.length === 1 && def.rerun[0] === "ncu --section MemoryWorkloadAnalysis_Tables --print-details all --csv --page details --kernel-name-base demangled -k 'regex:^column_read\\(float \\*, const float \\*\\)$' ./your_app",
            def.out.slice(0, 600) + ' | ' + def.rerun.join());
        // the commands wrap (a --metrics list has no blank to break at): nothing scrolls sideways
        const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        check('39.5: at 1440x900 the answer and its commands fit the width (no sideways scroll)', wide[0] <= wide[1], wide.join(' > '));
        // what a user sees at 1440x900 with the answer in view
        await page.$eval('#ncu-out', (e) => e.scrollIntoView({ block: 'center' }));
        await t.shot(page, { path: path.join(SHOTS, 'layout_ncu_details.png') });
    });
}
