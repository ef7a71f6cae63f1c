// readout.js - the layout's numbers at a glance: the unit / tile / grid /
// bank-row stats and the bit strip of a byte offset (which bits are YYY, ZZZ
// and the unit's own), all read off the /api/swizzle answer. It must not
// derive sizes, masks or bit positions: it prints the API's.

import { YYY, ZZZ, UNIT } from '../kit/classes.js';
import { fieldWords } from './slotrule.js';
import { setHTML, setText } from '../kit/dom.js';
import { EDITED } from '../kit/classes.js';

function stat(label, value, sub, id) {
    return `<div><dt>${label}</dt><dd id="${id}">${value}${sub ? ` <small>${sub}</small>` : ''}</dd></div>`;
}

export function renderStats(ui, d) {
    const u = d.unit, g = d.grid, T = d.tile.size;
    const unitSub = u.per_bank > 1 ? `1/${u.per_bank} bank` : `${u.banks_spanned} bank${u.banks_spanned > 1 ? 's' : ''}`;
    setHTML(ui.stats, [
        stat('Unit', `${u.bytes} B`, unitSub, 'stat-unit'),
        stat('Tile', `${T}&times;${T}`, `${d.tile.bytes} B`, 'stat-tile'),
        stat('Grid', `${g.rows}&times;${g.cols}`, `${g.bytes} B`, 'stat-grid'),
        stat('Tiles per row', `${g.tiles_per_row}`, `${g.tile_rows} tile row${g.tile_rows > 1 ? 's' : ''}`, 'stat-tiles'),
        stat('Row width', `${g.row_bytes} B`, `${g.cols} units`, 'stat-row'),
        stat('Bank row', `${d.bank_row_bytes} B`, `${d.params.banks}&times;${d.params.bank_bytes} B`, 'stat-bankrow'),
        stat('Bank rows', `${d.banks_view.rows}`, '', 'stat-bankrows'),
        stat('Masks', `0x${d.masks.yyy.toString(16)}`, `0x${d.masks.zzz.toString(16)}`, 'stat-masks'),
    ].join(''));
    setText(ui.bankRow, `${d.bank_row_bytes} B`);
}

const BITS_SHOWN = 12;   // firstscreen.c writes the same strip

export function renderBitstrip(el, d) {
    const mk = d.masks, m = d.params.m;
    // At least bits 11..0, the span of the 128B preset's fields and two
    // bits more: the usual presets show the same bits, each in its place,
    // so that switching between them moves field borders, not every bit
    // (a reader compares them in place; the browser rewrites a few).
    const top = Math.min(31, Math.max(BITS_SHOWN, Math.max(mk.yyy_hi, mk.zzz_hi, m) + 2));
    let html = '<div class="bits">', prev = null;
    for (let bit = top - 1; bit >= 0; bit--) {
        let cls = 'bit', role = 'x';
        if (bit >= mk.yyy_lo && bit < mk.yyy_hi) { cls += ` ${YYY}`; role = 'Y'; }
        else if (bit >= mk.zzz_lo && bit < mk.zzz_hi) { cls += ` ${ZZZ}`; role = 'Z'; }
        else if (bit < m) { cls += ` ${UNIT}`; role = 'u'; }
        if (prev !== null && role !== prev) cls += ' gap4';   // a gap between fields
        prev = role;
        html += `<div class="${cls}" title="bit ${bit}"><b>${role}</b>${bit}</div>`;
    }
    html += '</div>';
    const yr = mk.yyy_hi > mk.yyy_lo ? `bits [${mk.yyy_lo}, ${mk.yyy_hi})` : 'none';
    const zr = mk.zzz_hi > mk.zzz_lo ? `bits [${mk.zzz_lo}, ${mk.zzz_hi})` : 'none';
    const w = fieldWords(d.slot_rule);   // what the fields are on the grid, by the API's rule
    html += `<div class="legend"><span class="${YYY}">YYY ${yr}: ${w.yyy}</span><span class="${ZZZ}">ZZZ ${zr}: ${w.zzz}</span><span class="${UNIT}">bits [0, ${m}): byte in unit, never moved</span></div>`;
    setHTML(el, html);
}

// ui: {stats, bitstrip, bankRow}: empty them (invalid parameters).
export function clearReadout(ui) {
    setHTML(ui.stats, '');
    setHTML(ui.bitstrip, '');
    ui.bankRow.textContent = '\u2014';
}

// The live readout: the API's name, each parameter in a span of its own so
// that the one being typed (edited: 'b', 'm', 's' or null) is marked. Spans
// only where they spell d.name exactly; else the name as given.
export function renderReadout(el, d, edited) {
    const { b, m, s } = d.params;
    const part = (k, v) => `<span data-p="${k}"${edited === k ? ` class="${EDITED}"` : ''}>${v}</span>`;
    if (d.name !== `Swizzle<${b},${m},${s}>`) { setText(el, d.name); return; }
    setHTML(el, `Swizzle&lt;${part('b', b)},${part('m', m)},${part('s', s)}&gt;`);
}
