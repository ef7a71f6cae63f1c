// trace.js - traces one logical column down one tile height: the physical
// slot and banks of each row without and with the swizzle (read from the
// /api/swizzle maps) and what a warp reading that column costs on each
// (/api/conflicts, one lane per row, one access per unit). It must not compute
// slots, banks or costs: slot p holds bytes [p * unit, (p + 1) * unit) (contract).

import * as api from './api.js';
import { verdict } from './verdict.js';
import { stamp } from './stamps.js';
import { setHTML, setText } from './dom.js';
import { esc } from './esc.js';

const $ = (id) => document.getElementById(id);
const WIDTHS = [16, 8, 4, 2, 1];

/* ctx: {state(), set(partial, push), onTrace(col)} */
export function createTrace(ctx) {
    const ui = { col: $('trace-col'), table: $('trace-table-box'), plain: $('trace-plain'), swz: $('trace-swz'), note: $('trace-note'), verdicts: $('trace-verdicts') };
    let seq = 0;
    let data = null;

    function columnOf(st) {
        if (st.tcol !== null && st.tcol !== undefined) return st.tcol;
        return st.sel ? st.sel[1] : 0;
    }
    const column = () => columnOf(ctx.state());

    // The two /api/conflicts bodies for column c of layout d: one lane per
    // row reads the first min(unit, 16) bytes of its unit, without and with
    // the swizzle (slot p holds bytes [p * unit, (p + 1) * unit)).
    function bodies(d, c) {
        const g = d.grid, rows = Math.min(d.tile.size, g.rows, 32), unit = d.unit.bytes;
        const plainOffs = [], swzOffs = [];
        for (let r = 0; r < rows; r++) {
            const l = r * g.cols + c;
            plainOffs.push(l * unit);
            swzOffs.push(g.phys_of[l] * unit);
        }
        const bytes = WIDTHS.find((w) => w <= unit) || 1;
        const pad = (o) => o.concat(Array(32 - o.length).fill(null));
        const base = { op: 'ld', bytes, bank_bytes: d.params.bank_bytes, banks: d.params.banks };
        return { rows, bytes, plain: { ...base, offsets: pad(plainOffs) }, swz: { ...base, offsets: pad(swzOffs) } };
    }

    // Ask ahead what refresh(d) would need with state st.
    function prefetch(d, st) {
        const c = columnOf(st);
        if (!d || c >= d.grid.cols) return;
        const b = bodies(d, c);
        api.prefetch.conflicts(b.plain).catch(() => {});
        api.prefetch.conflicts(b.swz).catch(() => {});
    }

    function banksText(d, p) {
        const u = d.unit, b = d.grid.bank_of[p];
        if (u.per_bank > 1) return `${b} (1/${u.per_bank})`;
        return u.banks_spanned > 1 ? `${b}-${b + u.banks_spanned - 1}` : String(b);
    }

    function clear(msg) {
        setHTML(ui.table, msg ? `<p class="fine">${esc(msg)}</p>` : '');
        setHTML(ui.plain, ''); setHTML(ui.swz, '');
        setText(ui.note, '');
        ui.verdicts.hidden = true;
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
        const b = bodies(d, c), rows = b.rows;
        let html = '<table class="trace" id="trace-table"><thead><tr><th>Row</th><th>Without swizzle<br><small>slot (row, col) &middot; banks</small></th><th>With swizzle<br><small>slot (row, col) &middot; banks</small></th></tr></thead><tbody>';
        for (let r = 0; r < rows; r++) {
            const l = r * g.cols + c, p = g.phys_of[l];
            html += `<tr data-row="${r}"><td class="num">${r}</td>` +
                `<td><span class="swatch k${c % 16}"></span>(${r}, ${c}) &middot; ${banksText(d, l)}</td>` +
                `<td><span class="swatch k${c % 16}"></span>(${Math.floor(p / g.cols)}, <b>${p % g.cols}</b>) &middot; <b>${banksText(d, p)}</b></td></tr>`;
        }
        setHTML(ui.table, html + '</tbody></table>');
        setText(ui.note, `A warp in which lane r (r < ${rows}) loads ${b.bytes} B from row r of column ${c}; the other lanes idle.`);
        const show = async (el, body) => {
            try {
                const cost = await api.conflicts(body);
                if (my !== seq) return;
                const v = verdict(cost);
                if (el.className !== `trace-verdict ${v.cls}`) el.className = `trace-verdict ${v.cls}`;
                setHTML(el, `<span class="verdict ${v.cls}">${esc(v.text)}</span>`);
                el.dataset.wavefronts = String(cost.wavefronts);
            } catch (err) {
                if (my !== seq) return;
                el.className = 'trace-verdict';
                setHTML(el, `<span class="inline-err">${esc(err.message)}</span>`);
            }
        };
        await Promise.all([show(ui.plain, b.plain), show(ui.swz, b.swz)]);
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
