// paint.js - puts a map's band of cells on its canvas: the batch that paints
// every waiting map at once (flushPaints), the canvas's size and place, the
// fills and labels in the theme's colours, and the hiding of canvases far
// from the window. It paints what the view's layout and band say; it must
// not decide which cells a band holds nor what they show (mapview.js).
//
// Why a canvas: a control change repaints hundreds of cells, and as SVG each
// one cost the browser a styled, laid-out element and its label a run of
// shaped text (bench/render.sh: the maps were most of a preset change). A
// canvas repaint of the same cells is a few fills and fillTexts.

import { FAR } from './classes.js';

const TRACE_DIM = 0.32;        // opacity of the cells a trace does not follow

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
            faint: v('--faint'), line: v('--tile-line'), lineW: parseFloat(v('--tile-width')) || 2.5,
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
    const sized = views.map((v) => sizeCanvas(v));
    views.forEach((v, i) => paintBand(v, sized[i]));
}

// Ask for view v's band to be painted (flushPaints() does it, or the next frame).
export function requestPaint(v) {
    pending.add(v);
    if (flushAsked) return;
    flushAsked = true;
    requestAnimationFrame(() => { flushAsked = false; flushPaints(); });
}

// Size and place view v's canvas for its band; returns its context, or
// null without a band.
export function sizeCanvas(v) {
    const b = v.band, cv = v.cv;
    if (!b) return null;
    const [bx, by, bw, bh] = b.box;
    const dpr = window.devicePixelRatio || 1;
    let pw = Math.max(1, Math.ceil(bw * dpr)), ph = Math.max(1, Math.ceil(bh * dpr));
    // A new size is a new bitmap for the browser to allocate and hand to
    // the compositor: a map outside a scroll box (a tile, whose box clips
    // it) keeps its canvas when it shrinks.
    if (!v.scrolls && cv.dpr === dpr) { pw = Math.max(pw, cv.width); ph = Math.max(ph, cv.height); }
    if (cv.width !== pw || cv.height !== ph) { cv.width = pw; cv.height = ph; cv.font = null; }   // resizing clears it, and resets its font
    cv.dpr = dpr;
    const st = cv.style, px = (n) => `${n}px`;
    if (st.left !== px(bx)) st.left = px(bx);
    if (st.top !== px(by)) st.top = px(by);
    if (st.width !== px(pw / dpr)) st.width = px(pw / dpr);
    if (st.height !== px(ph / dpr)) st.height = px(ph / dpr);
    return cv.getContext('2d');
}

// Paint v's band of cells and labels on the canvas sized by sizeCanvas(), as
// the SVG of an export would draw them: fill, a 1 px gap around it, the
// label centred on its line.
export function paintBand(v, g) {
    const b = v.band, cv = v.cv;
    if (!b || !g) return;
    const L = v.lay, [bx, by] = b.box, dpr = cv.dpr;
    g.setTransform(dpr, 0, 0, dpr, -bx * dpr, -by * dpr);
    g.clearRect(bx, by, cv.width / dpr, cv.height / dpr);
    if (v.whole) return;   // the SVG holds every cell (an export)
    const k = ink(), tr = v.traced, cols = L.cols, keyOf = L.keyOf, label = L.label || String;
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
        if (v.labelled(r[2], r[3])) texts.push(String(label(key)), r[0] + r[2] / 2, v.labelY(r[1], r[3]), on);
    }
    for (const [gk, rs] of groups) {
        g.globalAlpha = gk >= 16 ? TRACE_DIM : 1;
        g.fillStyle = k.k[gk % 16];
        for (const [x, y, w, h] of rs) g.fillRect(x + 0.5, y + 0.5, Math.max(0, w - 1), Math.max(0, h - 1));
    }
    g.globalAlpha = 1;
    if (v.painted) paintAxes(v, g, k);
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

// A tile's axis labels and frame (mapview.js says why they are painted), as
// style.css draws them in an SVG: svg.map .axis (--faint, centred; a row's
// label ends at its x; bold in presenter mode) and .tiles (--tile-line,
// --tile-width, centred on the frame's edge). The font is set back for the
// cell labels (setting one makes the browser bring the style up to date: once).
function paintAxes(v, g, k) {
    const L = v.lay, [r0, r1, x0, x1] = v.band.rows;
    g.textBaseline = 'middle';
    g.fillStyle = k.faint;
    g.font = `${k.bold ? '700 ' : ''}${L.afs}px ${k.mono}`;
    v.cv.font = null;
    for (const [x, y, t, row] of L.axes(r0, r1, x0, x1)) {
        g.textAlign = row ? 'right' : 'center';
        g.fillText(t, x, y);
    }
    const [fx, fy, fw, fh] = L.frame;
    g.lineWidth = k.lineW;
    g.strokeStyle = k.line;
    g.strokeRect(fx, fy, fw, fh);
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
    el.classList.toggle(FAR, far);
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

// Watch map element el: hidden while far from the window (again: no change).
export const watchFar = (el) => nearWindow.observe(el);

// A switch of theme, palette or presenter mode repaints every map's canvas.
new MutationObserver(() => {
    for (const el of document.querySelectorAll('.view')) if (el.mapView && el.mapView.el === el) el.mapView.paint();
}).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-palette', 'data-present'] });
