// recommend.js - the scorecard's recommendation (/api/recommend) as HTML: the
// recommended layout with its whole-tile cost, the optimizer's bound and the
// verdict in the API's words, the code to paste for the element type on
// screen, and the three fixes side by side (swizzle, padding, lane schedule).
// Pure (imports under node): it prints the answer; it must not rank or count.

import { esc } from '../kit/esc.js';
import { verdict } from './verdict.js';
import { VERDICT, WARN } from '../kit/classes.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// "16 + 16 instructions, 32 wavefronts (ideal 32)": a layout's totals.
function totals(x) {
    if (x.total_wavefronts === null) {
        const e = (x.write_total && x.write_total.error) || (x.read_total && x.read_total.error) || 'does not run';
        return esc(e);
    }
    const n = (t) => (t.tma ? 'TMA' : String(t.steps));
    return `${plural(x.total_wavefronts, 'wavefront', 'wavefronts')} (ideal ${x.ideal_wavefronts}; ` +
        `${n(x.write_total)} + ${n(x.read_total)} instructions)`;
}

const side = (k, c) => {
    if (!c) return `<span class="fine" data-side="${k}">${k}: TMA, no warp instruction</span>`;
    const v = verdict(c);
    return `<span class="${VERDICT} ${v.cls}" data-side="${k}">${k}: ${esc(v.text)}</span>`;
};

// The code rows of one layout: CuTe, the MMA atom, Triton, TMA, C.
function codeRows(code, idp) {
    const row = (key, label, text, why) => `<dt>${label}</dt><dd id="${idp}-${key}">` +
        (text ? `<pre class="rec-code">${esc(text)}</pre>` : `<span class="fine">none: ${esc(why || 'no such form')}</span>`) + '</dd>';
    return `<dl class="kv rec-codes">` +
        row('cute', 'CuTe', code.cute, code.cute_why) +
        (code.atom ? row('atom', 'MMA atom', code.atom) : '') +
        row('triton', `Triton${code.triton_form ? ` (${esc(code.triton_form)})` : ''}`, code.triton, code.triton_why) +
        row('tma', 'TMA', code.tma, code.tma_why) +
        row('c', 'C', code.c) + '</dl>';
}

// The three fixes, one row each: what, its cost over the tile, its memory, its code.
function fixRows(fixes) {
    const name = { swizzle: 'XOR swizzle', padding: 'Padding', lane_schedule: 'Lane schedule' };
    return fixes.map((f) => {
        const what = f.layout ? `<code>${esc(f.layout.name)}</code>` : '';
        const cost = f.layout ? totals(f) : esc(f.why || '');
        const mem = f.extra_bytes === null ? '' : f.extra_bytes === 0 ? 'none' : `+${f.extra_bytes} bytes`;
        let code = '';
        if (f.fix === 'lane_schedule') {
            const parts = [f.code.write, f.code.read].filter(Boolean);
            code = parts.length ? parts.map((c) => `<pre class="rec-code">${esc(c)}</pre>`).join('') : `<span class="fine">${esc(f.why || '')}</span>`;
        } else if (f.code) {
            code = `<pre class="rec-code">${esc(f.code.c || '')}</pre>` +
                (f.code.triton ? `<pre class="rec-code">${esc(f.code.triton)}</pre>` : '');
        }
        return `<tr data-fix="${esc(f.fix)}"><th scope="row">${name[f.fix] || esc(f.fix)}</th><td>${what}</td>` +
            `<td class="rec-total">${cost}</td><td class="rec-mem">${mem}</td><td>${code}</td></tr>`;
    }).join('');
}

// The whole recommendation, or '' when the layout does not fit (the sides say why).
export function recommendHTML(r) {
    if (r.fits === false) return '';
    const w = r.recommended;
    if (!w && r.why) return `<span class="fine" id="score-rec-why">Recommended: none here: ${esc(r.why.message)}</span>`;
    if (!w) return '<span class="fine">Recommended: no layout runs both patterns on this tile.</span>';
    const tried = `${r.searched.distinct} distinct swizzles of this tile`;
    let head;
    if (w.is_current) {
        head = `<span class="fine">Recommended: the current <code id="score-rec-name">${esc(w.name)}</code> is already the best of ${tried}.</span>`;
    } else {
        const saves = w.saves_wavefronts === null ? '' : ` <span class="fine">${plural(w.saves_wavefronts, 'wavefront', 'wavefronts')} fewer than now over the tile, of ${tried}</span>`;
        const apply = w.kind === 'swizzle' && !w.drawable
            ? '<span class="fine" id="score-rec-nodraw">(no view of this tile draws it: paste the code below)</span>'
            : w.kind === 'swizzle'
            ? `<button type="button" class="btn primary" id="score-rec-apply" data-b="${w.b}" data-m="${w.m}" data-s="${w.s}" data-match="${w.match_bank_row}" data-rows="${r.tile.rows}">Apply ${esc(w.name)}</button>`
            : '';
        head = `<span><b>Recommended:</b> <code id="score-rec-name">${esc(w.name)}</code></span>${saves}${apply}`;
    }
    const t = r.tile;
    const scope = `<p class="fine" id="score-rec-total">Whole tile (${t.rows} rows of ${t.row_bytes} bytes, ${t.element_bits}-bit elements): ${totals(w)}. ` +
        `Worst instruction: ${side('write', w.write_cost)} ${side('read', w.read_cost)}</p>`;
    const b = r.bound;
    const bound = b.expressible
        ? `F2 optimizer's bound: ${plural(b.total, 'wavefront', 'wavefronts')} (ideal ${b.ideal_total})${b.why ? `; ${esc(b.why)}` : ''}`
        : `F2 optimizer: ${esc(b.why)}`;
    const verdictLine = `<p id="score-rec-verdict" class="${w.reaches_bound ? 'fine' : WARN}">${bound}; ${esc(w.verdict)}.</p>`;
    const bases = w.offset_bases ? `<p class="fine">Offset bases (element [row, col] at offset 2^k): <code>${esc(JSON.stringify(w.offset_bases))}</code></p>` : '';
    const code = `<details id="score-rec-code" open><summary>Paste it (${esc(w.code.element_type)})</summary>${codeRows(w.code, 'score-rec')}${bases}</details>`;
    const fixes = `<details id="score-fixes-box" open><summary>Three fixes, side by side</summary>` +
        `<table id="score-fixes" class="rec-fixes"><thead><tr><th>Fix</th><th>Layout</th><th>Write + read, whole tile</th><th>Shared memory</th><th>Code</th></tr></thead>` +
        `<tbody>${fixRows(r.fixes)}</tbody></table></details>`;
    return `<div class="rec-head">${head}</div>${scope}${verdictLine}${code}${fixes}`;
}
