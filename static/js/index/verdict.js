// verdict.js - words for one cost answer (/api/conflicts, /api/access .cost):
// the verdict line, cycles next to wavefronts, the calibration note, the
// per-phase table and the Nsight Compute box. It prints the API's numbers;
// it must not count wavefronts, banks or phases itself.

import { esc } from '../kit/esc.js';
import { VERDICT, OK, BAD, DIFFER, SWATCH, phase } from '../kit/classes.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// "0-7", "0-3, 8-11", "none": a lane list as ranges.
export function laneRanges(list) {
    if (!list || !list.length) return 'none';
    const out = [];
    let a = list[0], b = list[0];
    for (let i = 1; i <= list.length; i++) {
        const v = list[i];
        if (v === b + 1) { b = v; continue; }
        out.push(a === b ? String(a) : `${a}-${b}`);
        a = b = v;
    }
    return out.join(', ');
}


// {cls, text}: "conflict-free: 4 wavefronts (ideal 4)" or
// "8-way conflict: 32 wavefronts, ideal 4", for the class the API names
// (verdict_class, server/model/verdict.c): an atomic's extra wavefronts may be bank
// conflicts, same-address serialization, or both.
export function verdict(c) {
    const wf = plural(c.wavefronts, 'wavefront', 'wavefronts');
    const bad = (head) => ({ cls: BAD, text: `${head}: ${wf}, ideal ${c.ideal_wavefronts}` });
    switch (c.verdict_class) {
    case 'not_native': return { cls: BAD, text: `not native (${c.atomic.sass}): no exact count` };
    case 'serialization': return bad('same-address serialization');
    case 'conflict_and_serialization': return bad('bank conflict and same-address serialization');
    case 'conflict_free': return { cls: OK, text: `conflict-free: ${wf} (ideal ${c.ideal_wavefronts})` };
    case 'conflict_free_broadcast': return { cls: OK, text: `conflict-free with broadcast: ${wf} (ideal ${c.ideal_wavefronts})` };
    // the API's n of "n-way": the worst phase's degree
    case 'conflict': return bad(c.ways > 1 ? `${c.ways}-way conflict` : 'bank conflict');
    default: return { cls: BAD, text: `no verdict in the answer (${c.verdict_class})` };
    }
}

const CYCLES_NOTE = 'Cycles are what the shared-memory pipe spends (clock64). ' +
    'A phase in which no lane is active still costs a cycle, but Nsight Compute counts no wavefront for it, ' +
    'so cycles exceed wavefronts for partly active vector accesses.';

// Where the API says its cycles are not exact (cycles_exact: false): an
// atomic's floor or warp-count estimate (atomic.c A10-A14), a cp.async copy
// the hardware counter was seen to read more for (access.c C4). '' otherwise.
function inexactNote(c, idp) {
    let why = '';
    if (c.atomic && c.atomic.native && c.atomic.cycles_exact === false)
        why = c.atomic.warps
            ? `at ${c.atomic.warps} warps a block, ${c.atomic.warps_bound}`
            : 'a floor: the measured rows of this form read more or vary';
    else if (!c.atomic && c.cycles_exact === false)
        why = 'the hardware counter was seen to read more than this for copies like it ' +
            '(a column of rows fed from wide or permuted global sources, or lanes permuted)';
    return why ? `<p class="note" id="${idp}-cycles-inexact"><strong>Cycles not exact</strong> ` +
        `(cycles_exact: false): ${esc(why)}.</p>` : '';
}

// The verdict block: the line, wavefronts and cycles, conflicts, calibration note.
export function verdictHTML(c, idp = 'acc') {
    const v = verdict(c);
    const differ = c.cycles !== c.wavefronts;
    const num = (x) => (x === null || x === undefined ? '&mdash;' : x);
    return `<div class="${VERDICT} ${v.cls}" id="${idp}-verdict">${esc(v.text)}</div>
<dl class="costline">
  <div><dt>Wavefronts</dt><dd id="${idp}-wavefronts">${num(c.wavefronts)}</dd></div>
  <div><dt>Ideal</dt><dd id="${idp}-ideal">${num(c.ideal_wavefronts)}</dd></div>
  <div><dt>Bank conflicts</dt><dd id="${idp}-conflicts">${num(c.bank_conflicts)}</dd></div>
  <div class="cyc${differ ? ` ${DIFFER}` : ''}" title="${esc(CYCLES_NOTE)}"><dt>Cycles <span class="info" aria-hidden="true">i</span></dt><dd id="${idp}-cycles">${num(c.cycles)}</dd></div>
</dl>
${c.atomic ? `<p class="note" id="${idp}-atomic">${esc(c.atomic.verdict)}</p>` : ''}
${inexactNote(c, idp)}<p class="fine" id="${idp}-cycles-note">${differ
        ? `<strong>${plural(c.cycles, 'cycle', 'cycles')} for ${plural(c.wavefronts, 'wavefront', 'wavefronts')}:</strong> `
        : ''}An empty phase (no active lane) costs a cycle but no wavefront.</p>
${c.calibrated ? '' : `<p class="note generalized" id="${idp}-generalized"><strong>Generalized:</strong> the hardware rules applied to your bank row (${c.banks} banks &times; ${c.bank_bytes} B). Only 32 banks of 4 bytes are calibrated against real GPUs.</p>`}`;
}

const REASON = {
    clean: 'one word per bank',
    broadcast: 'lanes share words',
    conflict: 'a bank serves several words',
    merged: 'served with another phase',
    empty: 'no active lane: a cycle, no wavefront',
};

export function phaseTableHTML(c, id = 'acc-phases') {
    const rows = c.phases.map((p, i) => {
        const reason = p.reason === 'merged' ? `merged into ${p.merged_into}` : p.reason;
        return `<tr class="r-${esc(p.reason)}">
  <td><span class="${SWATCH} ${phase(i)}"></span>${i}</td>
  <td class="mono">${laneRanges(p.lanes)}</td>
  <td class="mono">${p.active.length === p.lanes.length ? 'all' : laneRanges(p.active)}</td>
  <td class="num">${p.words}</td><td class="num">${p.max_per_bank}</td><td class="num">${p.worst_bank}</td>
  <td class="num">${p.wavefronts}</td><td class="num">${p.cycles}</td>
  <td class="reason" title="${esc(REASON[p.reason] || '')}">${esc(reason)}</td></tr>`;
    }).join('');
    return `<table class="phases" id="${id}">
<thead><tr><th>Phase</th><th>Lanes</th><th>Active</th><th class="num" title="distinct bank words the phase touches">Words</th>
<th class="num" title="most distinct words any one bank must serve">Max / bank</th><th class="num">Worst bank</th>
<th class="num">Wavefronts</th><th class="num">Cycles</th><th>Why</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td colspan="6">Instruction total</td><td class="num">${c.wavefronts}</td><td class="num">${c.cycles}</td><td></td></tr></tfoot>
</table>`;
}

export function ncuHTML(c, id = 'acc-ncu') {
    const n = c.ncu || {};
    return `<div class="ncu" id="${id}">
  <h3>What Nsight Compute would report <small>per instruction</small></h3>
  <table>
    <tr><td class="metric">${esc(n.wavefronts_metric || '')}</td><td class="num" data-metric="wavefronts">${n.wavefronts_per_instruction}</td></tr>
    <tr><td class="metric">${esc(n.conflicts_metric || '')}</td><td class="num" data-metric="conflicts">${n.conflicts_per_instruction}</td></tr>
${n.source_metric ? `    <tr title="the same wavefronts, counted per SASS instruction (Source page)"><td class="metric">${esc(n.source_metric)}</td><td class="num" data-metric="source">${n.source_wavefronts_per_instruction}</td></tr>` : ''}
  </table>
  <p class="fine">Multiply by the number of warp instructions your kernel issues. ncu's "bank conflicts" is wavefronts minus the ideal.</p>
</div>`;
}
