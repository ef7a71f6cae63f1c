// app.js - the visualizer page: builds the page context the panels share
// (PageCtx below), wires the controls to the state, loads the layout and
// draws the readout, maps (maps.js) and the panels of the registry (PANELS
// below: access view, scorecard, trace, measurement). State lives in the URL
// (state.js, url.js); every number shown comes from the API (api.js). This
// module must not compute swizzles, banks, addresses or costs.

import * as api from '../kit/api.js';
import { fromSearch, apiQuery, sameParams, namedStep } from '../kit/state.js';
import * as inspector from './inspector.js';
import { createAccess } from './access.js';
import { createMeasure } from './measure.js';
import { createDisplay } from './display.js';
import { createMaps } from './maps.js';
import { createSelection } from './selection.js';
import { createBanner } from './banner.js';
import { setOps } from '../kit/ops.js';
import { setLimits, applyLimits } from './limits.js';
import { createURL } from './url.js';
import { renderStats, renderBitstrip, clearReadout, renderReadout } from './readout.js';
import { renderExplain } from './explain.js';
import { createPeek } from './peek.js';
import { createLesson } from './lesson.js';
import { createPredict } from './predict.js';
import { createTyping } from './typing.js';
import { createVerdictLine } from './verdictline.js';
import { fixOf, fixState } from './fixes.js';
import { ELEMENT_TYPES, elementSwizzle } from './elements.js';
import { addExport } from './export.js';
import { createLater, afterPaint } from './later.js';
import { flushPaints } from '../kit/paint.js';
import { stamp, bump } from '../kit/stamps.js';
import { BUSY, ERROR, WARN } from '../kit/classes.js';
import { setHTML, setText, setClass } from '../kit/dom.js';

const $ = (id) => document.getElementById(id);

const ui = {
    form: $('controls'), preset: $('preset'), b: $('b'), m: $('m'), s: $('s'),
    bank_bytes: $('bank_bytes'), banks: $('banks'), rows: $('rows'), match: $('match'),
    bankRow: $('bank-row'), banner: $('banner'), readout: $('readout'), stats: $('stats'),
    bitstrip: $('bitstrip'), formula: $('formula'), inspector: $('inspector-body'),
    gridNote: $('grid-note'), banksNote: $('banks-note'),
    elem: $('elem'), elemSwizzle: $('elem-swizzle'), show: $('show'), code: $('code'), marksNote: $('acc-marks-note'),
};
const LIMITED = ['b', 'm', 's'];   // number inputs whose range /api/presets' limits give
const FIELD_CONTROL = { b: 'b', m: 'm', s: 's', bank_bytes: 'bank_bytes', banks: 'banks', rows: 'rows', match_bank_row: 'match' };

let state = fromSearch(location.search);
let presets = [];
let data = null;          // last good /api/swizzle body, for `loaded`
let loaded = null;        // the state `data` was fetched for
let loadSeq = 0;
let changeT0 = 0;         // performance.now() of the control change being rendered
let mapsDrawn = false;    // no layout drawn yet: the page's sections sit higher than they will

// On screen first (later.js): a change draws the sections in sight at once,
// the others right after the next frame, when the URL is written too. The
// scroll maps (grids, bank maps) and their notes are watched on their own: a
// section whose heading is in sight need not draw maps that are not.
const sched = createLater(document.querySelectorAll('main > section'), () => url.flush(),
    [...document.querySelectorAll('main .view.scroll')].map((v) => v.closest('figure')).concat([$('grid-note'), $('banks-note')]));
const url = createURL(() => state, () => sched.arm());

/**
 * PageCtx: what every panel (access.js, scorecard.js, trace.js, display.js)
 * and the maps and selection (maps.js, selection.js) get from the page. It is
 * written down here, where it is built, and nowhere else.
 * @typedef {Object} PageCtx
 * @property {() => Object} state   the page state (state.js), as of now
 * @property {(partial: Object, push: boolean|'none', defer?: boolean) => void} set
 *     merge `partial` into the state; push true: a new history entry, false:
 *     replace the URL, 'none': leave the URL for later; defer: write it at
 *     flush(), after the next frame
 * @property {() => Object|null} query   the /api/swizzle query of the drawn layout, null while invalid
 * @property {() => Object|null} data    the drawn /api/swizzle answer, null while invalid
 * @property {(r: Object|null) => void} onResult   the access view's answer
 *     ({cost, offsets, instr, label, cells}) or null: map outlines, measurement
 * @property {(col: number) => void} onTrace   the trace panel moved the traced column
 * @property {() => void} changed        sizes changed (presenter mode): lay the maps out again
 * @property {(id: string) => number} width   a container's width, cached: no forced layout
 * @property {() => void} settled        a panel finished drawing: the page may ask ahead
 * @property {(id: string) => boolean} inView   is the section holding element id on screen?
 * @property {(id: string) => boolean} inSight   is element id's figure (or id, a watched note) on screen?
 * @property {(key: string, fn: Function) => void} later   run fn right after the next frame (the latest per key)
 * @property {(key: string) => void} drop   forget what later() holds for key
 * @property {() => Promise<void>} afterPaint   resolves right after the next frame
 * @property {() => Promise<void>} flush   run what later() holds, and write the URL
 * @property {() => Object[]} presets   the /api/presets list (presets.c's table)
 * @property {() => string} compare   the presets as /api/access's compare= (b,m,s;...)
 * @property {(partial: Object) => void} go   a new state from a control (a fix, a lesson step): URL, controls, load
 * @property {() => Promise<void>} loaded   resolves when the load under way is drawn
 */
/** @type {PageCtx} */
const ctx = {
    state: () => state,
    set(partial, push, defer = false) {
        state = { ...state, ...partial };
        if (push !== 'none') url.write(push === true, defer);
    },
    query: () => (data && loaded ? apiQuery(loaded) : null),
    data: () => data,
    onResult(r) {
        maps.setAccess(r);
        lastResult = r;
        for (const row of live()) if (row.result) row.result(row.p, r);
    },
    onTrace() { maps.applyTrace(); },
    changed() { maps.resetWidths(); if (data) { maps.render(data); selection.show(); access.redraw(); } },
    width: (id) => maps.width(id),
    settled() { if (prefetcher && data && loaded && sameParams(state, loaded)) prefetcher.schedule(state, data); },
    inView: (id) => sched.inView($(id)),
    inSight: (id) => sched.inSight($(id)),
    later: (key, fn) => sched.later(key, fn),
    drop: (key) => sched.drop(key),
    afterPaint: () => afterPaint(),
    flush: () => sched.flush(),
    presets: () => presets,
    compare: () => api.compareOf(presets),
    go(partial) { goTo(partial); },
    loaded: () => loading,
};
// ---------- the panels ----------
/**
 * PANELS: one row per panel the page wires; adding a panel is its module, its
 * markup (a section with the row's id) and one row here (README, "Adding a
 * panel"). Every field but id and create is optional; p is the panel that
 * create(ctx) made.
 * @typedef {Object} PanelRow
 * @property {string} id   its section's element id (what inView() asks about)
 * @property {(ctx: PageCtx) => Object} [create]   makes the panel (with the page)
 * @property {() => Promise<Function>} [later]   or: loads its module once the
 *     first screen is drawn (extras below) and gives its create
 * @property {'layout'|'sight'} [follows]   redrawn on every layout change:
 *     'layout' at once (its answer outlines the maps), 'sight' at once when
 *     its section is on screen, else right after the next frame
 * @property {(p, q: Object) => *} [request]   ask for layout query q alongside
 *     the layout itself (load); what it returns reaches refresh as `pre`
 * @property {(p, d: Object|null, pre?: *) => Promise} [refresh]   draw for
 *     layout answer d (null: the layout is invalid)
 * @property {(p, q: Object, st: Object, d: Object) => void} [prefetch]   ask
 *     ahead (api.prefetch) what refresh would need in state st (prefetch.js)
 * @property {(p) => void} [near]   ask ahead for the neighbours of what is on screen
 * @property {(p) => void} [sync]   the state changed from outside the panel
 *     (URL, back/forward, a fix, a lesson step): stop what runs, read the state
 * @property {(p, boot: {patterns: Object[], producers: Object[], health: Object}) => void} [boot]   the start-up answers
 * @property {(p, r: Object|null) => void} [result]   the access view's answer (PageCtx.onResult)
 * @property {{ids: string[], label: (p) => string|undefined}} [exportable]   charts
 *     (container ids) the export bars save, and the caption's label
 */
/** @type {PanelRow[]} */
const PANELS = [
    { id: 'access', create: createAccess, follows: 'layout',
        request: (p, q) => p.request(q), refresh: (p, d, pre) => p.refresh(pre),
        prefetch: (p, q, st) => p.prefetch(q, st), near: (p) => p.prefetchNear(),
        sync: (p) => { p.stop(); p.sync(); }, boot: (p, b) => p.setPatterns(b.patterns),
        exportable: { ids: ['acc-banks', 'acc-hits'], label: (p) => (p.current() || {}).label } },
    { id: 'scorecard', later: () => import('./scorecard.js').then((m) => m.createScorecard), follows: 'sight',
        request: (p, q) => p.request(q), refresh: (p, d, pre) => p.refresh(pre),
        prefetch: (p, q, st) => p.prefetch(q, st), sync: (p) => p.sync(), boot: (p, b) => p.setPatterns(b.patterns, b.producers) },
    { id: 'trace', later: () => import('./trace.js').then((m) => m.createTrace), follows: 'sight',
        refresh: (p, d) => p.refresh(d), prefetch: (p, q, st, d) => p.prefetch(q, st, d) },
    { id: 'measure', create: () => createMeasure(),
        boot: (p, b) => p.setHealth(b.health), result: (p, r) => p.update(r) },
    { id: 'predict', create: createPredict, result: (p, r) => p.update(r), sync: (p) => p.sync() },
    { id: 'verdict-line', create: createVerdictLine, follows: 'layout', refresh: (p, d) => p.refresh(d), result: (p, r) => p.update(r) },
];
const maps = createMaps(ctx, ui);
maps.width('tile-plain');   // the maps' widths, read while the first paint's layout is clean (later: a forced layout)
for (const row of PANELS) if (row.create) row.p = row.create(ctx);
const live = () => PANELS.filter((row) => row.p);   // a `later` row is there once its module is
const panel = (id) => PANELS.find((row) => row.id === id).p;
const access = panel('access');
const display = createDisplay(ctx);
const peek = createPeek(ctx);
const selection = createSelection(ctx, maps, () => panel('trace'), ui.inspector, peek);
const lesson = createLesson(ctx, { access: () => access.current(), measure: () => panel('measure'), predict: panel('predict') });
const banner = createBanner(ui.banner, ui.form, (field) => ui[FIELD_CONTROL[field]]);
let prefetcher = null, bootData = null, lastResult = null, extrasGo;
// What the first screen does not draw loads once a load drew it (extras(), extras.js), in flight
// from now on as its requests (api.holding); ready waits on it and the later panels' first drawing.
const extrasP = api.holding(new Promise((go) => { extrasGo = go; }).then(() => import('./extras.js')).then((m) => m.wireExtras({ ctx, lesson, maps,
    panels: PANELS, presets: () => presets, boot: () => bootData, result: () => lastResult }))).then((x) => { prefetcher = x.prefetcher; return x.drawn; });
const extras = () => { extrasGo(); return extrasP; };
const codePanel = () => import('./codepanel.js');   // drawn out of sight, or after the first screen

// ---------- controls ----------

function setSelect(sel, value) {
    if (![...sel.options].some((o) => o.value === value)) sel.add(new Option(value, value));
    setValue(sel, value);
}

function currentPresetId() {
    const p = presets.find((p) => String(p.b) === state.b && String(p.m) === state.m && String(p.s) === state.s);
    return p ? p.id : 'custom';
}

// Controls are written only where they differ: a write restyles the control.
function setValue(el, v) { if (el.value !== v) el.value = v; }

function syncControls() {
    setValue(ui.b, state.b); setValue(ui.m, state.m); setValue(ui.s, state.s);
    setSelect(ui.bank_bytes, state.bank_bytes);
    setSelect(ui.banks, state.banks);
    setValue(ui.rows, state.rows);
    if (ui.match.checked !== state.match) ui.match.checked = state.match;
    setValue(ui.preset, currentPresetId());
    setValue(ui.elem, state.elem);
    setValue(ui.show, state.show);
    if (display.apply()) maps.resetWidths();
}

function readControls() {
    return {
        ...state,
        b: ui.b.value.trim(), m: ui.m.value.trim(), s: ui.s.value.trim(),
        bank_bytes: ui.bank_bytes.value, banks: ui.banks.value,
        rows: ui.rows.value.trim(), match: ui.match.checked,
    };
}

// A new state from outside the controls (a fix button, a lesson step, Back and
// Forward): the layout loads when it changed (true), the panels follow the
// rest, presenter mode as its checkbox does. push: a new history entry.
let loading = Promise.resolve();
function follow(next, push) {
    const before = state;
    state = next;
    if (push) url.write(true);
    syncControls();
    for (const row of live()) if (row.sync) row.sync(row.p);
    if (!(loaded && sameParams(state, loaded))) { loading = load(); return true; }
    if (before.elem !== state.elem || before.show !== state.show || before.present !== state.present) { if (before.present !== state.present) maps.resetWidths(); renderElem(data); maps.render(data); access.redraw(); }
    selection.show();
    loading = Promise.all(live().filter((row) => row.follows).map((row) => row.refresh(row.p, data)));
    return false;
}
const goTo = (partial) => follow({ ...state, ...partial }, true);

// B, M, S and rows apply after a pause in typing (typing.js); the digit
// being edited is marked in the readout until the field is left.
let edited = null;

// push: a new history entry (a choice), else replace (an edit under way).
function onControlChange(ev, push = true) {
    let next;
    if (ev.target === ui.elem || ev.target === ui.show) {
        state = { ...state, elem: ui.elem.value, show: ui.show.value };
        url.write(true);
        if (data) { renderElem(data); maps.render(data); selection.show(); }
        return;
    }
    if (ev.target === ui.preset) {
        const p = presets.find((x) => x.id === ui.preset.value);
        if (!p) { syncControls(); return; }
        next = { ...state, b: String(p.b), m: String(p.m), s: String(p.s) };
    } else {
        next = readControls();
    }
    if (sameParams(next, state)) return;
    changeT0 = performance.now();
    performance.mark('swz-change');
    state = next;
    url.write(push, true);
    syncControls();
    loading = load();
}

// ---------- rendering ----------
function renderElem(d) {
    const es = elementSwizzle(state.elem, d);
    const shows = state.show === 'row' ? 'cells show logical row numbers, coloured by row.'
        : es ? 'cells show the first element index of each unit.' : 'cells show logical column numbers.';
    const cap = (t) => t[0].toUpperCase() + t.slice(1);
    setText(ui.elemSwizzle, es ? (es.ok ? `${es.text} ${es.note}; ${shows}` : `${es.text}; ${shows}`) : cap(shows));
    setClass(ui.elemSwizzle, WARN, !!es && !es.ok);
    // The code panel and the formula share a section, usually out of sight.
    const code = () => codePanel().then((cp) => { if (d === data) { cp.renderFormula(ui.formula, d); cp.renderCode(ui.code, d, state.elem); } });
    if (mapsDrawn && ctx.inView('code')) code(); else ctx.later('code', code);   // not before the first screen
}

function renderAll(d) {
    const t0 = performance.now();
    renderReadout(ui.readout, d, edited);
    setClass(ui.readout, ERROR, false);
    renderExplain(d);
    if (ui.rows.placeholder !== String(d.params.rows)) ui.rows.placeholder = String(d.params.rows);
    renderStats(ui, d);
    renderBitstrip(ui.bitstrip, d);
    renderElem(d);
    maps.render(d, false);   // the access view's answer puts the outlines on (load)
    stamp('renderMs', Math.round(performance.now() - t0));
}

function clearAll() {
    maps.clear();
    clearReadout(ui);
    setHTML(ui.formula, '');
    setHTML(ui.code, '');
}

// The panels that follow the layout (PANELS' follows): 'layout' ones draw
// now (the access view's outlines are on the maps), 'sight' ones now when in
// sight, else right after the next frame.
// pre: their requests by id, started with the layout's (see load).
function refreshPanels(d, pre = {}) {
    const my = loadSeq, run = [];
    for (const row of live().filter((r) => r.follows)) {
        const fn = () => row.refresh(row.p, d, pre[row.id]);
        if (!d || row.follows === 'layout' || ctx.inView(row.id)) run.push(fn());
        else ctx.later(row.id, () => (my === loadSeq ? fn() : null));
    }
    return Promise.all(run);
}

// ---------- loading ----------
async function load() {
    const my = ++loadSeq;
    if (prefetcher) prefetcher.cancel();
    const want = { ...state };
    document.body.classList.add(BUSY);
    // The panels that need only the query: ask them alongside.
    const q = apiQuery(want), pre = {};
    for (const row of live()) if (row.request) pre[row.id] = row.request(row.p, q);
    try {
        // The answers that outline the maps and write the verdict are awaited
        // with the layout's, so that all of it is drawn in one frame: an answer
        // that came in while the maps were drawn waited for that frame.
        const [d] = await Promise.all([api.swizzle(q), ...PANELS.filter((r) => r.follows === 'layout' && pre[r.id]).map((r) => pre[r.id].catch(() => null))]);
        if (my !== loadSeq) return;
        data = d; loaded = want;
        performance.mark('swz-fetched');
        banner.hide();
        renderAll(d);
        // The first maps move the sections below them: where they are now.
        if (!mapsDrawn) { mapsDrawn = true; sched.measure(); }
        selection.show();
        await refreshPanels(d, pre);
        performance.mark('swz-drawn');
    } catch (err) {
        if (my !== loadSeq) return;
        data = null; loaded = want;
        banner.show(err);
        clearAll();
        ui.readout.textContent = `Swizzle<${want.b},${want.m},${want.s}>`;
        ui.readout.classList.add(ERROR);
        inspector.showHint(ui.inspector, 'Fix the parameters to inspect addresses.');
        // The API names the one value that would make the layout valid (fit=1).
        if (err.status >= 400 && err.status < 500) api.accessFit(apiQuery(want), want.pat, 0).then((a) => { if (my === loadSeq && a.fits === false) banner.showFix(a.fix); }).catch(() => {});
        await refreshPanels(null);
    } finally {
        if (my === loadSeq) {
            document.body.classList.remove(BUSY);
            if (changeT0) {
                stamp('cycleMs', (performance.now() - changeT0).toFixed(2));
                performance.measure('swz-cycle', 'swz-change');
                changeT0 = 0;
            }
            // Where the page's requests were answered from (api.js), for the render bench.
            stamp('api', JSON.stringify(api.sources()));
            flushPaints();
            stamp('shown', my);   // what is on screen is drawn
        }
    }
    // One frame later: the sections out of sight and the URL.
    if (my !== loadSeq) return;
    await afterPaint();
    await extras();
    if (my !== loadSeq) return;
    await ctx.flush();
    if (my !== loadSeq) return;
    flushPaints();
    stamp('api', JSON.stringify(api.sources()));   // with the sections drawn after the frame
    stamp('ready', my);   // tests wait on this: maps, panels and URL are done
    ctx.settled();
}

// ---------- start ----------
// The export buttons: map views by id (maps.js), a panel's charts by their
// container (PANELS' exportable).
function exportTarget(id) {
    const t = maps.exportTarget(id);
    if (t !== undefined) return t;
    const row = PANELS.find((r) => r.exportable && r.exportable.ids.includes(id));
    const svg = row ? $(id).querySelector('svg') : null;
    if (!svg) return null;
    const label = row.exportable.label(row.p), p = data ? data.params : null;
    return {
        svg, name: id,
        slug: p ? `Swizzle_${p.b}_${p.m}_${p.s}-${data.grid.rows}x${data.grid.cols}-${p.banks}x${p.bank_bytes}B${state.theme ? '-' + state.theme : ''}` : '',
        caption: p && label ? [`${data.name}: ${label}`, `${p.banks} banks x ${p.bank_bytes} B; made with swizzlescope`] : [],
    };
}

async function start() {
    const first = api.startup(apiQuery(state), namedStep(state));   // asked by boot.js already
    const [pr, pa, he, op] = await Promise.allSettled([first.presets, first.patterns, first.health, first.ops]);
    if (op.status === 'fulfilled') setOps(op.value); else banner.show(op.reason);
    if (pr.status === 'fulfilled') { presets = pr.value.presets || []; setLimits(pr.value.limits); }
    else banner.show(pr.reason);
    applyLimits(ui, LIMITED);
    const boot = bootData = {
        ...(pa.status === 'fulfilled' ? { patterns: pa.value.patterns || [], producers: pa.value.producers || [] } : { patterns: [], producers: [] }),
        health: he.status === 'fulfilled' ? he.value : { measure: { available: false, reason: he.reason.message } },
    };
    for (const row of live()) if (row.boot) row.boot(row.p, boot);
    // The menus anew (the server may have written them: firstscreen.c), in the task that sets their values.
    ui.elem.replaceChildren(...ELEMENT_TYPES.map((e) => new Option(e.label, e.id)));
    ui.preset.replaceChildren(...presets.map((p) => new Option(`${p.label || p.id} <${p.b},${p.m},${p.s}>`, p.id)), new Option('Custom', 'custom'));
    syncControls();
    for (const row of live()) if (row.sync) row.sync(row.p);
    // The layout's requests go out now; the listeners are wired while they fly.
    loading = load();
    url.write(false);
    for (const bar of document.querySelectorAll('.xbar')) addExport(bar, () => exportTarget(bar.dataset.for));

    const typing = createTyping(ui.form, ['b', 'm', 's', 'rows'], (e, push) => { edited = e.target.id === 'rows' ? null : e.target.id; onControlChange(e, push); },
        () => { if (edited) { edited = null; if (data) renderReadout(ui.readout, data, null); } });
    ui.form.addEventListener('change', (e) => { if (!typing.owns(e)) onControlChange(e); });
    // A one-click fix (banner, access view, scorecard): the value the API named.
    document.addEventListener('click', (e) => {
        const b = e.target.closest('button[data-fix-field]');
        if (b) goTo(fixState(fixOf(b)));
    });
    // "Show logical rows" in the grid's note: the same as choosing it in the menu.
    ui.gridNote.addEventListener('click', (e) => {
        const b = e.target.closest('button[data-show]');
        if (!b) return;
        ui.show.value = b.dataset.show;
        ui.show.dispatchEvent(new Event('change', { bubbles: true }));
    });
    ui.form.addEventListener('submit', (e) => e.preventDefault());
    maps.listen(selection.onMapClick);
    document.addEventListener('keydown', (e) => { if (!lesson.onKey(e) && !panel('predict').onKey(e)) selection.onKey(e); });
    window.addEventListener('popstate', () => {
        url.drop();   // the URL is the state now
        const synced = follow(fromSearch(location.search), false) ? loading.then(() => lesson.sync()) : lesson.sync();
        Promise.all([loading, synced]).finally(() => bump('followed'));   // layout, panels and lesson as the URL says
    });
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(() => { maps.resetWidths(); if (data) { maps.render(data); selection.show(); access.redraw(); } }, 150);
    });
    await loading;
    lesson.sync();
}

start();
