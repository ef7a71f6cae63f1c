// bankchart.js - draws one warp instruction against the banks, as SVG:
// bankChart: banks as columns, each (phase, pass) of the API's lane detail a
// row, each lane a chip over the banks it touches, coloured by phase;
// hitsChart: the API's bank_hits as a histogram on the same columns.
// It lays out what /api/conflicts answered; it must not assign banks or passes.

import { setHTML } from './dom.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

function geometry(banks, availW, big) {
    const lw = big ? 140 : 74;   // presenter: the 24 px "phase·pass" label fits, with a margin
    const bw = clamp(Math.floor((availW - lw - 8) / banks), 10, 40);
    return { lw, bw, W: lw + banks * bw + 4 };
}

// A bank number every column where two digits fit: presenter type is about
// twice as large, so it needs columns about twice as wide (at 26 px its
// numbers 10-31 ran together).
function bankHeader(banks, lw, bw, y, worst, big) {
    const one = big ? 30 : 18, two = big ? 15 : 10;
    const step = bw >= one ? 1 : bw >= two ? 2 : 4;
    let s = '';
    for (let k = 0; k < banks; k += step) {
        const cls = worst.has(k) ? 'axis worst' : 'axis';
        s += `<text class="${cls}" x="${lw + k * bw + bw / 2}" y="${y}">${k}</text>`;
    }
    return s;
}

// The rows: one per (phase, pass) that has an active lane, in phase then pass order.
function rowsOf(cost) {
    const keys = new Map();
    for (const l of cost.lanes) {
        if (!l.active) continue;
        const k = l.phase * 1024 + l.pass;
        if (!keys.has(k)) keys.set(k, { phase: l.phase, pass: l.pass, groups: new Map() });
        const row = keys.get(k);
        const g = l.bank * 256 + l.nbanks;
        if (!row.groups.has(g)) row.groups.set(g, { bank: l.bank, nbanks: l.nbanks, lanes: [] });
        row.groups.get(g).lanes.push(l);
    }
    return [...keys.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

// big: presenter mode (taller rows, larger type).
export function bankChart(el, cost, availW, big = false) {
    const banks = cost.banks;
    const { lw, bw, W } = geometry(banks, availW, big);
    // the header: bank numbers, then the rows' "phase·pass" caption above the
    // frame; presenter type needs more of it (at 34 px the caption ran into
    // the frame and the numbers' tops were cut)
    const th = big ? 60 : 34, rh = big ? 30 : 24, hy = big ? 14 : 10, cy = big ? th - 18 : th - 9;
    const rows = rowsOf(cost);
    const H = th + Math.max(1, rows.length) * rh + 4;
    const worst = new Set(cost.phases.filter((p) => p.reason === 'conflict').map((p) => p.worst_bank));
    const fs = big ? clamp(Math.round(bw * 0.5), 11, 16) : clamp(Math.round(bw * 0.42), 9, 13);
    const parts = [];
    parts.push(`<text class="axis cap" x="${lw - 6}" y="${hy}">bank</text>`);
    parts.push(`<text class="axis cap" x="${lw - 6}" y="${cy}">phase&#183;pass</text>`);
    parts.push(bankHeader(banks, lw, bw, hy, worst, big));
    let div = '';
    for (let k = 1; k < banks; k++) div += `M${lw + k * bw} ${th - 4}V${H - 4}`;
    parts.push(`<path class="bankdiv" d="${div}"/>`);
    rows.forEach((row, i) => {
        const y = th + i * rh;
        if (i > 0 && row.phase !== rows[i - 1].phase) parts.push(`<path class="phasesep" d="M4 ${y}H${W - 2}"/>`);
        parts.push(`<text class="axis row" x="${lw - 6}" y="${y + rh / 2}">${row.phase}&#183;${row.pass}</text>`);
        for (const g of row.groups.values()) {
            const first = g.lanes[0];
            const n = g.lanes.length;
            const label = n > 1 ? `${first.lane}+${n - 1}` : String(first.lane);
            const names = g.lanes.map((l) => l.lane).join(', ');
            const title = (n > 1 ? `lanes ${names}, served together` : `lane ${first.lane}`) +
                `\nbyte offset ${first.offset}${n > 1 ? ' (first lane)' : ''}` +
                `\nbank${g.nbanks > 1 ? `s ${g.bank}..${g.bank + g.nbanks - 1}` : ` ${g.bank}`}` +
                `\nphase ${row.phase}, pass ${row.pass}`;
            // A span past the last bank wraps to bank 0.
            const spans = g.bank + g.nbanks <= banks ? [[g.bank, g.nbanks]] : [[g.bank, banks - g.bank], [0, g.bank + g.nbanks - banks]];
            spans.forEach(([b0, nb], j) => {
                const x = lw + b0 * bw + 1.5, w = nb * bw - 3;
                parts.push(`<g class="chip ph${row.phase % 8}" data-lanes="${names}" data-phase="${row.phase}" data-pass="${row.pass}" data-bank="${b0}" data-nbanks="${nb}">` +
                    `<title>${title}</title><rect x="${x}" y="${y + 2}" width="${w}" height="${rh - 4}" rx="4"/>` +
                    (j === 0 && w >= label.length * fs * 0.62 ? `<text x="${x + w / 2}" y="${y + rh / 2}">${label}</text>` : '') + '</g>');
            });
        }
    });
    if (!rows.length) parts.push(`<text class="axis" x="${lw + banks * bw / 2}" y="${th + rh / 2}">no active lane</text>`);
    parts.push(`<path class="frame" d="M${lw} ${th - 4}h${banks * bw}v${H - th}h${-banks * bw}Z"/>`);
    setHTML(el, `<svg xmlns="${SVGNS}" class="chart bankchart" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-size="${fs}">${parts.join('')}</svg>`);
    return { rows: rows.length };
}

export function hitsChart(el, cost, availW, big = false) {
    const banks = cost.banks, hits = cost.bank_hits;
    const { lw, bw, W } = geometry(banks, availW, big);
    // Room above the tallest bar for its count at the chart's font size
    // (presenter mode's is larger: a fixed 18 px cut its labels in half).
    const fs = big ? clamp(Math.round(bw * 0.5), 11, 16) : clamp(Math.round(bw * 0.4), 9, 12);
    const labelPx = big ? 24 : fs;   // style.css sets presenter charts' text to 24 px
    const top = labelPx + 10, bh = 72, H = top + bh + 22;
    const max = Math.max(1, ...hits);
    const parts = [];
    parts.push(`<text class="axis cap" x="${lw - 6}" y="${top + bh / 2}">hits</text>`);
    for (let k = 0; k < banks; k++) {
        const v = hits[k] || 0;
        const h = Math.round(v / max * bh);
        const x = lw + k * bw + 2, w = bw - 4;
        parts.push(`<rect class="bar${v ? '' : ' zero'}" x="${x}" y="${top + bh - h}" width="${w}" height="${Math.max(h, 1)}" data-bank="${k}" data-hits="${v}"><title>bank ${k}: ${v} lane access${v === 1 ? '' : 'es'}</title></rect>`);
        if (v && bw >= 14) parts.push(`<text class="val" x="${x + w / 2}" y="${top + bh - h - 4}">${v}</text>`);
    }
    parts.push(`<path class="frame" d="M${lw} ${top + bh}h${banks * bw}"/>`);
    parts.push(bankHeader(banks, lw, bw, top + bh + 12, new Set(), big));
    setHTML(el, `<svg xmlns="${SVGNS}" class="chart hitschart" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-size="${fs}">${parts.join('')}</svg>`);
}
