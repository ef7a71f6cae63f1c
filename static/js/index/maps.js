// maps.js - the six maps of the page (tile, grid and bank organization,
// without and with the swizzle) as one whole: which maps to draw and when,
// their notes, the access outlines, the traced column and the selection put
// on every map, scrolling the pairs together, and the export targets. It
// draws the /api/swizzle answer and the access view's cells as given; it
// must not compute slots, banks or which cells an access touches.

import { gridView, bankView } from '../kit/mapview.js';
import { gridLayout, bankLayout } from '../kit/maplayout.js';
import { cellLabel, cellTitle } from './elements.js';
import { ViewCache } from './viewcache.js';
import { accessMarks } from '../kit/marks.js';
import { esc } from '../kit/esc.js';
import { STACK, EMPTY, SWATCH, phase } from '../kit/classes.js';
import { setHTML, setText, setHidden } from '../kit/dom.js';

const $ = (id) => document.getElementById(id);
export const VIEW_IDS = { tilePlain: 'tile-plain', tileSwz: 'tile-swz', gridPlain: 'grid-plain', gridSwz: 'grid-swz', banksPlain: 'banks-plain', banksSwz: 'banks-swz' };

/* ctx: the PageCtx of app.js; ui: {gridNote, banksNote, marksNote}. */
export function createMaps(ctx, ui) {
    let views = {};
    let accessResult = null;   // the access view's last answer, for the outlines
    let tileSel = null;        // [plain, swizzled] tile slots of the selection (from /api/inspect)
    const viewCache = new ViewCache();
    const eachView = (fn) => { for (const v of Object.values(views)) fn(v); };

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

    function render(d, marks = true) {
        const st = ctx.state();
        const g = d.grid, T = d.tile.size, bv = d.banks_view, p = d.params;
        // Cells show their logical column (as element indices for an element
        // type), or their logical row: a swizzle whose ZZZ bits lie in the row
        // (negative S) moves units between rows and leaves every column in place.
        const rowsShown = st.show === 'row';
        const label = rowsShown ? null : cellLabel(st.elem, d.unit.bytes), elemTitle = cellTitle(st.elem, d.unit.bytes);
        // Wide grids get the full width each instead of sitting side by side.
        const pair = $('grid-plain').closest('.pair');
        if (pair.classList.contains(STACK) !== g.cols > 16) {
            pair.classList.toggle(STACK, g.cols > 16);
            widthCache.clear();
        }
        markEmpty(false);
        // Presenter mode: cells up to 2x as large, their numbers and the axis
        // labels twice the cap (read from the back of a room).
        const big = st.present ? 2 : 1;
        // Each map is drawn anew only when what it shows changed (viewcache.js).
        const fn = { label, elemTitle, scale: big };
        const labelKey = `${st.elem}/${d.unit.bytes}/${st.show}/${big}`;
        const rowKey = (cols) => (rowsShown ? { keyOf: (l) => Math.floor(l / cols) } : {});
        // A map of the same shape is updated in place (which unit each cell
        // holds, the tile lines), not drawn anew.
        const grid = (id, inp) => viewCache.get(id, { ...inp, labelKey }, () => gridView($(id), { ...inp, ...fn, ...rowKey(inp.cols), hint: scrollHint(id) }),
            ['logOf', 'tile', 'bankOf'], (v) => v.retarget(gridLayout({ ...inp, ...fn, ...rowKey(inp.cols) })));
        const bank = (id, inp) => viewCache.get(id, { ...inp, labelKey }, () => bankView($(id), { ...inp, ...fn, ...rowKey(inp.cols), hint: scrollHint(id) }),
            ['logOf'], (v) => v.retarget(bankLayout({ ...inp, ...fn, ...rowKey(inp.cols) })));
        const pairs = {
            tile() {
                // Embedded alone (?embed=1&view=tiles) a tile is as wide as
                // the frame is high, less the panel's title and caption, so
                // that the whole tile shows in the frame.
                const tall = st.embed && st.view === 'tiles' ? Math.max(120, window.innerHeight - 120) : Infinity;
                const tw = (id) => Math.min(availWidth(id), 420 * big, tall);
                // The tile boxes keep the height of an 8x8 tile (the 128B
                // preset's), so that switching between the usual presets leaves
                // the grids below where they are: a reader comparing them keeps
                // their place, and the browser need not move the page below.
                // The SVG over a tile keeps that size too (mapview.js says why).
                const box = {};
                for (const id of ['tile-plain', 'tile-swz']) {
                    const l8 = gridLayout({ rows: 8, cols: 8, logOf: null, tile: 8, availW: tw(id), maxCell: 44 * big, kind: 'tile', scale: big });
                    box[id] = { boxW: l8.W, boxH: l8.H };
                    const h = `${l8.H}px`;
                    if ($(id).style.minHeight !== h) $(id).style.minHeight = h;
                }
                views.tilePlain = grid('tile-plain', { rows: T, cols: T, logOf: null, tile: T, availW: tw('tile-plain'), maxCell: 44 * big, kind: 'tile', ...box['tile-plain'] });
                views.tileSwz = grid('tile-swz', { rows: T, cols: T, logOf: d.tile.log_of, tile: T, availW: tw('tile-swz'), maxCell: 44 * big, kind: 'tile', ...box['tile-swz'] });
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
            if (!views[name + 'Swz'] || pairInSight(name)) run();
            else ctx.later('views-' + name, () => { if (d === ctx.data()) { run(); overlays(); } });
        }
        if (marks) applyMarks();
    }

    // Is a pair on screen: its section, and for the grids and bank maps one
    // of their maps or their note? (A hidden note would show where the maps
    // begin: maps out of sight, that spot is too.)
    function pairInSight(name) {
        if (!ctx.inView(name + '-swz')) return false;
        return name === 'tile' || [`${name}-plain`, `${name}-swz`, `${name}-note`].some((id) => ctx.inSight(id));
    }

    // Outlines, trace and selection, put back on maps drawn after the others.
    function overlays() {
        applyMarks(true);
        applyTrace();
        const sel = ctx.state().sel, g = ctx.data().grid;
        if (!sel || sel[0] >= g.rows || sel[1] >= g.cols) { eachView((v) => v.select(null)); return; }
        const l = sel[0] * g.cols + sel[1], p = g.phys_of[l];
        views.gridPlain.select(l); views.gridSwz.select(p); views.banksPlain.select(l); views.banksSwz.select(p);
        views.tilePlain.select(tileSel ? tileSel[0] : null); views.tileSwz.select(tileSel ? tileSel[1] : null);
    }

    // now: put every outline at once (no map waits for the next frame).
    function applyMarks(now = false) {
        const r = accessResult, d = ctx.data();
        if (!views.gridSwz) return;
        const mk = r && d ? accessMarks(r) : null;
        // The outlines on maps out of sight follow right after the next frame.
        for (const [pair, a, b] of [['grid', 'gridPlain', 'gridSwz'], ['banks', 'banksPlain', 'banksSwz']]) {
            const put = () => { views[a].mark(mk && mk.plain); views[b].mark(mk && mk.swz); };
            if (now || pairInSight(pair)) { ctx.drop('marks-' + pair); put(); }
            else ctx.later('marks-' + pair, () => { if (accessResult === r && ctx.data() === d) put(); });
        }
        if (!mk) { setHidden(ui.marksNote, true); return; }
        const ph = mk.phases.map((k) => `<span class="${SWATCH} ${phase(k)}"></span>${k}`).join(' ');
        setHTML(ui.marksNote, `Outlined in the grid and bank maps: ${mk.units} unit${mk.units === 1 ? '' : 's'} touched by ${mk.lanes} active lane${mk.lanes === 1 ? '' : 's'}, by phase ${ph}` +
            (mk.outside ? `. <b>${mk.outside} lane${mk.outside === 1 ? '' : 's'} fall outside the drawn grid.</b>` : '.'));
        setHidden(ui.marksNote, false);
    }

    // The traced column: the trace panel's, else the selection's.
    function tracedColumn() {
        const st = ctx.state();
        if (st.tcol !== null && st.tcol !== undefined) return st.tcol;
        return st.sel ? st.sel[1] : null;
    }

    function applyTrace() {
        const d = ctx.data();
        if (!d || !views.gridSwz) return;
        const c = tracedColumn(), T = d.tile.size;
        const ok = c !== null && c < d.grid.cols;
        for (const k of ['gridPlain', 'gridSwz', 'banksPlain', 'banksSwz']) views[k].trace(ok ? c : null);
        // Grid column c lies in tile column c mod T (tiles repeat across a row).
        for (const k of ['tilePlain', 'tileSwz']) views[k].trace(ok ? c % T : null);
    }

    // Outline logical unit l (null: none) in every map and show it in the
    // scroll boxes; the tile maps wait for tile() (the inspector's answer).
    function select(l) {
        const d = ctx.data();
        if (l === null) { tileSel = null; eachView((v) => v.select(null)); return; }
        const p = d.grid.phys_of[l];
        // All writes first, then the reads reveal() needs: one layout, not four.
        const picked = [[views.gridPlain, l], [views.gridSwz, p], [views.banksPlain, l], [views.banksSwz, p]].map(([v, slot]) => [v, v.select(slot)]);
        for (const [v, r] of picked) v.reveal(r);
    }

    // The selection's tile slots, [plain, swizzled], from /api/inspect.
    function selectTile(pair) {
        tileSel = pair;
        views.tilePlain.select(pair[0]);
        views.tileSwz.select(pair[1]);
    }

    // Figures without a map hide their export buttons.
    function markEmpty(empty) {
        for (const id of Object.values(VIEW_IDS)) {
            const f = $(id).closest('figure');
            if (f.classList.contains(EMPTY) !== empty) f.classList.toggle(EMPTY, empty);
        }
    }

    function clear() {
        markEmpty(true);
        viewCache.clear();
        views = {};
        tileSel = null;
        for (const id of Object.values(VIEW_IDS)) $(id).innerHTML = '';
        ui.gridNote.hidden = true;
        ui.banksNote.hidden = true;
    }

    const viewOf = (el) => Object.values(views).find((v) => v.el === el);

    // Keep two maps (the grids, the bank maps) scrolled together, and let
    // each view draw the band it now shows.
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

    // Hover text and shading follow the pointer; the pairs scroll together.
    function listen(onClick) {
        for (const id of Object.values(VIEW_IDS)) {
            const el = $(id);
            el.addEventListener('click', onClick);
            el.addEventListener('mousemove', (e) => { const v = viewOf(el); if (v) v.hover(e); });
            el.addEventListener('mouseleave', () => { const v = viewOf(el); if (v) v.hover(null); });
        }
        watchScroll($('grid-plain'), $('grid-swz'));
        watchScroll($('banks-plain'), $('banks-swz'));
    }

    // What an export button of map `id` saves: the view's SVG, drawn whole
    // first (a big map draws a band); null when the map is not drawn.
    function exportTarget(id) {
        const key = Object.keys(VIEW_IDS).find((k) => VIEW_IDS[k] === id);
        if (!key) return undefined;
        const v = views[key];
        if (!v) return null;
        const d = ctx.data(), st = ctx.state(), p = d.params, g = d.grid;
        const title = ($(id).closest('figure').querySelector('figcaption span') || {}).textContent || id;
        const shows = st.show === 'row' ? 'logical row' : 'logical column';
        return {
            svg: v.svg, band: v.gBand, name: id, prepare: (inPage) => v.drawAll(inPage), restore: () => v.restore(),
            slug: `Swizzle_${p.b}_${p.m}_${p.s}-${g.rows}x${g.cols}-${p.banks}x${p.bank_bytes}B${p.match_bank_row ? '-match' : ''}${st.theme ? '-' + st.theme : ''}${st.present ? '-presenter' : ''}`,
            caption: [`${d.name}: ${title.toLowerCase()}, each cell the ${shows} stored there`,
                `${g.rows} rows x ${g.cols} units of ${d.unit.bytes} B; ${p.banks} banks x ${p.bank_bytes} B; made with swizzlescope`],
        };
    }

    return {
        render, clear, select, selectTile, applyTrace, viewOf, listen, exportTarget,
        width: availWidth,
        resetWidths: () => widthCache.clear(),
        drawn: () => !!views.gridSwz,
        // The access view's answer (or null): outlines on the maps.
        setAccess(r) { accessResult = r; applyMarks(); },
    };
}
