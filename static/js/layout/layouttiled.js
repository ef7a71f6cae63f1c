// layouttiled.js - the layout page's tiled-copy and ncu panels: every warp
// instruction of a pasted CuTe tiled copy with its wavefronts (a row picks
// the one the tensor shows), an SS wgmma operand read by descriptor, the
// tile_to_shape offer for a thread layout that does not fit, the "explain my
// ncu number" answer and the menu of the text's launches. It prints the
// API's answers; it must not compute a count or call fetch (layout.js wires them).

import { esc } from '../kit/esc.js';

// The `tiled` member of an /api/layout/access answer as a table; the row of
// `tiled.selected` is marked. Rows carry data-index for the click handler.
export function renderTiled(el, tiled) {
    if (!tiled) { el.innerHTML = ''; return; }
    const t = tiled.totals;
    const head = `<p class="lay-tiled-sum" data-instructions="${tiled.instructions}" data-wavefronts="${t.wavefronts}">` +
        `${esc(tiled.label)}: ${tiled.threads} threads x ${tiled.values} values ${esc(tiled.coords)}, ` +
        `${tiled.values_per_instruction} per lane per instruction, side ${esc(tiled.side)}: ` +
        `<b>${tiled.instructions}</b> warp instructions, <b>${t.wavefronts}</b> wavefronts (ideal ${t.ideal_wavefronts}, ` +
        `${t.bank_conflicts} conflict wavefronts)</p>` + (tiled.note ? `<p class="lay-note">${esc(tiled.note)}</p>` : '');
    const rows = tiled.list.map((r) => `<tr data-index="${r.index}"${r.index === tiled.selected ? ' class="sel"' : ''}>` +
        `<td>${r.index}</td><td>${r.warp}</td><td>${r.step}</td><td>${r.wavefronts}</td><td>${r.ideal_wavefronts}</td>` +
        `<td>${r.bank_conflicts}</td><td>${r.cycles}</td></tr>`).join('');
    el.innerHTML = head + '<table class="lay-tiled"><thead><tr><th>instruction</th><th>warp</th><th>step</th>' +
        '<th>wavefronts</th><th>ideal</th><th>conflicts</th><th>cycles</th></tr></thead><tbody>' + rows + '</tbody></table>';
}

// A fit answer ({fits:false, why, fix}): why it does not fit and, when the
// API has one, the button that applies its fix (data-fix holds the text).
export function renderFix(el, ans) {
    if (!ans || ans.fits !== false) { el.innerHTML = ''; return; }
    const why = `${ans.why.field ? ans.why.field + ': ' : ''}${ans.why.message}`;
    el.innerHTML = `<span class="lay-err">${esc(why)}</span>` + (ans.fix
        ? ` <button type="button" id="lay-fix" data-fix="${esc(ans.fix.value)}">${esc(ans.fix.label)}</button> <code>${esc(ans.fix.value)}</code>`
        : '');
}

// The access line of an operand wgmma reads by descriptor (the API's
// by_descriptor answer): the measured rule's numbers, no lanes.
export function descriptorLine(c) {
    return `<b>${c.wavefronts}</b> wavefronts per warp instruction (${c.warpgroup_wavefronts} per warpgroup wgmma, ` +
        `${c.bytes} bytes of ${esc(c.operand)}) &middot; no bank conflict &middot; wgmma reads it by descriptor, no lane addresses it` +
        `<p class="lay-note">${esc(c.rule)} (measured: ${esc(c.data)}). ${esc(c.note)}</p>`;
}

// The menu of the text's launches ({launches, listed} of an answer): shown
// when there are several, each by its full Kernel Name; the one the answer
// explained (its `launch`) selected, none when it listed only.
export function renderLaunches(sel, ans) {
    const several = ans && ans.launches > 1;
    sel.hidden = !several;
    sel.previousElementSibling.hidden = !several;
    if (!several) { sel.innerHTML = ''; return; }
    const pick = ans.launch === undefined || ans.launch === null ? '' : String(ans.launch);
    sel.innerHTML = `<option value="">pick one of ${ans.launches} launches</option>` +
        ans.listed.map((l) => `<option value="${l.index}"${String(l.index) === pick ? ' selected' : ''}>${l.index}: ${esc(l.kernel)}</option>`).join('') +
        (ans.listed.length < ans.launches ? `<option value="" disabled>(${ans.launches - ans.listed.length} more not listed)</option>` : '');
    sel.value = pick;
}

// The /api/ncu/explain answer, or its error.
export function renderNcu(el, ans, err) {
    if (err) { el.innerHTML = `<span class="lay-err">${esc(err.field ? err.field + ': ' : '')}${esc(err.message)}</span>`; return; }
    if (!ans) { el.innerHTML = ''; return; }
    const n = (x) => (x === null || x === undefined ? '-' : String(x));
    el.innerHTML = `<p class="lay-ncu-verdict" data-verdict="${esc(ans.verdict)}" data-predicted="${n(ans.predicted)}">` +
        `<b>${esc(ans.verdict)}</b>: ${esc(ans.message)}</p>` +
        `<table class="lay-rosetta"><tbody>` +
        `<tr><td>read as</td><td>${esc(ans.form)}${ans.launch === null || ans.launch === undefined ? '' : `, launch ${ans.launch}`}: ${esc(ans.kernel || '-')}</td></tr>` +
        `<tr><td>counter</td><td>${esc(n(ans.conflicts_metric))} = ${n(ans.measured)}</td></tr>` +
        `<tr><td>instructions</td><td>${n(ans.instructions)} (${esc(ans.instructions_from)})</td></tr>` +
        `<tr><td>model</td><td>${n(ans.access.wavefronts)} wavefronts per ${esc(ans.access.unit)}, ideal ${n(ans.access.ideal_wavefronts)}</td></tr>` +
        `<tr><td>predicted</td><td>${n(ans.predicted)}</td></tr><tr><td>left over</td><td>${n(ans.remainder)}</td></tr>` +
        `<tr><td>arbitration</td><td>${n(ans.arbitration)}</td></tr>` +
        (ans.rule ? `<tr><td>from</td><td>ncu's rule text, not a counter: ${esc(ans.rule.name)} (line ${n(ans.rule.line)}): ` +
            `${n(ans.rule.requests)} requests, ${n(ans.rule.bank_conflicts)} bank conflicts, ${n(ans.rule.wavefronts)} wavefronts of ${esc(ans.rule.of)}</td></tr>` : '') +
        `</tbody></table>` +
        `<p>To separate them:</p><pre class="lay-cmd">${esc(ans.command)}</pre>` +
        (ans.rerun ? `<p>To print the section's counters (ncu's details page prints them only with <code>--print-details all</code>):</p>` +
            `<pre class="lay-cmd lay-rerun">${esc(ans.rerun)}</pre>` : '');
}
