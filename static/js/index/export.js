// export.js - "SVG" and "PNG" download buttons for a drawn view: the view's
// own markup with every style written onto it (so it stands alone), a caption
// naming the swizzle and geometry, and a file name after the state; the PNG is
// that SVG at 2x. It copies what is drawn; it must not recompute its content.

const SVGNS = 'http://www.w3.org/2000/svg';
const PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity',
    'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility'];

// The presentation attributes an element's computed style gives, as
// PROPS lists them: [[name, value], ...] with the empty ones left out.
const styleOf = (el) => { const cs = getComputedStyle(el); return PROPS.map((p) => [p, cs.getPropertyValue(p)]).filter(([, v]) => v); };
const xmlAttr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// cells(attr) (mapview.js cellMarkup) written with inline styles in place of
// classes, each kind of element's style read once off a sample of it put in
// the page's band element `band` (so that the page's CSS applies as it does
// to the map) and taken out again.
function styledCells(band, cells) {
    const memo = new Map();
    const attr = (tag, cls, parentCls) => {
        const k = `${tag}|${cls}|${parentCls}`;
        let a = memo.get(k);
        if (a === undefined) {
            const host = parentCls ? band.appendChild(document.createElementNS(SVGNS, 'text')) : band;
            if (parentCls) host.setAttribute('class', parentCls);
            const el = host.appendChild(document.createElementNS(SVGNS, tag));
            el.setAttribute('class', cls);
            a = styleOf(el).map(([p, v]) => `${p}="${xmlAttr(v)}"`).join(' ');
            (parentCls ? host : el).remove();
            memo.set(k, a);
        }
        return a;
    };
    return cells(attr);
}

// Standalone SVG text for the <svg> element `svg` (live in the page), cut
// to `height` px when given, with `caption` lines under it: {text, w, h}.
// band: {el, cells} where the map's cells are not in the page (mapview.js
// drawAll(false)): el the (empty) element they belong in, cells(attr) their
// markup, written into the file there.
export function svgDoc(svg, caption = [], height = null, band = null) {
    const clone = svg.cloneNode(true);
    const src = [svg, ...svg.querySelectorAll('*')];
    const dst = [clone, ...clone.querySelectorAll('*')];
    // Elements of one tag, classes and presentation attributes get the same
    // computed style: read it once per kind.
    const seen = new Map();
    const MARK = 'swz-cells';
    for (let i = 0; i < src.length; i++) {
        const e = dst[i];
        if (band && src[i] === band.el) e.appendChild(document.createComment(MARK));
        if (e.tagName === 'title') continue;
        const k = `${e.tagName}|${e.getAttribute('class')}|${e.getAttribute('fill')}|${e.getAttribute('stroke')}|${e.getAttribute('font-size')}|${e.getAttribute('visibility')}|${e.parentNode && e.parentNode.getAttribute ? e.parentNode.getAttribute('class') + e.parentNode.getAttribute('font-size') : ''}`;
        let vals = seen.get(k);
        if (!vals) seen.set(k, (vals = styleOf(src[i])));
        for (const [p, v] of vals) e.setAttribute(p, v);
        e.removeAttribute('class');
    }
    clone.setAttribute('xmlns', SVGNS);
    // A background, so the file reads the same on any viewer.
    const bg = document.createElementNS(SVGNS, 'rect');
    bg.setAttribute('width', '100%'); bg.setAttribute('height', '100%');
    bg.setAttribute('fill', getComputedStyle(document.body).getPropertyValue('--panel').trim() || '#ffffff');
    clone.insertBefore(bg, clone.firstChild);
    const W = Number(svg.getAttribute('width')), H = height || Number(svg.getAttribute('height'));
    const lh = 16, fill = getComputedStyle(document.body).getPropertyValue('--text').trim() || '#000';
    caption.forEach((line, i) => {
        const t = document.createElementNS(SVGNS, 'text');
        t.setAttribute('x', '4'); t.setAttribute('y', String(H + 14 + i * lh));
        t.setAttribute('font-family', 'sans-serif'); t.setAttribute('font-size', '12'); t.setAttribute('fill', fill);
        t.textContent = line;
        clone.appendChild(t);
    });
    const total = H + (caption.length ? 8 + caption.length * lh : 0);
    clone.setAttribute('height', String(total));
    clone.setAttribute('viewBox', `0 0 ${W} ${total}`);
    let text = new XMLSerializer().serializeToString(clone);
    if (band) text = text.replace(`<!--${MARK}-->`, () => styledCells(band.el, band.cells));
    return { text: '<?xml version="1.0" encoding="UTF-8"?>\n' + text, w: W, h: total };
}

function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function pngBlob(text, w, h) {
    return new Promise((resolve, reject) => {
        const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
        const img = new Image();
        img.onload = () => {
            const scale = Math.min(2, 16000 / Math.max(w, h));   // canvases stop near 16k px
            const cv = document.createElement('canvas');
            cv.width = Math.round(w * scale); cv.height = Math.round(h * scale);
            const g = cv.getContext('2d');
            g.scale(scale, scale);
            g.drawImage(img, 0, 0, w, h);
            URL.revokeObjectURL(url);
            cv.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png');
        };
        img.onerror = () => { URL.revokeObjectURL(url); reject(new Error('the browser could not draw the SVG')); };
        img.src = url;
    });
}

// "swizzlescope-grid-swz-Swizzle_3_4_3-8x8-dark": a file name from words.
export const fileName = (...parts) => parts.filter(Boolean).join('-').replace(/[^A-Za-z0-9_.-]+/g, '_');

/* Put SVG / PNG buttons into `bar` for the view `getView()` returns:
 * {svg, band, name, slug, caption: [lines], prepare(inPage), restore()} or
 * null; prepare(false) draws the whole view but its cells (big maps draw a
 * band) and returns {rows, of, height, cells} (the rows drawn of how many,
 * and the cells' markup for band, the element they go in) or true. */
export function addExport(bar, getView) {
    const mk = (kind) => {
        // The server may have written the button (firstscreen.c): it is wired, not added again.
        const b = bar.querySelector(`button.export[data-export="${kind.toLowerCase()}"]`) || document.createElement('button');
        if (!b.parentNode) {
            b.type = 'button';
            b.className = 'export';
            b.textContent = kind;
            b.dataset.export = kind.toLowerCase();
            b.title = `Download this view as ${kind}`;
        }
        b.addEventListener('click', async () => {
            const v = getView();
            if (!v || !v.svg) return;
            const got = v.prepare ? v.prepare(false) : true;   // the cells go straight into the file
            const part = got && got.rows < got.of ? got : null;
            const caption = [...(v.caption || [])];
            if (part) caption.push(`Rows 0-${part.rows - 1} of ${part.of}: an export holds at most 65,536 cells.`);
            let doc;
            try { doc = svgDoc(v.svg, caption, part ? part.height : null, got && got.cells ? { el: v.band, cells: got.cells } : null); } finally { if (v.restore) v.restore(); }
            const text = doc.text;
            const name = fileName('swizzlescope', v.name, v.slug, part ? `rows-0-${part.rows - 1}-of-${part.of}` : '');
            if (kind === 'SVG') { download(new Blob([text], { type: 'image/svg+xml' }), name + '.svg'); return; }
            const w = doc.w, h = doc.h;
            try { download(await pngBlob(text, w, h), name + '.png'); } catch (e) { b.title = e.message; }
        });
        if (!b.parentNode) bar.appendChild(b);
    };
    mk('SVG');
    mk('PNG');
}
