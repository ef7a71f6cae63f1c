// extras_checks.mjs - browser checks of the visualizer extras: the column
// trace, the validation banner's fix hints, element types, the code panel,
// keyboard reach, themes / palette / presenter mode in the URL, SVG and PNG
// export, and the README screenshots (build/screenshots/readme.png and
// readme-page.png; copied to docs/screenshot.png and docs/page.png when
// SWZ_UPDATE_SCREENSHOT=1).

import fs from 'node:fs';
import path from 'node:path';
import { expectVerdict } from './access_checks.mjs';

async function postJSON(url, body) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

export async function extrasChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, afterLoad, text, SHOTS, ROOT } = t;
    const q = (b, m, s, rows = '', extra = {}) => ({ b: String(b), m: String(m), s: String(s), bank_bytes: '4', banks: '32', ...(rows === '' ? {} : { rows: String(rows) }), match_bank_row: '0', ...extra });

    // ---- trace a logical column ----
    await step('trace', async () => {
        await gotoReady(page, base + '?b=3&m=4&s=3&tcol=3');
        const { body: d } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3)));
        const g = d.grid, T = d.tile.size, C = 3;
        const rows = await page.$$eval('#trace-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
        check(`trace: one row per tile row (${T})`, rows.length === T, `${rows.length}`);
        let bad = null;
        for (let r = 0; r < T && !bad; r++) {
            const p = g.phys_of[r * g.cols + C];
            if (!rows[r][1].startsWith(`(${r}, ${C})`) || !rows[r][2].startsWith(`(${Math.floor(p / g.cols)}, ${p % g.cols})`)) bad = `row ${r}: ${rows[r]}`;
            const b = g.bank_of[p];
            if (!bad && !rows[r][2].endsWith(`${b}-${b + d.unit.banks_spanned - 1}`)) bad = `row ${r} banks: ${rows[r][2]}`;
        }
        check('trace: slots and banks from /api/swizzle phys_of and bank_of', !bad, bad || '');
        const pad = (o) => o.concat(Array(32 - o.length).fill(null));
        const plain = [], swz = [];
        for (let r = 0; r < T; r++) { const l = r * g.cols + C; plain.push(l * d.unit.bytes); swz.push(g.phys_of[l] * d.unit.bytes); }
        const cp = (await postJSON(base + 'api/conflicts', { op: 'ld', bytes: 16, offsets: pad(plain), bank_bytes: 4, banks: 32 })).body;
        const cs = (await postJSON(base + 'api/conflicts', { op: 'ld', bytes: 16, offsets: pad(swz), bank_bytes: 4, banks: 32 })).body;
        check('trace: verdict without swizzle from /api/conflicts', (await text(page, '#trace-plain')) === expectVerdict(cp), await text(page, '#trace-plain'));
        check('trace: verdict with swizzle from /api/conflicts', (await text(page, '#trace-swz')) === expectVerdict(cs), await text(page, '#trace-swz'));
        check('trace: the swizzle fixes this column (8 -> 1 wavefronts)', cp.wavefronts === 8 && cs.wavefronts === 1, `${cp.wavefronts} -> ${cs.wavefronts}`);
        // The page reads all of it from one /api/trace answer (CONTRACT.md), which must agree with the above.
        const { status: ts, body: tr } = await getJSON(apiURL(base, 'trace', { ...q(3, 4, 3), col: String(C) }));
        check('trace: /api/trace answers column 3 with one cell per tile row', ts === 200 && Array.isArray(tr.cells) && tr.cells.length === T, `status ${ts}`);
        check('trace: /api/trace agrees with phys_of and /api/conflicts', ts === 200 && tr.cells.every((x, r) => x.swizzled.slot === g.phys_of[r * g.cols + C]) &&
            tr.plain.wavefronts === cp.wavefronts && tr.swizzled.wavefronts === cs.wavefronts, JSON.stringify(tr).slice(0, 200));
        const tcells = await t.readView(page, 'grid-swz'), traced = tcells.filter((c) => c.traced).map((c) => c.c);
        check('trace: the maps trace the column', traced.length === g.rows && traced.every((c) => c === C), `${traced}`);
        // readView holds the cells off the trace to their colour, faded.
        const offTrace = tcells.filter((c) => !c.traced);
        check('trace: the other cells are painted faded, with their labels', offTrace.length > 0 && offTrace.every((c) => !String(c.label).startsWith('pixels')),
            JSON.stringify(offTrace.find((c) => String(c.label).startsWith('pixels'))));
        // Clicking a cell traces its column.
        const P = 13, l = g.log_of[P], col = l % g.cols;
        const before = await page.evaluate(() => document.body.dataset.traceReady);
        await t.clickCell(page, 'grid-swz', P);
        await page.waitForFunction((b) => document.body.dataset.traceReady !== b, before);
        check('trace: a click moves the traced column (URL tcol)', new URL(page.url()).searchParams.get('tcol') === String(col) && (await page.inputValue('#trace-col')) === String(col));
        await t.shot(page.locator('#trace'), { path: path.join(SHOTS, 'trace.png') });
    });

    // ---- the banner says how to fix ----
    await step('banner fix hints', async () => {
        t.setPhase('invalid');
        await routeReady(page, base + '?b=3&m=4&s=1');
        const { body } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 1)));
        check('banner: what (the API message)', (await text(page, '#banner-message')) === body.error.message);
        check('banner: how to fix a bad S: make |S| >= B', /make \|S\| >= B/.test(await text(page, '#banner-fix')), await text(page, '#banner-fix'));
        check('banner: names the field in words', /Invalid S \(SShift\)/.test(await text(page, '#banner')), await text(page, '#banner'));
        await routeReady(page, base + '?b=3&m=4&s=3&rows=12');
        const { body: b2 } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3, 12)));
        check('banner: rows refused by the API', b2.error && b2.error.field === 'rows');
        check('banner: how to fix rows', /multiple of 2\^B rows/.test(await text(page, '#banner-fix')), await text(page, '#banner-fix'));
        check('banner: panels wait for valid parameters', await page.$eval('#acc-result', (e) => e.hidden) && /Fix the parameters/.test(await text(page, '#trace')));
        await t.shot(page, { path: path.join(SHOTS, 'banner.png') });
        t.setPhase('valid');
    });

    // ---- element types ----
    await step('element types', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        const { body: d } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3)));
        const labels = async () => (await t.readView(page, 'grid-swz')).filter((x) => x.label !== null).map((x) => ({ c: x.c, t: x.label }));
        await page.selectOption('#elem', 'fp16');
        await page.waitForFunction(() => /elem=fp16/.test(location.search));
        let ls = await labels();
        check('fp16: cells show the first element index (column x 8)', ls.length === 64 && ls.every((x) => x.t === String(x.c * 8)), JSON.stringify(ls.slice(0, 9)));
        check('fp16: element-unit swizzle Swizzle<3,3,3>', /Swizzle<3,3,3>/.test(await text(page, '#elem-swizzle')), await text(page, '#elem-swizzle'));
        check('fp16: code panel gives cute::Swizzle<3,3,3>{}', (await text(page, '#code-elem')).startsWith('cute::Swizzle<3,3,3>{}'));
        await page.selectOption('#elem', 'fp32');
        await page.waitForFunction(() => /elem=fp32/.test(location.search));
        ls = await labels();
        check('fp32: labels are column x 4', ls.length === 64 && ls.every((x) => x.t === String(x.c * 4)), JSON.stringify(ls.filter((x) => x.t !== String(x.c * 4)).slice(0, 4)));
        check('fp32: element-unit swizzle Swizzle<3,2,3>', /Swizzle<3,2,3>/.test(await text(page, '#elem-swizzle')));
        const title = (await t.hoverCell(page, 'grid-swz', 1)) || '';
        const c1 = d.grid.log_of[1] % d.grid.cols;
        check('fp32: hover names the elements of the unit', title.includes(`fp32 elements ${c1 * 4}..${c1 * 4 + 3}`), title);
        await page.selectOption('#elem', 'fp8');
        await page.waitForFunction(() => /elem=fp8/.test(location.search));
        check('fp8: element-unit swizzle is the byte one', /Swizzle<3,4,3>/.test(await text(page, '#elem-swizzle')));
        // A 2-byte unit cannot hold an fp32 element.
        t.setPhase('bad-access');   // 2-byte units are too narrow for the 4-byte patterns: the API says so
        await gotoReady(page, base + '?b=1&m=1&s=1&elem=fp32');
        check('2-byte units: the access view shows the API\'s reason and a fix for M', /narrower than this pattern/.test(await text(page, '#acc-error-message')) &&
            /unit \(2\^M bytes\) at least as wide as one access/.test(await text(page, '#acc-error-fix')), await text(page, '#acc-error'));
        t.setPhase('valid');
        check('fp32 on 2-byte units: no element form', /no element form/.test(await text(page, '#elem-swizzle')) && /needs M >= 2/.test(await text(page, '#elem-swizzle')), await text(page, '#elem-swizzle'));
        check('elem survives a reload (URL)', (await page.inputValue('#elem')) === 'fp32');
        await page.selectOption('#elem', '');
        await page.waitForFunction(() => !/elem=/.test(location.search));
        ls = await labels();
        check('units again: labels are logical columns', ls.length > 0 && ls.every((x) => x.t === String(x.c)));
    });

    // ---- negative S: units move between rows; "Cells show: logical row" ----
    await step('cells show logical rows', async () => {
        // Swizzle<2,4,-4>: YYY = bits [4,6) (column), ZZZ = bits [8,10) (row), so
        // physical row = logical row XOR (column & 3) and every column stays put.
        await routeReady(page, base + '?b=2&m=4&s=-4&rows=8');
        const { body: d } = await getJSON(apiURL(base, 'swizzle', q(2, 4, -4, 8)));
        const g = d.grid, cols = g.cols;
        check('S=-4: the API moves units (log_of is not the identity)', g.log_of.some((l, p) => l !== p));
        check('S=-4: ... and only between rows', g.log_of.every((l, p) => l % cols === p % cols));
        const note = () => page.$eval('#grid-note', (e) => (e.hidden ? '' : e.textContent));
        check('S=-4: the grid note says units move between rows', /moves units between rows, not along them/.test(await note()), await note());
        let plain = await t.readView(page, 'grid-plain'), swz = await t.readView(page, 'grid-swz');
        check('S=-4 by column: the swizzled grid reads like the plain one', swz.length === g.log_of.length &&
            swz.every((c, i) => c.label === String(g.log_of[c.p] % cols) && c.label === plain[i].label));
        await page.click('#grid-note button[data-show="row"]');
        await page.waitForFunction(() => /show=row/.test(location.search));
        check('Show logical rows: the menu follows', (await page.inputValue('#show')) === 'row');
        plain = await t.readView(page, 'grid-plain'); swz = await t.readView(page, 'grid-swz');
        const rowOf = (l) => Math.floor(l / cols);
        check('by row: every swizzled cell shows the API\'s logical row', swz.length === g.log_of.length &&
            swz.every((c) => c.l === g.log_of[c.p] && c.label === String(rowOf(g.log_of[c.p]))), JSON.stringify(swz.slice(0, 4)));
        check('by row: every plain cell shows its own row', plain.every((c) => c.label === String(rowOf(c.p))));
        check('by row: the two grids now differ', swz.some((c, i) => c.label !== plain[i].label));
        // readView holds each cell's fill to the palette colour of its key.
        check('by row: cells are coloured by logical row', swz.every((c) => c.key === rowOf(c.l)), JSON.stringify(swz.slice(0, 4)));
        check('by row: the note is gone', (await note()) === '');
        check('by row: the help says so', /logical row numbers/.test(await text(page, '#elem-swizzle')), await text(page, '#elem-swizzle'));
        const tile = await t.readView(page, 'tile-swz');
        check('by row: the tile shows rows of the API\'s tile map', tile.length === d.tile.log_of.length &&
            tile.every((c) => c.label === String(Math.floor(d.tile.log_of[c.p] / d.tile.size))));
        await t.settled(page);
        await page.reload();
        await page.waitForFunction(() => document.body.dataset.ready);
        check('show=row survives a reload', (await page.inputValue('#show')) === 'row' && (await t.readView(page, 'grid-swz')).every((c) => c.label === String(rowOf(c.l))));
        await page.goBack();
        await page.waitForFunction(() => !/show=row/.test(location.search));
        await page.waitForFunction(() => document.querySelector('#show').value === '');
        swz = await t.readView(page, 'grid-swz');
        check('back: columns again', swz.length > 0 && swz.every((c) => c.label === String(c.l % cols)));
        // A swizzle that moves units along rows gets no such note.
        await routeReady(page, base + '?b=3&m=4&s=3');
        check('S=3: no between-rows note', (await note()) === '');
    });

    // ---- how a swizzle moves units: the API's slot_rule, never col XOR row for all ----
    await step('slot rule', async () => {
        const formula = () => page.evaluate(() => { const g = document.getElementById('formula-grid'); return { rule: g ? g.dataset.rule : null, text: document.getElementById('formula').textContent }; });
        const ruleOf = async (qq) => (await getJSON(apiURL(base, 'swizzle', qq))).body.slot_rule;
        // Every swizzle through the page's router (routeReady).
        await routeReady(page, base + '?b=3&m=4&s=3');
        let f = await formula();
        check('slot rule 128B: the API says col_xor_row', (await ruleOf(q(3, 4, 3))) === 'col_xor_row');
        check('slot rule 128B: the formula prints physical slot = col_in_tile XOR row_mod', f.rule === 'col_xor_row' && f.text.includes('physical slot = col_in_tile XOR row_mod'), f.text);
        // Swizzle<2,4,-3>: units move between rows (issue 13: cell (1,2) is physical row 3, column 2).
        await routeReady(page, base + '?b=2&m=4&s=-3&sel=1,2');
        await page.waitForFunction(() => document.body.dataset.inspected === '1,2', null, { timeout: t.TIMEOUT });
        const { body: ins } = await getJSON(apiURL(base, 'inspect', { ...q(2, 4, -3), row: '1', col: '2' }));
        f = await formula();
        check('slot rule <2,4,-3>: the API says row_xor_col', ins.slot_rule === 'row_xor_col' && (await ruleOf(q(2, 4, -3))) === 'row_xor_col', ins.slot_rule);
        check('slot rule <2,4,-3>: the formula gives the row form, not col XOR row', f.rule === 'row_xor_col' && f.text.includes('physical row  = row_in_tile XOR col_mod') &&
            !f.text.includes('col_in_tile XOR row_mod'), f.text);
        check('slot rule <2,4,-3>: the inspector shows the API\'s physical row in tile', (await page.getAttribute('#ins-xor', 'data-rule')) === 'row_xor_col' &&
            (await text(page, '#ins-phys-row')) === String(ins.tile.phys_row_in_tile) && (await text(page, '#ins-row-in-tile')) === String(ins.tile.row_in_tile) &&
            (await text(page, '#ins-col-in-tile')) === String(ins.tile.col_in_tile), await text(page, '#ins-xor'));
        check('slot rule <2,4,-3>: cell (1,2) is at physical row 3, column 2 (API)', ins.physical.row === 3 && ins.physical.col === 2 && ins.tile.slot === ins.tile.phys_col_in_tile,
            JSON.stringify([ins.physical, ins.tile]));
        // match_bank_row with Swizzle<3,2,3>: neither form holds; the bit ranges come from the masks.
        await routeReady(page, base + '?b=3&m=2&s=3&match=1&sel=1,2');
        await page.waitForFunction(() => document.body.dataset.inspected === '1,2', null, { timeout: t.TIMEOUT });
        const { body: dg } = await getJSON(apiURL(base, 'swizzle', q(3, 2, 3, '', { match_bank_row: '1' })));
        const mk = dg.masks, bits = `address bits [${mk.zzz_lo}, ${mk.zzz_hi}) ^= bits [${mk.yyy_lo}, ${mk.yyy_hi})`;
        f = await formula();
        check('slot rule <3,2,3> match: the API says general', dg.slot_rule === 'general', dg.slot_rule);
        check('slot rule <3,2,3> match: the formula gives the bit ranges of the masks', f.rule === 'general' && f.text.includes(bits) && !f.text.includes('XOR row_mod'), f.text);
        check('slot rule <3,2,3> match: the inspector gives them too', (await page.getAttribute('#ins-xor', 'data-rule')) === 'general' && (await text(page, '#ins-rule-text')) === bits,
            await text(page, '#ins-xor'));
        // No swizzle: nothing moves.
        await routeReady(page, base + '?b=0&m=4&s=3');
        f = await formula();
        check('slot rule none: identity, nothing moves', (await ruleOf(q(0, 4, 3))) === 'identity' && f.rule === 'identity' && /nothing moves/.test(f.text), f.text);
    });

    // ---- code panel ----
    await step('code panel', async () => {
        const cases = [
            [3, 4, 3, 'CU_TENSOR_MAP_SWIZZLE_128B', /B128/, /^swizzle mode 2 /],
            [1, 4, 3, 'CU_TENSOR_MAP_SWIZZLE_32B', /B32/, /^swizzle mode 6 /],
            [2, 5, 2, 'CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (CUDA 12.8+)', /no sm_90/, /^swizzle mode 1 /],
            [0, 4, 3, 'CU_TENSOR_MAP_SWIZZLE_NONE', /INTERLEAVE/, /^swizzle mode 0 /],
        ];
        // Every case through the page's router (routeReady).
        for (const [b, m, s, tma, wg, tc] of cases) {
            await routeReady(page, base + `?b=${b}&m=${m}&s=${s}`);
            const { body: d } = await getJSON(apiURL(base, 'swizzle', q(b, m, s)));
            const want = d.masks.yyy ? `o ^ ((o & 0x${d.masks.yyy.toString(16)}) >> ${s})` : null;
            check(`code <${b},${m},${s}>: CuTe`, (await text(page, '#code-cute')) === `cute::Swizzle<${b}, ${m}, ${s}>{}`);
            check(`code <${b},${m},${s}>: C expression from the API masks`, want === null ? (await text(page, '#code-c')).startsWith('o ') : (await text(page, '#code-c')) === want, await text(page, '#code-c'));
            check(`code <${b},${m},${s}>: TMA ${tma}`, (await text(page, '#code-tma')) === tma, await text(page, '#code-tma'));
            check(`code <${b},${m},${s}>: WGMMA`, wg.test(await text(page, '#code-wgmma')), await text(page, '#code-wgmma'));
            check(`code <${b},${m},${s}>: tcgen05`, tc.test(await text(page, '#code-tcgen05')), await text(page, '#code-tcgen05'));
        }
        await routeReady(page, base + '?b=2&m=4&s=-4');
        const { body: dn } = await getJSON(apiURL(base, 'swizzle', q(2, 4, -4)));
        check('code <2,4,-4>: negative shift reads << 4', (await text(page, '#code-c')) === `o ^ ((o & 0x${dn.masks.yyy.toString(16)}) << 4)`, await text(page, '#code-c'));
        check('code <2,4,-4>: no hardware mode', /no TMA \/ WGMMA swizzle mode matches/.test(await text(page, '#code-tma')));
        await t.shot(page.locator('#code'), { path: path.join(SHOTS, 'code.png') });
    });

    // ---- keyboard ----
    await step('keyboard', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        const wanted = await page.evaluate(() => {
            let n = 0;
            const out = [];
            for (const e of document.querySelectorAll('input, select, textarea, button, a[href], [tabindex]')) {
                if (e.tabIndex < 0 || e.disabled || !e.getClientRects().length || e.closest('[hidden]')) continue;
                if (e.type === 'radio' && !e.checked) continue;   // arrows move inside a radio group
                if (!e.dataset.kb) e.dataset.kb = String(n++);
                out.push(e.dataset.kb + ' ' + (e.id || e.dataset.export || e.tagName));
            }
            return out;
        });
        await page.evaluate(() => document.activeElement && document.activeElement.blur());
        const reached = new Set();
        for (let i = 0; i < wanted.length + 6; i++) {
            await page.keyboard.press('Tab');
            const k = await page.evaluate(() => document.activeElement && document.activeElement.dataset.kb);
            if (k) reached.add(k);
        }
        const missed = wanted.filter((w) => !reached.has(w.split(' ')[0]));
        check(`keyboard: Tab reaches all ${wanted.length} visible controls`, missed.length === 0 && wanted.length > 30, missed.join(', '));
        const ids = wanted.map((w) => w.split(' ')[1]);
        check('keyboard: they include the maps, the step slider, play and the exports',
            ['grid-swz', 'acc-step', 'acc-play', 'svg', 'png', 'theme', 'palette', 'present', 'elem', 'trace-col'].every((x) => ids.includes(x)), ids.join(','));
        // Arrows on a focused map start at its first cell and move the inspected
        // cell to the one drawn next to it (issue 27.7): on the swizzled grid,
        // below physical (0, 0) is physical (1, 0), logical log_of[cols].
        const { body: dk } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3)));
        const below = dk.grid.log_of[dk.grid.cols], want = `${Math.floor(below / dk.grid.cols)},${below % dk.grid.cols}`;
        await page.focus('#grid-swz');
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => document.body.dataset.inspected === '0,0');
        await page.keyboard.press('ArrowDown');
        await page.waitForFunction((w) => document.body.dataset.inspected === w, want);
        check(`keyboard: arrows on a focused map inspect (0,0) then the drawn cell below it (${want})`, new URL(page.url()).searchParams.get('sel') === want);
        const tr0 = await page.evaluate(() => document.body.dataset.traceReady);
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !document.body.dataset.inspected);
        await page.waitForFunction((b) => document.body.dataset.traceReady !== b, tr0);   // the trace panel followed
        const u = new URL(page.url());
        check('keyboard: Escape clears the selection and the trace', !u.searchParams.get('sel') && !u.searchParams.get('tcol') && (await page.$$('#grid-swz rect.sel[visibility="visible"]')).length === 0);
    });

    // ---- themes, palette, presenter: in the URL ----
    await step('display modes', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=32');
        const look = () => page.evaluate(() => ({
            theme: document.documentElement.dataset.theme, present: document.documentElement.dataset.present,
            palette: document.documentElement.dataset.palette,
            bg: getComputedStyle(document.body).backgroundColor, fs: parseFloat(getComputedStyle(document.body).fontSize),
            // The canvas pixel inside the first cell coloured k4.
            k4: (() => {
                const v = document.getElementById('grid-swz').mapView, c = v.drawnCells().find((x) => x.key % 16 === 4);
                const cv = v.cv, dpr = cv.width / parseFloat(cv.style.width);
                const px = cv.getContext('2d').getImageData(Math.floor((c.x + 3 - parseFloat(cv.style.left)) * dpr), Math.floor((c.y + 3 - parseFloat(cv.style.top)) * dpr), 1, 1).data;
                return String([...px]);
            })(),
        }));
        // readView holds every painted cell to the palette of the moment.
        const painted = async () => (await t.readView(page, 'grid-swz')).filter((c) => String(c.label).startsWith('pixels'));
        const light = await look();
        await t.shot(page, { path: path.join(SHOTS, 'theme-light.png') });
        await page.selectOption('#theme', 'dark');
        const dark = await look();
        check('dark: theme applied and in the URL', dark.theme === 'dark' && dark.bg !== light.bg && new URL(page.url()).searchParams.get('theme') === 'dark');
        check('dark: the maps are painted in the dark palette', (await painted()).length === 0, JSON.stringify((await painted())[0]));
        await t.shot(page, { path: path.join(SHOTS, 'theme-dark.png') });
        await t.shot(page.locator('#access'), { path: path.join(SHOTS, 'access-dark.png') });
        await page.selectOption('#palette', 'cb');
        const cb = await look();
        check('palette: colour-blind safe colours and in the URL', cb.palette === 'cb' && cb.k4 !== dark.k4 && new URL(page.url()).searchParams.get('palette') === 'cb', `${dark.k4} -> ${cb.k4}`);
        check('palette: the maps are painted in it, labels with their halo', (await painted()).length === 0, JSON.stringify((await painted())[0]));
        await page.selectOption('#theme', '');
        await page.check('#present');
        await page.waitForTimeout(200);
        const pres = await look();
        check('presenter: larger type and in the URL', pres.present === '1' && pres.fs >= light.fs + 4 && new URL(page.url()).searchParams.get('present') === '1', `${light.fs} -> ${pres.fs}`);
        check('presenter: the grid was laid out again, bigger', await page.$eval('#tile-swz svg', (s) => Number(s.getAttribute('width'))) > 380);
        await t.shot(page, { path: path.join(SHOTS, 'theme-presenter.png') });
        await t.shot(page.locator('#access'), { path: path.join(SHOTS, 'access-presenter.png') });
        await gotoReady(page, page.url());
        const again = await look();
        check('display modes survive a reload', again.present === '1' && again.palette === 'cb' && again.theme === 'light' &&
            (await page.isChecked('#present')) && (await page.inputValue('#palette')) === 'cb');
        const tr1 = await page.evaluate(() => document.body.dataset.traceReady);
        await page.goBack();
        await page.waitForFunction(() => document.documentElement.dataset.present === '0');
        await page.waitForFunction((b) => document.body.dataset.traceReady !== b, tr1);   // panels redrawn after popstate
        check('back undoes presenter mode', (await look()).present === '0');
    });

    // ---- export SVG and PNG ----
    await step('export', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        const grab = async (view, kind) => {
            const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`.xbar[data-for="${view}"] button[data-export="${kind}"]`)]);
            return { name: dl.suggestedFilename(), bytes: fs.readFileSync(await dl.path()) };
        };
        const parse = (xml) => page.evaluate((x) => {
            const doc = new DOMParser().parseFromString(x, 'image/svg+xml');
            const err = doc.querySelector('parsererror');
            const root = doc.documentElement;
            const cells = [...doc.querySelectorAll('rect[data-p]:not([data-ph])')];
            return { err: err ? err.textContent : null, root: root.localName, ns: root.namespaceURI, w: root.getAttribute('width'), h: root.getAttribute('height'),
                cells: cells.length, filled: cells.filter((c) => (c.getAttribute('fill') || 'none') !== 'none').length,
                labels: doc.querySelectorAll('text > tspan').length, classes: doc.querySelectorAll('[class]').length, chips: doc.querySelectorAll('g[data-lanes]').length,
                axes: [...doc.querySelectorAll('text')].filter((e) => !e.querySelector('tspan') && /^\d+$/.test(e.textContent)).length,
                paths: [...doc.querySelectorAll('path')].map((e) => e.getAttribute('d')).filter(Boolean) };
        }, xml);
        const svg = await grab('grid-swz', 'svg');
        const s = await parse(svg.bytes.toString('utf8'));
        // Issue 14: files are named after the state (a dark export must not overwrite the light one).
        check('export SVG: file name', svg.name === 'swizzlescope-grid-swz-Swizzle_3_4_3-8x8-32x4B.svg', svg.name);
        check('export SVG: parses as XML with an svg root', !s.err && s.root === 'svg' && s.ns === 'http://www.w3.org/2000/svg', s.err || s.root);
        check('export SVG: all 64 cells, each with its fill written in', s.cells === 64 && s.filled === 64, JSON.stringify(s));
        check('export SVG: stands alone (no class needs the page CSS)', s.classes === 0 && s.labels >= 64);
        const png = await grab('grid-swz', 'png');
        const sig = png.bytes.subarray(0, 8).toString('hex');
        const pw = png.bytes.readUInt32BE(16), ph = png.bytes.readUInt32BE(20);
        check('export PNG: a PNG file', sig === '89504e470d0a1a0a' && png.name === 'swizzlescope-grid-swz-Swizzle_3_4_3-8x8-32x4B.png', `${sig} ${png.name}`);
        check('export PNG: 2x the SVG size', pw === 2 * Number(s.w) && ph === 2 * Number(s.h), `${pw}x${ph} vs ${s.w}x${s.h}`);
        const bc = await parse((await grab('acc-banks', 'svg')).bytes.toString('utf8'));
        check('export SVG of the access bank chart parses, with its chips', !bc.err && bc.root === 'svg' && bc.chips > 0, JSON.stringify(bc));
        const tile = await parse((await grab('tile-plain', 'svg')).bytes.toString('utf8'));
        check('export SVG of the plain tile parses', !tile.err && tile.cells === 64);
        // A tile's axis labels and frame are painted on its canvas (mapview.js): its export still holds them, at the map's size.
        check('export SVG of the plain tile: its 16 axis labels and its frame', tile.axes === 16 && tile.paths.includes('M19 18h352v352h-352Z') && tile.w === '374', JSON.stringify(tile));
        await afterLoad(page, () => page.selectOption('#preset', '64B'));
        const t4 = await parse((await grab('tile-swz', 'svg')).bytes.toString('utf8'));
        check('export SVG of a 4x4 tile: 16 cells, 8 axis labels, its frame, the map\'s width (not its box\'s)', !t4.err && t4.cells === 16 && t4.axes === 8 &&
            t4.paths.includes('M19 18h176v176h-176Z') && t4.w === '198', JSON.stringify(t4));
        const after = await page.evaluate(() => { const e = document.getElementById('tile-swz'), svg = e.querySelector('svg');
            // ink on the canvas where the axis labels and the frame are (the canvas is at the map's origin, dpr 1 here)
            const cv = e.querySelector('canvas.cells'), g = cv.getContext('2d'), L = e.mapView.lay, [fx, fy, fw] = L.frame;
            const inked = (x, y, w, h) => { const px = g.getImageData(x, y, w, h).data; let n = 0; for (let i = 3; i < px.length; i += 4) n += px[i] > 0; return n; };
            return { w: svg.getAttribute('width'), texts: svg.querySelectorAll('text').length, cells: e.mapView.drawnCells().length,
                colAxis: inked(fx, 0, fw, L.th - 2), rowAxis: inked(0, fy, L.lw - 2, 40), frame: inked(fx - 1, fy + fw / 2, 2, 1), offset: [cv.style.left, cv.style.top] }; });
        check('after the export the tile is painted again, its SVG at its box\'s size, without text', after.w === '374' && after.texts === 0 && after.cells === 16, JSON.stringify(after));
        check('the tile\'s canvas holds its axis labels and its frame', after.colAxis > 20 && after.rowAxis > 5 && after.frame === 2 && after.offset.join() === '0px,0px', JSON.stringify(after));
        await afterLoad(page, () => page.selectOption('#preset', '128B'));
        // A big map exports whole, not just its visible band.
        await routeReady(page, base + '?b=3&m=4&s=3&rows=1024');
        const big = await grab('grid-swz', 'svg');
        const bs = await parse(big.bytes.toString('utf8'));
        check('export SVG of a 1024-row grid has all 8192 cells', !bs.err && bs.cells === 8192 && big.name === 'swizzlescope-grid-swz-Swizzle_3_4_3-1024x8-32x4B.svg', `${bs.cells} ${big.name}`);
        const { body: dBig } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3, 1024)));
        const band = await t.readView(page, 'grid-swz');
        const wrong = band.find((c) => c.l !== dBig.grid.log_of[c.p] || c.label !== String(c.l % dBig.grid.cols));
        check('export leaves the band painted again, as the API has it', band.length > 0 && band.length < 8192 && !wrong, `${band.length} cells; ${JSON.stringify(wrong)}`);
    });

    // ---- maps that would be drawn the same are kept ----
    await step('view cache', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=64');
        // A map drawn anew is a new view object (its canvas and SVG are reused).
        await page.evaluate(() => { for (const id of ['grid-swz', 'banks-swz', 'tile-swz']) document.getElementById(id).mapView.__tag = 1; });
        await afterLoad(page, () => page.check('#match'));
        const kept = await page.evaluate(() => ['grid-swz', 'banks-swz', 'tile-swz'].map((id) => document.getElementById(id).mapView.__tag === 1));
        check('view cache: match at 128B gives the same maps, kept (not redrawn)', kept.every(Boolean), JSON.stringify(kept));
        check('view cache: the page stamps the change-to-render time', Number(await page.evaluate(() => document.body.dataset.cycleMs)) > 0);
        const { body: d } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3, 64, { match_bank_row: '1' })));
        const cells = await t.readView(page, 'grid-swz');
        check('view cache: the kept grid still matches the API', cells.length > 0 && cells.every((c) => c.l === d.grid.log_of[c.p]));
        await afterLoad(page, () => page.selectOption('#preset', '64B'));
        // 64B has the 128B grid's shape: the kept grid is updated in place; its 8x8 tile becomes 4x4 and is drawn anew.
        const after = await page.evaluate(() => ['grid-swz', 'tile-swz'].map((id) => document.getElementById(id).mapView.__tag === 1));
        check('view cache: a new swizzle of the same shape updates the kept grid in place', after[0] === true, JSON.stringify(after));
        check('view cache: a new shape (the tile) is drawn anew', after[1] === false, JSON.stringify(after));
        const { body: d64 } = await getJSON(apiURL(base, 'swizzle', q(2, 4, 3, 64, { match_bank_row: '1' })));
        const c64 = await t.readView(page, 'grid-swz');
        check('view cache: the updated grid matches the API', c64.length > 0 && c64.every((c) => c.l === d64.grid.log_of[c.p] && c.c === d64.grid.log_of[c.p] % d64.grid.cols &&
            (c.label === null || c.label === String(c.c))), JSON.stringify(c64.find((c) => c.l !== d64.grid.log_of[c.p])));
        // 4-unit tiles in an 8-unit row: a tile border runs down the middle (none with 128B's 8-unit tiles).
        const tiles = await page.evaluate(() => (document.querySelector('#grid-swz svg path.tiles') || { getAttribute: () => '' }).getAttribute('d') || '');
        check('view cache: the updated grid draws 64B tile borders', /V/.test(tiles), tiles.slice(0, 80));
    });

    // ---- a change the page asked ahead for draws without the network ----
    await step('prefetch', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=64');
        await t.sleep(1500);   // idle time: the page asks ahead for the changes one step away
        const asked = [];
        const onReq = (r) => { if (/\/api\//.test(r.url()) && !r.headers()['x-swz-prefetch']) asked.push(r.url()); };
        const before = await page.evaluate(() => JSON.parse(document.body.dataset.api));
        page.on('request', onReq);
        await afterLoad(page, () => page.selectOption('#preset', '64B'));
        page.off('request', onReq);
        const after = await page.evaluate(() => JSON.parse(document.body.dataset.api));
        check('prefetch: switching to the 64B preset sends no request of its own', asked.length === 0, asked.join(' '));
        check('prefetch: its answers came from those asked ahead', after.prefetch > before.prefetch && after.network === before.network, JSON.stringify([before, after]));
        check('prefetch: and the page shows 64B', (await text(page, '#readout')) === 'Swizzle<2,4,3>' && (await page.inputValue('#preset')) === '64B');
    });

    // ---- README screenshot: 128B with the access view showing a conflict ----
    await step('README screenshot', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=32&pat=col_read&step=0');
        check('screenshot: the access view shows a conflict', /conflict:/.test(await text(page, '#acc-verdict')) && !/conflict-free/.test(await text(page, '#acc-verdict')));
        // build/ always; the committed docs/screenshot.png only on request
        // (SWZ_UPDATE_SCREENSHOT=1), so that a test run leaves the tree clean.
        const out = path.join(ROOT, 'build', 'screenshots', 'readme.png');
        fs.mkdirSync(path.dirname(out), { recursive: true });
        await page.locator('#access').screenshot({ path: out });
        const st = fs.statSync(out);
        check('screenshot: build/screenshots/readme.png written', st.size > 20000, `${st.size} bytes`);
        if (process.env.SWZ_UPDATE_SCREENSHOT === '1')
            fs.copyFileSync(out, path.join(ROOT, 'docs', 'screenshot.png'));
        // The top of the page: the readout, the tile maps and an inspected cell.
        await routeReady(page, base + '?b=3&m=4&s=3&rows=32&sel=2,4');
        const shown = await page.waitForFunction(() => /Logical \(row, col\)\s*\(2, 4\)/.test(document.querySelector('#inspector-body').textContent), null, { timeout: t.TIMEOUT })
            .then(() => true, () => false);
        check('screenshot: the inspector shows the selected cell', shown, await text(page, '#inspector-body'));
        const top = path.join(ROOT, 'build', 'screenshots', 'readme-page.png');
        await page.screenshot({ path: top });
        check('screenshot: build/screenshots/readme-page.png written', fs.statSync(top).size > 20000);
        if (process.env.SWZ_UPDATE_SCREENSHOT === '1')
            fs.copyFileSync(top, path.join(ROOT, 'docs', 'page.png'));
    });
}
