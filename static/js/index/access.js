// access.js - the access view: a named pattern and step, or the custom form's
// offsets or lane expression (custom.js), all from /api/access: one warp
// instruction's cost on the layout, beside it without the swizzle and on the
// best preset, the cells it touches, and a pattern that does not fit explained
// with the API's one-click fix. State through ctx, the answer to ctx.onResult
// (marks, measurement); it must not compute costs.

import * as api from '../kit/api.js';
import { bankChart, hitsChart } from '../kit/bankchart.js';
import { verdictHTML, phaseTableHTML, ncuHTML } from './verdict.js';
import { formatOffsets } from '../kit/offsets.js';
import { fixFor } from './hints.js';
import { fixButton } from './fixes.js';
import { baselineHTML } from './baseline.js';
import { createCustomForm, customParams, hasCustom, customLabel } from './custom.js';
import { patternSource } from './patterns.js';
import { isMatrix, opLabel, instrBody, instrState } from '../kit/ops.js';
import { stamp, bump } from '../kit/stamps.js';
import { INVALID, INLINE_ERR, INLINE_HINT, OFF, ON } from '../kit/classes.js';
import { setHTML, setText, setHidden } from '../kit/dom.js';
import { esc } from '../kit/esc.js';

const $ = (id) => document.getElementById(id);
const PLAY_MS = 900;

/* ctx: the PageCtx of app.js (its state keeps this view's choices). */
export function createAccess(ctx) {
    const ui = {
        modePattern: $('acc-mode-pattern'), modeCustom: $('acc-mode-custom'), modeExpr: $('acc-mode-expr'),
        patternBox: $('acc-pattern-controls'),
        pattern: $('acc-pattern'), source: $('acc-source'),
        step: $('acc-step'), stepLabel: $('acc-step-label'),
        prev: $('acc-prev'), next: $('acc-next'), play: $('acc-play'),
        offsetsErr: $('acc-offsets-err'), run: $('acc-run'), fill: $('acc-fill'),
        error: $('acc-error'), result: $('acc-result'), summary: $('acc-summary'), baseline: $('acc-baseline'),
        banks: $('acc-banks'), hits: $('acc-hits'), phases: $('acc-phases-box'), ncu: $('acc-ncu-box'),
    };
    const form = createCustomForm();
    let patterns = [];
    let seq = 0;
    let steps = 1;
    let last = null;          // last good result
    let playing = false, playTimer = 0;
    let stepT0 = 0;           // performance.now() of the step change being rendered
    // The neighbours of the shown step are asked ahead (api.js keeps the
    // answers) so that next / prev / play draw without waiting on the network.
    // fit=1: a pattern that does not fit is an answer (explained), not a 400;
    // compare: the same access on every preset (the baseline).
    const askStep = (q, pat, step) => api.accessFit(q, pat, step, ctx.compare());
    function askNeighbours(q, pat, step) {
        for (const s of [step + 1, step - 1]) if (s >= 0 && s < steps) api.prefetch.accessFit(q, pat, s, ctx.compare()).catch(() => {});
    }
    const askCustom = (q, st) => api.accessCustom(q, { ...customParams(st), compare: ctx.compare() });
    const askCustomAhead = (q, st) => api.prefetch.accessCustom(q, { ...customParams(st), compare: ctx.compare() });
    let near = null;   // {q, pat, step} of the step on screen, for prefetchNear()

    // ---------- controls ----------
    function setPatterns(list) {
        patterns = list;
        ui.pattern.innerHTML = '';
        for (const p of list) ui.pattern.add(new Option(p.label, p.name));
    }

    function sync() {
        const st = ctx.state();
        ui.modePattern.checked = st.acc === '';
        ui.modeCustom.checked = st.acc === 'custom';
        ui.modeExpr.checked = st.acc === 'expr';
        ui.patternBox.hidden = st.acc !== '';
        if (patterns.some((p) => p.name === st.pat)) ui.pattern.value = st.pat;
        const p = patterns.find((x) => x.name === st.pat);
        ui.source.textContent = p ? `Source: ${patternSource(p)}` : '';
        ui.step.value = String(st.step);
        form.sync(st);
    }

    function setStepLabel(step) {
        setText(ui.stepLabel, `step ${step} of ${steps} (0..${steps - 1})`);
    }

    // ---------- requests ----------
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
        if (st.acc) { if (hasCustom(st)) p = askCustom(q, st); }
        else if (patterns.length) p = askStep(q, st.pat, st.step);
        if (p) p.catch(() => {});   // refresh() reports it, or the layout failed first
        return p;
    }

    // Ask ahead what refresh() would need on layout query q with state st.
    function prefetch(q, st) {
        if (st.acc) { if (hasCustom(st)) askCustomAhead(q, st).catch(() => {}); }
        else if (patterns.length) api.prefetch.accessFit(q, st.pat, st.step, ctx.compare()).catch(() => {});
    }

    async function refresh(pending = null) {
        const my = ++seq;
        const st = ctx.state();
        const q = ctx.query();
        try {
            if (!q) { show(null, null); return; }
            let r;
            if (st.acc) {
                if (!hasCustom(st)) {
                    show(null, { hint: st.acc === 'expr' ? 'Type the byte offset of lane t at step r above, then Enter or Analyze.'
                        : 'Paste 32 byte offsets above (or fill them from a pattern), then Analyze.' });
                    return;
                }
                const a = await (pending || askCustom(q, st));
                if (my !== seq) return;
                r = { cost: a.cost, offsets: a.offsets, instr: instrFromCost(a.cost, a.offsets, isMatrix(a.cost.op) && st.trans), label: customLabel(st, ctx.data() ? ctx.data().name : ''), access: a, cells: a.cells };
            } else {
                if (!patterns.length) { show(null, { hint: 'No patterns: the server did not list any.' }); return; }
                const a = await (pending || askStep(q, st.pat, st.step));
                if (my !== seq) return;
                if (a.fits === false) { show(null, { unfit: a }); return; }
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
            if (err.field === 'step' && !st.acc && st.step !== 0) {
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
        if (near && !ctx.state().acc) askNeighbours(near.q, near.pat, near.step);
    }

    // ---------- rendering ----------
    function clearFieldMarks() {
        for (const e of [...form.all, ui.pattern, ui.step]) {
            e.classList.remove(INVALID);
            e.removeAttribute('aria-invalid');
        }
        setHidden(ui.offsetsErr, true);
        setHTML(ui.offsetsErr, '');
        form.showCaret(ctx.state(), null);
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
            else if (problem && problem.unfit) showUnfit(problem.unfit);
            else if (problem && problem.hint) { setHidden(ui.error, false); ui.error.className = INLINE_HINT; setHTML(ui.error, esc(problem.hint)); }
            if (result) ctx.onResult(null);
            return;
        }
        setHidden(ui.result, false);
        const c = r.cost;
        setHTML(ui.summary, `<p class="acc-what" id="acc-what">${esc(opLabel(r.instr))} &middot; ${esc(r.label)}</p>` + verdictHTML(c, 'acc'));
        const d = ctx.data();
        setHTML(ui.baseline, r.access && d ? baselineHTML(r.access.compare, ctx.presets(), c, d.name, ctx.state().acc === 'custom' && ctx.state().space === 'physical') : '');
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
        const st = ctx.state();
        const html = `<strong>${esc(fx ? fx.name : 'The server')}:</strong> <span class="msg" id="acc-error-message">${esc(err.message)}</span>` +
            (err.field ? ` <code class="field-name" id="acc-error-field">${esc(err.field)}</code>` : '') +
            (fx ? `<div class="fix" id="acc-error-fix"><b>Fix:</b> ${esc(fx.fix)}</div>` : '');
        // Errors about the custom instruction sit with the field they name.
        const fieldCtl = st.acc ? form.controlFor(st, err.field) : null;
        if (fieldCtl) {
            fieldCtl.classList.add(INVALID);
            fieldCtl.setAttribute('aria-invalid', 'true');
            setHTML(ui.offsetsErr, html);
            setHidden(ui.offsetsErr, false);
            form.showCaret(st, err);
            return;
        }
        ui.error.className = INLINE_ERR;
        setHTML(ui.error, html);
        setHidden(ui.error, false);
    }

    // A pattern that does not fit this layout (fit=1): the API's reason and,
    // where changing one value fits it, that value as one click.
    function showUnfit(a) {
        const e = a.why, p = patterns.find((x) => x.name === a.pattern);
        const btn = fixButton(a.fix, 'acc-fix');
        ui.error.className = INLINE_HINT;
        setHTML(ui.error, `<strong>${esc(p ? p.label : a.pattern)} does not fit this grid:</strong> <span class="msg" id="acc-error-message">${esc(e.message)}</span>` +
            `<div class="fix" id="acc-error-fix"><b>Fix:</b> ${esc((fixFor(e.field) || { fix: 'choose another pattern' }).fix)} ${btn}</div>`);
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
    function setMode(acc) {
        stop();
        const part = { acc };
        // Start from the instruction on screen so there is something to edit:
        // its lanes as logical offsets (the form's default space).
        if (acc === 'custom' && !ctx.state().offs && last && last.access) {
            part.offs = formatOffsets(last.access.logical);
            part.space = '';
            Object.assign(part, instrState(last.cost));
        }
        ctx.set(part, true);
        sync();
        refresh();
    }
    ui.modePattern.addEventListener('change', () => setMode(''));
    ui.modeCustom.addEventListener('change', () => setMode('custom'));
    ui.modeExpr.addEventListener('change', () => setMode('expr'));
    ui.pattern.addEventListener('change', () => { ctx.set({ pat: ui.pattern.value, step: 0 }, true); sync(); refresh(); });
    ui.step.addEventListener('input', () => goStep(Number(ui.step.value), 'none'));
    ui.step.addEventListener('change', () => { ctx.set({}, true); });
    ui.prev.addEventListener('click', () => { stop(); goStep(ctx.state().step - 1, true); });
    ui.next.addEventListener('click', () => { stop(); goStep(ctx.state().step + 1, true); });
    ui.play.addEventListener('click', togglePlay);
    const runCustom = () => { ctx.set(form.read(), true); sync(); refresh(); };
    ui.run.addEventListener('click', runCustom);
    form.listen(runCustom);
    ui.fill.addEventListener('click', async () => {
        const st = ctx.state(), q = ctx.query();
        if (!q) return;
        try {
            const a = await askStep(q, st.pat, st.step);
            if (a.fits === false) { show(null, { unfit: a }); return; }
            ctx.set({ acc: 'custom', offs: formatOffsets(a.logical), space: '', ...instrState(a.cost) }, true);
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
