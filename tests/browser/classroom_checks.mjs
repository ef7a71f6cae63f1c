// classroom_checks.mjs - browser checks of issue 14 (the page in front of a
// class), one step per numbered item and one for the lesson mode: each reads
// what the page shows and holds it to the API's answers, fetched here. Each
// failed on the page before the fix (README "Tests" says how to run them alone:
// SWZ_CHECKS=classroom).

import fs from 'node:fs';

const qs = (o) => new URLSearchParams(o).toString();

export async function classroomChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, afterLoad, text, ctx } = t;
    const L = { bank_bytes: '4', banks: '32', match_bank_row: '0' };
    const api = async (endpoint, q) => (await getJSON(apiURL(base, endpoint, q))).body;
    const isBad = (sel) => page.$eval(sel, (e) => e.classList.contains('bad'));
    const afterAccess = async (action) => {
        const before = await page.evaluate(() => Number(document.body.dataset.accessReady || 0));
        await action();
        await page.waitForFunction((b) => Number(document.body.dataset.accessReady || 0) > b, before, { timeout: t.TIMEOUT });
    };
    // Requests refused (4xx) and console errors while fn runs.
    async function hygiene(fn) {
        const bad = [], con = [];
        const onRes = (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`); };
        const onCon = (m) => { if (m.type() === 'error') con.push(m.text()); };
        page.on('response', onRes); page.on('console', onCon);
        try { await fn(); await t.sleep(300); } finally { page.off('response', onRes); page.off('console', onCon); }
        return { bad, con };
    }

    // ---- 1. small presets keep a grid that shows the conflict ----
    await step('issue 14.1: None keeps 8 rows and a column read conflicts', async () => {
        await gotoReady(page, base + '?b=0&m=4&s=3');
        const d = await api('swizzle', { b: '0', m: '4', s: '3', ...L });
        const a = await api('access', { b: '0', m: '4', s: '3', ...L, pattern: 'col_read' });
        check('14.1: None draws at least 8 rows (the peer keeps 8)', d.grid.rows >= 8 && (await text(page, '#stat-grid')).startsWith(`${d.grid.rows}\u00d7`), `${d.grid.rows} rows`);
        check('14.1: the column read on None is a conflict, in the access view', a.cost.bank_conflicts > 0 && await isBad('#acc-verdict'), await text(page, '#acc-verdict'));
        check('14.1: and in the scorecard', await page.$eval('#score-rd-out .verdict', (e) => e.classList.contains('bad')));
        // A pattern that needs more rows than the grid has says so, with the fix.
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&pat=transpose_read');
        const err = await text(page, '#acc-error');
        check('14.1: a pattern needing more rows says so in the panel', /does not fit this grid/.test(err) && /16 rows/.test(err), err);
    });

    // ---- 2. custom offsets: logical by default, physical on request; lane expressions ----
    await step('issue 14.2: logical offsets and lane expressions', async () => {
        const offs = Array.from({ length: 32 }, (_, i) => 128 * i).join(',');
        const q32 = { b: '3', m: '4', s: '3', rows: '32', ...L };
        await routeReady(page, base + `?b=3&m=4&s=3&rows=32&acc=custom&offs=${offs}`);
        const lg = await api('access', { ...q32, offsets: offs, space: 'logical', op: 'ld', bytes: '4' });
        const ph = await api('access', { ...q32, offsets: offs, space: 'physical', op: 'ld', bytes: '4' });
        check('14.2: the API: logical column 4 wavefronts, the same offsets physical 32', lg.cost.wavefronts === 4 && ph.cost.wavefronts === 32, `${lg.cost.wavefronts} / ${ph.cost.wavefronts}`);
        check('14.2: pasted offsets default to logical, and the page says so', await page.isChecked('#acc-space-logical') && /logical/.test(await text(page, '#acc-what')), await text(page, '#acc-what'));
        check('14.2: logical 0,128,... on 128B is the API\'s 4-way, not a 32-way', (await text(page, '#acc-wavefronts')) === String(lg.cost.wavefronts));
        await afterAccess(() => page.check('#acc-space-physical'));
        check('14.2: taken as physical: 32 wavefronts, and the URL says space=physical',
            (await text(page, '#acc-wavefronts')) === String(ph.cost.wavefronts) && new URL(page.url()).searchParams.get('space') === 'physical', await text(page, '#acc-wavefronts'));
        // A lane expression: an error points at its column, a good one is analyzed.
        t.setPhase('bad-access');
        await afterAccess(() => page.check('#acc-mode-expr'));
        await page.fill('#acc-expr', '128*t++');
        await afterAccess(() => page.press('#acc-expr', 'Enter'));
        const bad = await api('access', { ...q32, expr: '128*t++' });
        const col = /^at column (\d+)/.exec(bad.error.message);
        check('14.2: an expression error marks the column the API names', !!col && (await page.$eval('#acc-expr-caret', (e) => !e.hidden)) &&
            (await text(page, '#acc-expr-mark')) === '128*t++'[Number(col[1]) - 1] && (await text(page, '#acc-expr-caret')).includes(`column ${col[1]}`), bad.error.message);
        const ex = 'swz(128*(t%8)+16*(t/8))';
        await page.fill('#acc-expr', ex);
        await afterAccess(() => page.selectOption('#acc-op', 'ldmatrix'));
        t.setPhase('valid');
        const good = await api('access', { ...q32, expr: ex, steps: '1', op: 'ldmatrix', matrices: '4' });
        check('14.2: a lane expression is analyzed as the API answers it', (await text(page, '#acc-wavefronts')) === String(good.cost.wavefronts) &&
            new URL(page.url()).searchParams.get('acc') === 'expr', `${await text(page, '#acc-wavefronts')} vs ${good.cost.wavefronts}`);
    });

    // ---- 3. the inspector's answer where the eye is ----
    await step('issue 14.3: the answer lands next to the clicked cell', async () => {
        for (const [w, h] of [[1440, 900], [1920, 1080], [390, 844]]) {
            await page.setViewportSize({ width: w, height: h });
            await routeReady(page, base + '?b=3&m=4&s=3');
            const d = await api('swizzle', { b: '3', m: '4', s: '3', ...L });
            const P = 10, l = d.grid.log_of[P], row = Math.floor(l / d.grid.cols), c = l % d.grid.cols;
            await t.clickCell(page, 'grid-swz', P);
            await page.waitForFunction((want) => document.body.dataset.inspected === want, `${row},${c}`, { timeout: t.TIMEOUT });
            const ins = await api('inspect', { b: '3', m: '4', s: '3', ...L, row, col: c });
            // Where the swizzled address and the banks show, inside the window:
            // polled until both do (or the timeout), since "inspected" may still
            // hold this cell from an earlier step when the click's answer is not
            // drawn yet; on a miss, where the page stands (a resize's redraw hid
            // the card once: peek.js keeps it now, 2026-11-29).
            const seenNow = ([hex, banks]) => {
                const vis = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= document.documentElement.clientWidth; };
                const all = [...document.querySelectorAll('body *')].filter((e) => e.children.length === 0 && e.offsetParent !== null);
                return { hex: all.some((e) => e.textContent.trim() === hex && vis(e)), banks: all.some((e) => e.textContent.trim() === banks && vis(e)) };
            };
            const want = [ins.physical.hex, `${ins.banks.list[0]}-${ins.banks.list[ins.banks.list.length - 1]}`];
            await page.waitForFunction(`(() => { const s = (${seenNow})(${JSON.stringify(want)}); return s.hex && s.banks; })()`, null, { timeout: t.TIMEOUT }).catch(() => {});
            const seen = await page.evaluate(seenNow, want);
            const where = seen.hex && seen.banks ? null : await page.evaluate(() => ({ url: location.search, inspected: document.body.dataset.inspected, y: scrollY,
                card: [...document.querySelectorAll('[id*="inspect"], .inspector, #addr')].map((e) => `${e.id || e.className}:${e.hidden ? 'hidden' : ''}:${Math.round(e.getBoundingClientRect().top)}:${e.textContent.trim().slice(0, 60)}`) }));
            check(`14.3: at ${w}x${h} the swizzled address ${ins.physical.hex} and banks show inside the window after a click`, seen.hex && seen.banks, JSON.stringify({ seen, want, where }));
        }
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 4. presenter mode enlarges what the back row reads ----
    await step('issue 14.4: presenter mode', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?b=3&m=4&s=3&present=1');
        // (read once no drawing is held: a map out of sight is drawn a frame
        // after the route's stamp, and read before it the sizes were the last
        // drawing's, now and then)
        const sizes = async () => (await t.drawn(page), page.evaluate(() => {
            const v = document.getElementById('grid-swz').mapView, fs = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
            return { cell: v.lay.fs, bankAxis: fs('#banks-swz g.axis-g text'), verdict: fs('#acc-verdict'), chart: fs('#acc-banks svg text'),
                gridW: Number(document.querySelector('#grid-swz svg').getAttribute('width')), side: getComputedStyle(document.querySelector('.sidebar')).display };
        }));
        const s1 = await sizes();
        check('14.4: cell numbers at least 28 px', s1.cell >= 28, JSON.stringify(s1));
        check('14.4: bank labels at least 20 px, chart text at least 20 px', s1.bankAxis >= 20 && s1.chart >= 20, JSON.stringify(s1));
        check('14.4: verdicts at least 28 px', s1.verdict >= 28, JSON.stringify(s1));
        await page.uncheck('#side');
        await page.waitForFunction(() => getComputedStyle(document.querySelector('.sidebar')).display === 'none');
        await t.sleep(300);
        const s2 = await sizes();
        check('14.4: the controls can be hidden (side=hide in the URL), and the maps get the width', s2.side === 'none' && s2.gridW >= s1.gridW &&
            new URL(page.url()).searchParams.get('side') === 'hide', `${JSON.stringify(s2)} vs ${s1.gridW}`);
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 5. errors offer the concrete value that works ----
    await step('issue 14.5: one-click fixes', async () => {
        t.setPhase('invalid');
        await routeReady(page, base + '?b=3&m=4&s=1');
        await page.waitForSelector('#banner-fix-btn', { timeout: t.TIMEOUT });
        const fx = (await api('access', { b: '3', m: '4', s: '1', ...L, pattern: 'col_read', fit: '1' })).fix;
        check('14.5: the banner offers the API\'s value (S = 3)', fx && fx.value === 3 && (await text(page, '#banner-fix-btn')) === 'Set S to 3', await text(page, '#banner-fix-btn'));
        t.setPhase('valid');
        await afterLoad(page, () => page.click('#banner-fix-btn'));
        check('14.5: one click applies it', new URL(page.url()).searchParams.get('s') === '3' && await page.$eval('#banner', (e) => e.hidden));
        await routeReady(page, base + '?b=1&m=4&s=3&rows=2&pat=ldmatrix_x4');
        const f2 = (await api('access', { b: '1', m: '4', s: '3', rows: '2', ...L, pattern: 'ldmatrix_x4', fit: '1' })).fix;
        check('14.5: ldmatrix on the 32B preset with 2 rows offers the rows that fit', f2 && (await text(page, '#acc-fix')) === `Use ${f2.value} rows`, await text(page, '#acc-error'));
        await afterLoad(page, () => page.click('#acc-fix'));
        check('14.5: and applies them', new URL(page.url()).searchParams.get('rows') === String(f2.value) && !(await page.$eval('#acc-result', (e) => e.hidden)));
    });

    // ---- 6. explanations follow the swizzle on screen ----
    await step('issue 14.6: negative S is explained as it is', async () => {
        // through the page's router (routeReady), as from the previous step's view: the
        // explanations must follow a change of swizzle, not only a load
        await routeReady(page, base + '?b=3&m=4&s=-3');
        const d = await api('swizzle', { b: '3', m: '4', s: '-3', ...L });
        // Read by what the reader sees (the entry after "Swizzle tile", the grid panel's line), not by id.
        const [tile, colours, grid] = await page.evaluate(() => {
            const dd = (name) => [...document.querySelectorAll('.readme dt')].find((e) => e.textContent.trim() === name).nextElementSibling.textContent.trim();
            return [dd('Swizzle tile'), dd('Colours'), document.getElementById('grid-plain').closest('section').querySelector('.desc').textContent.trim()];
        });
        check('14.6: the API names row_xor_col for <3,4,-3>', d.slot_rule === 'row_xor_col', d.slot_rule);
        check('14.6: "How to read this" does not say column XOR row', !/c XOR \(r|slot c XOR/.test(tile) && /row r XOR \(c mod 8\)/.test(tile), tile);
        check('14.6: nor that the colours move', !/colours move/.test(colours) && !/colours change/.test(grid), `${colours} | ${grid}`);
        check('14.6: the formula is the row form', (await page.getAttribute('#formula-grid', 'data-rule')) === 'row_xor_col');
    });

    // ---- 7. a baseline in the access view ----
    await step('issue 14.7: baseline beside the verdict', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&pat=ldmatrix_x4');
        const presets = (await api('presets', {})).presets;
        const cmp = (await api('access', { b: '3', m: '4', s: '3', rows: '8', ...L, pattern: 'ldmatrix_x4', compare: presets.map((p) => `${p.b},${p.m},${p.s}`).join(';') })).compare;
        const got = await page.evaluate(() => Object.fromEntries(['none', 'cur', 'best'].map((k) => { const e = document.getElementById(`acc-base-${k}`); return [k, e ? e.dataset.wavefronts : null]; })));
        check('14.7: without the swizzle: the API\'s 32 wavefronts, beside this swizzle\'s 4', got.none === String(cmp.unswizzled.wavefronts) && cmp.unswizzled.wavefronts === 32 && got.cur === '4', JSON.stringify(got));
        check('14.7: the best preset, as the API ranks it', got.best === String(cmp.swizzles[cmp.best].wavefronts) &&
            (await text(page, '#acc-base-best')).includes(presets[cmp.best].label), await text(page, '#acc-base-best'));
    });

    // ---- 8. exports: named after the state, captioned, large maps with cells ----
    await step('issue 14.8: exports', async () => {
        // A 65,536-cell export takes seconds on a shared 2-core machine.
        const grab = async (view) => {
            const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 90000 }), page.click(`.xbar[data-for="${view}"] button[data-export="svg"]`, { timeout: 90000 })]);
            return { name: dl.suggestedFilename(), xml: fs.readFileSync(await dl.path(), 'utf8') };
        };
        await routeReady(page, base + '?b=3&m=4&s=3&theme=dark');
        const dark = await grab('grid-swz');
        check('14.8: a dark export is named after the state and the theme', dark.name === 'swizzlescope-grid-swz-Swizzle_3_4_3-8x8-32x4B-dark.svg', dark.name);
        check('14.8: the export is captioned with the swizzle and geometry', /Swizzle&lt;3,4,3&gt;: grid with swizzle/.test(dark.xml) && /8 rows x 8 units of 16 B; 32 banks x 4 B/.test(dark.xml));
        await routeReady(page, base + '?b=3&m=4&s=3&rows=16384');
        const big = await grab('grid-swz');
        const cells = (big.xml.match(/<rect[^>]*>/g) || []).filter((r) => /data-p=/.test(r) && !/data-ph=/.test(r)).length;
        check('14.8: a 131072-cell map exports cells, and says which rows', cells === 65536 && /Rows 0-8191 of 16384/.test(big.xml) && /rows-0-8191-of-16384/.test(big.name), `${cells} ${big.name}`);
    });

    // ---- 9. phones and narrow windows ----
    await step('issue 14.9: 390 px reflows without clipping', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await routeReady(page, base + '?b=3&m=4&s=3');
        const m = await page.evaluate(() => {
            const over = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.id || e.className);
            const ro = document.getElementById('readout'), hero = document.querySelector('.hero');
            return { doc: document.documentElement.scrollWidth, readout: ro.scrollWidth <= ro.clientWidth && ro.getBoundingClientRect().right <= hero.getBoundingClientRect().right,
                hero: hero.scrollWidth <= hero.clientWidth, panels: over('.panel:not(.access)') };
        });
        check('14.9: nothing wider than the 390 px window', m.doc <= 390, JSON.stringify(m));
        check('14.9: the readout and the hero fit their panel', m.readout && m.hero, JSON.stringify(m));
        check('14.9: no panel clips its content', m.panels.length === 0, JSON.stringify(m.panels));
        await page.setViewportSize({ width: 1440, height: 1000 });
    });

    // ---- 10. valid layouts log nothing ----
    await step('issue 14.10: Swizzle<3,0,3> logs nothing and explains', async () => {
        const h = await hygiene(() => gotoReady(page, base + '?b=3&m=0&s=3'));
        check('14.10: no refused request and no console error for a valid layout', h.bad.length === 0 && h.con.length === 0, [...h.bad, ...h.con].join(' | '));
        const err = await text(page, '#acc-error');
        check('14.10: the access view explains the pattern that does not fit, with the API\'s fix', /does not fit/.test(err) && (await text(page, '#acc-fix')) === 'Set M to 2', err);
        check('14.10: so does the scorecard', /does not fit/i.test(await text(page, '#score-rd-out')));
    });

    // ---- 11. keystrokes apply; menus show labels ----
    await step('issue 14.11: typing applies at once; labels, not ids', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3');
        await page.focus('#b');
        await afterLoad(page, async () => { await page.keyboard.press('Backspace'); await page.keyboard.type('2'); });
        check('14.11: a keystroke in B redraws without Enter or Tab', (await text(page, '#readout')) === 'Swizzle<2,4,3>' && await page.evaluate(() => document.activeElement.id === 'b'), await text(page, '#readout'));
        check('14.11: the edited digit is marked in the readout', await page.$eval('#readout', (e) => { const s = e.querySelector('.edited'); return !!s && s.dataset.p === 'b' && s.textContent === '2'; }));
        const listed = await api('patterns', {});
        const pats = [...listed.patterns, ...(listed.producers || [])];    // producers: writes only the recommender takes
        const opts = await page.$$eval('#score-wr option, #score-rd option', (os) => os.map((o) => o.textContent));
        check('14.11: scorecard menus show labels, not ids', opts.length > 0 && opts.every((o) => !pats.some((p) => p.name === o) && pats.some((p) => p.label === o)), opts.join(' | '));
        await page.selectOption('#acc-pattern', 'ldmatrix_x4');
        const shown = await page.evaluate(() => [...document.querySelectorAll('#acc-pattern option, #score-wr option, #score-rd option, #acc-source')].map((e) => e.textContent).join(' '));
        check('14.11: no pattern text says "seed"', !/seed/i.test(shown), shown.slice(0, 200));
    });

    // ---- the lesson ----
    await step('lesson mode', async () => {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await routeReady(page, base + '?lesson=0&present=1&side=hide');
        const at = (k) => page.waitForFunction((k) => document.body.dataset.lesson === String(k), k, { timeout: t.TIMEOUT });
        await at(0);
        const say = () => text(page, '#lesson-text');
        // Forward as a clicker: an unanswered question takes one key to reveal (issue 40.1).
        const fwd = async (k) => {
            if (await page.evaluate(() => document.body.dataset.predict === 'ask')) {
                await page.keyboard.press('ArrowRight');
                await page.waitForFunction(() => document.body.dataset.predict === 'shown', null, { timeout: t.TIMEOUT });
            }
            await page.keyboard.press('ArrowRight'); await at(k);
        };
        const d0 = await api('swizzle', { b: '0', m: '4', s: '3', rows: '8', ...L });
        check('lesson 1: the URL is the step, with its state', new URL(page.url()).searchParams.get('lesson') === '0' && new URL(page.url()).searchParams.get('pat') === 'row_load_32');
        check('lesson 1: narration from the API (bank row, verdict)', (await say()).includes(`one bank row is ${d0.bank_row_bytes} bytes`) && /conflict-free/.test(await say()), await say());
        await page.keyboard.press('Space');
        await at(1);
        const a1 = await api('access', { b: '0', m: '4', s: '3', rows: '32', ...L, pattern: 'col_read' });
        const u = new URL(page.url());
        check('lesson 2: space steps on; the URL holds the step and its state', u.searchParams.get('lesson') === '1' && u.searchParams.get('rows') === '32' && (u.searchParams.get('pat') || 'col_read') === 'col_read', u.search);
        check(`lesson 2: narration says the API's ${a1.cost.ways}-way, ${a1.cost.wavefronts} wavefronts`, (await say()).includes(`${a1.cost.ways}-way conflict: ${a1.cost.wavefronts} wavefronts`), await say());
        check('lesson 2: the access view is outlined', await page.$eval('#access', (e) => e.classList.contains('look')));
        await fwd(2);
        const ins = await api('inspect', { b: '3', m: '4', s: '3', rows: '8', ...L, row: '1', col: '0' });
        check('lesson 3: the XOR from /api/inspect', (await say()).includes(`slot ${ins.tile.col_in_tile} XOR ${ins.tile.row_mod} = ${ins.tile.slot}`), await say());
        await fwd(3);
        await fwd(4);
        const a4 = await api('access', { b: '0', m: '4', s: '3', rows: '8', ...L, pattern: 'ldmatrix_x4' });
        check('lesson 5: ldmatrix 8-way, from the API', a4.cost.ways === 8 && (await say()).includes(`8-way conflict: ${a4.cost.wavefronts} wavefronts`), await say());
        await page.keyboard.press('ArrowLeft'); await at(3);
        check('lesson: the left arrow steps back', new URL(page.url()).searchParams.get('lesson') === '3');
        for (let k = 4; k <= 8; k++) { await fwd(k); }
        const a8 = await api('access', { b: '4', m: '3', s: '4', rows: '16', ...L, pattern: 'transpose_read' });
        check('lesson 9: the transpose ends at the API\'s 1 wavefront', a8.cost.wavefronts === 1 && (await say()).includes('conflict-free: 1 wavefront'), await say());
        await fwd(9);
        const a9 = await api('access', { b: '3', m: '4', s: '3', rows: '8', ...L, pattern: 'ldmatrix_x4' });
        const h = (await getJSON(base + 'api/health')).body;
        if (h.measure && h.measure.available) check('lesson 10: measured live', /Measured on/.test(await say()), await say());
        else check('lesson 10: without a GPU, says what a measurement would show (the API\'s prediction)', /^No GPU on this machine\./.test(await say()) &&
            (await say()).includes(`${a9.cost.cycles} cycles per instruction`) && (await say()).includes(`${a9.cost.ncu.wavefronts_per_instruction} per instruction`), await say());
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => !new URL(location.href).searchParams.has('lesson'), null, { timeout: t.TIMEOUT });
        check('lesson: Escape leaves it', await page.$eval('#lesson', (e) => e.hidden));
        void ctx;
        await page.setViewportSize({ width: 1440, height: 1000 });
    });
}
