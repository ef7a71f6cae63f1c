// views.js - draws the tile, grid and bank maps: cells and their labels on a
// <canvas>, and over it an SVG with what is drawn per map rather than per cell
// (axis labels, tile lines, frame), the access outlines and the selection.
// Every number drawn comes from the API response (log_of, bank_of, sizes);
// this module only lays cells out on screen. It must not derive the model.
//
// Why a canvas: a control change repaints hundreds of cells, and as SVG each
// one cost the browser a styled, laid-out element and its label a run of
// shaped text (bench/render.sh: the maps were most of a preset change). A
// canvas repaint of the same cells is a few fills and fillTexts.
//
// A map can hold 2^20 cells, so a map in a scroll box draws only the cells
// near what is visible (a band) and redraws when the box scrolls past the
// band. An export draws the whole map once as SVG elements instead (up to
// EXPORT_MAX_SLOTS cells), the same markup a file needs to stand alone.
// What each band holds is kept (drawnCells()), so the page and its tests can
// ask which cell is where without reading pixels back.

import { setHTML } from './dom.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const OVERSCAN = 160;          // px drawn beyond the visible box on each side
const MAX_HEIGHT = 4_000_000;  // px; taller maps are drawn in part (browser limits)
export const EXPORT_MAX_SLOTS = 65536;
const TRACE_DIM = 0.32;        // opacity of the cells a trace does not follow

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// Label every k-th axis position, k a power of two, so labels never overlap.
function axisStep(px, minPx) {
    let k = 1;
    while (k * px < minPx) k *= 2;
    return k;
}

function fontFor(px) { return clamp(Math.round(px * 0.42), 9, 16); }

const selRects = '<rect class="sel-halo" visibility="hidden" rx="3"/><rect class="sel" visibility="hidden" rx="3"/>';

// The colours and font the canvas paints with, read from style.css's custom
// properties (the theme, palette and presenter mode set them on <html>), once
// per combination of those three.
let inkMemo = { key: null, ink: null };
function ink() {
    const root = document.documentElement, d = root.dataset;
    const key = `${d.theme}/${d.palette}/${d.present}`;
    if (inkMemo.key === key) return inkMemo.ink;
    const cs = getComputedStyle(root), v = (n) => cs.getPropertyValue(n).trim();
    const k = [];
    for (let i = 0; i < 16; i++) k.push(v(`--k${i}`));
    const halo = v('--lbl-halo');
    inkMemo = {
        key, ink: {
            k, gap: v('--cell-gap'), text: v('--cell-text'), muted: v('--muted'), mono: v('--mono'),
            halo: d.palette === 'cb' && halo && halo !== 'transparent' ? halo : null,
            dark: d.theme === 'dark', bold: d.present === '1',
        },
    };
    return inkMemo.ink;
}

// Canvases are painted in one batch: a map asks for a paint, and the paint
// happens in flushPaints(), which the page calls once its other writes for a
// change are done (and a frame callback calls otherwise). Why: the browser
// brings the page's style up to date before every fillText that follows a
// DOM write, so painting each map as it is drawn paid for a style pass per
// map; in one batch, the sizes written first, it is one pass.
const pending = new Set();
let flushAsked = false;

export function flushPaints() {
    if (!pending.size) return;
    // A map drawn anew on the same element replaces a view still waiting.
    const views = [...pending].filter((v) => v.el.mapView === v);
    pending.clear();
    const sized = views.map((v) => v.size());
    views.forEach((v, i) => v.paintNow(sized[i]));
}

// A map far from the window hides its canvas (class "far"), and shows it
// again before it comes into the window. Why: under software compositing
// the browser copies every canvas's bitmap to the compositor at each frame it
// commits, changed or not (a trace of a preset change at the top of the
// page: six canvases, about 1.1 ms of every commit; a page with two
// unchanging canvases shows the same), and it copies no hidden canvas. The
// observer's margin is a window's height each way; a scroll that jumps
// further (a link, a focus, a script) shows the canvas from its scroll
// event, which the browser runs before it paints the frame that scrolled.
const farViews = new Set();
function setFar(el, far) {
    if (far === farViews.has(el)) return;
    if (far) farViews.add(el); else farViews.delete(el);
    el.classList.toggle('far', far);
}
const nearWindow = new IntersectionObserver((entries) => {
    for (const e of entries) setFar(e.target, !e.isIntersecting);
}, { rootMargin: '100% 0px' });
function showNear() {
    if (!farViews.size) return;
    const h = window.innerHeight;
    for (const el of farViews) {
        const r = el.getBoundingClientRect();
        if (r.bottom > -h && r.top < 2 * h) setFar(el, false);
    }
}
window.addEventListener('scroll', showNear, { passive: true });
window.addEventListener('resize', showNear);

// A switch of theme, palette or presenter mode repaints every map's canvas.
new MutationObserver(() => {
    for (const el of document.querySelectorAll('.view')) if (el.mapView && el.mapView.el === el) el.mapView.paint();
}).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-palette', 'data-present'] });

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
 *   title(p)            hover text
 *   label(key)          cell text for that number (default: the number) */
class MapView {
    // hint: {top, left, h, w} of the scroll box for the first draw, so that
    // drawing does not read (and lay out) the page; later draws read the box.
    constructor(el, lay, hint = null) {
        this.el = el;
        this.lay = lay;
        this.scrolls = el.classList.contains('scroll');
        this.traced = null;
        this.selP = null;
        // The canvas and the SVG of a map drawn here before are kept, and so
        // are the SVG's parts, emptied and rewritten where they differ: a new
        // <svg> or <canvas> costs the browser a new layer, and new SVG
        // elements cost it their style and layout.
        const old = el.mapView && el.mapView.el === el && el.firstElementChild === el.mapView.cv ? el.mapView : null;
        if (old) {
            for (const k of ['cv', 'svg', 'gBand', 'gExtra', 'pTiles', 'gFixed', 'gMarks', 'markEls', 'halo', 'sel', 'hit']) this[k] = old[k];
            for (const [k, v] of [['class', `map ${lay.kind}`], ['width', lay.W], ['height', lay.H], ['viewBox', `0 0 ${lay.W} ${lay.H}`]]) this.svg.setAttribute(k, v);
            this.gBand.setAttribute('font-size', lay.fs);
            if (this.gBand.firstChild) this.gBand.textContent = '';
        } else {
            el.innerHTML = `<canvas class="cells"></canvas><svg xmlns="${SVGNS}" class="map ${lay.kind}" width="${lay.W}" height="${lay.H}" viewBox="0 0 ${lay.W} ${lay.H}">` +
                `<g class="band" font-size="${lay.fs}"></g><g class="band-extra"></g><path class="tiles" d=""/><g class="fixed"></g><g class="marks"></g>${selRects}<rect class="hit" visibility="hidden"><title></title></rect></svg>`;
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
        setHTML(this.gFixed, lay.fixed || '');
        el.mapView = this;
        nearWindow.observe(el);   // again for the same element: no change
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
        const L = this.lay, k = L.keyOf(l) % 16;
        return this.traced === l % L.cols ? `cell k${k} trace` : `cell k${k}`;
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
        this.band = { slots, ls, rows: [r0, r1, x0, x1], box: [bx0, by0, bx1 - bx0, by1 - by0] };
        this.extras(L.band(r0, r1, x0, x1));
        this.drawn = [y0, y1, x0, x1];
        this.paint();
    }

    // Axis labels and tile lines: each written only when it changed (a new
    // tile size moves the lines and leaves the axes).
    extras({ axis, tiles }) {
        setHTML(this.gExtra, axis);
        if (this.pTiles.getAttribute('d') !== tiles) this.pTiles.setAttribute('d', tiles);
    }

    // Ask for the band to be painted on the canvas (flushPaints() does it).
    paint() {
        pending.add(this);
        if (flushAsked) return;
        flushAsked = true;
        requestAnimationFrame(() => { flushAsked = false; flushPaints(); });
    }

    // Size and place the canvas for the band; returns its context, or null
    // without a band.
    size() {
        const b = this.band, cv = this.cv;
        if (!b) return null;
        const [bx, by, bw, bh] = b.box;
        const dpr = window.devicePixelRatio || 1;
        let pw = Math.max(1, Math.ceil(bw * dpr)), ph = Math.max(1, Math.ceil(bh * dpr));
        // A new size is a new bitmap for the browser to allocate and hand to
        // the compositor: a map outside a scroll box (a tile, whose box clips
        // it) keeps its canvas when it shrinks.
        if (!this.scrolls && cv.dpr === dpr) { pw = Math.max(pw, cv.width); ph = Math.max(ph, cv.height); }
        if (cv.width !== pw || cv.height !== ph) { cv.width = pw; cv.height = ph; cv.font = null; }   // resizing clears it, and resets its font
        cv.dpr = dpr;
        const st = cv.style, px = (n) => `${n}px`;
        if (st.left !== px(bx)) st.left = px(bx);
        if (st.top !== px(by)) st.top = px(by);
        if (st.width !== px(pw / dpr)) st.width = px(pw / dpr);
        if (st.height !== px(ph / dpr)) st.height = px(ph / dpr);
        return cv.getContext('2d');
    }

    // Paint the band's cells and labels on the canvas sized by size(), as the
    // SVG of an export would draw them: fill, a 1 px gap around it, the
    // label centred on its line.
    paintNow(g) {
        const b = this.band, cv = this.cv;
        if (!b || !g) return;
        const L = this.lay, [bx, by] = b.box, dpr = cv.dpr;
        g.setTransform(dpr, 0, 0, dpr, -bx * dpr, -by * dpr);
        g.clearRect(bx, by, cv.width / dpr, cv.height / dpr);
        if (this.whole) return;   // the SVG holds every cell (an export)
        const k = ink(), tr = this.traced, cols = L.cols, keyOf = L.keyOf, label = L.label || String;
        // The gap first: every cell's box grown by half a pixel, in the gap
        // colour; then each cell's fill shrunk by half a pixel, one colour
        // (faded or not) at a time, since a fillStyle per cell is a colour
        // parse per cell. That is the SVG's rect with its 1 px gap stroke,
        // drawn as rectangle fills: a stroked path of every cell cost this
        // VM's software canvas twice as much to raster (bench/README.md). The
        // gap colour is the panel's, so a faded cell over it looks as it did
        // over the panel.
        const groups = new Map(), texts = [];
        g.globalAlpha = 1;
        g.fillStyle = k.gap;
        for (let i = 0; i < b.slots.length; i++) {
            const p = b.slots[i], l = b.ls[i], r = L.rect(p), key = keyOf(l);
            const on = tr === null || tr === l % cols, gk = on ? key % 16 : 16 + (key % 16);
            let grp = groups.get(gk);
            if (!grp) groups.set(gk, (grp = []));
            grp.push(r);
            g.fillRect(r[0] - 0.5, r[1] - 0.5, r[2] + 1, r[3] + 1);
            if (this.labelled(r[2], r[3])) texts.push(String(label(key)), r[0] + r[2] / 2, this.labelY(r[1], r[3]), on);
        }
        for (const [gk, rs] of groups) {
            g.globalAlpha = gk >= 16 ? TRACE_DIM : 1;
            g.fillStyle = k.k[gk % 16];
            for (const [x, y, w, h] of rs) g.fillRect(x + 0.5, y + 0.5, Math.max(0, w - 1), Math.max(0, h - 1));
        }
        g.globalAlpha = 1;
        if (!texts.length) return;
        // Setting a font makes the browser bring the page's style up to date
        // first; a canvas keeps its font until it is resized.
        const font = `${k.bold ? '700 ' : ''}${L.fs}px ${k.mono}`;
        if (cv.font !== font) { g.font = font; cv.font = font; }
        g.textAlign = 'center';
        g.textBaseline = 'middle';
        g.lineJoin = 'round';
        for (let i = 0; i < texts.length; i += 4) {
            const dim = tr !== null && !texts[i + 3] && k.dark;   // the dark theme greys the labels a trace passes over
            if (k.halo && !dim) { g.lineWidth = 3; g.strokeStyle = k.halo; g.strokeText(texts[i], texts[i + 1], texts[i + 2]); }
            g.fillStyle = dim ? k.muted : k.text;
            g.fillText(texts[i], texts[i + 1], texts[i + 2]);
        }
    }

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

    // The whole map as SVG cells and labels (for an export) when the map is
    // small enough; returns whether the whole map is now in the SVG.
    // restore() goes back to the canvas band.
    drawAll() {
        if (this.lay.nSlots > EXPORT_MAX_SLOTS) return false;
        this.pointAt(null);
        const L = this.lay;
        const parts = [];
        // Labels go one <text> per line of cells, a <tspan> each, as the
        // browser lays out SVG text per <text> element.
        const lines = new Map();
        const cols = L.cols, logOf = L.logOf, tr = this.traced, label = L.label || String, keyOf = L.keyOf;
        for (const [pa, pb] of L.slotRange(0, L.nRows, 0, L.W)) {
            for (let p = pa; p < pb; p++) {
                const [x, y, w, h] = L.rect(p);
                const l = logOf ? logOf[p] : p;
                const col = l % cols;
                parts.push(`<rect class="${this.cellClass(l)}" x="${x}" y="${y}" width="${w}" height="${h}" data-p="${p}" data-l="${l}" data-c="${col}"/>`);
                if (this.labelled(w, h)) {
                    const ly = this.labelY(y, h);
                    let line = lines.get(ly);
                    if (!line) lines.set(ly, (line = []));
                    line.push(`<tspan class="lbl${tr === col ? ' trace' : ''}" x="${x + w / 2}" data-p="${p}">${label(keyOf(l))}</tspan>`);
                }
            }
        }
        for (const [ly, line] of lines) parts.push(`<text class="lbls" y="${ly}">${line.join('')}</text>`);
        this.gBand.innerHTML = parts.join('');
        this.extras(L.band(0, L.nRows, 0, L.W));
        this.whole = true;
        return true;
    }

    restore() {
        if (!this.whole) return;
        this.whole = false;
        this.gBand.textContent = '';
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
            const a = { class: `mark ph${m.ph % 8}`, x: x + 1.5, y: y + 1.5, width: Math.max(1, w - 3), height: Math.max(1, Math.min(h, this.lay.H - y) - 3), 'data-p': m.p, 'data-ph': m.ph, title: m.title };
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
        if (this.svg.classList.contains('marking') !== n > 0) this.svg.classList.toggle('marking', n > 0);
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
        if (this.svg.classList.contains('tracing') !== (col !== null)) this.svg.classList.toggle('tracing', col !== null);
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

/* A rows x cols map of units (the tile or the grid).
 *   logOf[p]  logical unit stored at physical slot p, or null for the identity
 *   cols      logical units per row: logical column = l % cols, row = l / cols
 *   tile      tile edge in units: thick lines every `tile` cells (none when 1)
 *   bankOf    optional first bank per slot, for the hover title */
export function gridLayout({ rows, cols, logOf, tile, availW, maxCell = 34, bankOf = null, kind, label = null, keyOf = null, elemTitle = null }) {
    const lw = 12 + 7 * String(rows - 1).length;
    const th = 18;
    const cs = clamp(Math.floor((availW - lw - 6) / cols), 8, maxCell);
    const nRows = Math.max(1, Math.min(rows, Math.floor(MAX_HEIGHT / cs)));
    const W = lw + cols * cs + 3, H = th + nRows * cs + 3;
    const cstep = axisStep(cs, 18), rstep = axisStep(cs, 13);
    const afs = Math.min(11, fontFor(cs));
    const x = (c) => lw + c * cs, y = (r) => th + r * cs;

    const lay = {
        kind, W, H, lw, th, rowH: cs, nRows, cols, logOf, fs: fontFor(cs), labelMin: label ? 22 : 15, label, keyOf: keyOf || ((l) => l % cols),
        nSlots: nRows * cols,
        rect: (p) => [x(p % cols), y(Math.floor(p / cols)), cs, cs],
        slotRange(r0, r1, x0, x1) {
            const c0 = clamp(Math.floor((x0 - lw) / cs), 0, cols), c1 = clamp(Math.ceil((x1 - lw) / cs), 0, cols);
            const out = [];
            if (c1 > c0) for (let r = r0; r < r1; r++) out.push([r * cols + c0, r * cols + c1]);
            return out;
        },
        band(r0, r1, x0, x1) {
            const c0 = clamp(Math.floor((x0 - lw) / cs), 0, cols), c1 = clamp(Math.ceil((x1 - lw) / cs), 0, cols);
            let s = `<g class="axis-g" font-size="${afs}">`;
            for (let c = c0 - (c0 % cstep); c < c1; c += cstep) s += `<text class="axis" x="${x(c) + cs / 2}" y="${th / 2}">${c}</text>`;
            for (let r = r0 - (r0 % rstep); r < r1; r += rstep) s += `<text class="axis row" x="${lw - 5}" y="${y(r) + cs / 2}">${r}</text>`;
            s += '</g>';
            // Tile borders: thick lines every `tile` units inside the band.
            let d = '';
            if (tile > 1 && r1 > r0 && c1 > c0) {
                for (let c = Math.ceil(Math.max(c0, 1) / tile) * tile; c < c1 && c < cols; c += tile) d += `M${x(c)} ${y(r0)}V${y(r1)}`;
                for (let r = Math.ceil(Math.max(r0, 1) / tile) * tile; r < r1 && r < nRows; r += tile) d += `M${x(c0)} ${y(r)}H${x(c1)}`;
            }
            return { axis: s, tiles: d };
        },
        fixed: `<path class="tiles" d="M${lw} ${th}h${cols * cs}v${nRows * cs}h${-cols * cs}Z"/>`,
        title(p) {
            const l = logOf ? logOf[p] : p;
            let t = `physical slot ${p} <- logical column ${l % cols}`;
            t += `\nlogical (row ${Math.floor(l / cols)}, col ${l % cols}) at physical (row ${Math.floor(p / cols)}, col ${p % cols})`;
            if (bankOf) t += `\nfirst bank ${bankOf[p]}`;
            if (elemTitle) t += `\n${elemTitle(l % cols)}`;
            return t;
        },
    };
    lay.truncated = nRows < rows ? nRows : 0;
    return lay;
}

export function gridView(el, opts) {
    const v = new MapView(el, gridLayout(opts), opts.hint);
    v.truncated = v.lay.truncated;
    return v;
}

/* The bank organization: bank rows x banks. Slot p is drawn where bank_of[p]
 * and banks_view place it: across `spanned` banks, as 1/perBank of a bank when
 * narrower, or over rowsPerUnit whole bank rows when wider than a bank row. */
export function bankLayout({ banks, bankRows, unitsPerRow, rowsPerUnit, perBank, spanned,
    bankOf, logOf, cols, unitBytes, bankBytes, availW, kind, label = null, keyOf = null, elemTitle = null }) {
    const lw = 12 + 7 * String(Math.max(0, bankRows - 1)).length;
    const th = 18;
    // A bank shared by several units is drawn wide enough to show each of them
    // (the box scrolls sideways); otherwise the banks fit the width.
    const minShared = perBank > 1 ? Math.min(14 * perBank, 448) : 6;
    const bw = clamp(Math.floor((availW - lw - 6) / banks), minShared, Math.max(40, minShared));
    const rh = clamp(bw, 16, 26);
    const nRows = Math.max(1, Math.min(bankRows, Math.floor(MAX_HEIGHT / rh)));
    const W = lw + banks * bw + 3, H = th + nRows * rh + 3;
    const n = bankOf.length;
    const bstep = axisStep(bw, 18), rstep = axisStep(rh, 13);
    const upr = unitsPerRow, rpu = Math.max(1, rowsPerUnit);
    const sub = bw / perBank;

    let rect, nSlots;
    if (upr > 0) {
        nSlots = Math.min(n, nRows * upr);
        rect = perBank > 1
            ? (p) => [lw + bankOf[p] * bw + (p % perBank) * sub, th + Math.floor(p / upr) * rh, sub, rh]
            : (p) => [lw + bankOf[p] * bw, th + Math.floor(p / upr) * rh, spanned * bw, rh];
    } else {
        nSlots = Math.min(n, Math.ceil(nRows / rpu));
        rect = (p) => [lw, th + p * rpu * rh, banks * bw, rpu * rh];
    }

    let bankHead = '';
    for (let k = 0; k < banks; k += bstep) bankHead += `<text class="axis" x="${lw + k * bw + bw / 2}" y="${th / 2}">${k}</text>`;
    let div = '';
    if (bw >= 8) for (let k = 1; k < banks; k++) div += `M${lw + k * bw} ${th}V${th + nRows * rh}`;

    const lay = {
        kind, W, H, lw, th, rowH: rh, nRows, cols, logOf, fs: fontFor(Math.min(rh, 30)), labelMin: label ? 22 : 11, nSlots, rect, label, keyOf: keyOf || ((l) => l % cols),
        slotRange(r0, r1) {
            if (upr > 0) return [[Math.min(nSlots, r0 * upr), Math.min(nSlots, r1 * upr)]];
            return [[Math.min(nSlots, Math.floor(r0 / rpu)), Math.min(nSlots, Math.ceil(r1 / rpu))]];
        },
        band(r0, r1) {
            let s = '<g class="axis-g" font-size="10">';
            for (let r = r0 - (r0 % rstep); r < r1; r += rstep) s += `<text class="axis row" x="${lw - 5}" y="${th + r * rh + rh / 2}">${r}</text>`;
            return { axis: s + '</g>', tiles: '' };
        },
        fixed: `<g class="axis-g" font-size="10">${bankHead}</g><path class="bankdiv${perBank > 1 ? ' shared' : ''}" d="${div}"/>` +
            `<path class="frame" d="M${lw} ${th}h${banks * bw}v${nRows * rh}h${-banks * bw}Z"/>`,
        title(p) {
            const l = logOf ? logOf[p] : p;
            let t = `physical slot ${p} <- logical column ${l % cols}`;
            t += `\nlogical (row ${Math.floor(l / cols)}, col ${l % cols})`;
            if (perBank > 1) t += `\n1/${perBank} of bank ${bankOf[p]} (${unitBytes} B of a ${bankBytes} B bank word)`;
            else if (spanned > 1) t += `\nbanks ${bankOf[p]}..${bankOf[p] + spanned - 1}`;
            else t += `\nbank ${bankOf[p]}`;
            if (elemTitle) t += `\n${elemTitle(l % cols)}`;
            return t;
        },
    };
    lay.truncated = nRows < bankRows ? nRows : 0;
    return lay;
}

export function bankView(el, opts) {
    const v = new MapView(el, bankLayout(opts), opts.hint);
    v.truncated = v.lay.truncated;
    return v;
}
