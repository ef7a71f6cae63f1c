// maplayout.js - where each cell of a tile, grid or bank map goes on screen:
// pure layout math (sizes, cell rects, the slots a band of rows holds, axis
// labels and tile lines as SVG text, hover titles) from the API's map arrays.
// Imports under node: it must not touch the DOM, and must not derive the
// model (which unit sits where comes from log_of / bank_of as given).

export const MAX_HEIGHT = 4_000_000;  // px; taller maps are drawn in part (browser limits)

export const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// Label every k-th axis position, k a power of two, so labels never overlap.
export function axisStep(px, minPx) {
    let k = 1;
    while (k * px < minPx) k *= 2;
    return k;
}

// Cell text for a px cell; presenter mode (scale 2) lifts the cap so that the
// back of a room reads the numbers (32 px in 80 px cells).
export function fontFor(px, scale = 1) { return clamp(Math.round(px * 0.42), 9, 16 * scale); }

/* A rows x cols map of units (the tile or the grid).
 *   logOf[p]  logical unit stored at physical slot p, or null for the identity
 *   cols      logical units per row: logical column = l % cols, row = l / cols
 *   tile      tile edge in units: thick lines every `tile` cells (none when 1)
 *   bankOf    optional first bank per slot, for the hover title */
/*   boxW, boxH  optional: the SVG over the map is at least this large (a tile's
 *               box keeps an 8 x 8 tile's size: maps.js), so that a smaller map
 *               leaves the SVG, and the layer the browser made of it, as it was */
export function gridLayout({ rows, cols, logOf, tile, availW, maxCell = 34, bankOf = null, kind, label = null, keyOf = null, elemTitle = null, scale = 1, boxW = 0, boxH = 0 }) {
    const lw = (12 + 7 * String(rows - 1).length) * scale;
    const th = 18 * scale;
    const cs = clamp(Math.floor((availW - lw - 6) / cols), 8, maxCell);
    const nRows = Math.max(1, Math.min(rows, Math.floor(MAX_HEIGHT / cs)));
    const W = lw + cols * cs + 3, H = th + nRows * cs + 3;
    const cstep = axisStep(cs, 18 * scale), rstep = axisStep(cs, 13 * scale);
    const afs = Math.min(11 * scale, fontFor(cs, scale));
    const x = (c) => lw + c * cs, y = (r) => th + r * cs;

    const lay = {
        kind, W, H, lw, th, rowH: cs, nRows, cols, logOf, fs: fontFor(cs, scale), labelMin: label ? 22 : 15, label, keyOf: keyOf || ((l) => l % cols),
        nSlots: nRows * cols,
        rect: (p) => [x(p % cols), y(Math.floor(p / cols)), cs, cs],
        slotRange(r0, r1, x0, x1) {
            const c0 = clamp(Math.floor((x0 - lw) / cs), 0, cols), c1 = clamp(Math.ceil((x1 - lw) / cs), 0, cols);
            const out = [];
            if (c1 > c0) for (let r = r0; r < r1; r++) out.push([r * cols + c0, r * cols + c1]);
            return out;
        },
        svgW: Math.max(W, boxW), svgH: Math.max(H, boxH),
        afs,
        // The axis labels of the band's rows and columns: [x, y, text, row?].
        axes(r0, r1, x0, x1) {
            const c0 = clamp(Math.floor((x0 - lw) / cs), 0, cols), c1 = clamp(Math.ceil((x1 - lw) / cs), 0, cols);
            const out = [];
            for (let c = c0 - (c0 % cstep); c < c1; c += cstep) out.push([x(c) + cs / 2, th / 2, String(c), false]);
            for (let r = r0 - (r0 % rstep); r < r1; r += rstep) out.push([lw - 5, y(r) + cs / 2, String(r), true]);
            return out;
        },
        frame: [lw, th, cols * cs, nRows * cs],
        band(r0, r1, x0, x1) {
            const c0 = clamp(Math.floor((x0 - lw) / cs), 0, cols), c1 = clamp(Math.ceil((x1 - lw) / cs), 0, cols);
            let s = `<g class="axis-g" font-size="${afs}">`;
            for (const [ax, ay, t, row] of lay.axes(r0, r1, x0, x1)) s += `<text class="axis${row ? ' row' : ''}" x="${ax}" y="${ay}">${t}</text>`;
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

/* The bank organization: bank rows x banks. Slot p is drawn where bank_of[p]
 * and banks_view place it: across `spanned` banks, as 1/perBank of a bank when
 * narrower, or over rowsPerUnit whole bank rows when wider than a bank row. */
export function bankLayout({ banks, bankRows, unitsPerRow, rowsPerUnit, perBank, spanned,
    bankOf, logOf, cols, unitBytes, bankBytes, availW, kind, label = null, keyOf = null, elemTitle = null, scale = 1, labelMin = null }) {
    const lw = (12 + 7 * String(Math.max(0, bankRows - 1)).length) * scale;
    const th = 18 * scale;
    // A bank shared by several units is drawn wide enough to show each of them
    // (the box scrolls sideways); otherwise the banks fit the width.
    const minShared = perBank > 1 ? Math.min(14 * perBank, 448) : 6;
    const bw = clamp(Math.floor((availW - lw - 6) / banks), minShared, Math.max(40 * scale, minShared));
    const rh = clamp(bw, 16, 26 * scale);
    const afs = 10 * scale;
    const nRows = Math.max(1, Math.min(bankRows, Math.floor(MAX_HEIGHT / rh)));
    const W = lw + banks * bw + 3, H = th + nRows * rh + 3;
    const n = bankOf.length;
    const bstep = axisStep(bw, 18 * scale), rstep = axisStep(rh, 13 * scale);
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
        kind, W, H, lw, th, rowH: rh, nRows, cols, logOf, fs: fontFor(Math.min(rh, 30 * scale), scale), labelMin: labelMin ?? (label ? 22 : 11), nSlots, rect, label, keyOf: keyOf || ((l) => l % cols),
        slotRange(r0, r1) {
            if (upr > 0) return [[Math.min(nSlots, r0 * upr), Math.min(nSlots, r1 * upr)]];
            return [[Math.min(nSlots, Math.floor(r0 / rpu)), Math.min(nSlots, Math.ceil(r1 / rpu))]];
        },
        band(r0, r1) {
            let s = `<g class="axis-g" font-size="${afs}">`;
            for (let r = r0 - (r0 % rstep); r < r1; r += rstep) s += `<text class="axis row" x="${lw - 5}" y="${th + r * rh + rh / 2}">${r}</text>`;
            return { axis: s + '</g>', tiles: '' };
        },
        // The bank word (bank, bank row) under map point (x, y), and its box (bankcell.js).
        wordAt(px, py) {
            const k = Math.floor((px - lw) / bw), r = Math.floor((py - th) / rh);
            return k >= 0 && k < banks && r >= 0 && r < nRows ? { bank: k, row: r } : null;
        },
        wordRect: (k, r) => [lw + k * bw, th + r * rh, bw, rh],
        fixed: `<g class="axis-g" font-size="${afs}">${bankHead}</g><path class="bankdiv${perBank > 1 ? ' shared' : ''}" d="${div}"/>` +
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
