// access.js - the access view: a named pattern and register step, or 32
// custom offsets (both from /api/access), and what the API says one warp
// instruction costs on the current layout and which cells it touches.
// It keeps its choices in the page state (URL) through ctx and hands the
// answer to ctx.onResult (map marks, measurement). It must not compute costs.

import * as api from './api.js';
import { bankChart, hitsChart } from './bankchart.js';
import { verdictHTML, phaseTableHTML, ncuHTML } from './verdict.js';
import { parseOffsets, formatOffsets } from './offsets.js';
import { fixFor } from './hints.js';
import { isMatrix, opLabel, instrBody, instrQuery, instrState } from './ops.js';
import { stamp, bump } from './stamps.js';
import { INVALID, INLINE_ERR, INLINE_HINT, OFF, ON } from './classes.js';
import { setHTML, setText, setHidden } from './dom.js';
import { esc } from './esc.js';

const $ = (id) => document.getElementById(id);
const PLAY_MS = 900;

/* ctx: the PageCtx of app.js (its state keeps this view's choices). */
export function createAccess(ctx) {
    const ui = {
        modePattern: $('acc-mode-pattern'), modeCustom: $('acc-mode-custom'),
        patternBox: $('acc-pattern-controls'), customBox: $('acc-custom-controls'),
        pattern: $('acc-pattern'), source: $('acc-source'),
        step: $('acc-step'), stepLabel: $('acc-step-label'),
        prev: $('acc-prev'), next: $('acc-next'), play: $('acc-play'),
        offsets: $('acc-offsets'), offsetsErr: $('acc-offsets-err'), count: $('acc-count'),
        op: $('acc-op'), bytes: $('acc-bytes'), mats: $('acc-mats'), trans: $('acc-trans'),
        run: $('acc-run'), fill: $('acc-fill'),
        error: $('acc-error'), result: $('acc-result'), summary: $('acc-summary'),
        banks: $('acc-banks'), hits: $('acc-hits'), phases: $('acc-phases-box'), ncu: $('acc-ncu-box'),
    };
    let patterns = [];
    let seq = 0;
    let steps = 1;
    let last = null;          // last good result
    let playing = false, playTimer = 0;
    let stepT0 = 0;           // performance.now() of the step change being rendered
    // The neighbours of the shown step are asked ahead (api.js keeps the
    // answers) so that next / prev / play draw without waiting on the network.
    const askStep = (q, pat, step) => api.access(q, pat, step);
    function askNeighbours(q, pat, step) {
        for (const s of [step + 1, step - 1]) if (s >= 0 && s < steps) api.prefetch.access(q, pat, s).catch(() => {});
    }
    let near = null;   // {q, pat, step} of the step on screen, for prefetchNear()

    // ---------- controls ----------
    function setPatterns(list) {
        patterns = list;
        ui.pattern.innerHTML = '';
        for (const p of list) ui.pattern.add(new Option(p.label, p.name));
    }

    function sync() {
        const st = ctx.state();
        const custom = st.acc === 'custom';
        ui.modePattern.checked = !custom;
        ui.modeCustom.checked = custom;
        ui.patternBox.hidden = custom;
        ui.customBox.hidden = !custom;
        if (patterns.some((p) => p.name === st.pat)) ui.pattern.value = st.pat;
        const p = patterns.find((x) => x.name === st.pat);
        ui.source.textContent = p ? `Source: ${p.source}` : '';
        ui.step.value = String(st.step);
        if (document.activeElement !== ui.offsets) ui.offsets.value = st.offs.replace(/,/g, ', ');
        ui.op.value = st.op;
        ui.bytes.value = st.bytes;
        ui.mats.value = st.mats;
        ui.trans.checked = st.trans;
        const matrix = isMatrix(st.op);
        ui.bytes.disabled = matrix;
        ui.mats.disabled = !matrix;
        ui.trans.disabled = !matrix;
        updateCount();
    }

    function updateCount() {
        const n = parseOffsets(ui.offsets.value).count;
        ui.count.textContent = `${n} / 32 values`;
        ui.count.classList.toggle(OFF, n !== 32);
    }

    function setStepLabel(step) {
        setText(ui.stepLabel, `step ${step} of ${steps} (0..${steps - 1})`);
    }

    // ---------- requests ----------
    // The custom form of /api/access for the state's offsets text and
    // instruction: tokens the server refuses go as typed, so it names them.
    function customParams(st) {
        return { offsets: formatOffsets(parseOffsets(st.offs).offsets), ...instrQuery(st) };
    }

    // The instruction the measurement reruns: exactly what the cost was
    // computed for (the offsets form names no .trans: the state's, which
    // leaves the cost alone).
    const instrFromCost = (cost, offsets, trans = cost.trans) => instrBody(cost, offsets, trans);

    // Start the request for the current state and layout query q (null when
    // there is nothing to ask); refresh(pending) then uses it. A page load asks
    // this together with /api/swizzle, so both answers land in one frame.
    function request(q) {
        const st = ctx.state();
        if (!q) return null;
        let p = null;
        if (st.acc === 'custom') { if (st.offs.trim()) p = api.accessCustom(q, customParams(st)); }
        else if (patterns.length) p = askStep(q, st.pat, st.step);
        if (p) p.catch(() => {});   // refresh() reports it, or the layout failed first
        return p;
    }

    // Ask ahead what refresh() would need on layout query q with state st.
    function prefetch(q, st) {
        if (st.acc === 'custom') { if (st.offs.trim()) api.prefetch.accessCustom(q, customParams(st)).catch(() => {}); }
        else if (patterns.length) api.prefetch.access(q, st.pat, st.step).catch(() => {});
    }

    async function refresh(pending = null) {
        const my = ++seq;
        const st = ctx.state();
        const q = ctx.query();
        try {
            if (!q) { show(null, null); return; }
            let r;
            if (st.acc === 'custom') {
                if (!st.offs.trim()) {
                    show(null, { hint: 'Paste 32 byte offsets above (or fill them from a pattern), then Analyze.' });
                    return;
                }
                const a = await (pending || api.accessCustom(q, customParams(st)));
                if (my !== seq) return;
                const offsets = parseOffsets(st.offs).offsets;   // as the server took them ('-': null)
                r = { cost: a.cost, offsets, instr: instrFromCost(a.cost, offsets, isMatrix(a.cost.op) && st.trans), label: 'custom offsets', cells: a.cells };
            } else {
                if (!patterns.length) { show(null, { hint: 'No patterns: the server did not list any.' }); return; }
                const a = await (pending || askStep(q, st.pat, st.step));
                if (my !== seq) return;
                steps = a.steps;
                near = { q, pat: st.pat, step: a.step };
                if (ui.step.max !== String(Math.max(0, a.steps - 1))) ui.step.max = String(Math.max(0, a.steps - 1));
                if (ui.step.value !== String(a.step)) ui.step.value = String(a.step);
                setStepLabel(a.step);
                r = { cost: a.cost, offsets: a.offsets, instr: instrFromCost(a.cost, a.offsets), label: `${a.pattern}, step ${a.step}`, access: a, cells: a.cells };
            }
            show(r, null);
        } catch (err) {
            if (my !== seq) return;
            show(null, { err });
            // A pattern step out of range for a new layout: go back to step 0.
            if (err.field === 'step' && st.acc !== 'custom' && st.step !== 0) {
                ctx.set({ step: 0 }, false);
                sync();
                await refresh();
                return;
            }
        } finally {
            if (my === seq) {
                // Shown: what is on screen is drawn. Ready, one frame later:
                // the rest too (the view scrolled out of sight, the URL).
                if (stepT0) { stamp('accessMs', (performance.now() - stepT0).toFixed(2)); stepT0 = 0; }
                stamp('api', JSON.stringify(api.sources()));
                bump('accessShown');
                ctx.afterPaint().then(() => (my === seq ? ctx.flush() : null)).then(() => {
                    if (my !== seq) return;
                    bump('accessReady');
                    prefetchNear();
                    ctx.settled();
                    if (playing) playTimer = setTimeout(advance, PLAY_MS);
                });
            }
        }
    }

    // Ask ahead for the steps next to the one on screen (next / prev / play).
    function prefetchNear() {
        if (near && ctx.state().acc !== 'custom') askNeighbours(near.q, near.pat, near.step);
    }

    // ---------- rendering ----------
    function clearFieldMarks() {
        for (const e of [ui.offsets, ui.op, ui.bytes, ui.mats, ui.trans, ui.pattern, ui.step]) {
            e.classList.remove(INVALID);
            e.removeAttribute('aria-invalid');
        }
        setHidden(ui.offsetsErr, true);
        setHTML(ui.offsetsErr, '');
    }

    // The result r (or the problem) on screen: the marks and the measurement
    // at once; this view's own drawing now when it is in sight, else right
    // after the next frame (ctx.later).
    function show(r, problem) {
        last = r;
        if (r && !ctx.inView('access')) {
            ctx.onResult(r);
            ctx.later('access', () => draw(r, problem, false));
            return;
        }
        draw(r, problem, true);
    }

    function draw(r, problem, result) {
        if (r !== last) return;   // a newer result came first
        clearFieldMarks();
        setHidden(ui.error, true);
        setHTML(ui.error, '');
        if (!r) {
            setHidden(ui.result, true);
            if (playing) stop();
            if (problem && problem.err) showError(problem.err);
            else if (problem && problem.hint) { setHidden(ui.error, false); ui.error.className = INLINE_HINT; setHTML(ui.error, esc(problem.hint)); }
            if (result) ctx.onResult(null);
            return;
        }
        setHidden(ui.result, false);
        const c = r.cost;
        setHTML(ui.summary, `<p class="acc-what" id="acc-what">${esc(opLabel(r.instr))} &middot; ${esc(r.label)}</p>` + verdictHTML(c, 'acc'));
        const w = Math.max(320, ctx.width('acc-result') || 900);
        const big = ctx.state().present;
        bankChart(ui.banks, c, w, big);
        hitsChart(ui.hits, c, w, big);
        setHTML(ui.phases, phaseTableHTML(c, 'acc-phases'));
        setHTML(ui.ncu, ncuHTML(c, 'acc-ncu'));
        if (result) ctx.onResult(r);
    }

    function showError(err) {
        const fx = fixFor(err.field);
        const custom = ctx.state().acc === 'custom';
        const html = `<strong>${esc(fx ? fx.name : 'The server')}:</strong> <span class="msg" id="acc-error-message">${esc(err.message)}</span>` +
            (err.field ? ` <code class="field-name" id="acc-error-field">${esc(err.field)}</code>` : '') +
            (fx ? `<div class="fix" id="acc-error-fix"><b>Fix:</b> ${esc(fx.fix)}</div>` : '');
        // Errors about the custom instruction sit with the field they name.
        const fieldCtl = { op: ui.op, bytes: ui.bytes, matrices: ui.mats, trans: ui.trans, pattern: ui.pattern, step: ui.step }[err.field] ||
            (err.field && err.field.startsWith('offsets') ? ui.offsets : null);
        if (custom && fieldCtl) {
            fieldCtl.classList.add(INVALID);
            fieldCtl.setAttribute('aria-invalid', 'true');
            setHTML(ui.offsetsErr, html);
            setHidden(ui.offsetsErr, false);
            return;
        }
        ui.error.className = INLINE_ERR;
        setHTML(ui.error, html);
        setHidden(ui.error, false);
    }

    // ---------- play ----------
    function advance() {
        playTimer = 0;
        if (!playing) return;
        const st = ctx.state();
        ctx.set({ step: steps > 0 ? (st.step + 1) % steps : 0 }, false);
        sync();
        refresh();
    }

    function stop() {
        playing = false;
        clearTimeout(playTimer);
        playTimer = 0;
        ui.play.setAttribute('aria-pressed', 'false');
        ui.play.textContent = 'Play';
        ui.play.classList.remove(ON);
    }

    function togglePlay() {
        if (playing) { stop(); return; }
        playing = true;
        ui.play.setAttribute('aria-pressed', 'true');
        ui.play.textContent = 'Pause';
        ui.play.classList.add(ON);
        playTimer = setTimeout(advance, PLAY_MS / 3);
    }

    function goStep(step, push) {
        const s = Math.max(0, Math.min(steps - 1, step));
        if (s === ctx.state().step) return;
        stepT0 = performance.now();
        ctx.set({ step: s }, push, true);
        setStepLabel(s);
        ui.step.value = String(s);
        refresh();
    }

    // ---------- wiring ----------
    ui.modePattern.addEventListener('change', () => { stop(); ctx.set({ acc: '' }, true); sync(); refresh(); });
    ui.modeCustom.addEventListener('change', () => {
        stop();
        const part = { acc: 'custom' };
        // Start from the instruction on screen so there is something to edit.
        if (!ctx.state().offs && last) {
            part.offs = formatOffsets(last.offsets);
            const ins = instrState(last.cost);
            part.op = ins.op;
            if (!isMatrix(ins.op)) part.bytes = ins.bytes;
            else part.mats = ins.mats;
        }
        ctx.set(part, true);
        sync();
        refresh();
    });
    ui.pattern.addEventListener('change', () => { ctx.set({ pat: ui.pattern.value, step: 0 }, true); sync(); refresh(); });
    ui.step.addEventListener('input', () => goStep(Number(ui.step.value), 'none'));
    ui.step.addEventListener('change', () => { ctx.set({}, true); });
    ui.prev.addEventListener('click', () => { stop(); goStep(ctx.state().step - 1, true); });
    ui.next.addEventListener('click', () => { stop(); goStep(ctx.state().step + 1, true); });
    ui.play.addEventListener('click', togglePlay);
    ui.offsets.addEventListener('input', updateCount);
    const runCustom = () => {
        const text = formatOffsets(parseOffsets(ui.offsets.value).offsets.map((o) => o));
        ctx.set({ offs: text, op: ui.op.value, bytes: ui.bytes.value, mats: ui.mats.value, trans: ui.trans.checked }, true);
        sync();
        refresh();
    };
    ui.run.addEventListener('click', runCustom);
    ui.offsets.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runCustom(); } });
    for (const e of [ui.op, ui.bytes, ui.mats, ui.trans]) e.addEventListener('change', runCustom);
    ui.fill.addEventListener('click', async () => {
        const st = ctx.state(), q = ctx.query();
        if (!q) return;
        try {
            const a = await api.access(q, st.pat, st.step);
            const c = a.cost;
            const part = { offs: formatOffsets(a.offsets), ...instrState(c) };
            ctx.set(part, true);
            ui.offsets.value = part.offs.replace(/,/g, ', ');
            sync();
            refresh();
        } catch (err) {
            show(null, { err });
        }
    });

    return {
        setPatterns, sync, refresh, request, prefetch, prefetchNear, stop,
        current: () => last,
        isPlaying: () => playing,
        redraw() { if (last) show(last, null); },
    };
}
