// peek.js - the inspector's answer where the eye is: after a click (or an
// arrow key) on a map, a small card beside the selected cell with its logical
// and physical position, both addresses and its banks, from the same
// /api/inspect answer the sidebar shows (which may be out of sight). It
// places and fills the card; it must not compute an address or a bank.

import { laneRanges } from './verdict.js';
import { esc } from '../kit/esc.js';
import { peekHTML } from './bankcell.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createPeek(ctx) {
    const el = document.createElement('div');
    el.id = 'peek';
    el.className = 'peek';
    el.setAttribute('role', 'status');
    el.hidden = true;
    document.body.appendChild(el);
    let anchorId = null;   // the map the selection was made on
    let shown = null;      // the /api/inspect answer the card shows, while it shows

    function hide() { shown = null; if (!el.hidden) { el.hidden = true; el.innerHTML = ''; } }

    // ins: the /api/inspect answer for the selection shown on map `id` (the
    // last one clicked when null); nothing when no map was clicked yet.
    function show(ins, id = null) {
        if (id) anchorId = id;
        shown = ins;
        const sel = anchorId && $(anchorId) && $(anchorId).querySelector('rect.sel');
        if (!sel || sel.getAttribute('visibility') !== 'visible') { hide(); return; }
        const b = ins.banks.list;
        el.innerHTML = `<button type="button" class="peek-x" aria-label="Close" title="Close (Escape)">&times;</button>
<div class="peek-pos">logical (${ins.logical.row}, ${ins.logical.col}) &rarr; physical (${ins.physical.row}, ${ins.physical.col})</div>
<div class="peek-addr"><span id="peek-orig">${esc(ins.logical.hex)}</span> &rarr; <b id="peek-swz">${esc(ins.physical.hex)}</b> <small>(${esc(String(ins.physical.addr))})</small></div>
<div class="peek-banks">bank${b.length > 1 ? 's' : ''} <b id="peek-banks">${esc(laneRanges(b))}</b></div>${peekHTML(ins, ctx.state().elem)}`;
        el.hidden = false;
        const r = sel.getBoundingClientRect(), w = el.offsetWidth, h = el.offsetHeight;
        const vw = document.documentElement.clientWidth, vh = window.innerHeight;
        let x = r.right + 10, y = r.top;
        if (x + w > vw - 8) x = Math.max(8, Math.min(r.left, vw - w - 8));
        if (x < r.right && x + w > r.left) y = r.bottom + 10 + h > vh ? r.top - h - 10 : r.bottom + 10;
        y = Math.max(8, Math.min(y, vh - h - 8));
        el.style.left = `${Math.round(x + window.scrollX)}px`;
        el.style.top = `${Math.round(y + window.scrollY)}px`;
    }

    el.addEventListener('click', (e) => { if (e.target.closest('.peek-x')) hide(); });
    // showing(ins): whether the card shows the cell that answer is for
    const showing = (ins) => !!shown && shown.logical.row === ins.logical.row && shown.logical.col === ins.logical.col;
    return { show, hide, showing, anchor: (id) => { anchorId = id; } };
}
