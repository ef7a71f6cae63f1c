// selection.js - the selected cell: a click on any map or the arrow keys pick
// a logical (row, col), kept in the URL with the traced column; the maps
// outline it and the inspector shows what /api/inspect answers for it.
// Escape clears both. After a click or an arrow key the answer also shows
// beside the cell (peek.js). It must not compute addresses or slots: the
// inspector prints the API's answer, and the maps place it by the API's arrays.

import * as api from './api.js';
import * as inspector from './inspector.js';
import { stamp } from './stamps.js';

/* ctx: the PageCtx of app.js; maps: maps.js; trace: the trace panel;
 * el: the inspector's body; peek: peek.js. */
export function createSelection(ctx, maps, trace, el, peek) {
    let seq = 0;
    let peekNext = false;   // the selection came from a click or a key: show it by the cell
    let lastView = null;    // the map last clicked: the arrows move on it

    function cleared(hint) {
        peek.hide();
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
        try {
            const ins = await api.inspect(ctx.query(), r, c);
            if (my !== seq || d !== ctx.data()) return;
            const T = d.tile.size, t = ins.tile;
            const tl = t.row_in_tile * T + t.col_in_tile;   // row-major tile position (contract)
            maps.selectTile([tl, d.tile.phys_of[tl]]);
            inspector.render(el, ins, d);
            if (peekNext) peek.show(ins); else peek.hide();
            peekNext = false;
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
        if (traceMoved) trace.refresh(ctx.data());
    }

    function onMapClick(ev) {
        const d = ctx.data(), v = maps.viewOf(ev.currentTarget), cell = v && d ? v.cellAt(ev) : null;
        if (!cell) return;
        const kind = ev.currentTarget.id.startsWith('tile') ? 'tile' : 'grid';
        lastView = ev.currentTarget;
        peek.anchor(ev.currentTarget.id);
        peekNext = true;
        const cols = kind === 'tile' ? d.tile.size : d.grid.cols;
        select([Math.floor(cell.l / cols), cell.l % cols]);
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
        const drawn = neighbourDrawn(ev.target.closest && ev.target.closest('.view') || lastView, r * g.cols + c, mv);
        if (drawn !== null) { ev.preventDefault(); peekNext = true; select([Math.floor(drawn / g.cols), drawn % g.cols]); return; }
        const nr = r + mv[0], nc = c + mv[1];
        if (nr < 0 || nc < 0 || nr >= g.rows || nc >= g.cols) return;
        ev.preventDefault();
        peekNext = true;
        select([nr, nc]);
    }

    // On a grid or bank map (cells numbered by logical unit) the arrows move
    // to the cell drawn next to the selected one, as the eye sees it: on a
    // swizzled map that is a physical neighbour (issue 27.7). Returns its
    // logical unit, or null (no such map, or no cell that way).
    function neighbourDrawn(view, l, [dr, dc]) {
        const v = view && !view.id.startsWith('tile') ? view.mapView : null;
        if (!v) return null;
        const cells = v.drawnCells(), at = cells.find((x) => x.l === l);
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
