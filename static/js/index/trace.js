// trace.js - traces one logical column down the grid (up to 32 rows): the physical
// slot and banks of each row without and with the swizzle, and what a warp
// reading that column costs on each, all from one /api/trace answer (one
// lane per row, one access per unit). It must not compute offsets, slots,
// banks or costs: it prints the answer's cells and verdicts.

import * as api from '../kit/api.js';
import { verdict, laneRanges } from './verdict.js';
import { esc } from '../kit/esc.js';
import { stamp } from '../kit/stamps.js';
import { VERDICT, SWATCH, TRACE_VERDICT, INLINE_ERR, key } from '../kit/classes.js';
import { setHTML, setText } from '../kit/dom.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createTrace(ctx) {
    const ui = { col: $('trace-col'), table: $('trace-table-box'), plain: $('trace-plain'), swz: $('trace-swz'), note: $('trace-note'), verdicts: $('trace-verdicts') };
    let seq = 0;
    let data = null;

    function columnOf(st) {
        if (st.tcol !== null && st.tcol !== undefined) return st.tcol;
        return st.sel ? st.sel[1] : 0;
    }
    const column = () => columnOf(ctx.state());

    // Ask ahead what refresh() would need on layout query q (answer d) with state st.
    function prefetch(q, st, d) {
        const c = columnOf(st);
        if (!d || c >= d.grid.cols) return;
        api.prefetch.trace(q, c).catch(() => {});
    }

    // The banks one unit touches, as the answer lists them: "8-11", "5",
    // or "3 (1/4)" when perBank units share a bank word.
    function banksText(u, perBank) {
        if (perBank > 1) return `${u.banks[0]} (1/${perBank})`;
        return laneRanges(u.banks);
    }

    function clear(msg) {
        setHTML(ui.table, msg ? `<p class="fine">${esc(msg)}</p>` : '');
        setHTML(ui.plain, ''); setHTML(ui.swz, '');
        setText(ui.note, '');
        ui.verdicts.hidden = true;
    }

    function showVerdict(el, cost) {
        const v = verdict(cost), cls = `${TRACE_VERDICT} ${v.cls}`;
        if (el.className !== cls) el.className = cls;
        setHTML(el, `<span class="${VERDICT} ${v.cls}">${esc(v.text)}</span>`);
        el.dataset.wavefronts = String(cost.wavefronts);
    }

    async function refresh(d) {
        const my = ++seq;
        data = d;
        if (!d) { clear('Fix the parameters to trace a column.'); return; }
        const g = d.grid;
        const c = column();
        ui.col.max = String(g.cols - 1);
        ui.col.value = String(c);
        if (c >= g.cols) { clear(`Column ${c} is outside this ${g.cols}-column grid.`); return; }
        ui.verdicts.hidden = false;
        try {
            const t = await api.trace(ctx.query(), c);
            if (my !== seq) return;
            let html = '<table class="trace" id="trace-table"><thead><tr><th>Row</th><th>Without swizzle<br><small>slot (row, col) &middot; banks</small></th><th>With swizzle<br><small>slot (row, col) &middot; banks</small></th></tr></thead><tbody>';
            const sw = `<span class="${SWATCH} ${key(t.col)}"></span>`;
            for (const cell of t.cells) {
                const p = cell.plain, s = cell.swizzled;
                html += `<tr data-row="${cell.row}"><td class="num">${cell.row}</td>` +
                    `<td>${sw}(${p.row}, ${p.col}) &middot; ${banksText(p, t.per_bank)}</td>` +
                    `<td>${sw}(${s.row}, <b>${s.col}</b>) &middot; <b>${banksText(s, t.per_bank)}</b></td></tr>`;
            }
            setHTML(ui.table, html + '</tbody></table>');
            setText(ui.note, `A warp in which lane r (r < ${t.rows}) loads ${t.bytes} B from row r of column ${t.col}; the other lanes idle.`);
            showVerdict(ui.plain, t.plain);
            showVerdict(ui.swz, t.swizzled);
        } catch (err) {
            if (my !== seq) return;
            setHTML(ui.table, `<p class="${INLINE_ERR}" id="trace-error">${esc(err.message)}</p>`);
            setText(ui.note, '');
            for (const el of [ui.plain, ui.swz]) {
                el.className = TRACE_VERDICT;
                setHTML(el, '');
                el.dataset.wavefronts = '';
            }
        }
        if (my === seq) stamp('traceReady', my);
    }

    ui.col.addEventListener('change', () => {
        const v = ui.col.value.trim();
        if (!/^\d+$/.test(v)) { ui.col.value = String(column()); return; }
        ctx.set({ tcol: Number(v) }, true);
        ctx.onTrace(Number(v));
        refresh(data);
    });
    return { refresh: (d) => refresh(d), prefetch, column };
}
