// export.js - "SVG" and "PNG" download buttons for a drawn view. The SVG is
// the view's own markup with every style the page's CSS gives it written onto
// the elements (so it stands alone); the PNG is that SVG rasterized at 2x.
// It copies what is drawn; it must not redraw or recompute a view's content.

const SVGNS = 'http://www.w3.org/2000/svg';
const PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity',
    'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility'];

// Standalone SVG text for the <svg> element `svg` (live in the page).
export function svgText(svg) {
    const clone = svg.cloneNode(true);
    const src = [svg, ...svg.querySelectorAll('*')];
    const dst = [clone, ...clone.querySelectorAll('*')];
    for (let i = 0; i < src.length; i++) {
        const e = dst[i];
        if (e.tagName === 'title') continue;
        const cs = getComputedStyle(src[i]);
        for (const p of PROPS) {
            const v = cs.getPropertyValue(p);
            if (v) e.setAttribute(p, v);
        }
        e.removeAttribute('class');
    }
    clone.setAttribute('xmlns', SVGNS);
    // A background, so the file reads the same on any viewer.
    const bg = document.createElementNS(SVGNS, 'rect');
    bg.setAttribute('width', '100%'); bg.setAttribute('height', '100%');
    bg.setAttribute('fill', getComputedStyle(document.body).getPropertyValue('--panel').trim() || '#ffffff');
    clone.insertBefore(bg, clone.firstChild);
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
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

/* Put SVG / PNG buttons into `bar` for the view `getView()` returns:
 * {svg, name, prepare(), restore()} or null; prepare draws the whole view
 * (big maps draw a band) and returns whether it is whole. */
export function addExport(bar, getView) {
    const mk = (kind) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'export';
        b.textContent = kind;
        b.dataset.export = kind.toLowerCase();
        b.title = `Download this view as ${kind}`;
        b.addEventListener('click', async () => {
            const v = getView();
            if (!v || !v.svg) return;
            const whole = v.prepare ? v.prepare() : true;
            let text;
            try { text = svgText(v.svg); } finally { if (v.restore) v.restore(); }
            const name = `swizzlescope-${v.name}${whole ? '' : '-visible-part'}`;
            if (kind === 'SVG') { download(new Blob([text], { type: 'image/svg+xml' }), name + '.svg'); return; }
            const w = Number(v.svg.getAttribute('width')), h = Number(v.svg.getAttribute('height'));
            try { download(await pngBlob(text, w, h), name + '.png'); } catch (e) { b.title = e.message; }
        });
        bar.appendChild(b);
    };
    mk('SVG');
    mk('PNG');
}
