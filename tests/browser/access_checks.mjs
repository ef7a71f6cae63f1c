// access_checks.mjs - browser checks of the access view: named patterns and
// steps (play, prev, next), the verdict and numbers against /api/access, the
// bank chart and histogram, the phase table, the ncu box, the map outlines,
// custom offsets against /api/conflicts with inline errors, and the scorecard.
// Expected values come from the API (fetched here) and from the seeds.

const SEEDS = {
    // seed 004: ldmatrix.x4 on unswizzled 128-byte rows is an 8-way conflict, 32 wavefronts.
    ldmatrixNone: '8-way conflict: 32 wavefronts, ideal 4',
    // the same fragment load on Swizzle<3,4,3>: conflict-free.
    ldmatrix128: 'conflict-free: 4 wavefronts (ideal 4)',
    // a 32-row column walk on 128B-swizzled rows repeats every 8 rows: 4-way.
    colRead128: '4-way conflict: 4 wavefronts, ideal 1',
};

// The verdict a cost answer should read as (the page's wording, derived independently).
export function expectVerdict(c) {
    const wf = `${c.wavefronts} wavefront${c.wavefronts === 1 ? '' : 's'}`;
    if (c.bank_conflicts === 0) {
        const bc = c.phases.some((p) => p.reason === 'broadcast') ? ' with broadcast' : '';
        return `conflict-free${bc}: ${wf} (ideal ${c.ideal_wavefronts})`;
    }
    const n = Math.max(...c.phases.filter((p) => p.reason !== 'merged').map((p) => p.max_per_bank));
    return `${n > 1 ? `${n}-way conflict` : 'bank conflict'}: ${wf}, ideal ${c.ideal_wavefronts}`;
}

function readAccess(page) {
    return page.evaluate(() => {
        const q = (s) => document.querySelector(s);
        const txt = (s) => (q(s) ? q(s).textContent.trim() : null);
        const nums = (sel) => [...document.querySelectorAll(sel)].map((e) => Number(e.dataset.p)).sort((a, b) => a - b);
        return {
            hidden: q('#acc-result').hidden,
            verdict: txt('#acc-verdict'),
            wavefronts: txt('#acc-wavefronts'), ideal: txt('#acc-ideal'), conflicts: txt('#acc-conflicts'), cycles: txt('#acc-cycles'),
            cyclesNote: txt('#acc-cycles-note'),
            generalized: !!q('#acc-generalized'),
            chips: [...document.querySelectorAll('#acc-banks g.chip')].map((g) => ({
                lanes: g.dataset.lanes.split(', ').map(Number), phase: +g.dataset.phase, pass: +g.dataset.pass,
                bank: +g.dataset.bank, nbanks: +g.dataset.nbanks })),
            hits: [...document.querySelectorAll('#acc-hits rect.bar')].map((r) => Number(r.dataset.hits)),
            phases: [...document.querySelectorAll('#acc-phases tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent.trim())),
            total: [...document.querySelectorAll('#acc-phases tfoot td')].map((c) => c.textContent.trim()),
            ncu: [...document.querySelectorAll('#acc-ncu tr')].map((tr) => [...tr.cells].map((c) => c.textContent.trim())),
            marksSwz: nums('#grid-swz rect.mark'), marksPlain: nums('#grid-plain rect.mark'),
            marksBanks: nums('#banks-swz rect.mark'),
            error: q('#acc-error').hidden ? null : txt('#acc-error'),
            errorMsg: txt('#acc-error-message'), errorFix: txt('#acc-error-fix'),
            fieldErr: q('#acc-offsets-err').hidden ? null : txt('#acc-offsets-err'),
            stepLabel: txt('#acc-step-label'), step: q('#acc-step').value, stepMax: q('#acc-step').max,
        };
    });
}

// Run `action`, then wait until the access view has rendered again.
async function afterAccess(t, action) {
    const before = await t.page.evaluate(() => Number(document.body.dataset.accessReady || 0));
    await action();
    await t.page.waitForFunction((b) => Number(document.body.dataset.accessReady || 0) > b, before, { timeout: t.TIMEOUT });
}

// Every view of one cost answer matches it.
function checkCost(t, label, seen, c, offsets, d) {
    const { check } = t;
    check(`${label}: verdict reads "${expectVerdict(c)}"`, seen.verdict === expectVerdict(c), seen.verdict);
    check(`${label}: wavefronts, ideal, conflicts, cycles are the API's`,
        seen.wavefronts === String(c.wavefronts) && seen.ideal === String(c.ideal_wavefronts) &&
        seen.conflicts === String(c.bank_conflicts) && seen.cycles === String(c.cycles),
        JSON.stringify([seen.wavefronts, seen.ideal, seen.conflicts, seen.cycles]));
    check(`${label}: generalized note ${c.calibrated ? 'absent' : 'shown'}`, seen.generalized === !c.calibrated);
    // Chips: every active lane sits in its bank, phase and pass; nothing else is drawn.
    let bad = null, nLanes = 0;
    for (const l of c.lanes) {
        if (!l.active) continue;
        nLanes++;
        const g = seen.chips.find((x) => x.lanes.includes(l.lane) && x.bank === l.bank);
        if (!g || g.phase !== l.phase || g.pass !== l.pass || (g.bank + l.nbanks <= c.banks && g.nbanks !== l.nbanks))
            { bad = `lane ${l.lane}: ${JSON.stringify(g)} vs ${JSON.stringify(l)}`; break; }
    }
    const drawnLanes = new Set(seen.chips.flatMap((g) => g.lanes));
    check(`${label}: bank chart puts each of ${nLanes} lanes in its bank, phase and pass`, !bad && drawnLanes.size === nLanes, bad || `${drawnLanes.size} drawn`);
    check(`${label}: histogram is the API's bank_hits`, JSON.stringify(seen.hits) === JSON.stringify(c.bank_hits), JSON.stringify(seen.hits));
    const rowsOk = seen.phases.length === c.phases.length && c.phases.every((p, i) => {
        const r = seen.phases[i];
        return r[3] === String(p.words) && r[4] === String(p.max_per_bank) && r[5] === String(p.worst_bank) &&
            r[6] === String(p.wavefronts) && r[7] === String(p.cycles) && r[8].startsWith(p.reason);
    });
    check(`${label}: phase table has the API's ${c.phases.length} phases (words, max/bank, worst, wavefronts, cycles, reason)`, rowsOk, JSON.stringify(seen.phases));
    check(`${label}: phase table total`, seen.total[1] === String(c.wavefronts) && seen.total[2] === String(c.cycles), JSON.stringify(seen.total));
    const wantNcu = [[c.ncu.wavefronts_metric, String(c.ncu.wavefronts_per_instruction)], [c.ncu.conflicts_metric, String(c.ncu.conflicts_per_instruction)]];
    if (c.ncu.source_metric) wantNcu.push([c.ncu.source_metric, String(c.ncu.source_wavefronts_per_instruction)]);
    check(`${label}: ncu metrics and per-instruction values`, JSON.stringify(seen.ncu) === JSON.stringify(wantNcu), JSON.stringify(seen.ncu));
    if (d) {
        // Outlines: the physical slots the offsets fall in (slot p holds bytes [p*unit, (p+1)*unit)).
        const w = c.op === 'ld' || c.op === 'st' ? c.bytes : 16, unit = d.unit.bytes;
        const want = new Set();
        c.lanes.forEach((l, i) => {
            if (!l.active) return;
            for (let p = Math.floor(offsets[i] / unit); p <= Math.floor((offsets[i] + w - 1) / unit); p++) if (p < d.grid.log_of.length) want.add(p);
        });
        const ws = [...want].sort((a, b) => a - b);
        check(`${label}: swizzled grid outlines the ${ws.length} accessed slots`, JSON.stringify(seen.marksSwz) === JSON.stringify(ws), `${seen.marksSwz} vs ${ws}`);
        check(`${label}: swizzled bank map outlines the same slots`, JSON.stringify(seen.marksBanks) === JSON.stringify(ws));
        const wp = ws.map((p) => d.grid.log_of[p]).sort((a, b) => a - b);
        check(`${label}: plain grid outlines their logical units`, JSON.stringify(seen.marksPlain) === JSON.stringify(wp), `${seen.marksPlain} vs ${wp}`);
    }
}

export async function accessChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, SHOTS } = t;
    const q = (b, m, s, rows, extra = {}) => ({ b: String(b), m: String(m), s: String(s), bank_bytes: '4', banks: '32', rows: String(rows), match_bank_row: '0', ...extra });
    const path = (await import('node:path')).default;

    // ---- the default pattern on the 128B preset, 32 rows: a 4-way conflict ----
    const q128 = q(3, 4, 3, 32);
    const { body: d128 } = await getJSON(apiURL(base, 'swizzle', q128));
    await step('access: col_read on 128B', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=32');
        const { status, body: a } = await getJSON(apiURL(base, 'access', { ...q128, pattern: 'col_read', step: 0 }));
        check('access: /api/access answers col_read', status === 200, `status ${status}`);
        const seen = await readAccess(page);
        check('access: result shown', !seen.hidden);
        const [cw, sw] = await page.evaluate(() => [Number(document.querySelector('#acc-banks svg').getAttribute('width')), document.querySelector('#access').clientWidth]);
        check('access: bank chart uses the section width', cw > 0.8 * sw && cw <= sw, `${cw} of ${sw}`);
        check('access: seed verdict, 128B column walk is 4-way', seen.verdict === SEEDS.colRead128, seen.verdict);
        checkCost(t, 'col_read 128B', seen, a.cost, a.offsets, d128);
        check('access: step slider spans the API steps', seen.stepMax === String(a.steps - 1) && seen.step === '0', `${seen.step}/${seen.stepMax}`);
        const opts = await page.$$eval('#acc-pattern option', (os) => os.map((o) => o.value));
        const pats = (await getJSON(base + 'api/patterns')).body.patterns.map((p) => p.name);
        check('access: pattern menu lists /api/patterns', JSON.stringify(opts) === JSON.stringify(pats), opts.join(','));
        await t.shot(page.locator('#access'), { path: path.join(SHOTS, 'access.png') });
    });

    // ---- steps: slider, next / prev, play / pause ----
    await step('access: steps', async () => {
        await afterAccess(t, async () => { await page.focus('#acc-step'); for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight'); });
        await page.waitForFunction(() => document.querySelector('#acc-step').value === '5');
        await page.waitForFunction(() => /step=5/.test(location.search), null, { timeout: t.TIMEOUT });
        const { body: a5 } = await getJSON(apiURL(base, 'access', { ...q128, pattern: 'col_read', step: 5 }));
        await page.waitForFunction(() => /col_read, step 5$/.test(document.querySelector('#acc-what').textContent), null, { timeout: t.TIMEOUT });
        check('steps: label reads step 5', (await t.text(page, '#acc-step-label')).startsWith('step 5 of 32'));
        const seen = await readAccess(page);
        checkCost(t, 'col_read step 5', seen, a5.cost, a5.offsets, d128);
        check('steps: URL has step=5', new URL(page.url()).searchParams.get('step') === '5', page.url());
        // The neighbours of the shown step were asked ahead: next needs no request.
        const asked = [];
        // (Requests asked ahead for the next change, marked X-Swz-Prefetch, may go out meanwhile.)
        const onReq = (r) => { if (/\/api\/access\?.*pattern=col_read&step=6$/.test(r.url()) && !r.headers()['x-swz-prefetch']) asked.push(r.url()); };
        await t.sleep(200);
        page.on('request', onReq);
        await afterAccess(t, () => page.click('#acc-next'));
        page.off('request', onReq);
        check('steps: next goes to 6', new URL(page.url()).searchParams.get('step') === '6' && (await readAccess(page)).step === '6');
        check('steps: step 6 was fetched ahead (no request on the click)', asked.length === 0, asked.join(' '));
        const ms = await page.evaluate(() => document.body.dataset.accessMs);
        check('steps: the page stamps the step render time (ms, two decimals, more than none)', /^\d+\.\d\d$/.test(ms || '') && Number(ms) > 0, ms);
        await afterAccess(t, () => page.click('#acc-prev'));
        check('steps: prev goes back to 5', new URL(page.url()).searchParams.get('step') === '5');
        // Play animates through the steps until paused.
        const r0 = await page.evaluate(() => Number(document.body.dataset.accessReady));
        await page.click('#acc-play');
        check('play: button pressed', (await page.getAttribute('#acc-play', 'aria-pressed')) === 'true');
        await page.waitForFunction((r) => Number(document.body.dataset.accessReady) >= r + 2, r0, { timeout: t.TIMEOUT });
        await page.click('#acc-play');
        await t.sleep(300);   // let a step already on the wire land
        const stepNow = Number(new URL(page.url()).searchParams.get('step'));
        check('play: advanced at least two steps', stepNow >= 7, `step ${stepNow}`);
        check('pause: button released', (await page.getAttribute('#acc-play', 'aria-pressed')) === 'false');
        const r1 = await page.evaluate(() => Number(document.body.dataset.accessReady));
        await t.sleep(1300);
        check('pause: no more steps', r1 === await page.evaluate(() => Number(document.body.dataset.accessReady)));
        const { body: an } = await getJSON(apiURL(base, 'access', { ...q128, pattern: 'col_read', step: stepNow }));
        const seen2 = await readAccess(page);
        check('play: the shown step matches the API', seen2.verdict === expectVerdict(an.cost) && JSON.stringify(seen2.hits) === JSON.stringify(an.cost.bank_hits));
    });

    // ---- ldmatrix: seed 004 on no swizzle vs 128B ----
    await step('access: ldmatrix seeds', async () => {
        await routeReady(page, base + '?b=0&m=4&s=3&rows=8&pat=ldmatrix_x4');
        const qn = q(0, 4, 3, 8);
        const { body: dn } = await getJSON(apiURL(base, 'swizzle', qn));
        const { body: a } = await getJSON(apiURL(base, 'access', { ...qn, pattern: 'ldmatrix_x4', step: 0 }));
        const seen = await readAccess(page);
        check('ldmatrix.x4 without swizzle: seed 004 verdict', seen.verdict === SEEDS.ldmatrixNone, seen.verdict);
        checkCost(t, 'ldmatrix none', seen, a.cost, a.offsets, dn);
        check('ldmatrix: chips span 4 banks (16-byte rows)', seen.chips.length > 0 && seen.chips.every((g) => g.nbanks === 4));
        await t.shot(page.locator('#access'), { path: path.join(SHOTS, 'access-ldmatrix-none.png') });
        await t.afterLoad(page, () => page.selectOption('#preset', '128B'));
        const { body: a2 } = await getJSON(apiURL(base, 'access', { ...q(3, 4, 3, 8), pattern: 'ldmatrix_x4', step: 0 }));
        const seen2 = await readAccess(page);
        check('ldmatrix.x4 on 128B: conflict-free', seen2.verdict === SEEDS.ldmatrix128, seen2.verdict);
        checkCost(t, 'ldmatrix 128B', seen2, a2.cost, a2.offsets, null);
        check('pattern kept in the URL across a preset change', new URL(page.url()).searchParams.get('pat') === 'ldmatrix_x4');
    });

    // ---- generalized geometry ----
    await step('access: generalized bank row', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&banks=64&pat=row_load_128');
        const { body: a } = await getJSON(apiURL(base, 'access', { ...q(3, 4, 3, 8), banks: '64', pattern: 'row_load_128', step: 0 }));
        const seen = await readAccess(page);
        check('64 banks: API says not calibrated', a.cost.calibrated === false);
        checkCost(t, '64 banks', seen, a.cost, a.offsets, null);
        check('64 banks: histogram has 64 bars', seen.hits.length === 64);
        check('64 banks: note names the bank row', /generalized: the hardware rules applied to your bank row/i.test(await t.text(page, '#acc-generalized')));
    });

    // ---- pattern errors inline ----
    await step('access: inline errors', async () => {
        t.setPhase('bad-access');
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&pat=transpose_read');
        const { status, body } = await getJSON(apiURL(base, 'access', { ...q(3, 4, 3, 8), pattern: 'transpose_read', step: 0 }));
        const seen = await readAccess(page);
        check('transpose on 8 rows: API refuses (rows)', status === 400 && body.error.field === 'rows');
        check('transpose on 8 rows: message inline', seen.errorMsg === body.error.message, seen.errorMsg);
        check('transpose on 8 rows: fix hint for rows', /multiple of 2\^B rows/.test(seen.errorFix || ''), seen.errorFix);
        check('transpose on 8 rows: no stale result or marks', seen.hidden && seen.marksSwz.length === 0);
        check('transpose on 8 rows: no page banner (the layout is fine)', await page.$eval('#banner', (e) => e.hidden));
        await t.afterLoad(page, async () => { await page.fill('#rows', '16'); await page.press('#rows', 'Enter'); });
        const seen2 = await readAccess(page);
        check('transpose on 16 rows: error gone, result shown', seen2.error === null && !seen2.hidden, seen2.error);
        t.setPhase('valid');
    });

    // ---- cycles versus wavefronts: a partly active 128-bit load ----
    await step('access: custom offsets', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=8&pat=row_load_128');
        const { body: a } = await getJSON(apiURL(base, 'access', { ...q(3, 4, 3, 8), pattern: 'row_load_128', step: 0 }));
        await afterAccess(t, () => page.check('#acc-mode-custom'));
        check('custom: URL has acc=custom', new URL(page.url()).searchParams.get('acc') === 'custom');
        const filled = (await page.inputValue('#acc-offsets')).split(/[\s,]+/).filter(Boolean).map(Number);
        // Issue 14: custom offsets are logical by default; the pattern's lanes come over as the API's logical offsets.
        check('custom: starts from the pattern on screen, as its logical offsets', JSON.stringify(filled) === JSON.stringify(a.logical) &&
            await page.isChecked('#acc-space-logical'), filled.join(','));
        check('custom: op and bytes follow', (await page.inputValue('#acc-op')) === 'ld' && (await page.inputValue('#acc-bytes')) === '16');
        check('custom: counter reads 32 / 32', (await t.text(page, '#acc-count')) === '32 / 32 values');
        // Only lanes 0-7 active: one phase works, three are empty.
        const offs = [0, 16, 32, 48, 64, 80, 96, 112].concat(Array(24).fill(null));
        const text = offs.map((o) => (o === null ? '-' : String(o))).join(', ');
        await page.fill('#acc-offsets', text);
        // The page asks for custom offsets the way it asks for a pattern: GET
        // /api/access on the drawn layout (CONTRACT.md: offsets=), whose answer
        // also names the cells the outlines go on.
        const sent = [];
        const onSent = (r) => { if (/\/api\/(access|conflicts)/.test(r.url()) && !r.headers()['x-swz-prefetch']) sent.push(`${r.method()} ${r.url()}`); };
        page.on('request', onSent);
        await afterAccess(t, () => page.click('#acc-run'));
        page.off('request', onSent);
        const sentOffs = sent.length === 1 && sent[0].startsWith('GET ') ? new URL(sent[0].slice(4)).searchParams.get('offsets') : null;
        check('custom: the page asks GET /api/access with the 32 offsets, not /api/conflicts', sentOffs === offs.map((o) => (o === null ? '-' : o)).join(','), sent.join(' '));
        const body = { op: 'ld', bytes: 16, offsets: offs, bank_bytes: 4, banks: 32 };
        const r = await fetch(base + 'api/conflicts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        const c = await r.json();
        const { body: d8 } = await getJSON(apiURL(base, 'swizzle', q(3, 4, 3, 8)));
        const seen = await readAccess(page);
        checkCost(t, 'custom partly active', seen, c, offs, d8);
        const [cw, sw] = await page.evaluate(() => [Number(document.querySelector('#acc-banks svg').getAttribute('width')), document.querySelector('#access').clientWidth]);
        check('custom: bank chart uses the section width', cw > 0.8 * sw && cw <= sw, `${cw} of ${sw}`);
        check('custom: API says empty phases cost cycles, not wavefronts', c.cycles > c.wavefronts, `${c.cycles} vs ${c.wavefronts}`);
        check('custom: cycles note explains the gap', seen.cyclesNote.startsWith(`${c.cycles} cycles for ${c.wavefronts} wavefront`), seen.cyclesNote);
        check('custom: cycles tile has an explanation on hover', /no lane is active still costs a cycle/.test(await page.getAttribute('.costline .cyc', 'title')));
        check('custom: offsets in the URL', new URL(page.url()).searchParams.get('offs') === offs.map((o) => (o === null ? '-' : o)).join(','), page.url());
        await t.shot(page.locator('#access'), { path: path.join(SHOTS, 'access-custom.png') });

        // Errors sit with the field.
        t.setPhase('bad-access');
        await page.fill('#acc-offsets', text.replace(/^0, 16, 32, 48, 64/, '0, 16, 32, 48, x'));
        await afterAccess(t, () => page.click('#acc-run'));
        const bad = { ...body, offsets: [...offs] }; bad.offsets[4] = 'x';
        const rb = await (await fetch(base + 'api/conflicts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(bad) })).json();
        let s2 = await readAccess(page);
        check('custom: a bad token is refused by the API for offsets[4]', rb.error && rb.error.field === 'offsets[4]');
        // The page's own request: /api/access with the same offsets.
        const ra = (await getJSON(apiURL(base, 'access', { ...q(3, 4, 3, 8), offsets: bad.offsets.map((o) => (o === null ? '-' : o)).join(','), op: 'ld', bytes: '16' }))).body;
        check('custom: /api/access refuses the bad token too, for offsets (lane 4)', !!ra.error && /^offsets/.test(ra.error.field || ''), JSON.stringify(ra.error || ra).slice(0, 200));
        check('custom: the API message is shown with the textarea', !!(s2.fieldErr && ra.error && s2.fieldErr.includes(ra.error.message)), s2.fieldErr);
        check('custom: the message names the lane', /lane 4/.test(s2.fieldErr || ''), s2.fieldErr);
        check('custom: textarea marked invalid', await page.$eval('#acc-offsets', (e) => e.classList.contains('invalid') && e.getAttribute('aria-invalid') === 'true'));
        check('custom: no stale result', s2.hidden);
        // Misaligned for 8-byte lanes.
        await page.fill('#acc-offsets', text.replace(/^0, 16/, '0, 4'));
        await afterAccess(t, async () => { await page.selectOption('#acc-bytes', '8'); });
        s2 = await readAccess(page);
        check('custom: misaligned 8-byte offset refused inline', /8-byte aligned/.test(s2.fieldErr || ''), s2.fieldErr);
        // Too few values.
        await page.fill('#acc-offsets', '0, 4, 8');
        check('custom: counter flags 3 / 32', (await t.text(page, '#acc-count')) === '3 / 32 values' && await page.$eval('#acc-count', (e) => e.classList.contains('off')));
        await afterAccess(t, () => page.click('#acc-run'));
        s2 = await readAccess(page);
        check('custom: too few offsets refused inline with a fix', /32 byte offsets/.test(s2.fieldErr || '') && /exactly 32 values/.test(s2.fieldErr || ''), s2.fieldErr);
        t.setPhase('valid');
        // Back to the pattern.
        await afterAccess(t, () => page.check('#acc-mode-pattern'));
        const s3 = await readAccess(page);
        check('custom -> pattern: pattern result back', s3.verdict === expectVerdict(a.cost) && s3.fieldErr === null, s3.verdict);
    });

    // ---- scorecard ----
    await step('scorecard', async () => {
        await routeReady(page, base + '?b=3&m=4&s=3&rows=32');
        const get = async (pat) => (await getJSON(apiURL(base, 'access', { ...q128, pattern: pat, step: 0 }))).body.cost;
        const wr = await get('row_store'), rd = await get('col_read');
        const v = (id) => page.$eval(`#${id} .verdict`, (e) => e.textContent.trim());
        check('scorecard: write defaults to row_store', (await page.inputValue('#score-wr')) === 'row_store');
        check('scorecard: read defaults to col_read', (await page.inputValue('#score-rd')) === 'col_read');
        check('scorecard: write verdict from the API', (await v('score-wr-out')) === expectVerdict(wr), await v('score-wr-out'));
        check('scorecard: read verdict from the API', (await v('score-rd-out')) === expectVerdict(rd), await v('score-rd-out'));
        const before = await page.evaluate(() => document.body.dataset.scoreReady);
        await page.selectOption('#score-rd', 'ldmatrix_x4');
        await page.waitForFunction((b) => document.body.dataset.scoreReady !== b, before);
        const lm = await get('ldmatrix_x4');
        check('scorecard: read side follows its menu', (await v('score-rd-out')) === expectVerdict(lm), await v('score-rd-out'));
        check('scorecard: choice in the URL', new URL(page.url()).searchParams.get('rd') === 'ldmatrix_x4');
        await afterAccess(t, () => t.afterLoad(page, () => page.selectOption('#preset', 'none')));
        const qn = { ...q128, b: '0' };
        const lmn = (await getJSON(apiURL(base, 'access', { ...qn, pattern: 'ldmatrix_x4', step: 0 }))).body.cost;
        check('scorecard: follows the swizzle (none)', (await v('score-rd-out')) === expectVerdict(lmn), await v('score-rd-out'));
    });
}
