// linearbanks.js - the F2 workbench's bank view: the memory layout by bank as
// the swizzle page draws it (mapview.js), one side's warp instruction outlined
// phase by phase (marks.js) and charted per phase and pass (bankchart.js), and
// the links opening each side's instruction in the access page. It draws the
// answer's bank_view as given; it must not compute an offset, bank or phase.

import { bankView } from '../kit/mapview.js';
import { bankLayout } from '../kit/maplayout.js';
import { bankChart } from '../kit/bankchart.js';
import { accessMarks } from '../kit/marks.js';
import { accessPageHref } from '../kit/linearstate.js';
import { setHTML, setText, setHidden } from '../kit/dom.js';
import { OK, BAD, SWATCH, phase as phaseClass } from '../kit/classes.js';
import { esc } from '../kit/esc.js';

const $ = (id) => document.getElementById(id);
const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
const SIDES = { st: { key: 'store', name: 'store', layout: 'A' }, ld: { key: 'load', name: 'load', layout: 'B' } };

// The map box's width: the panel's, read once per draw.
const widthOf = (el) => Math.max(240, (el.parentElement || el).clientWidth);

// The options bankLayout (maplayout.js) takes, from the answer's bank_view:
// the same geometry the swizzle page passes for its /api/swizzle answer.
function mapOptions(bv, show, availW) {
    const o = {
        banks: bv.banks, bankRows: bv.shown_rows, unitsPerRow: bv.per_row, rowsPerUnit: 1,
        perBank: bv.per_bank, spanned: bv.banks_spanned, bankOf: bv.bank_of, logOf: bv.log_of, cols: bv.cols,
        unitBytes: bv.element_bits / 8, bankBytes: bv.bank_bytes, availW, kind: 'banks',
        keyOf: show === 'row' ? (l) => Math.floor(l / bv.cols) : null,
    };
    // A tile past 100 columns (rows) labels cells with three digits, which
    // overrun a cell narrower than 20 px (a 128-wide fp16 tile: 14 px); there
    // the cells keep their colour and hover text and drop the number.
    const most = show === 'row' ? bv.elements / bv.cols : bv.cols;
    if (most > 100 && bankLayout(o).rect(0)[2] < 20) Object.assign(o, { label: (k) => (k < 100 ? String(k) : ''), labelMin: 11 });
    return o;
}

// The summary line: which instruction, its wavefronts beside evaluate's.
function summaryHTML(ins, side, reported) {
    const c = ins.cost, s = SIDES[side];
    const same = c.wavefronts === reported;
    return `<b>${s.name[0].toUpperCase() + s.name.slice(1)} of layout ${s.layout}</b>, instruction ${ins.index} of ${ins.instructions} ` +
        `(<code>${esc(ins.op)}</code>, ${plural(ins.bytes, 'byte')} a lane): ` +
        `<b class="lin-bv-wf ${c.wavefronts > c.ideal_wavefronts ? BAD : OK}" data-wf="${c.wavefronts}">${plural(c.wavefronts, 'wavefront')}</b>` +
        ` (ideal ${c.ideal_wavefronts}${c.bank_conflicts ? `, ${c.ways}-way` : ''}); ` +
        `<span class="${same ? OK : BAD}" data-reported="${reported}">${same ? '=' : '\u2260'} ${reported} per instruction above</span>.`;
}

// The phase choices: all, or one of the instruction's phases (a swatch each).
function phaseChoices(phases, chosen) {
    const b = (v, label, sw) => `<button type="button" class="lin-bv-ph" data-ph="${v}" aria-pressed="${String(chosen) === v || (chosen === null && v === '')}">${sw}${label}</button>`;
    return b('', 'all phases', '') + phases.map((p) => b(String(p), `phase ${p}`, `<span class="${SWATCH} ${phaseClass(p)}"></span>`)).join('');
}

/* Draw the bank view of evaluate answer `ans` for view choices st (side,
 * phase, show). Returns {marks, phases} for the stamps. */
export function drawBankView(ans, st) {
    const bv = ans.bank_view, ui = {
        map: $('lin-bv-map'), chart: $('lin-bv-chart'), summary: $('lin-bv-summary'), note: $('lin-bv-note'),
        phases: $('lin-bv-phases'), links: $('lin-bv-links'), chartFig: $('lin-bv-chartfig'),
    };
    setText($('lin-bv-geom'), `${bv.banks} banks \u00d7 ${bv.bank_bytes} bytes, ${bv.per_row} ${bv.element_bits}-bit elements`);
    for (const b of document.querySelectorAll('.lin-bv-side')) b.setAttribute('aria-pressed', String(b.dataset.side === st.side));
    $('lin-bv-show').value = st.show;
    const opts = mapOptions(bv, st.show, widthOf(ui.map));
    const view = bankView(ui.map, opts);
    const notes = [];
    if (opts.label) notes.push(`Cells too narrow for three digits show ${st.show === 'row' ? 'rows' : 'columns'} from 100 up by colour only: hover one for its element.`);
    if (bv.shown < bv.elements) notes.push(`Showing the first ${bv.shown} of ${bv.elements} offsets.`);
    if (view.truncated) notes.push(`Showing the first ${view.truncated} of ${bv.shown_rows} bank rows.`);
    if (bv.per_bank > 1) notes.push(`A ${bv.element_bits}-bit element is 1/${bv.per_bank} of a ${bv.bank_bytes}-byte bank word: ${bv.per_bank} elements share each bank, side by side.`);
    if (bv.banks_spanned > 1) notes.push(`A ${bv.element_bits}-bit element spans ${bv.banks_spanned} banks.`);
    const ins = bv[SIDES[st.side].key];
    let links = 0;
    for (const k of Object.keys(SIDES)) {
        const href = accessPageHref(bv[SIDES[k].key]);
        const a = $(`lin-open-access-${k}`);
        setHidden(a, !href);
        if (href) { a.setAttribute('href', href); links++; }
    }
    // The access page models 32-lane warps; a wave's instruction stays here.
    setHidden($('lin-bv-linkhelp'), !links);
    setHidden($('lin-bv-nolink'), !!links || !ins);
    setHidden(ui.chartFig, !ins);
    setHidden(document.querySelector('.lin-bvbar .seg'), !ins);
    if (!ins) {
        view.mark([]);
        setHTML(ui.summary, `<span class="${BAD}">No instruction to draw.</span>`);
        setHTML(ui.phases, '');
        setHTML(ui.chart, '');
        setText(ui.note, notes.join(' '));
        setHidden(ui.note, !notes.length);
        return { marks: 0, phases: [] };
    }
    const m = accessMarks(ins);
    const ph = st.phase !== null && m.phases.includes(st.phase) ? st.phase : null;
    const marks = ph === null ? m.swz : m.swz.filter((x) => x.ph === ph);
    const drawn = view.mark(marks);
    if (drawn < marks.length) notes.push(`${marks.length - drawn} of the outlined slots lie past the rows drawn.`);
    setHTML(ui.summary, summaryHTML(ins, st.side, ans[SIDES[st.side].key].wavefronts_per_instruction) +
        ` Outlined: ${plural(m.units, 'element slot')} of ${plural(m.lanes, 'lane')} in ${plural(m.phases.length, 'phase')}.` +
        (ins.cost.status ? ` <span class="lin-status warn">${esc(ins.cost.status)}</span>` : ''));
    setHTML(ui.phases, phaseChoices(m.phases, ph));
    bankChart(ui.chart, ins.cost, widthOf(ui.chart));
    setText(ui.note, notes.join(' '));
    setHidden(ui.note, !notes.length);
    return { marks: drawn, phases: m.phases };
}
