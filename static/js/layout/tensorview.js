// tensorview.js - the tensor drawn as rows x columns of elements on a canvas,
// each cell coloured by the bank (or the 16-byte chunk) the API gave for it,
// the lanes of an access marked where the API placed them, and elements a
// misaligned base moves crossed out. It lays out the API's arrays; it must not
// compute an offset, a bank or a cost.

const MAX_SIDE = 256;          // cells drawn per side; larger tensors are drawn in part

// Index of coordinate (c0, c1, c2) in the API's order (first coordinate fastest).
const indexOf = (shape, c) => c.reduceRight((acc, v, d) => acc * shape[d] + v, 0);

export function tensorGeometry(d, ax, availW) {
    const rows = ax.rowDim < 0 ? 1 : d.shape[ax.rowDim], cols = d.shape[ax.colDim];
    const R = Math.min(rows, MAX_SIDE), C = Math.min(cols, MAX_SIDE);
    const lw = 34, th = 18;
    const cs = Math.max(5, Math.min(26, Math.floor((availW - lw - 4) / C)));
    return { rows, cols, R, C, lw, th, cs, W: lw + C * cs + 2, H: th + R * cs + 2, partial: R < rows || C < cols };
}

// The coordinate of drawn cell (r, c), the third dim at `slice`.
export function coordAt(d, ax, r, c, slice = 0) {
    const co = new Array(d.rank).fill(0);
    if (ax.rowDim >= 0) co[ax.rowDim] = r;
    co[ax.colDim] = c;
    if (d.rank === 3) co[2] = slice;
    return co;
}

function hue(k, n) { return `hsl(${Math.round(k * 360 / n)} 62% 74%)`; }

// Draw into canvas `cv`: d = /api/layout answer, cost = /api/layout/access answer or null.
export function drawTensor(cv, d, ax, cost, color, availW) {
    const g = tensorGeometry(d, ax, availW);
    const dpr = window.devicePixelRatio || 1;
    cv.width = g.W * dpr; cv.height = g.H * dpr;
    cv.style.width = g.W + 'px'; cv.style.height = g.H + 'px';
    const x = cv.getContext('2d');
    x.setTransform(dpr, 0, 0, dpr, 0, 0);
    x.clearRect(0, 0, g.W, g.H);
    const fg = getComputedStyle(cv).color || '#222';
    x.font = `${Math.min(11, Math.max(8, Math.floor(g.cs * 0.45)))}px system-ui, sans-serif`;
    x.textAlign = 'center'; x.textBaseline = 'middle';
    const arr = color === 'chunk' ? d.chunks : d.banks, n = color === 'chunk' ? d.num_chunks : d.num_banks;
    const moved = d.actual_offsets || null;
    for (let r = 0; r < g.R; r++) {
        for (let c = 0; c < g.C; c++) {
            const i = indexOf(d.shape, coordAt(d, ax, r, c));
            const px = g.lw + c * g.cs, py = g.th + r * g.cs;
            x.fillStyle = hue(arr[i], n);
            x.fillRect(px, py, g.cs - 1, g.cs - 1);
            if (g.cs >= 16) { x.fillStyle = fg; x.fillText(String(arr[i]), px + g.cs / 2, py + g.cs / 2); }
            if (moved && moved[i] !== d.offsets[i]) {
                x.strokeStyle = '#c0392b'; x.lineWidth = 1.5;
                x.beginPath(); x.moveTo(px + 2, py + 2); x.lineTo(px + g.cs - 3, py + g.cs - 3);
                x.moveTo(px + g.cs - 3, py + 2); x.lineTo(px + 2, py + g.cs - 3); x.stroke();
            }
        }
    }
    x.fillStyle = fg; x.textAlign = 'right';
    const step = g.cs >= 14 ? 1 : g.cs >= 8 ? 4 : 8;
    for (let r = 0; r < g.R; r += step) x.fillText(String(r), g.lw - 4, g.th + r * g.cs + g.cs / 2);
    x.textAlign = 'center';
    for (let c = 0; c < g.C; c += step * 2) x.fillText(String(c), g.lw + c * g.cs + g.cs / 2, g.th / 2);
    if (cost) markLanes(x, g, d, ax, cost);
    return g;
}

// Each active lane's first element outlined, labelled with its lane, coloured by phase.
function markLanes(x, g, d, ax, cost) {
    const phaseHue = (p) => `hsl(${(p * 47) % 360} 70% 38%)`;
    cost.coords.forEach((co, t) => {
        if (!co) return;
        const r = ax.rowDim < 0 ? 0 : co[ax.rowDim], c = co[ax.colDim];
        if (r >= g.R || c >= g.C) return;
        const lane = cost.lanes[t];
        x.strokeStyle = phaseHue(lane.active ? lane.phase : 0);
        x.lineWidth = 2;
        x.strokeRect(g.lw + c * g.cs + 1, g.th + r * g.cs + 1, g.cs - 3, g.cs - 3);
    });
}
