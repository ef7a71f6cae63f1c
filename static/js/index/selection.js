// selection.js - the selected cell: a click or the arrows pick a logical (row,
// col), kept in the URL with the traced column, outlined on the maps, shown by
// the inspector (and beside the cell, peek.js) from /api/inspect; Escape clears.
// On a bank map a click or Enter also picks a bank word of the unit (bankcell.js).
// It must not compute addresses or slots: it prints the API's answer, and the
// maps place it by the API's arrays.

import * as api from '../kit/api.js';
import * as inspector from './inspector.js';
import { stamp } from '../kit/stamps.js';
import { isBankMap, wordAt, pickQuery, nextByte, outline, inspectorHTML } from './bankcell.js';

/* ctx: the PageCtx of app.js; maps: maps.js; trace: () => the trace panel,
 * or null until its module is in (app.js loads it after the first screen);
 * el: the inspector's body; peek: peek.js. */
export function createSelection(ctx, maps, trace, el, peek) {
    let seq = 0;
    let peekNext = false;   // the selection came from a click or a key: show it by the cell
    let lastView = null;    // the map last clicked: the arrows move on it
    let pick = null;        // the bank word picked: {key, d, plain, bank, row | byte}, for that selection and answer only
    let lastIns = null;     // the inspector's last answer (the tile position the arrows move from)
    const bankViews = () => ['banks-plain', 'banks-swz'].map((id) => maps.viewOf(document.getElementById(id)));

    function cleared(hint) {
        peek.hide();
        pick = null; lastIns = null;
        outline(bankViews(), null);
        maps.select(null);
        maps.applyTrace();
        inspector.showHint(el, hint);
        stamp('inspected', '');
    }

    // Show the state's selection on the maps and in the inspector.
    async function show() {
        const my = ++seq;
        const d = ctx.data();
        if (!d) return;
        const g = d.grid, sel = ctx.state().sel;
        if (!sel) { cleared('Click any cell in a tile, grid or bank view to see its address.'); return; }
        const [r, c] = sel;
        if (r >= g.rows || c >= g.cols) { cleared(`Selection (${r}, ${c}) is outside this ${g.rows} x ${g.cols} grid.`); return; }
        maps.applyTrace();
        maps.select(r * g.cols + c);   // the contract's logical unit numbering
        // A bank word picked for this selection, on this answer (a new layout forgets it).
        if (pick && (pick.key !== `${r},${c}` || pick.d !== d)) pick = null;
        try {
            const ins = await api.inspect(ctx.query(), r, c, pick ? pickQuery(pick, ctx.state().elem) : {});
            if (my !== seq || d !== ctx.data()) return;
            const T = d.tile.size, t = ins.tile;
            const tl = t.row_in_tile * T + t.col_in_tile;   // row-major tile position (contract)
            maps.selectTile([tl, d.tile.phys_of[tl]]);
            lastIns = ins;
            inspector.render(el, ins, d);
            if (ins.bank_cell) { el.insertAdjacentHTML('beforeend', inspectorHTML(ins, ctx.state().elem)); pick.next = nextByte(ins.bank_cell); }
            outline(bankViews(), ins.bank_cell || null);
            // By the cell after a click or a key; and again, placed anew, when the
            // maps are drawn again around the same cell (a window resized): a
            // resize's redraw 150 ms after a click hid the card it had just shown.
            if (peekNext || peek.showing(ins)) peek.show(ins); else peek.hide();
            peekNext = false;
            stamp('bankcell', ins.bank_cell ? `${ins.bank_cell.map}:${ins.bank_cell.bank},${ins.bank_cell.bank_row}` : '');
            stamp('inspected', `${r},${c}`);
        } catch (err) {
            if (my !== seq) return;
            inspector.showError(el, err);
            stamp('inspected', '');
        }
    }

    // Select logical cell sel ([row, col] or null) and trace its column.
    function select(sel) {
        const st = ctx.state(), tcol = sel ? sel[1] : null;
        const traceMoved = tcol !== st.tcol;
        ctx.set({ sel, tcol }, true);
        show();
        if (traceMoved && trace()) trace().refresh(ctx.data());   // else it draws the state's column when it loads
    }

    function onMapClick(ev) {
        const d = ctx.data(), v = maps.viewOf(ev.currentTarget), cell = v && d ? v.cellAt(ev) : null;
        if (!cell) return;
        const kind = ev.currentTarget.id.startsWith('tile') ? 'tile' : 'grid';
        lastView = ev.currentTarget;
        peek.anchor(ev.currentTarget.id);
        peekNext = true;
        const cols = kind === 'tile' ? d.tile.size : d.grid.cols;
        const sel = [Math.floor(cell.l / cols), cell.l % cols];
        const w = isBankMap(ev.currentTarget) ? wordAt(v, ev) : null;
        pick = w ? { key: `${sel[0]},${sel[1]}`, d, plain: ev.currentTarget.id === 'banks-plain', bank: w.bank, row: w.row } : null;
        select(sel);
    }

    // Enter on a bank map: the selected unit's next bank word (its first
    // when none is picked), by the byte the last answer says comes next.
    function stepWord(view) {
        const d = ctx.data(), st = ctx.state();
        const sel = st.sel || [0, 0], key = `${sel[0]},${sel[1]}`;
        const byte = pick && pick.key === key && pick.d === d && pick.next !== undefined ? pick.next : 0;
        lastView = view;
        peek.anchor(view.id);
        peekNext = true;
        pick = { key, d, plain: view.id === 'banks-plain', byte };
        if (st.sel) show(); else select(sel);
    }

    function onKey(ev) {
        const d = ctx.data(), st = ctx.state();
        if (!d || ev.altKey || ev.ctrlKey || ev.metaKey) return;
        if (ev.target.closest && ev.target.closest('input, select, textarea, button')) return;
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        if (ev.key === 'Escape') {
            if (st.sel || st.tcol !== null) { ev.preventDefault(); select(null); }
            return;
        }
        const view = ev.target.closest && ev.target.closest('.view');
        if (ev.key === 'Enter' && isBankMap(view)) { ev.preventDefault(); stepWord(view); return; }
        const mv = moves[ev.key];
        if (!mv) return;
        // A focused map with nothing selected: the arrows start at its first cell.
        if (!st.sel) {
            if (!(ev.target.closest && ev.target.closest('.view'))) return;
            ev.preventDefault();
            peek.anchor(ev.target.closest('.view').id);
            peekNext = true;
            select([0, 0]);
            return;
        }
        const [r, c] = st.sel, g = d.grid;
        const onMap = view || lastView, drawn = neighbourDrawn(onMap, mv);
        if (drawn !== null && onMap.id.startsWith('tile')) {
            // A tile map numbers its cells by position in the tile: the
            // neighbour in the same tile of the grid as the selection.
            const T = d.tile.size, t = lastIns && lastIns.tile;
            if (!t) return;
            ev.preventDefault(); peekNext = true;
            select([r - t.row_in_tile + Math.floor(drawn / T), c - t.col_in_tile + (drawn % T)]);
            return;
        }
        if (drawn !== null) { ev.preventDefault(); peekNext = true; select([Math.floor(drawn / g.cols), drawn % g.cols]); return; }
        const nr = r + mv[0], nc = c + mv[1];
        if (nr < 0 || nc < 0 || nr >= g.rows || nc >= g.cols) return;
        ev.preventDefault();
        peekNext = true;
        select([nr, nc]);
    }

    // On every map the arrows move to the cell drawn next to the selected
    // one, as the eye sees it: on a swizzled map that is a physical neighbour
    // (issue 27.7; the tile maps too). Returns its logical number on that map
    // (a grid's or bank map's unit, a tile's position), or null (no such map,
    // nothing selected on it, or no cell that way).
    function neighbourDrawn(view, [dr, dc]) {
        const v = view ? view.mapView : null;
        if (!v || v.selP === null || v.selP === undefined) return null;
        const cells = v.drawnCells(), at = cells.find((x) => x.p === v.selP);
        if (!at) return null;
        const cx = at.x + at.w / 2, cy = at.y + at.h / 2;
        let best = null, bestD = Infinity;
        for (const x of cells) {
            const ox = x.x + x.w / 2 - cx, oy = x.y + x.h / 2 - cy;
            const along = dc ? ox * dc : oy * dr, across = Math.abs(dc ? oy : ox);
            if (along <= 0.5 || across >= (dc ? at.h : at.w) / 2) continue;
            if (along < bestD) { bestD = along; best = x; }
        }
        return best ? best.l : null;
    }

    return { show, select, onMapClick, onKey };
}
