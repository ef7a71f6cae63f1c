// measure_checks.mjs - browser checks of "Measure on GPU". On the test server
// (no GPU) the button is disabled with /api/health's reason. A second server
// runs a fake measurement tool written here: it answers --info with a "Fake
// GPU", --json --no-ncu with 4.0 cycles in 0.3 s, --json with 4.0 cycles and
// wavefronts after a second (so the "counters pending" state shows), and fails
// for stmatrix (a 502). A request from Node holds the GPU while the page asks
// (a 409).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FAKE = `#!/bin/sh
# fake swizzlescope-measure for the browser test
case "$1" in
--info) echo '{"ok":true,"device":{"name":"Fake GPU","cc":"9.0"}}' ;;
--json)
  req=$(cat)
  touch "$(dirname "$0")/started"     # the browser test waits for this (409 step)
  # 409 step: hold the measurement until the test has seen the page's 409
  # (at most 20 s), so that no timing decides whether the click meets it
  n=0; while [ -e "$(dirname "$0")/hold" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
  case "$req" in
  *stmatrix*) echo '{"error":{"message":"simulated failure: the probe kernel faulted"}}'; exit 1 ;;
  esac
  if [ "$2" = --no-ncu ]; then
    sleep 0.3
    echo '{"device":{"name":"Fake GPU"},"results":[{"cycles_per_instr":4.0,"wavefronts_per_instr":null,"raw_cycles":1,"instructions":1}],"ncu":{"used":false,"reason":"--no-ncu was given: cycles only"},"verify":{"ok":true}}'
    exit 0
  fi
  sleep 1
  echo '{"device":{"name":"Fake GPU"},"results":[{"cycles_per_instr":4.0,"wavefronts_per_instr":4.0,"raw_cycles":1,"instructions":1}],"ncu":{"used":true},"verify":{"ok":true}}' ;;
*) exit 2 ;;
esac
`;

export async function measureChecks(t) {
    const { page, base, check, step, getJSON, apiURL, gotoReady, routeReady, text, SHOTS } = t;

    // /api/health once the server has its tool's answer: it asks the tool
    // (--info) in the background after it starts listening, and says so
    // (server/api/api_measure.c) until the answer is in.
    async function probedHealth(b) {
        let h = null;
        for (let i = 0; i < 100; i++) {
            h = (await getJSON(b + 'api/health')).body;
            if (!/being asked/.test(h.measure.reason || '')) break;
            await t.sleep(50);
        }
        return h;
    }

    await step('measure: unavailable without a GPU', async () => {
        await gotoReady(page, base + '?b=3&m=4&s=3&rows=32');
        const h = await probedHealth(base);
        check('health: this server cannot measure', h.measure && h.measure.available === false);
        check('measure: button disabled', await page.$eval('#measure-btn', (b) => b.disabled));
        const st = await text(page, '#measure-status');
        // The reason's plain sentence in the status, the rest (the tool's
        // words, where there are any) behind "What the server said": together,
        // the whole reason.
        const why = await page.$eval('#measure-why', (d) => ({ hidden: d.hidden, text: d.querySelector('#measure-why-text').textContent }));
        const plain = st.replace(/^Unavailable: /, '').replace(/\.$/, '');
        check('measure: the health reason is shown, none of it lost', st.startsWith('Unavailable: ') && (why.hidden
            ? plain === h.measure.reason && why.text === ''
            : [plain + ': ' + why.text, plain + ' ' + why.text].includes(h.measure.reason)), JSON.stringify({ st, why, reason: h.measure.reason }));
    });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-fake-'));
    const tool = path.join(dir, 'fake-measure.sh');
    fs.writeFileSync(tool, FAKE, { mode: 0o755 });
    const port = await t.freePort();
    let srv = null, page2 = null;
    try {
        srv = await t.startServer(port, ['--measure-tool', tool]);
        const b2 = srv.base;
        page2 = await t.ctx.newPage();
        page2.setDefaultTimeout(t.TIMEOUT);
        t.watch(page2);
        const q = { b: '3', m: '4', s: '3', bank_bytes: '4', banks: '32', match_bank_row: '0' };

        await step('measure: on the fake GPU', async () => {
            const h = await probedHealth(b2);
            check('fake tool: health says available on Fake GPU', h.measure.available === true && h.measure.device.name === 'Fake GPU');
            await gotoReady(page2, b2 + '?b=3&m=4&s=3&rows=32');
            check('measure: button enabled', !(await page2.$eval('#measure-btn', (b) => b.disabled)));
            check('measure: status names the device', (await text(page2, '#measure-status')) === 'on Fake GPU');
            const a = (await getJSON(apiURL(b2, 'access', { ...q, rows: '32', pattern: 'col_read', step: 0 }))).body;
            await page2.click('#measure-btn');
            await page2.waitForFunction(() => document.body.dataset.measuring === '1');
            check('measure: progress shown while it runs', await page2.isVisible('#measure-progress') && await page2.$eval('#measure-btn', (b) => b.disabled));
            check('measure: status says measuring', /^Measuring on Fake GPU/.test(await text(page2, '#measure-status')));
            // The cycles show while ncu still runs: "counters pending".
            await page2.waitForFunction(() => document.body.dataset.counters === 'pending');
            const pend = await page2.$eval('#measure-cycles', (tr) => [...tr.cells].map((c) => c.textContent.trim()));
            check('measure pending: the cycles are shown before the counters', pend[2] === '4.00' && /agrees/.test(pend[3]) &&
                !(await page2.evaluate(() => document.body.dataset.measured)), JSON.stringify(pend));
            const wfp = await page2.$eval('#measure-wavefronts', (tr) => [...tr.cells].map((c) => c.textContent.trim()));
            check('measure pending: the wavefronts row says counters pending', wfp[2] === '\u2014' && /pending/.test(wfp[3]) &&
                await page2.isVisible('#measure-counters-pending'), JSON.stringify(wfp));
            check('measure pending: the status says so, progress still shown, button still disabled',
                /counters pending/.test(await text(page2, '#measure-status')) && await page2.isVisible('#measure-progress') &&
                await page2.$eval('#measure-btn', (b) => b.disabled), await text(page2, '#measure-status'));
            await t.shot(page2.locator('.acc-top'), { path: path.join(SHOTS, 'measure-pending.png') });
            await page2.waitForFunction(() => document.body.dataset.measured === '1');
            check('measure: counters no longer pending', !(await page2.isVisible('#measure-counters-pending')) &&
                (await page2.evaluate(() => document.body.dataset.counters)) === '');
            check('measure: progress gone', !(await page2.isVisible('#measure-progress')));
            const row = (id) => page2.$eval(`#${id}`, (tr) => ({ cls: tr.className, cells: [...tr.cells].map((c) => c.textContent.trim()) }));
            const cyc = await row('measure-cycles'), wf = await row('measure-wavefronts');
            check('measure: predicted cycles from the API', cyc.cells[1] === String(a.cost.cycles), JSON.stringify(cyc));
            check('measure: measured cycles from the tool', cyc.cells[2] === '4.00', JSON.stringify(cyc));
            check('measure: measured wavefronts from the tool', wf.cells[1] === String(a.cost.wavefronts) && wf.cells[2] === '4.00', JSON.stringify(wf));
            check('measure: predicted 4 = measured 4 marked as agreeing', a.cost.cycles === 4 && /agrees/.test(cyc.cells[3]) && !cyc.cls.includes('differ'), JSON.stringify(cyc));
            check('measure: device named', (await text(page2, '#measure-device')) === 'Fake GPU');
            await t.shot(page2.locator('.acc-top'), { path: path.join(SHOTS, 'measure-agree.png') });

            // 8 rows: the column walk broadcasts, 1 cycle predicted: the fake's 4 differs.
            await routeReady(page2, b2 + '?b=3&m=4&s=3&rows=8');
            const a8 = (await getJSON(apiURL(b2, 'access', { ...q, rows: '8', pattern: 'col_read', step: 0 }))).body;
            const r = await (await fetch(b2 + 'api/measure', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ op: 'ld', bytes: 4, offsets: a8.offsets, bank_bytes: 4, banks: 32 }) })).json();
            check('measure API: disagreement on 8 rows', r.agree.cycles === false && r.agree.wavefronts === false);
            const m0 = await page2.evaluate(() => Number(document.body.dataset.measured || 0));   // a route keeps the page's count
            await page2.click('#measure-btn');
            await page2.waitForFunction((n) => Number(document.body.dataset.measured || 0) === n + 1, m0);
            const c8 = await row('measure-cycles'), w8 = await row('measure-wavefronts');
            check('measure: a disagreement is clearly marked', c8.cls.includes('differ') && /differs/.test(c8.cells[3]) && w8.cls.includes('differ'), JSON.stringify([c8, w8]));
            await t.shot(page2.locator('.acc-top'), { path: path.join(SHOTS, 'measure-differ.png') });
        });

        await step('measure: errors in plain words', async () => {
            t.setPhase('measure-errors');
            // 502: the tool fails for stmatrix.
            await routeReady(page2, b2 + '?b=3&m=4&s=3&rows=8&pat=stmatrix_x4');
            let m0 = await page2.evaluate(() => Number(document.body.dataset.measured || 0));   // a route keeps the page's count
            await page2.click('#measure-btn');
            await page2.waitForFunction((n) => Number(document.body.dataset.measured || 0) === n + 1, m0);
            check('measure 502: plain words', /measurement ran but failed/.test(await text(page2, '#measure-error')), await text(page2, '#measure-error'));
            check('measure 502: the tool\'s own message', (await text(page2, '#measure-error-message')) === 'simulated failure: the probe kernel faulted');
            check('measure 502: button usable again', !(await page2.$eval('#measure-btn', (b) => b.disabled)));
            // 409: Node holds the GPU while the page asks.
            await routeReady(page2, b2 + '?b=3&m=4&s=3&rows=8');
            const started = path.join(dir, 'started'), hold = path.join(dir, 'hold');
            fs.rmSync(started, { force: true });
            fs.writeFileSync(hold, '');
            const held = fetch(b2 + 'api/measure', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ op: 'ld', bytes: 4, offsets: Array.from({ length: 32 }, (_, i) => 4 * i), bank_bytes: 4, banks: 32 }) });
            // Click while the held one runs: once the fake tool has started
            // it (a fixed 300 ms raced a loaded machine, where it had not).
            for (let i = 0; i < 200 && !fs.existsSync(started); i++) await t.sleep(25);
            m0 = await page2.evaluate(() => Number(document.body.dataset.measured || 0));
            await page2.click('#measure-btn');
            await page2.waitForFunction((n) => Number(document.body.dataset.measured || 0) === n + 1, m0);
            fs.rmSync(hold, { force: true });
            check('measure 409: busy, in plain words', /busy with another measurement/.test(await text(page2, '#measure-error')), await text(page2, '#measure-error'));
            check('measure 409: the held request still succeeds', (await held).status === 200);
            await t.shot(page2.locator('.acc-top'), { path: path.join(SHOTS, 'measure-busy.png') });
            t.setPhase('valid');
            // A bank geometry the GPU does not have cannot be measured.
            await routeReady(page2, b2 + '?b=3&m=4&s=3&rows=8&banks=64');
            check('measure: disabled off the 32 x 4 B geometry', await page2.$eval('#measure-btn', (b) => b.disabled) &&
                /32 banks of 4 bytes/.test(await text(page2, '#measure-status')), await text(page2, '#measure-status'));
        });
    } finally {
        if (page2) await page2.close().catch(() => {});
        if (srv) srv.child.kill('SIGTERM');
        fs.rmSync(dir, { recursive: true, force: true });
    }

    // A machine without a GPU: the tool's --info fails as cuda/probe.cu's
    // does there. The status says the plain sentence; the driver's words are
    // behind "What the server said" (and in the button's title), none lost.
    const dir3 = fs.mkdtempSync(path.join(os.tmpdir(), 'swz-nogpu-'));
    const tool3 = path.join(dir3, 'nogpu-measure.sh');
    const WHY = 'No GPU on this machine: no NVIDIA driver (libcuda.so.1 cannot be loaded: simulated)';
    fs.writeFileSync(tool3, `#!/bin/sh\necho '{"error":{"code":"no_device","message":"${WHY}"}}'\nexit 3\n`, { mode: 0o755 });
    let srv3 = null, page3 = null;
    try {
        srv3 = await t.startServer(await t.freePort(), ['--measure-tool', tool3]);
        await step('measure: no GPU, in plain words', async () => {
            const h = await probedHealth(srv3.base);
            check('no-GPU tool: health gives the tool\'s reason', h.measure.available === false && h.measure.reason === WHY, JSON.stringify(h.measure));
            page3 = await t.ctx.newPage();
            page3.setDefaultTimeout(t.TIMEOUT);
            t.watch(page3);
            await gotoReady(page3, srv3.base + '?b=3&m=4&s=3&rows=8');
            const st = await text(page3, '#measure-status');
            check('no GPU: the status is the plain sentence', st === 'Unavailable: No GPU on this machine.', st);
            const why = await page3.$eval('#measure-why', (d) => ({ hidden: d.hidden, open: d.open, text: d.querySelector('#measure-why-text').textContent }));
            check('no GPU: the driver\'s words are one click away, all of them', !why.hidden && !why.open && why.text === 'no NVIDIA driver (libcuda.so.1 cannot be loaded: simulated)', JSON.stringify(why));
            check('no GPU: the button\'s title holds the whole reason', (await page3.$eval('#measure-btn', (b) => b.title)).includes(why.text));
        });
    } finally {
        if (page3) await page3.close().catch(() => {});
        if (srv3) srv3.child.kill('SIGTERM');
        fs.rmSync(dir3, { recursive: true, force: true });
    }
}
