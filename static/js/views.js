// views.js - draws the tile, grid and bank maps as SVG.
// Every number drawn comes from the API response (log_of, bank_of, sizes);
// this module only lays cells out on screen. It must not derive the model.
//
// A map can hold 2^20 cells, far more than the DOM takes quickly, so a map in
// a scroll box draws only the cells near what is visible (one SVG string per
// band) and redraws when the box scrolls past the band. Small maps fit in one band.
// Access marks (the slots a warp instruction touches) are an overlay of a few
// rects; an export draws the whole map once (up to EXPORT_MAX_SLOTS cells).

import { setHTML } from './dom.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const OVERSCAN = 160;          // px drawn beyond the visible box on each side
const MAX_HEIGHT = 4_000_000;  // px; taller maps are drawn in part (browser limits)
export const EXPORT_MAX_SLOTS = 65536;

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// Label every k-th axis position, k a power of two, so labels never overlap.
function axisStep(px, minPx) {
    let k = 1;
    while (k * px < minPx) k *= 2;
    return k;
}

function fontFor(px) { return clamp(Math.round(px * 0.42), 9, 16); }

const selRects = '<rect class="sel-halo" visibility="hidden" rx="3"/><rect class="sel" visibility="hidden" rx="3"/>';

/* One drawn map. `lay` describes it:
 *   W, H, lw, th        size, row-label width, column-label height
 *   rowH, nRows         display rows (grid rows or bank rows)
 *   slotRange(r0, r1, x0, x1) -> [[pFrom, pTo), ...] slots drawn for rows [r0, r1)
 *   rect(p)             [x, y, w, h] of physical slot p
 *   logOf, cols         logical unit at slot p (null = identity); column = l % cols
 *   keyOf(l)            the number a cell shows and is coloured by (default: its
 *                       column; the logical row when the page asks for rows)
 *   band(r0, r1, x0, x1) extra SVG for the band (axis labels, tile lines)
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
        // The band (cells and their labels) and its extras (axis labels, tile
        // lines) are separate groups so that either can be rewritten alone.
        el.innerHTML = `<svg xmlns="${SVGNS}" class="map ${lay.kind}" width="${lay.W}" height="${lay.H}" viewBox="0 0 ${lay.W} ${lay.H}">` +
            `<g class="band" font-size="${lay.fs}"></g><g class="band-extra"></g>${lay.fixed || ''}<g class="marks"></g>${selRects}</svg>`;
        this.svg = el.firstElementChild;
        this.gBand = this.svg.firstElementChild;
        this.gExtra = this.gBand.nextElementSibling;
        this.gMarks = this.svg.querySelector('g.marks');
        this.marks = [];
        this.markEls = [];
        this.halo = this.svg.querySelector('rect.sel-halo');
        this.sel = this.svg.querySelector('rect.sel');
        this.drawn = null;   // [y0, y1, x0, x1] in px
        this.band = null;    // what the band shows: {slots, ls, cellEls, lblEls, extra}
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

    // Draw the band around the visible box unless the current band covers it.
    draw(force, all = false) {
        const [vy0, vy1, vx0, vx1] = this.visible();
        const d = this.drawn;
        if (!force && d && vy0 >= d[0] && vy1 <= d[1] && vx0 >= d[2] && vx1 <= d[3]) return;
        const L = this.lay;
        const band = this.scrolls && !all;
        const y0 = band ? Math.max(0, vy0 - OVERSCAN) : 0;
        const y1 = band ? Math.min(L.H, vy1 + OVERSCAN) : L.H;
        const x0 = band ? Math.max(0, vx0 - OVERSCAN) : 0;
        const x1 = band ? Math.min(L.W, vx1 + OVERSCAN) : L.W;
        const r0 = clamp(Math.floor((y0 - L.th) / L.rowH), 0, L.nRows);
        const r1 = clamp(Math.ceil((y1 - L.th) / L.rowH), 0, L.nRows);
        const parts = [], slots = [], ls = [];
        // Labels go one <text> per line of cells, a <tspan> each: the browser
        // lays out SVG text per <text> element, and one per cell cost more
        // than all the cells' rects (bench/render.sh).
        const lines = new Map();   // label y -> [band index, <tspan>] pairs, flattened
        const cols = L.cols, logOf = L.logOf, tr = this.traced, label = L.label || String, keyOf = L.keyOf;
        for (const [pa, pb] of L.slotRange(r0, r1, x0, x1)) {
            for (let p = pa; p < pb; p++) {
                const [x, y, w, h] = L.rect(p);
                const l = logOf ? logOf[p] : p;
                const col = l % cols;
                slots.push(p); ls.push(l);
                parts.push(`<rect class="${this.cellClass(l)}" x="${x}" y="${y}" width="${w}" height="${h}" data-p="${p}" data-l="${l}" data-c="${col}"/>`);
                if (w >= L.labelMin && h >= 14) {
                    const ly = y + Math.min(h, L.rowH) / 2;
                    let line = lines.get(ly);
                    if (!line) lines.set(ly, (line = []));
                    line.push(slots.length - 1, `<tspan class="lbl${tr === col ? ' trace' : ''}" x="${x + w / 2}" data-p="${p}">${label(keyOf(l))}</tspan>`);
                }
            }
        }
        const order = [];   // band index of each <tspan>, in document order
        for (const [ly, line] of lines) {
            let s = `<text class="lbls" y="${ly}">`;
            for (let i = 0; i < line.length; i += 2) { order.push(line[i]); s += line[i + 1]; }
            parts.push(s + '</text>');
        }
        this.gBand.innerHTML = parts.join('');
        const extra = L.band(r0, r1, x0, x1);
        setHTML(this.gExtra, extra);
        const cellEls = [], lblEls = new Array(slots.length).fill(null);
        let k = 0;
        for (let e = this.gBand.firstElementChild; e; e = e.nextElementSibling) {
            if (e.localName === 'rect') cellEls.push(e);
            else for (let t = e.firstElementChild; t; t = t.nextElementSibling) lblEls[order[k++]] = t;
        }
        this.band = { slots, ls, cellEls, lblEls, extra, rows: [r0, r1, x0, x1] };
        this.drawn = [y0, y1, x0, x1];
    }

    // Show the contents of `lay` (the same shape as the drawn one: sizes,
    // cell rects, labels shown or not) in the cells already drawn: only the
    // cells whose logical unit or label changed are touched, so the browser
    // restyles a few attributes instead of parsing and laying out a new map.
    retarget(lay) {
        this.lay = lay;
        const b = this.band;
        if (!b) { this.draw(true); return; }
        const cols = lay.cols, logOf = lay.logOf, tr = this.traced, label = lay.label || String, keyOf = lay.keyOf;
        for (let i = 0; i < b.slots.length; i++) {
            const p = b.slots[i], l = logOf ? logOf[p] : p, col = l % cols;
            const c = b.cellEls[i], t = b.lblEls[i];
            if (c.firstChild) c.textContent = '';   // a hover title, maybe stale: added again on hover
            if (l !== b.ls[i]) {
                b.ls[i] = l;
                c.setAttribute('class', this.cellClass(l));
                c.dataset.l = l;
                c.dataset.c = col;
                if (t) t.setAttribute('class', tr === col ? 'lbl trace' : 'lbl');
            }
            if (t) {
                // The label's text node keeps its place; only its characters change.
                const txt = String(label(keyOf(l))), n = t.firstChild;
                if (n && n.nodeType === Node.TEXT_NODE && !n.nextSibling) { if (n.data !== txt) n.data = txt; }
                else if (t.textContent !== txt) t.textContent = txt;
            }
        }
        const extra = lay.band(...b.rows);
        // Axis labels that stay are kept; only changed tile lines are rewritten.
        if (extra !== b.extra) { setHTML(this.gExtra, extra); b.extra = extra; }
    }

    // Draw every cell (for an export) when the map is small enough; returns
    // whether the whole map is now in the DOM. restore() goes back to a band.
    drawAll() {
        if (this.lay.nSlots > EXPORT_MAX_SLOTS) return false;
        if (this.scrolls) this.draw(true, true);
        return true;
    }

    restore() { if (this.scrolls) this.draw(true); }

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
        const b = this.band;
        if (!b || was === col) return;
        const cols = this.lay.cols;
        for (let i = 0; i < b.slots.length; i++) {
            const c = b.ls[i] % cols;
            if (c !== was && c !== col) continue;
            b.cellEls[i].setAttribute('class', this.cellClass(b.ls[i]));
            const t = b.lblEls[i];
            if (t) t.setAttribute('class', c === col ? 'lbl trace' : 'lbl');
        }
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

    // Hover titles are added on first hover: a <title> per cell up front costs more than the map.
    hover(target) {
        const r = target.closest && target.closest('rect.cell');
        if (!r || r.firstChild) return;
        const t = document.createElementNS(SVGNS, 'title');
        t.textContent = this.lay.title(Number(r.dataset.p));
        r.appendChild(t);
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
            if (d) s += `<path class="tiles" d="${d}"/>`;
            return s;
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
            return s + '</g>';
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
