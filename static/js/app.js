// app.js - the visualizer page: wires the controls, the URL, the maps and the
// panels (access view, scorecard, trace, code, display options). State lives
// in the URL (state.js); every number shown comes from the API (api.js).
// This module must not compute swizzles, banks, addresses or costs.

import * as api from './api.js';
import { fromSearch, toSearch, apiQuery, sameParams } from './state.js';
import { gridView, bankView, gridLayout, bankLayout, flushPaints } from './views.js';
import * as inspector from './inspector.js';
import { createAccess } from './access.js';
import { createScorecard } from './scorecard.js';
import { createMeasure } from './measure.js';
import { createTrace } from './trace.js';
import { createDisplay } from './display.js';
import { accessMarks } from './marks.js';
import { renderCode } from './codepanel.js';
import { ELEMENT_TYPES, cellLabel, cellTitle, elementSwizzle } from './elements.js';
import { fixFor } from './hints.js';
import { addExport } from './export.js';
import { ViewCache } from './viewcache.js';
import { createPrefetch } from './prefetch.js';
import { createLater, afterPaint } from './later.js';
import { setHTML, setText, setClass, setHidden } from './dom.js';

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

const ui = {
    form: $('controls'), preset: $('preset'), b: $('b'), m: $('m'), s: $('s'),
    bank_bytes: $('bank_bytes'), banks: $('banks'), rows: $('rows'), match: $('match'),
    bankRow: $('bank-row'), banner: $('banner'), readout: $('readout'), stats: $('stats'),
    bitstrip: $('bitstrip'), formula: $('formula'), inspector: $('inspector-body'),
    gridNote: $('grid-note'), banksNote: $('banks-note'),
    elem: $('elem'), elemSwizzle: $('elem-swizzle'), show: $('show'), code: $('code'), marksNote: $('acc-marks-note'),
};
const viewIds = { tilePlain: 'tile-plain', tileSwz: 'tile-swz', gridPlain: 'grid-plain', gridSwz: 'grid-swz', banksPlain: 'banks-plain', banksSwz: 'banks-swz' };
const FIELD_CONTROL = { b: 'b', m: 'm', s: 's', bank_bytes: 'bank_bytes', banks: 'banks', rows: 'rows', match_bank_row: 'match' };

let state = fromSearch(location.search);
let presets = [];
let data = null;          // last good /api/swizzle body, for `loaded`
let loaded = null;        // the state `data` was fetched for
let views = {};
let loadSeq = 0, inspectSeq = 0;
let accessResult = null;  // the access view's last answer, for the map marks
let changeT0 = 0;         // performance.now() of the control change being rendered
const viewCache = new ViewCache();

// The context the panels share: the state, a way to change it, the API query
// of the drawn layout (null while the parameters are invalid).
const ctx = {
    state: () => state,
    // push: true a new history entry, false replace the URL, 'none' leave it
    // for later; defer: write it at flush(), after the next frame.
    set(partial, push, defer = false) {
        state = { ...state, ...partial };
        if (push !== 'none') writeURL(push === true, defer);
    },
    query: () => (data && loaded ? apiQuery(loaded) : null),
    onResult(r) {
        accessResult = r;
        applyMarks();
        measure.update(r);
    },
    onTrace() { applyTrace(); },
    changed() { widthCache.clear(); if (data) { renderViews(data); showSelection(); access.redraw(); } },
    width: (id) => availWidth(id),
    // A panel finished drawing: ask ahead for the next likely change.
    settled() { if (data && loaded && sameParams(state, loaded)) prefetcher.schedule(state, data); },
    inView: (id) => inView(id),
    later: (key, fn) => later(key, fn),
    afterPaint: () => afterPaint(),
    flush: () => flush(),
};
const access = createAccess(ctx);
const scorecard = createScorecard(ctx);
const measure = createMeasure();
const trace = createTrace(ctx);
const display = createDisplay(ctx);
const prefetcher = createPrefetch({
    presets: () => presets,
    near: [() => access.prefetchNear()],
    panels: [(q, st) => access.prefetch(q, st), (q, st) => scorecard.prefetch(q, st), (q, st, d) => trace.prefetch(d, st)],
});

// On screen first (later.js): a change draws the sections in sight at once,
// the others right after the next frame, when the URL is written too.
const sched = createLater(document.querySelectorAll('main > section'), () => flushURL());
const inView = (id) => sched.inView($(id));
const later = (key, fn) => sched.later(key, fn);
const flush = () => sched.flush();

// Where the page's requests were answered from (api.js), for the render bench.
function stampSources() { document.body.dataset.api = JSON.stringify(api.sources()); }

// ---------- URL ----------
// The URL follows the state; a deferred write waits for flush() (after the
// next frame), and writes waiting together make one history entry.
let urlWrite = null;   // 'push' | 'replace' | null
function writeURL(push, defer = false) {
    urlWrite = push || urlWrite === 'push' ? 'push' : 'replace';
    if (defer) sched.arm();
    else flushURL();
}
function flushURL() {
    const w = urlWrite;
    urlWrite = null;
    if (!w) return;
    const url = location.pathname + toSearch(state) + location.hash;
    if (url === location.pathname + location.search + location.hash) return;
    if (w === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
}

// ---------- controls ----------
function fillPow2Select(sel, max) {
    for (let v = 1; v <= max; v *= 2) sel.add(new Option(String(v), String(v)));
}

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
    display.apply();
}

function readControls() {
    return {
        ...state,
        b: ui.b.value.trim(), m: ui.m.value.trim(), s: ui.s.value.trim(),
        bank_bytes: ui.bank_bytes.value, banks: ui.banks.value,
        rows: ui.rows.value.trim(), match: ui.match.checked,
    };
}

function onControlChange(ev) {
    let next;
    if (ev.target === ui.elem || ev.target === ui.show) {
        state = { ...state, elem: ui.elem.value, show: ui.show.value };
        writeURL(true);
        if (data) { renderElem(data); renderViews(data); showSelection(); }
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
    writeURL(true, true);
    syncControls();
    load();
}

// ---------- banner ----------
function clearInvalid() {
    for (const c of ui.form.querySelectorAll('.invalid')) {
        c.classList.remove('invalid');
        c.removeAttribute('aria-invalid');
    }
}

function showBanner(err) {
    clearInvalid();
    const field = err.field ? `<span class="field-name" id="banner-field">${esc(err.field)}</span>` : '';
    const fx = err.status >= 400 && err.status < 500 ? fixFor(err.field) : null;
    const what = fx ? `Invalid ${fx.name}` : err.status >= 400 && err.status < 500 ? 'Invalid parameters' : 'Server problem';
    ui.banner.innerHTML = `<div class="banner-what"><strong>${esc(what)}:</strong> <span id="banner-message">${esc(err.message)}</span> ${field}</div>` +
        (fx ? `<div class="banner-fix" id="banner-fix"><b>How to fix:</b> ${esc(fx.fix)}</div>` : '');
    ui.banner.hidden = false;
    const ctl = err.field && ui[FIELD_CONTROL[err.field]];
    if (ctl) {
        ctl.classList.add('invalid');
        ctl.setAttribute('aria-invalid', 'true');
    }
}

function hideBanner() {
    if (ui.banner.hidden) return;
    ui.banner.hidden = true;
    ui.banner.textContent = '';
    clearInvalid();
}

// ---------- rendering ----------
function stat(label, value, sub, id) {
    return `<div><dt>${label}</dt><dd id="${id}">${value}${sub ? ` <small>${sub}</small>` : ''}</dd></div>`;
}

function renderStats(d) {
    const u = d.unit, g = d.grid, T = d.tile.size;
    const unitSub = u.per_bank > 1 ? `1/${u.per_bank} bank` : `${u.banks_spanned} bank${u.banks_spanned > 1 ? 's' : ''}`;
    setHTML(ui.stats, [
        stat('Unit', `${u.bytes} B`, unitSub, 'stat-unit'),
        stat('Tile', `${T}&times;${T}`, `${d.tile.bytes} B`, 'stat-tile'),
        stat('Grid', `${g.rows}&times;${g.cols}`, `${g.bytes} B`, 'stat-grid'),
        stat('Tiles per row', `${g.tiles_per_row}`, `${g.tile_rows} tile row${g.tile_rows > 1 ? 's' : ''}`, 'stat-tiles'),
        stat('Row width', `${g.row_bytes} B`, `${g.cols} units`, 'stat-row'),
        stat('Bank row', `${d.bank_row_bytes} B`, `${d.params.banks}&times;${d.params.bank_bytes} B`, 'stat-bankrow'),
        stat('Bank rows', `${d.banks_view.rows}`, '', 'stat-bankrows'),
        stat('Masks', `0x${d.masks.yyy.toString(16)}`, `0x${d.masks.zzz.toString(16)}`, 'stat-masks'),
    ].join(''));
    setText(ui.bankRow, `${d.bank_row_bytes} B`);
}

function renderBitstrip(d) {
    const mk = d.masks, m = d.params.m;
    const top = Math.min(31, Math.max(mk.yyy_hi, mk.zzz_hi, m) + 2);
    let html = '<div class="bits">', prev = null;
    for (let bit = top - 1; bit >= 0; bit--) {
        let cls = 'bit', role = 'x';
        if (bit >= mk.yyy_lo && bit < mk.yyy_hi) { cls += ' yyy'; role = 'Y'; }
        else if (bit >= mk.zzz_lo && bit < mk.zzz_hi) { cls += ' zzz'; role = 'Z'; }
        else if (bit < m) { cls += ' unit'; role = 'u'; }
        if (prev !== null && role !== prev) cls += ' gap4';   // a gap between fields
        prev = role;
        html += `<div class="${cls}" title="bit ${bit}"><b>${role}</b>${bit}</div>`;
    }
    html += '</div>';
    const yr = mk.yyy_hi > mk.yyy_lo ? `bits [${mk.yyy_lo}, ${mk.yyy_hi})` : 'none';
    const zr = mk.zzz_hi > mk.zzz_lo ? `bits [${mk.zzz_lo}, ${mk.zzz_hi})` : 'none';
    html += `<div class="legend"><span class="yyy">YYY ${yr}: row in tile</span><span class="zzz">ZZZ ${zr}: column in tile, XORed with YYY</span><span class="unit">bits [0, ${m}): byte in unit, never moved</span></div>`;
    setHTML(ui.bitstrip, html);
}

function renderFormula(d) {
    const mk = d.masks, s = d.params.s, T = d.tile.size;
    const shift = s >= 0 ? `>> ${s}` : `<< ${-s}`;
    const c = (t) => `<span class="c">${esc(t)}</span>`;
    setHTML(ui.formula, [
        c(`// ${d.name} on a byte offset (CuTe swizzle.hpp)`),
        `<span class="y">yyy_msk</span> = 0x${mk.yyy.toString(16)}   ${c(`// bits [${mk.yyy_lo}, ${mk.yyy_hi})`)}`,
        `<span class="z">zzz_msk</span> = 0x${mk.zzz.toString(16)}   ${c(`// bits [${mk.zzz_lo}, ${mk.zzz_hi})`)}`,
        `offset' = offset ^ ((offset & <span class="y">yyy_msk</span>) ${shift})   ${c('// ZZZ ^= YYY')}`,
        '',
        c('// The same on the grid, for the unit at logical (row, col):'),
        `col_in_tile   = col mod ${T}`,
        `row_mod       = row mod ${T}`,
        `physical slot = col_in_tile XOR row_mod   ${c('// inside its tile; the tile does not move')}`,
    ].join('\n'));
}

function renderElem(d) {
    const es = elementSwizzle(state.elem, d.params.b, d.params.m, d.params.s);
    const shows = state.show === 'row' ? 'cells show logical row numbers, coloured by row.'
        : es ? 'cells show the first element index of each unit.' : 'cells show logical column numbers.';
    const cap = (t) => t[0].toUpperCase() + t.slice(1);
    setText(ui.elemSwizzle, es ? (es.ok ? `${es.text} ${es.note}; ${shows}` : `${es.text}; ${shows}`) : cap(shows));
    setClass(ui.elemSwizzle, 'warn', !!es && !es.ok);
    // The code panel and the formula share a section, usually out of sight.
    const code = () => { if (d === data) { renderFormula(d); renderCode(ui.code, d, state.elem); } };
    if (inView('code')) code(); else later('code', code);
}

// Container widths, read together and kept until the window, presenter mode or
// the grid arrangement changes: a width read after the maps are replaced would
// force a whole-page layout, and one per map cost more than the drawing.
const widthCache = new Map();
const WIDTH_IDS = ['tile-plain', 'tile-swz', 'grid-plain', 'grid-swz', 'banks-plain', 'banks-swz', 'acc-result'];

function availWidth(id) {
    if (!widthCache.has(id)) {
        for (const k of WIDTH_IDS) {
            const el = $(k);
            // The access result may be hidden: measure its always-shown section, less its padding.
            const w = k === 'acc-result' ? $('access').clientWidth - 2 * 18 : (el.parentElement || el).clientWidth;
            widthCache.set(k, Math.max(120, w));
        }
    }
    return widthCache.get(id);
}

// Where each scroll box was last scrolled, so a redraw need not ask the DOM.
const scrollPos = new Map();
function scrollHint(id) {
    const p = scrollPos.get(id) || { top: 0, left: 0 };
    return { top: p.top, left: p.left, h: 640, w: availWidth(id) };
}

// Does the swizzle move units only between rows, each keeping its column (the
// ZZZ bits lie in the row: negative S)? Read off the API's grid map, once per answer.
const rowsOnlyMemo = new WeakMap();
function rowsOnly(g) {
    if (!rowsOnlyMemo.has(g)) {
        let moved = false, same = true;
        for (let p = 0; p < g.log_of.length && same; p++) {
            const l = g.log_of[p];
            if (l % g.cols !== p % g.cols) same = false;
            else if (l !== p) moved = true;
        }
        rowsOnlyMemo.set(g, moved && same);
    }
    return rowsOnlyMemo.get(g);
}

function renderViews(d, marks = true) {
    const g = d.grid, T = d.tile.size, bv = d.banks_view, p = d.params;
    // Cells show their logical column (as element indices for an element
    // type), or their logical row: a swizzle whose ZZZ bits lie in the row
    // (negative S) moves units between rows and leaves every column in place.
    const rowsShown = state.show === 'row';
    const label = rowsShown ? null : cellLabel(state.elem, d.unit.bytes), elemTitle = cellTitle(state.elem, d.unit.bytes);
    // Wide grids get the full width each instead of sitting side by side.
    const pair = $('grid-plain').closest('.pair');
    if (pair.classList.contains('stack') !== g.cols > 16) {
        pair.classList.toggle('stack', g.cols > 16);
        widthCache.clear();
    }
    markEmpty(false);
    const big = state.present ? 1.3 : 1;
    // Each map is drawn anew only when what it shows changed (viewcache.js).
    const fn = { label, elemTitle };
    const labelKey = `${state.elem}/${d.unit.bytes}/${state.show}`;
    const rowKey = (cols) => (rowsShown ? { keyOf: (l) => Math.floor(l / cols) } : {});
    // A map of the same shape is updated in place (which unit each cell
    // holds, the tile lines), not drawn anew.
    const grid = (id, inp) => viewCache.get(id, { ...inp, labelKey }, () => gridView($(id), { ...inp, ...fn, ...rowKey(inp.cols), hint: scrollHint(id) }),
        ['logOf', 'tile', 'bankOf'], (v) => v.retarget(gridLayout({ ...inp, ...fn, ...rowKey(inp.cols) })));
    const bank = (id, inp) => viewCache.get(id, { ...inp, labelKey }, () => bankView($(id), { ...inp, ...fn, ...rowKey(inp.cols), hint: scrollHint(id) }),
        ['logOf'], (v) => v.retarget(bankLayout({ ...inp, ...fn, ...rowKey(inp.cols) })));
    const pairs = {
        tile() {
            const tw = (id) => Math.min(availWidth(id), 420 * big);
            views.tilePlain = grid('tile-plain', { rows: T, cols: T, logOf: null, tile: T, availW: tw('tile-plain'), maxCell: 44 * big, kind: 'tile' });
            views.tileSwz = grid('tile-swz', { rows: T, cols: T, logOf: d.tile.log_of, tile: T, availW: tw('tile-swz'), maxCell: 44 * big, kind: 'tile' });
            // The tile boxes keep the height of an 8x8 tile (the 128B
            // preset's), so that switching between the usual presets leaves
            // the grids below where they are: a reader comparing them keeps
            // their place, and the browser need not move the page below.
            for (const id of ['tile-plain', 'tile-swz']) {
                const h = `${gridLayout({ rows: 8, cols: 8, logOf: null, tile: 8, availW: tw(id), maxCell: 44 * big, kind: 'tile' }).H}px`;
                if ($(id).style.minHeight !== h) $(id).style.minHeight = h;
            }
        },
        grid() {
            views.gridPlain = grid('grid-plain', { rows: g.rows, cols: g.cols, logOf: null, tile: T, availW: availWidth('grid-plain'), maxCell: 40 * big, bankOf: g.bank_of, kind: 'grid' });
            views.gridSwz = grid('grid-swz', { rows: g.rows, cols: g.cols, logOf: g.log_of, tile: T, availW: availWidth('grid-swz'), maxCell: 40 * big, bankOf: g.bank_of, kind: 'grid' });
            const gt = views.gridSwz.truncated, moves = rowsOnly(g) && !rowsShown;
            const notes = [];
            if (moves) notes.push(`<b>${esc(d.name)} moves units between rows, not along them:</b> every unit keeps its column, so the column numbers read the same without and with the swizzle. <button type="button" class="linkish" data-show="row">Show logical rows</button> to see where each unit came from.`);
            if (gt) notes.push(`Showing the first ${gt} of ${g.rows} rows.`);
            setHidden(ui.gridNote, !notes.length);
            if (notes.length) setHTML(ui.gridNote, notes.join(' '));
        },
        banks() {
            const common = {
                banks: p.banks, bankRows: bv.rows, unitsPerRow: bv.units_per_row, rowsPerUnit: bv.rows_per_unit,
                perBank: d.unit.per_bank, spanned: d.unit.banks_spanned, bankOf: g.bank_of, cols: g.cols,
                unitBytes: d.unit.bytes, bankBytes: p.bank_bytes,
            };
            views.banksPlain = bank('banks-plain', { ...common, logOf: null, availW: availWidth('banks-plain'), kind: 'banks' });
            views.banksSwz = bank('banks-swz', { ...common, logOf: g.log_of, availW: availWidth('banks-swz'), kind: 'banks' });
            const bt = views.banksSwz.truncated;
            setHidden(ui.banksNote, !bt && d.unit.per_bank <= 1);
            const notes = [];
            if (d.unit.per_bank > 1) notes.push(`A ${d.unit.bytes} B unit is 1/${d.unit.per_bank} of a ${p.bank_bytes} B bank word: ${d.unit.per_bank} units share each bank, drawn side by side inside it.`);
            if (bt) notes.push(`Showing the first ${bt} of ${bv.rows} bank rows.`);
            setText(ui.banksNote, notes.join(' '));
        },
    };
    // The pairs on screen (or never drawn) now, the others right after the
    // next frame, with the outlines, trace and selection put back on them.
    for (const [name, draw] of Object.entries(pairs)) {
        const run = () => { draw(); for (const [k, v] of Object.entries(views)) v.name = k; };
        if (!views[name + 'Swz'] || inView(name + '-swz')) run();
        else later('views-' + name, () => { if (d === data) { run(); overlays(); } });
    }
    if (marks) applyMarks();
}

// Outlines, trace and selection, put back on maps drawn after the others.
let tileSel = null;   // [plain, swizzled] tile slots of the selection (from /api/inspect)
function overlays() {
    applyMarks(true);
    applyTrace();
    const sel = state.sel, g = data.grid;
    if (!sel || sel[0] >= g.rows || sel[1] >= g.cols) { eachView((v) => v.select(null)); return; }
    const l = sel[0] * g.cols + sel[1], p = g.phys_of[l];
    views.gridPlain.select(l); views.gridSwz.select(p); views.banksPlain.select(l); views.banksSwz.select(p);
    views.tilePlain.select(tileSel ? tileSel[0] : null); views.tileSwz.select(tileSel ? tileSel[1] : null);
}

// ---------- access marks on the maps ----------
// now: put every outline at once (no map waits for the next frame).
function applyMarks(now = false) {
    const r = accessResult, d = data;
    if (!views.gridSwz) return;
    const mk = r && d ? accessMarks(r, d) : null;
    // The outlines on maps out of sight follow right after the next frame.
    for (const [pair, a, b] of [['grid', 'gridPlain', 'gridSwz'], ['banks', 'banksPlain', 'banksSwz']]) {
        const put = () => { views[a].mark(mk && mk.plain); views[b].mark(mk && mk.swz); };
        if (now || inView(pair + '-swz')) { sched.drop('marks-' + pair); put(); }
        else later('marks-' + pair, () => { if (accessResult === r && data === d) put(); });
    }
    if (!mk) { setHidden(ui.marksNote, true); return; }
    const ph = mk.phases.map((k) => `<span class="swatch ph${k % 8}"></span>${k}`).join(' ');
    setHTML(ui.marksNote, `Outlined in the grid and bank maps: ${mk.units} unit${mk.units === 1 ? '' : 's'} touched by ${mk.lanes} active lane${mk.lanes === 1 ? '' : 's'}, by phase ${ph}` +
        (mk.outside ? `. <b>${mk.outside} lane${mk.outside === 1 ? '' : 's'} fall outside the drawn grid.</b>` : '.'));
    setHidden(ui.marksNote, false);
}

// Figures without a map hide their export buttons.
function markEmpty(empty) {
    for (const id of Object.values(viewIds)) {
        const f = $(id).closest('figure');
        if (f.classList.contains('empty') !== empty) f.classList.toggle('empty', empty);
    }
}

function clearViews() {
    markEmpty(true);
    viewCache.clear();
    views = {};
    for (const id of Object.values(viewIds)) $(id).innerHTML = '';
    setHTML(ui.stats, '');
    setHTML(ui.bitstrip, '');
    setHTML(ui.formula, '');
    ui.bankRow.textContent = '\u2014';
    ui.gridNote.hidden = true;
    ui.banksNote.hidden = true;
    setHTML(ui.code, '');
}

function renderAll(d) {
    const t0 = performance.now();
    setText(ui.readout, d.name);
    setClass(ui.readout, 'error', false);
    if (ui.rows.placeholder !== String(d.params.rows)) ui.rows.placeholder = String(d.params.rows);
    renderStats(d);
    renderBitstrip(d);
    renderElem(d);
    renderViews(d, false);   // the access view's answer puts the outlines on (load)
    document.body.dataset.renderMs = String(Math.round(performance.now() - t0));
}

// The panels that follow the layout: the access view, the scorecard, the
// trace. Each draws now when in sight, else right after the next frame; the
// access view always answers now (its outlines are on the maps).
// pre: their requests, started with the layout's (see load).
function refreshPanels(d, pre = {}) {
    const my = loadSeq, run = [access.refresh(pre.access)];
    const panel = (id, key, fn) => {
        if (!d || inView(id)) run.push(fn());
        else later(key, () => (my === loadSeq ? fn() : null));
    };
    panel('scorecard', 'score', () => scorecard.refresh(pre.score));
    panel('trace', 'trace', () => trace.refresh(d));
    return Promise.all(run);
}

// ---------- loading ----------
async function load() {
    const my = ++loadSeq;
    prefetcher.cancel();
    const want = { ...state };
    document.body.classList.add('busy');
    // The access view and scorecard need only the query: ask them alongside.
    const q = apiQuery(want);
    const pre = { access: access.request(q), score: scorecard.request(q) };
    try {
        const d = await api.swizzle(q);
        if (my !== loadSeq) return;
        data = d; loaded = want;
        performance.mark('swz-fetched');
        hideBanner();
        renderAll(d);
        showSelection();
        await refreshPanels(d, pre);
        performance.mark('swz-drawn');
    } catch (err) {
        if (my !== loadSeq) return;
        data = null; loaded = want;
        showBanner(err);
        clearViews();
        ui.readout.textContent = `Swizzle<${want.b},${want.m},${want.s}>`;
        ui.readout.classList.add('error');
        inspector.showHint(ui.inspector, 'Fix the parameters to inspect addresses.');
        await refreshPanels(null);
    } finally {
        if (my === loadSeq) {
            document.body.classList.remove('busy');
            if (changeT0) {
                document.body.dataset.cycleMs = (performance.now() - changeT0).toFixed(2);
                performance.measure('swz-cycle', 'swz-change');
                changeT0 = 0;
            }
            stampSources();
            flushPaints();
            document.body.dataset.shown = String(my);   // what is on screen is drawn
        }
    }
    // One frame later: the sections out of sight and the URL.
    if (my !== loadSeq) return;
    await afterPaint();
    if (my !== loadSeq) return;
    await flush();
    if (my !== loadSeq) return;
    flushPaints();
    document.body.dataset.ready = String(my);   // tests wait on this: maps, panels and URL are done
    ctx.settled();
}

// ---------- selection ----------
function eachView(fn) { for (const v of Object.values(views)) fn(v); }

function clearSelection() {
    tileSel = null;
    eachView((v) => v.select(null));
    applyTrace();
}

// The traced column: the trace panel's, else the selection's.
function tracedColumn() {
    if (state.tcol !== null && state.tcol !== undefined) return state.tcol;
    return state.sel ? state.sel[1] : null;
}

function applyTrace() {
    if (!data || !views.gridSwz) return;
    const c = tracedColumn(), T = data.tile.size;
    const ok = c !== null && c < data.grid.cols;
    for (const k of ['gridPlain', 'gridSwz', 'banksPlain', 'banksSwz']) views[k].trace(ok ? c : null);
    // Grid column c lies in tile column c mod T (tiles repeat across a row).
    for (const k of ['tilePlain', 'tileSwz']) views[k].trace(ok ? c % T : null);
}

async function showSelection() {
    const my = ++inspectSeq;
    if (!data) return;
    const g = data.grid;
    const sel = state.sel;
    if (!sel) {
        clearSelection();
        inspector.showHint(ui.inspector, 'Click any cell in a tile, grid or bank view to see its address.');
        document.body.dataset.inspected = '';
        return;
    }
    const [r, c] = sel;
    if (r >= g.rows || c >= g.cols) {
        clearSelection();
        inspector.showHint(ui.inspector, `Selection (${r}, ${c}) is outside this ${g.rows} x ${g.cols} grid.`);
        document.body.dataset.inspected = '';
        return;
    }
    const l = r * g.cols + c;          // the contract's logical unit numbering
    const p = g.phys_of[l];
    applyTrace();
    // All writes first, then the reads reveal() needs: one layout, not four.
    const picked = [[views.gridPlain, l], [views.gridSwz, p], [views.banksPlain, l], [views.banksSwz, p]].map(([v, slot]) => [v, v.select(slot)]);
    for (const [v, r] of picked) v.reveal(r);

    const sw = data, q = apiQuery(loaded);
    try {
        const ins = await api.inspect(q, r, c);
        if (my !== inspectSeq || sw !== data) return;
        const T = sw.tile.size, t = ins.tile;
        const tl = t.row_in_tile * T + t.col_in_tile;   // row-major tile position (contract)
        tileSel = [tl, sw.tile.phys_of[tl]];
        views.tilePlain.select(tileSel[0]);
        views.tileSwz.select(tileSel[1]);
        inspector.render(ui.inspector, ins, sw);
        document.body.dataset.inspected = `${r},${c}`;
    } catch (err) {
        if (my !== inspectSeq) return;
        inspector.showError(ui.inspector, err);
        document.body.dataset.inspected = '';
    }
}

// A click or arrow key selects a cell and traces its column; Escape clears both.
function select(sel) {
    const tcol = sel ? sel[1] : null;
    const traceMoved = tcol !== state.tcol;
    state = { ...state, sel, tcol };
    writeURL(true);
    showSelection();
    if (traceMoved) trace.refresh(data);
}

function onMapClick(ev) {
    const v = viewOf(ev.currentTarget), cell = v && data ? v.cellAt(ev) : null;
    if (!cell) return;
    const l = cell.l;
    const kind = ev.currentTarget.id.startsWith('tile') ? 'tile' : 'grid';
    const cols = kind === 'tile' ? data.tile.size : data.grid.cols;
    select([Math.floor(l / cols), l % cols]);
}

function onKey(ev) {
    if (!data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.closest && ev.target.closest('input, select, textarea, button')) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (ev.key === 'Escape') {
        if (state.sel || state.tcol !== null) { ev.preventDefault(); select(null); }
        return;
    }
    const mv = moves[ev.key];
    if (!mv) return;
    // A focused map with nothing selected: the arrows start at its first cell.
    if (!state.sel) {
        if (!(ev.target.closest && ev.target.closest('.view'))) return;
        ev.preventDefault();
        select([0, 0]);
        return;
    }
    const [r, c] = state.sel, g = data.grid;
    const nr = r + mv[0], nc = c + mv[1];
    if (nr < 0 || nc < 0 || nr >= g.rows || nc >= g.cols) return;
    ev.preventDefault();
    select([nr, nc]);
}

// Keep the two grids (and the two bank maps) scrolled together, and let each
// view draw the band it now shows.
function viewOf(el) { return Object.values(views).find((v) => v.el === el); }

function watchScroll(a, b) {
    let busy = false, queued = false;
    const redraw = () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
            queued = false;
            for (const e of [a, b]) { const v = viewOf(e); if (v) v.draw(false); }
        });
    };
    const follow = (from, to) => () => {
        scrollPos.set(from.id, { top: from.scrollTop, left: from.scrollLeft });
        scrollPos.set(to.id, { top: from.scrollTop, left: from.scrollLeft });
        redraw();
        if (busy) return;
        busy = true;
        to.scrollTop = from.scrollTop; to.scrollLeft = from.scrollLeft;
        requestAnimationFrame(() => { busy = false; });
    };
    a.addEventListener('scroll', follow(a, b), { passive: true });
    b.addEventListener('scroll', follow(b, a), { passive: true });
}

// ---------- start ----------
// The export buttons: map views by id, charts by their container.
function exportTarget(id) {
    const key = Object.keys(viewIds).find((k) => viewIds[k] === id);
    if (key) {
        const v = views[key];
        return v ? { svg: v.svg, name: id, prepare: () => v.drawAll(), restore: () => v.restore() } : null;
    }
    const svg = $(id).querySelector('svg');
    return svg ? { svg, name: id } : null;
}

async function start() {
    fillPow2Select(ui.bank_bytes, 32);
    fillPow2Select(ui.banks, 128);
    for (const e of ELEMENT_TYPES) ui.elem.add(new Option(e.label, e.id));
    const [pr, pa, he] = await Promise.allSettled([api.presets(), api.patterns(), api.health()]);
    if (pr.status === 'fulfilled') presets = pr.value.presets || [];
    else showBanner(pr.reason);
    access.setPatterns(pa.status === 'fulfilled' ? pa.value.patterns || [] : []);
    scorecard.setPatterns(pa.status === 'fulfilled' ? pa.value.patterns || [] : []);
    measure.setHealth(he.status === 'fulfilled' ? he.value : { measure: { available: false, reason: he.reason.message } });
    for (const p of presets) ui.preset.add(new Option(p.label || p.id, p.id), ui.preset.options.length - 1);
    syncControls();
    access.sync();
    scorecard.sync();
    writeURL(false);
    for (const bar of document.querySelectorAll('.xbar')) addExport(bar, () => exportTarget(bar.dataset.for));

    ui.form.addEventListener('change', onControlChange);
    // "Show logical rows" in the grid's note: the same as choosing it in the menu.
    ui.gridNote.addEventListener('click', (e) => {
        const b = e.target.closest('button[data-show]');
        if (!b) return;
        ui.show.value = b.dataset.show;
        ui.show.dispatchEvent(new Event('change', { bubbles: true }));
    });
    ui.form.addEventListener('submit', (e) => e.preventDefault());
    for (const id of Object.values(viewIds)) {
        const el = $(id);
        el.addEventListener('click', onMapClick);
        el.addEventListener('mousemove', (e) => { const v = viewOf(el); if (v) v.hover(e); });
        el.addEventListener('mouseleave', () => { const v = viewOf(el); if (v) v.hover(null); });
    }
    watchScroll($('grid-plain'), $('grid-swz'));
    watchScroll($('banks-plain'), $('banks-swz'));
    document.addEventListener('keydown', onKey);
    window.addEventListener('popstate', () => {
        urlWrite = null;   // the URL is the state now
        const before = state;
        state = fromSearch(location.search);
        access.stop();
        syncControls();
        access.sync();
        scorecard.sync();
        if (!(loaded && sameParams(state, loaded))) { load(); return; }
        if (before.elem !== state.elem || before.show !== state.show || before.present !== state.present) { renderElem(data); renderViews(data); }
        showSelection();
        access.refresh();
        scorecard.refresh();
        trace.refresh(data);
    });
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
        clearTimeout(resizeTimer);
        resizeTimer = setTimeout(() => { widthCache.clear(); if (data) { renderViews(data); showSelection(); access.redraw(); } }, 150);
    });
    await load();
}

start();
