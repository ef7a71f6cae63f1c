// bankcell.js - a cell of a bank map (issue 27.8): which bank word of the
// selected unit a click picked (or the Enter key, stepping through the unit
// by the API's byte ranges), its outline on that map, and the lines that say
// which bytes and elements of the unit the word holds, printed from
// /api/inspect's bank_cell. Where a word is drawn comes from the map's layout
// (maplayout.js); it must not compute addresses, banks, bytes or elements.

import { esc } from '../kit/esc.js';
import { elementType } from './elements.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const WORD = 'bank-word';

export const isBankMap = (el) => !!el && /^banks-/.test(el.id);

// The bank word under pointer event ev on bank map view v: {bank, row}, or null.
export function wordAt(v, ev) {
    if (!v || !v.lay.wordAt) return null;
    const box = v.svg.getBoundingClientRect();
    return v.lay.wordAt(ev.clientX - box.left, ev.clientY - box.top);
}

// The /api/inspect parameters of a pick: {plain, bank, row} or {plain, byte}.
export function pickQuery(pick, elemId) {
    const e = elementType(elemId);
    const at = pick.byte !== undefined ? { byte: pick.byte } : { bank: pick.bank, bank_row: pick.row };
    return { ...at, map: pick.plain ? 'plain' : 'swizzled', elem_bytes: e.bytes || undefined };
}

// The byte Enter goes to next: the first one past this word, as the answer
// counts them (wrapping to the unit's first).
export const nextByte = (bc) => (bc.unit.hi < bc.unit_bytes ? bc.unit.hi : 0);

const range = (lo, hi) => (hi - lo === 1 ? `byte ${lo}` : `bytes ${lo}\u2013${hi - 1}`);
const span = (lo, hi) => (hi - lo === 1 ? `${lo}` : `${lo}\u2013${hi - 1}`);

// The elements of the logical row the bytes belong to, in words.
function elementText(bc, row, elemId) {
    const e = bc.elements, t = elementType(elemId);
    if (!e) return '';
    const name = t.name || `${e.bytes}-byte element`;
    const n = bc.unit.hi - bc.unit.lo;
    if (e.first === e.last && n < e.bytes) return `${range(e.byte_lo, e.byte_lo + n)} of ${name} element ${e.first} of row ${row}`;
    return `${name} element${e.first === e.last ? '' : 's'} ${span(e.first, e.last + 1)} of row ${row}`;
}

/** One line for the card beside the cell: the word, the bytes of the unit, the element. */
export function peekHTML(ins, elemId) {
    const bc = ins.bank_cell;
    if (!bc) return '';
    const el = elementText(bc, ins.logical.row, elemId);
    return `<div class="peek-byte" id="peek-byte">bank <b>${bc.bank}</b> (row ${bc.bank_row}): ${range(bc.word.lo, bc.word.hi)} of its ${bc.bank_bytes} B word = ` +
        `<b>${range(bc.unit.lo, bc.unit.hi)}</b> of the ${bc.unit_bytes} B unit${el ? ` &middot; ${esc(el)}` : ''}</div>`;
}

/** The inspector's "Bank cell" block for the same answer. */
export function inspectorHTML(ins, elemId) {
    const bc = ins.bank_cell;
    if (!bc) return '';
    const other = bc.map === 'plain' ? bc.swizzled : bc.plain;
    const el = elementText(bc, ins.logical.row, elemId);
    return `<div class="banks-line" id="ins-bankcell" data-bank="${bc.bank}" data-bank-row="${bc.bank_row}" data-unit-lo="${bc.unit.lo}" data-unit-hi="${bc.unit.hi}">
  <h3 class="addr-h">Bank cell <small>(${bc.map === 'plain' ? 'without' : 'with'} the swizzle; Enter: the next word)</small></h3>
<dl class="kv">
  <dt>Bank, row</dt><dd id="ins-bc-bank">${bc.bank}, ${bc.bank_row}</dd>
  <dt>In its ${bc.bank_bytes} B word</dt><dd id="ins-bc-word">${range(bc.word.lo, bc.word.hi)}</dd>
  <dt>In the ${bc.unit_bytes} B unit</dt><dd id="ins-bc-unit">${range(bc.unit.lo, bc.unit.hi)}</dd>
  <dt>Physical bytes</dt><dd id="ins-bc-phys">${span(bc.physical.lo, bc.physical.hi)}</dd>
  <dt>Logical bytes</dt><dd id="ins-bc-log">${span(bc.logical.lo, bc.logical.hi)}</dd>
  ${el ? `<dt>Element</dt><dd id="ins-bc-elem">${esc(el)}</dd>` : ''}
  <dt>${bc.map === 'plain' ? 'With' : 'Without'} the swizzle</dt><dd id="ins-bc-other">bank ${other.bank}, row ${other.bank_row}, ${range(other.word.lo, other.word.hi)}</dd>
</dl></div>`;
}

/** Outline the word of answer bc on bank map view v (over the selected unit); null clears. */
export function outline(views, bc) {
    for (const v of views) if (v) for (const e of v.svg.querySelectorAll('rect.' + WORD)) e.remove();
    if (!bc) return;
    const v = views.find((x) => x && x.el.id === (bc.map === 'plain' ? 'banks-plain' : 'banks-swz'));
    if (!v || !v.lay.wordRect || v.selP === null) return;
    const [wx, wy, ww, wh] = v.lay.wordRect(bc.bank, bc.bank_row), [ux, uy, uw, uh] = v.lay.rect(v.selP);
    // The word's part of the unit: all of the word, or the unit inside it.
    const x0 = Math.max(wx, ux), x1 = Math.min(wx + ww, ux + uw), y0 = Math.max(wy, uy), y1 = Math.min(wy + wh, uy + uh);
    if (x1 <= x0 || y1 <= y0) return;
    const r = document.createElementNS(SVGNS, 'rect');
    r.setAttribute('class', WORD);
    for (const [k, val] of [['x', x0 + 2], ['y', y0 + 2], ['width', x1 - x0 - 4], ['height', y1 - y0 - 4], ['rx', 2]]) r.setAttribute(k, val);
    v.svg.appendChild(r);
}
