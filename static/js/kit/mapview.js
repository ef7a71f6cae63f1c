// mapview.js - one drawn tile, grid or bank map: a <canvas> of cells under an
// SVG of what is drawn per map rather than per cell (axis labels, tile lines,
// frame), the access outlines, the selection and the hover box. It keeps which
// cells its band holds (drawnCells()), so the page and its tests can ask which
// cell is where without reading pixels back. It must not derive the model:
// every number drawn comes from the API's arrays, laid out by maplayout.js.
//
// A map can hold 2^20 cells, so a map in a scroll box draws only the cells
// near what is visible (a band) and redraws when the box scrolls past the
// band. An export draws the whole map once as SVG elements instead (past
// EXPORT_MAX_SLOTS cells, the rows that hold that many, and says so).

import { setHTML } from './dom.js';
import { clamp, gridLayout, bankLayout } from './maplayout.js';
import { flushPaints, requestPaint, watchFar } from './paint.js';
import { CELL, TRACE, MARK, SEL, SEL_HALO, HIT, MARKING, TRACING, key, phase } from './classes.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const OVERSCAN = 160;          // px drawn beyond the visible box on each side
export const EXPORT_MAX_SLOTS = 65536;

// The SVG's size: the map's, or the larger box it keeps (a tile's).
const svgSize = (lay) => [lay.svgW || lay.W, lay.svgH || lay.H];

const selRects = `<rect class="${SEL_HALO}" visibility="hidden" rx="3"/><rect class="${SEL}" visibility="hidden" rx="3"/>`;

/* One drawn map. `lay` describes it:
 *   W, H, lw, th        size, row-label width, column-label height
 *   rowH, nRows         display rows (grid rows or bank rows)
 *   slotRange(r0, r1, x0, x1) -> [[pFrom, pTo), ...] slots drawn for rows [r0, r1)
 *   rect(p)             [x, y, w, h] of physical slot p
 *   logOf, cols         logical unit at slot p (null = identity); column = l % cols
 *   keyOf(l)            the number a cell shows and is coloured by (default: its
 *                       column; the logical row when the page asks for rows)
 *   band(r0, r1, x0, x1) {axis, tiles}: SVG of the band's axis labels, and the
 *                       path data of its tile lines ('' for none)
 *   fixed               SVG drawn once (frame, dividers)
 *   svgW, svgH          optional: the SVG's size when larger than the map's
 *   axes(r0, r1, x0, x1), frame   a tile's axis labels [x, y, text, row?] and
 *                       frame [x, y, w, h], painted on its canvas (below)
 *   title(p)            hover text
 *   label(key)          cell text for that number (default: the number) */
class MapView {
    // hint: {top, left, h, w} of the scroll box for the first draw, so that
    // drawing does not read (and lay out) the page; later draws read the box.
    constructor(el, lay, hint = null) {
        this.el = el;
        this.lay = lay;
        this.scrolls = el.classList.contains('scroll');
        // A tile's axis labels and frame are painted on its canvas with its
        // cells, and its SVG keeps its box's size: a preset change that
        // changes the tile's size then leaves the SVG as it was. Why: the
        // browser makes a layer of the SVG (it lies over the canvas) and
        // rasters all of it again for any change in it, and lays out its
        // text anew; that was most of what a tile of another size cost a
        // preset change (bench/README.md, 2026-11-24).
        this.painted = !this.scrolls && lay.kind === 'tile';
        const [sw, sh] = svgSize(lay);
        this.traced = null;
        this.selP = null;
        // The canvas and the SVG of a map drawn here before are kept, and so
        // are the SVG's parts, emptied and rewritten where they differ: a new
        // <svg> or <canvas> costs the browser a new layer, and new SVG
        // elements cost it their style and layout.
        const old = el.mapView && el.mapView.el === el && el.firstElementChild === el.mapView.cv ? el.mapView : null;
        if (old) {
            for (const k of ['cv', 'svg', 'gBand', 'gExtra', 'pTiles', 'gFixed', 'gMarks', 'markEls', 'halo', 'sel', 'hit']) this[k] = old[k];
            if (this.svg.getAttribute('class') !== `map ${lay.kind}`) this.svg.setAttribute('class', `map ${lay.kind}`);
            this.sizeSvg(sw, sh);
            if (this.gBand.getAttribute('font-size') !== String(lay.fs)) this.gBand.setAttribute('font-size', lay.fs);
            if (this.gBand.firstChild) this.gBand.textContent = '';
        } else {
            el.innerHTML = `<canvas class="cells"></canvas><svg xmlns="${SVGNS}" class="map ${lay.kind}" width="${sw}" height="${sh}" viewBox="0 0 ${sw} ${sh}">` +
                `<g class="band" font-size="${lay.fs}"></g><g class="band-extra"></g><path class="tiles" d=""/><g class="fixed"></g><g class="marks"></g>${selRects}<rect class="${HIT}" visibility="hidden"><title></title></rect></svg>`;
            this.cv = el.firstElementChild;
            this.svg = this.cv.nextElementSibling;
            this.gBand = this.svg.firstElementChild;
            this.gExtra = this.gBand.nextElementSibling;
            this.pTiles = this.gExtra.nextElementSibling;
            this.gFixed = this.pTiles.nextElementSibling;
            this.gMarks = this.gFixed.nextElementSibling;
            this.halo = this.gMarks.nextElementSibling;
            this.sel = this.halo.nextElementSibling;
            this.hit = this.sel.nextElementSibling;
            this.markEls = [];
        }
        setHTML(this.gFixed, this.painted ? '' : lay.fixed || '');
        el.mapView = this;
        watchFar(el);
        this.marks = [];
        this.mark([]);   // the old map's outlines go (their elements are kept for the next)
        this.select(null);
        this.hitP = null;
        if (this.hit.getAttribute('visibility') !== 'hidden') this.hit.setAttribute('visibility', 'hidden');
        this.drawn = null;   // [y0, y1, x0, x1] in px
        this.band = null;    // what the band shows: {slots, ls, rows, box}
        this.whole = false;  // every cell is in the SVG (an export), not on the canvas
        this.hint = hint;
        this.draw(true);
        this.hint = null;
    }

    // The SVG's size, each attribute written only when it changed (its class,
    // which a trace adds to, is left alone).
    sizeSvg(w, h) {
        for (const [k, v] of [['width', w], ['height', h], ['viewBox', `0 0 ${w} ${h}`]]) {
            if (this.svg.getAttribute(k) !== String(v)) this.svg.setAttribute(k, v);
        }
    }

    visible() {
        if (!this.scrolls) return [0, this.lay.H, 0, this.lay.W];
        const hn = this.hint;
        if (hn) {
            const top = Math.max(0, Math.min(hn.top, this.lay.H - hn.h)), left = Math.max(0, Math.min(hn.left, this.lay.W - hn.w));
            return [top, top + hn.h, left, left + hn.w];
        }
        const e = this.el;
        const h = e.clientHeight || 640, w = e.clientWidth || this.lay.W;
        return [e.scrollTop, e.scrollTop + h, e.scrollLeft, e.scrollLeft + w];
    }

    // Colour by what the cell shows; the trace follows a logical column.
    cellClass(l) {
        const L = this.lay, k = key(L.keyOf(l));
        return this.traced === l % L.cols ? `${CELL} ${k} ${TRACE}` : `${CELL} ${k}`;
    }

    // Is the cell drawn with a label, and on which line? (One rule for the
    // canvas, the SVG of an export and drawnCells(): a unit taller than a
    // row keeps its label in its first row.)
    labelled(w, h) { return w >= this.lay.labelMin && h >= 14; }
    labelY(y, h) { return y + Math.min(h, this.lay.rowH) / 2; }

    // Draw the band around the visible box unless the current band covers it.
    draw(force) {
        const [vy0, vy1, vx0, vx1] = this.visible();
        const d = this.drawn;
        if (!force && d && vy0 >= d[0] && vy1 <= d[1] && vx0 >= d[2] && vx1 <= d[3]) return;
        const L = this.lay;
        const y0 = this.scrolls ? Math.max(0, vy0 - OVERSCAN) : 0;
        const y1 = this.scrolls ? Math.min(L.H, vy1 + OVERSCAN) : L.H;
        const x0 = this.scrolls ? Math.max(0, vx0 - OVERSCAN) : 0;
        const x1 = this.scrolls ? Math.min(L.W, vx1 + OVERSCAN) : L.W;
        const r0 = clamp(Math.floor((y0 - L.th) / L.rowH), 0, L.nRows);
        const r1 = clamp(Math.ceil((y1 - L.th) / L.rowH), 0, L.nRows);
        const slots = [], ls = [], logOf = L.logOf;
        for (const [pa, pb] of L.slotRange(r0, r1, x0, x1)) {
            for (let p = pa; p < pb; p++) { slots.push(p); ls.push(logOf ? logOf[p] : p); }
        }
        // The canvas covers every drawn cell whole, with its gap stroke (a
        // band's first and last rows stick out of the visible box).
        let bx0 = x0, by0 = y0, bx1 = x1, by1 = y1;
        for (const p of slots) {
            const [x, y, w, h] = L.rect(p);
            if (x < bx0) bx0 = x; if (y < by0) by0 = y;
            if (x + w > bx1) bx1 = x + w; if (y + h > by1) by1 = y + h;
        }
        bx0 = Math.max(0, Math.floor(bx0) - 1); by0 = Math.max(0, Math.floor(by0) - 1);
        bx1 = Math.min(L.W, Math.ceil(bx1) + 1); by1 = Math.min(L.H, Math.ceil(by1) + 1);
        if (this.painted) { bx0 = 0; by0 = 0; bx1 = L.W; by1 = L.H; }   // its axes and frame too
        this.band = { slots, ls, rows: [r0, r1, x0, x1], box: [bx0, by0, bx1 - bx0, by1 - by0] };
        this.extras(L.band(r0, r1, x0, x1));
        this.drawn = [y0, y1, x0, x1];
        this.paint();
    }

    // Axis labels and tile lines: each written only when it changed (a new
    // tile size moves the lines and leaves the axes).
    extras({ axis, tiles }) {
        setHTML(this.gExtra, this.painted && !this.whole ? '' : axis);
        if (this.pTiles.getAttribute('d') !== tiles) this.pTiles.setAttribute('d', tiles);
    }

    // Ask for the band to be painted on the canvas (paint.js).
    paint() { requestPaint(this); }

    // What the band shows, cell by cell: {p, l, c, key, label (null when the
    // cell is too small for one), x, y, w, h, traced}; x, y in the map's px.
    drawnCells() {
        flushPaints();   // what it returns is on the canvas
        const b = this.band;
        if (!b || this.whole) return [];
        const L = this.lay, label = L.label || String, out = [];
        for (let i = 0; i < b.slots.length; i++) {
            const p = b.slots[i], l = b.ls[i], [x, y, w, h] = L.rect(p), key = L.keyOf(l);
            out.push({ p, l, c: l % L.cols, key, label: this.labelled(w, h) ? String(label(key)) : null, x, y, w, h, ly: this.labelY(y, h), traced: this.traced === l % L.cols });
        }
        return out;
    }

    // Show the contents of `lay` (the same shape as the drawn one: sizes,
    // cell rects, labels shown or not) in the band already drawn.
    retarget(lay) {
        this.lay = lay;
        const b = this.band;
        if (!b) { this.draw(true); return; }
        const logOf = lay.logOf;
        let moved = false;
        for (let i = 0; i < b.slots.length; i++) {
            const l = logOf ? logOf[b.slots[i]] : b.slots[i];
            if (l !== b.ls[i]) { b.ls[i] = l; moved = true; }
        }
        this.extras(lay.band(...b.rows));
        if (this.hitP !== null) this.pointAt(null);
        // The caller keeps how cells are labelled and coloured (viewcache.js
        // draws anew when that changes): no unit moved, nothing to repaint.
        if (moved) this.paint();
    }

    // The map as SVG cells and labels (for an export or a handout): all of
    // it, or, past EXPORT_MAX_SLOTS cells, the first rows that hold that
    // many. Returns {rows, of, height, cells}: the rows drawn, of how many,
    // their height in px, and cells(attr), the cells' markup (below).
    // inPage: the cells go into the page's SVG (a handout copies it); else
    // only the axes and frame do, and the caller writes cells() where the
    // band goes (an export: 65,536 cells put in the page cost the browser a
    // style and layout pass of seconds, which a file does not need).
    // restore() goes back to the canvas band.
    drawAll(inPage = true) {
        this.pointAt(null);
        const L = this.lay;
        const per = Math.max(1, Math.ceil(L.nSlots / L.nRows));
        const rows = L.nSlots > EXPORT_MAX_SLOTS ? Math.max(1, Math.floor(EXPORT_MAX_SLOTS / per)) : L.nRows;
        const cells = (attr) => this.cellMarkup(rows, attr);
        this.gBand.innerHTML = inPage ? cells((tag, cls) => `class="${cls}"`) : '';
        this.whole = true;
        this.extras(L.band(0, rows, 0, L.W));
        if (this.painted) { this.sizeSvg(L.W, L.H); setHTML(this.gFixed, L.fixed || ''); }   // the export is the map's size, axes and frame in it
        return { rows, of: L.nRows, height: rows < L.nRows ? L.th + rows * L.rowH + 3 : L.H, cells };
    }

    // The markup of rows [0, rows) of cells as the band's children: a <rect>
    // per cell, and the labels one <text class="lbls"> per line of cells, a
    // <tspan> each (the browser lays out SVG text per <text> element).
    // attr(tag, cls, parentCls) is the text standing for each element's class
    // attribute: the class itself in the page, the styles it resolves to in a
    // file; parentCls is the class of the element's parent ('' for the band).
    cellMarkup(rows, attr) {
        const L = this.lay, parts = [], lines = new Map();
        const cols = L.cols, logOf = L.logOf, tr = this.traced, label = L.label || String, keyOf = L.keyOf;
        for (const [pa, pb] of L.slotRange(0, rows, 0, L.W)) {
            for (let p = pa; p < pb; p++) {
                const [x, y, w, h] = L.rect(p);
                const l = logOf ? logOf[p] : p;
                const col = l % cols;
                parts.push(`<rect ${attr('rect', this.cellClass(l), '')} x="${x}" y="${y}" width="${w}" height="${h}" data-p="${p}" data-l="${l}" data-c="${col}"/>`);
                if (this.labelled(w, h)) {
                    const ly = this.labelY(y, h);
                    let line = lines.get(ly);
                    if (!line) lines.set(ly, (line = []));
                    line.push(`<tspan ${attr('tspan', tr === col ? `lbl ${TRACE}` : 'lbl', 'lbls')} x="${x + w / 2}" data-p="${p}">${label(keyOf(l))}</tspan>`);
                }
            }
        }
        for (const [ly, line] of lines) parts.push(`<text ${attr('text', 'lbls', '')} y="${ly}">${line.join('')}</text>`);
        return parts.join('');
    }

    restore() {
        if (!this.whole) return;
        this.whole = false;
        this.gBand.textContent = '';
        if (this.painted) { this.sizeSvg(...svgSize(this.lay)); setHTML(this.gFixed, ''); }
        this.draw(true);
    }

    // Access marks: list of {p, ph, title}: an outline on physical slot p in
    // the colour of phase ph. Slots past the drawn map are skipped; returns
    // how many marks were drawn. The outline elements are reused.
    mark(list) {
        this.marks = list || [];
        const els = this.markEls;
        let n = 0;
        for (const m of this.marks) {
            if (m.p < 0 || m.p >= this.lay.nSlots) continue;
            const [x, y, w, h] = this.lay.rect(m.p);
            let e = els[n];
            if (!e) {
                e = document.createElementNS(SVGNS, 'rect');
                e.setAttribute('rx', '2');
                e.appendChild(document.createElementNS(SVGNS, 'title'));
                e.was = {};   // the attributes last written, so that equal ones are not written again
                els.push(e);
            }
            const a = { class: `${MARK} ${phase(m.ph)}`, x: x + 1.5, y: y + 1.5, width: Math.max(1, w - 3), height: Math.max(1, Math.min(h, this.lay.H - y) - 3), 'data-p': m.p, 'data-ph': m.ph, title: m.title };
            for (const k in a) {
                const v = String(a[k]);
                if (e.was[k] === v) continue;
                e.was[k] = v;
                if (k === 'title') e.firstChild.textContent = v; else e.setAttribute(k, v);
            }
            if (e.parentNode !== this.gMarks) this.gMarks.appendChild(e);
            n++;
        }
        for (let i = n; i < els.length; i++) if (els[i].parentNode) els[i].remove();
        if (this.svg.classList.contains(MARKING) !== n > 0) this.svg.classList.toggle(MARKING, n > 0);
        return n;
    }

    // Outline physical slot p (null hides). Returns its rect [x, y, w, h] or null.
    select(p) {
        this.selP = p;
        const ok = p !== null && p !== undefined && p >= 0 && p < this.lay.nSlots;
        const r = ok ? this.lay.rect(p) : null;
        for (const e of [this.halo, this.sel]) {
            if (!r) { if (e.getAttribute('visibility') !== 'hidden') e.setAttribute('visibility', 'hidden'); continue; }
            e.setAttribute('x', r[0]); e.setAttribute('y', r[1]);
            e.setAttribute('width', r[2]); e.setAttribute('height', Math.min(r[3], this.lay.H - r[1]));
            e.setAttribute('visibility', 'visible');
        }
        return r;
    }

    // Trace the cells holding logical column col (null clears).
    trace(col) {
        const was = this.traced;
        this.traced = col;
        if (this.svg.classList.contains(TRACING) !== (col !== null)) this.svg.classList.toggle(TRACING, col !== null);
        if (was !== col) this.paint();
    }

    // Scroll this view's own box (never the page) so rect r shows.
    reveal(r) {
        if (!r || !this.scrolls) return;
        const e = this.el, [x, y, w, h] = r;
        if (y < e.scrollTop + this.lay.th || y + h > e.scrollTop + e.clientHeight)
            e.scrollTop = Math.max(0, y - e.clientHeight / 2);
        if (x < e.scrollLeft + this.lay.lw || x + w > e.scrollLeft + e.clientWidth)
            e.scrollLeft = Math.max(0, x - e.clientWidth / 2);
        this.draw(false);
    }

    // The cell under a pointer event (its clientX / clientY): {p, l}, or null
    // off the drawn cells.
    cellAt(ev) {
        const b = this.band;
        if (!b) return null;
        const box = this.svg.getBoundingClientRect();
        const mx = ev.clientX - box.left, my = ev.clientY - box.top, L = this.lay;
        for (let i = 0; i < b.slots.length; i++) {
            const [x, y, w, h] = L.rect(b.slots[i]);
            if (mx >= x && mx < x + w && my >= y && my < y + h) return { p: b.slots[i], l: b.ls[i] };
        }
        return null;
    }

    // Hover: the cell under the pointer is shaded and its hover text (built
    // only now: a text per cell up front costs more than the map) shown.
    hover(ev) { this.pointAt(ev ? this.cellAt(ev) : null); }

    pointAt(hit) {
        const p = hit ? hit.p : null;
        if (p === this.hitP) return;
        this.hitP = p;
        const e = this.hit;
        if (p === null) { e.setAttribute('visibility', 'hidden'); return; }
        const [x, y, w, h] = this.lay.rect(p);
        e.setAttribute('x', x); e.setAttribute('y', y);
        e.setAttribute('width', w); e.setAttribute('height', Math.min(h, this.lay.H - y));
        e.firstChild.textContent = this.lay.title(p);
        e.setAttribute('visibility', 'visible');
    }
}

export function gridView(el, opts) {
    const v = new MapView(el, gridLayout(opts), opts.hint);
    v.truncated = v.lay.truncated;
    return v;
}

export function bankView(el, opts) {
    const v = new MapView(el, bankLayout(opts), opts.hint);
    v.truncated = v.lay.truncated;
    return v;
}
