// linear.js - the F2 workbench page (linear.html): reads the view from the URL,
// sends it to /api/linear/evaluate (and /optimize for "Optimal"), draws the
// answer with linearview.js and writes the URL back, so every view is a link.
// It must not compute the model: no wavefront, basis or intersection here.

import * as api from '../kit/api.js';
import { setHTML, setText, setHidden, setClass } from '../kit/dom.js';
import { INVALID, BUSY, WARN } from '../kit/classes.js';
import { bump, stamp } from '../kit/stamps.js';
import { esc } from '../kit/esc.js';
import { keepDisplay } from '../kit/theme.js';
import { setOps } from '../kit/ops.js';
import {
    PRESETS, HARDWARE, BITWIDTHS, VECS, presetById, fromPreset, fromQuery, toQuery, layoutText, parseLayout,
    rowMajorFold, toggled, evaluateBody, optimizeBody, withOptimum, bitName, bankViewOf, SIDES,
} from '../kit/linearstate.js';
import { toggleGrid, matrix, layoutGroups, verdict, algebra, phaseRule, equivalents, construction } from './linearview.js';
import { drawBankView } from './linearbanks.js';

const $ = (id) => document.getElementById(id);
let state = fromQuery(location.search);
let seq = 0;                 // the latest load; older answers are dropped
let optimum = null;          // {query, construction}: the last Optimal, while the view is it
let answer = null;           // the evaluate answer on screen (the bank view redraws from it)

function fillSelect(el, items) {
    setHTML(el, items.map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join(''));
}

function showControls() {
    const p = presetById(state.preset);
    $('lin-preset').value = p ? p.id : 'custom';
    setText($('lin-preset-note'), p ? p.note : 'Your own layouts.');
    $('lin-rows').value = state.shape[0];
    $('lin-cols').value = state.shape[1];
    $('lin-bw').value = String(state.bitwidth);
    $('lin-vec').value = String(state.vec);
    $('lin-hw').value = state.hw;
    for (const k of ['A', 'B']) {
        const ta = $('lin-' + k);
        if (document.activeElement !== ta) ta.value = layoutText(state[k]);
    }
}

function showError(e) {
    const field = e.field || '';
    setText($('lin-banner-message'), e.message);
    setText($('lin-banner-field'), field || 'none');
    setHidden($('lin-banner'), false);
    const blame = { A: 'lin-A', B: 'lin-B', shape: 'lin-rows', bitwidth: 'lin-bw', vec: 'lin-vec', num_banks: 'lin-hw', lanes_per_wavefront: 'lin-hw' };
    const root = field.split(/[.[]/)[0];
    for (const id of Object.values(blame)) setClass($(id), INVALID, blame[root] === id);
    for (const id of ['lin-verdicts', 'lin-rules', 'lin-equivalents', 'lin-algebra', 'lin-matrices', 'lin-construction-box',
        'lin-bv-map', 'lin-bv-chart', 'lin-bv-summary', 'lin-bv-phases']) setHTML($(id), '');
    for (const k of SIDES) setHidden($(`lin-open-access-${k}`), true);
    answer = null;
}

function clearError() {
    setHidden($('lin-banner'), true);
    for (const id of ['lin-A', 'lin-B', 'lin-rows', 'lin-bw', 'lin-vec', 'lin-hw']) setClass($(id), INVALID, false);
}

function render(ans) {
    setHTML($('lin-verdicts'), verdict(ans.store, 'Store, layout A') + verdict(ans.load, 'Load, layout B'));
    const m = ans.model;
    const model = `<li><b>model:</b> ${esc(m.hardware)} <span class="lin-status${m.status === 'measured' ? '' : ' ' + WARN}">${esc(m.status)}</span></li>`;
    setHTML($('lin-rules'), model + phaseRule(ans.store) + phaseRule(ans.load));
    setHTML($('lin-toggles'), toggleGrid(state.shape, state.fold));
    setText($('lin-memnote'), state.fold ? '' :
        'This layout is not a fold of row bits into column bits (it moves the vector or bank bits), so the toggles are off; ' +
        'its offset bases: ' + ans.offset_bases.map(bitName).join(', ') + '.');
    setHTML($('lin-equivalents'), equivalents(ans.equivalents, state));
    setHTML($('lin-construction-box'), optimum && optimum.query === toQuery(state) ? construction(optimum.construction) : '');
    setHTML($('lin-algebra'), algebra(ans.store, 'Store: segment bits against A\'s lanes') + algebra(ans.load, 'Load: segment bits against B\'s lanes'));
    setHTML($('lin-matrices'),
        matrix(state.shape, layoutGroups(state.A), 'A: register, lane, warp bits \u2192 element') +
        matrix(state.shape, layoutGroups(state.B), 'B: register, lane, warp bits \u2192 element') +
        matrix(state.shape, [{ name: 'offset', short: 'o', bases: ans.offset_bases }], 'M: offset bits \u2192 element'));
    answer = ans;
    drawBanks();
}

// The bank view of the answer on screen, for the view's side, phase and labels.
function drawBanks() {
    if (!answer) return;
    const r = drawBankView(answer, state);
    stamp('bankMarks', r.marks);
}

// A bank view choice: no request, a redraw and the URL (a new history entry).
function viewChange(patch) {
    state = { ...state, ...patch };
    const url = '?' + keepDisplay(toQuery(state));   // theme and presenter mode stay
    if (url !== location.search) history.pushState(null, '', url);
    drawBanks();
    bump('linearReady');
}

// Load the view in `state`; write it to the URL (a new history entry when
// `push`, none when `write` is false: back / forward).
async function load(push, write = true) {
    const my = ++seq;
    showControls();
    if (write) {
        const url = '?' + keepDisplay(toQuery(state));   // theme and presenter mode stay
        if (url !== location.search) history[push ? 'pushState' : 'replaceState'](null, '', url);
    }
    document.body.classList.add(BUSY);
    try {
        const ans = await api.linearEvaluate(evaluateBody(state));
        if (my !== seq) return;
        clearError();
        render(ans);
    } catch (e) {
        if (my !== seq) return;
        showError(e);
        setHTML($('lin-toggles'), toggleGrid(state.shape, state.fold));
    } finally {
        if (my === seq) {
            document.body.classList.remove(BUSY);
            bump('linearReady');
        }
    }
}

function change(next, custom = false) {
    state = custom ? { ...next, preset: 'custom' } : next;
    load(true);
}

// TTGIR pasted as A or B (an encoding, its alias lines above it, Gluon's
// DistributedLinearLayout print or LinearLayout::toString): the server reads
// it on the tile's shape and the box shows the bases it answers.
async function readEncoding(k, text) {
    const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
    const whole = /where out dims are:/.test(text);
    try {
        const d = await api.layoutDistributed({ layout: whole ? text : lines[lines.length - 1], aliases: whole ? undefined : text, shape: state.shape });
        const hw = d.lanes_per_warp === 64 && HARDWARE[state.hw].lanes !== 64 ? 'mi300' : state.hw;
        change({ ...state, hw, [k]: { register: d.register, lane: d.lane, warp: d.warp } }, true);
    } catch (e) {
        showError({ field: k, message: e.message });
        bump('linearReady');
    }
}

function readLayout(k) {
    const text = $('lin-' + k).value;
    if (/^\s*(#|DistributedLinearLayout\(|- register=)/.test(text) || /where out dims are:/.test(text)) {
        readEncoding(k, text);
        return;
    }
    const r = parseLayout(text);
    if (r.error) {
        showError({ field: k, message: r.error });
        return;
    }
    if (JSON.stringify(r.layout) !== JSON.stringify(state[k])) change({ ...state, [k]: r.layout }, true);
}

function readShape() {
    const shape = [Number($('lin-rows').value), Number($('lin-cols').value)];
    if (shape[0] === state.shape[0] && shape[1] === state.shape[1]) return;
    // a shape that is no power of two still goes to the server, which names it
    const ok = shape.every((x) => Number.isInteger(x) && x > 0 && (x & (x - 1)) === 0);
    change({ ...state, shape, fold: ok ? rowMajorFold(shape) : null, mem: ok ? null : [] }, true);
}

async function optimal() {
    const my = ++seq;
    const btn = $('lin-optimal');
    btn.disabled = true;
    try {
        const ans = await api.linearOptimize(optimizeBody(state));
        if (my !== seq) return;
        state = withOptimum(state, ans);
        optimum = { query: toQuery(state), construction: ans.construction };
        await load(true);
    } catch (e) {
        if (my === seq) { showError(e); bump('linearReady'); }
    } finally {
        btn.disabled = false;
    }
}

function init() {
    fillSelect($('lin-preset'), [...PRESETS.map((p) => [p.id, p.label]), ['custom', 'Custom']]);
    fillSelect($('lin-bw'), BITWIDTHS.map((b) => [b, `${b}-bit`]));
    fillSelect($('lin-vec'), VECS.map((v) => [v, `${v} element${v > 1 ? 's' : ''}`]));
    fillSelect($('lin-hw'), Object.entries(HARDWARE).map(([k, h]) => [k, h.label]));
    $('lin-controls').addEventListener('submit', (e) => e.preventDefault());
    $('lin-preset').addEventListener('change', (e) => {
        const p = presetById(e.target.value);
        if (p) change(fromPreset(p, bankViewOf(state)));
        else change(state, true);
    });
    $('lin-rows').addEventListener('change', readShape);
    $('lin-cols').addEventListener('change', readShape);
    $('lin-bw').addEventListener('change', (e) => change({ ...state, bitwidth: Number(e.target.value) }, true));
    $('lin-vec').addEventListener('change', (e) => change({ ...state, vec: Number(e.target.value) }));
    $('lin-hw').addEventListener('change', (e) => change({ ...state, hw: e.target.value }));
    for (const k of ['A', 'B']) {
        const ta = $('lin-' + k);
        ta.addEventListener('change', () => readLayout(k));
        ta.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); readLayout(k); } });
    }
    $('lin-toggles').addEventListener('click', (e) => {
        const b = e.target.closest('button[data-i]');
        if (b && !b.disabled) change(toggled(state, Number(b.dataset.i), Number(b.dataset.j)));
    });
    $('lin-optimal').addEventListener('click', optimal);
    document.querySelector('.lin-bvbar').addEventListener('click', (e) => {
        const side = e.target.closest('button[data-side]'), ph = e.target.closest('button[data-ph]');
        if (side) viewChange({ side: side.dataset.side });
        else if (ph) viewChange({ phase: ph.dataset.ph === '' ? null : Number(ph.dataset.ph) });
    });
    $('lin-bv-show').addEventListener('change', (e) => viewChange({ show: e.target.value }));
    const map = $('lin-bv-map');
    map.addEventListener('scroll', () => { if (map.mapView) map.mapView.draw(false); }, { passive: true });
    map.addEventListener('mousemove', (e) => { if (map.mapView) map.mapView.hover(e); });
    map.addEventListener('mouseleave', () => { if (map.mapView) map.mapView.hover(null); });
    $('lin-rowmajor').addEventListener('click', () => change({ ...state, fold: rowMajorFold(state.shape), mem: null }));
    window.addEventListener('popstate', () => { state = fromQuery(location.search); load(false, false); });
    // The instruction kinds (ops.js) name each side's op; without them the page still draws.
    api.ops().then(setOps, () => {}).then(() => load(false));
}

init();
