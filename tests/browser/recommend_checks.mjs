// recommend_checks.mjs - browser checks of the scorecard's "Recommended" line
// (/api/recommend): on the None preset it names the API's winner, a swizzle
// with fewer write + read wavefronts, with both verdicts, and Apply switches
// the page (URL, controls, scorecard) to it. It reads the API; it ranks nothing.

export async function recommendChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, afterLoad, text, TIMEOUT } = t;

    await step('recommend: None preset', async () => {
        await gotoReady(page, base + '?b=0&m=4&s=3&wr=row_store&rd=col_read');
        await page.$eval('#scorecard', (e) => e.scrollIntoView());
        await page.waitForSelector('#score-rec-apply', { timeout: TIMEOUT });
        const api = (await getJSON(apiURL(base, 'recommend', { b: 0, m: 4, s: 3, write: 'row_store', read: 'col_read' }))).body;
        const w = api.recommended, now = api.candidates[0];
        check('recommend: the API proposes a swizzle with fewer wavefronts than None',
            w && !w.is_current && w.total_wavefronts < now.total_wavefronts, JSON.stringify(w && [w.name, w.total_wavefronts, now.total_wavefronts]));
        check('recommend: the page names the API\'s winner', (await text(page, '#score-rec-name')) === w.name, await text(page, '#score-rec-name'));
        const line = await text(page, '#score-rec');
        check('recommend: both verdicts shown', /write: /.test(line) && /read: /.test(line) &&
            line.includes(`${w.write_cost.wavefronts} wavefront`) && line.includes(`${w.read_cost.wavefronts} wavefront`), line);
        check('recommend: the saving from the API', line.includes(`${w.saves_wavefronts} wavefronts fewer`), line);
        const tri = w.triton.find((x) => x.element_bits === 16);
        check('recommend: its Triton form', !tri || line.includes(`vec=${tri.vec}, perPhase=${tri.per_phase}, maxPhase=${tri.max_phase}`), line);

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
}
