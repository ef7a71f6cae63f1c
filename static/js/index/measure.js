// measure.js - the "Measure on GPU" button: sends the access view's current
// instruction to POST /api/measure twice, cycles only first (shown at once),
// then with the ncu counters (filled in when the profiler is done), next to
// the predicted numbers, marking where the API says they disagree. Availability
// comes from /api/health; this module must not judge agreement or compute costs.

import * as api from '../kit/api.js';
import { stamp, bump } from '../kit/stamps.js';
import { UNAVAILABLE, DIFFER, INLINE_ERR } from '../kit/classes.js';
import { esc } from '../kit/esc.js';

const $ = (id) => document.getElementById(id);

/**
 * reasonParts(reason) -> [plain, detail]: /api/health's reason for "cannot
 * measure" split into its plain sentence and what follows it (the tool's
 * words: "No GPU on this machine: no NVIDIA driver (libcuda.so.1 ...)").
 * The sentence ends at the first ': ' or ' (' with text after it; a reason
 * with neither is all sentence ('' detail). Nothing is dropped: the two
 * parts hold every word of the reason.
 */
export function reasonParts(reason) {
    const s = String(reason).trim();
    const m = /^(.+?)(?::\s+|\s+(?=\())(\S.*)$/s.exec(s);
    return m ? [m[1].replace(/[.\s]+$/, ''), m[2]] : [s.replace(/[.\s]+$/, ''), ''];
}
const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : '\u2014');

// What an error status means, in plain words.
function errorWords(err) {
    switch (err.status) {
    case 409: return 'The GPU is busy with another measurement. Try again in a moment.';
    case 503: return 'No GPU measurement on this machine.';
    case 502: return 'The measurement ran but failed.';
    case 0: return 'The server cannot be reached.';
    default: return err.status >= 400 && err.status < 500 ? 'The server refused this instruction.' : 'The measurement did not come back.';
    }
}

export function createMeasure() {
    const ui = { btn: $('measure-btn'), status: $('measure-status'), result: $('measure-result'), progress: $('measure-progress'),
        why: $('measure-why'), whyText: $('measure-why-text') };
    let health = { available: false, reason: 'checking the server\u2026', device: null };
    let current = null;      // the access view's result
    let running = false;
    let tick = 0;

    function deviceName() { return (health.device && health.device.name) || 'the GPU'; }

    function refreshButton() {
        let why = '', detail = '';
        // A class reads the plain sentence; the driver's words stay one click away.
        if (!health.available) { const [plain, more] = reasonParts(health.reason); why = `Unavailable: ${plain}${/[\w)]$/.test(plain) ? '.' : ''}`; detail = more; }
        else if (!current) why = 'Nothing to measure: the access view has no instruction.';
        else if (!current.cost.calibrated) why = `The GPU has 32 banks of 4 bytes; this layout uses ${current.cost.banks} \u00d7 ${current.cost.bank_bytes} B. Switch the bank geometry back to measure.`;
        // Written only where they change: this runs on every access answer.
        if (ui.btn.disabled !== (running || !!why)) ui.btn.disabled = running || !!why;
        if (ui.whyText.textContent !== detail) ui.whyText.textContent = detail;
        if (ui.why.hidden !== !detail) ui.why.hidden = !detail;
        const title = (detail ? `${why} ${detail}` : why) || `Run this instruction on ${deviceName()} and compare`;
        if (ui.btn.title !== title) ui.btn.title = title;
        if (!running) {
            const text = why || `on ${deviceName()}`;
            if (ui.status.textContent !== text) ui.status.textContent = text;
            if (ui.status.classList.contains(UNAVAILABLE) !== !!why) ui.status.classList.toggle(UNAVAILABLE, !!why);
        }
    }

    function setHealth(h) {
        const m = (h && h.measure) || {};
        health = { available: !!m.available, reason: m.reason || 'the server did not say why', device: m.device || null };
        refreshButton();
    }

    function update(r) {
        if (r !== current) {
            current = r;
            if (!running && !ui.result.hidden) { ui.result.hidden = true; ui.result.innerHTML = ''; }
        }
        refreshButton();
    }

    function row(name, pred, meas, agree, id, pending) {
        const mark = pending ? '<span class="na pending" id="measure-counters-pending" title="counters pending: ncu is reading them; the cycles are in">pending\u2026</span>'
            : agree === true ? '<span class="agree" title="the API says measured and predicted agree">\u2713 agrees</span>'
                : agree === false ? '<span class="disagree" title="the API says measured and predicted differ">\u2717 differs</span>'
                    : '<span class="na">not read</span>';
        const cls = agree === false ? ` class="${DIFFER}"` : '';
        return `<tr${cls} id="${id}"><th>${name}</th><td class="num pred">${fmt(pred)}</td><td class="num meas">${typeof meas === 'number' ? meas.toFixed(2) : '\u2014'}</td><td>${mark}</td></tr>`;
    }

    // counters: undefined once the answer is whole, 'pending' while ncu runs,
    // or the error the counter pass ended with (the cycles stay).
    function counterNote(counters, wf) {
        if (counters === 'pending') return 'Cycles timed without the profiler; ncu is reading the wavefront counters (about 2 s). ';
        if (counters) return `<span id="measure-counters-error">The counters did not come back: ${esc(errorWords(counters))} The server said: ${esc(counters.message)}</span> `;
        return wf === null || wf === undefined ? 'Wavefronts need the hardware counters (ncu); this run timed cycles only. ' : '';
    }

    function render(ans, label, counters) {
        const p = ans.predicted, m = ans.measured || {}, a = ans.agree || {};
        const dev = (ans.device && ans.device.name) || deviceName();
        const wf = m.wavefronts_per_instr, pending = counters === 'pending';
        ui.result.innerHTML = `<table class="measured" id="measure-table">
<caption>${esc(label)} on <b id="measure-device">${esc(dev)}</b></caption>
<thead><tr><th></th><th class="num">Predicted</th><th class="num">Measured</th><th></th></tr></thead>
<tbody>${row('Cycles / instr', p.cycles, m.cycles_per_instr, a.cycles, 'measure-cycles')}
${row('Wavefronts / instr', p.wavefronts, wf === undefined ? null : wf, wf === null || wf === undefined ? null : a.wavefronts, 'measure-wavefronts', pending)}</tbody>
</table>
<p class="fine">${counterNote(counters, wf)}` +
            `${ans.verify && ans.verify.ok === false ? '<b>The tool could not verify the data it read back.</b> ' : ''}` +
            `Cycles agree within 2% (clock64 noise); wavefronts are counts.</p>`;
        ui.result.hidden = false;
    }

    function renderError(err, label) {
        ui.result.innerHTML = `<div class="${INLINE_ERR}" id="measure-error" data-code="${esc(err.code || '')}" title="HTTP ${err.status} ${esc(err.code || '')}"><strong>${esc(errorWords(err))}</strong>` +
            `<div class="detail">The server said: <span id="measure-error-message">${esc(err.message)}</span></div>` +
            `<div class="fine">Instruction: ${esc(label)}</div></div>`;
        ui.result.hidden = false;
    }

    // The cycles on screen with the counter pass's wavefronts: the verdicts
    // are the API's, each from the run that measured its number.
    function merge(cyc, full) {
        const m = full.measured || {}, c = cyc.measured || {};
        return { ...full, measured: { ...m, cycles_per_instr: c.cycles_per_instr, raw_cycles: c.raw_cycles },
            agree: { ...(full.agree || {}), cycles: (cyc.agree || {}).cycles } };
    }

    // Measure the current instruction: the cycles (no profiler, a fraction of
    // a second) are shown as they come, then the counter pass fills in the
    // wavefronts. Resolves with the whole answer, the cycles-only one when
    // the counter pass failed, or {error} when the cycles did (shown either way).
    async function run() {
        if (running || !current) return null;
        const r = current, label = r.label;
        running = true;
        stamp('measuring', '1');
        refreshButton();
        const t0 = performance.now();
        let phase = '';
        const say = () => { ui.status.textContent = `Measuring on ${deviceName()}\u2026 ${((performance.now() - t0) / 1000).toFixed(1)} s${phase}`; };
        ui.progress.hidden = false;
        ui.status.textContent = `Measuring on ${deviceName()}\u2026`;
        tick = setInterval(say, 100);
        try {
            let cyc;
            try {
                cyc = await api.measure({ ...r.instr, counters: false });
            } catch (err) {
                renderError(err, label);
                return { error: err };
            }
            render(cyc, label, 'pending');
            stamp('counters', 'pending');
            phase = ': cycles in, counters pending (ncu)';
            say();
            try {
                const ans = merge(cyc, await api.measure(r.instr));
                render(ans, label);
                return ans;
            } catch (err) {
                render(cyc, label, err);
                return cyc;
            }
        } finally {
            clearInterval(tick);
            running = false;
            ui.progress.hidden = true;
            stamp('counters', '');
            stamp('measuring', '');
            bump('measured');
            refreshButton();
        }
    }

    ui.btn.addEventListener('click', run);
    return { setHealth, update, run, health: () => health };
}
