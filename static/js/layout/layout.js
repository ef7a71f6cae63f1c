// layout.js - the layout page (layout.html): a pasted CuTe, Triton or TMA
// layout drawn as a tensor by bank or 16-byte chunk, its Rosetta, the
// validators and a named atom's access with the swizzle page's bank charts;
// state in the URL. It must not compute any of it: the API answers all.

import { caretAt } from '../kit/caret.js';
import * as api from '../kit/api.js';
import { esc } from '../kit/esc.js';
import { opBits, setOps, instrChoices } from '../kit/ops.js';
import { bankChart, hitsChart } from '../kit/bankchart.js';
import { bump } from '../kit/stamps.js';
import { INVALID } from '../kit/classes.js';
import { keepDisplay } from '../kit/theme.js';
import { PRESETS, fromQuery, toQuery, layoutBody, accessBody, axes, wantsAccess, ncuBody, ncuListBody } from './layoutstate.js';
import { drawTensor } from './tensorview.js';
import { tmaMeasureInit, tmaMeasureShow } from './tmameasure.js';
import { renderTiled, renderFix, renderNcu, renderLaunches, descriptorLine } from './layouttiled.js';

const $ = (id) => document.getElementById(id);
const FIELDS = { layout: 'lay-text', bits: 'lay-bits', shape: 'lay-shape', base: 'lay-base', desc: 'lay-desc', arch: 'lay-arch', atom: 'lay-atom', origin: 'lay-origin', color: 'lay-color', thread: 'lay-thread', op: 'lay-op', instr: 'lay-instr' };
let state = fromQuery(new URLSearchParams(location.search));
let seq = 0;
let rank = 2;       // the last layout's rank, for the ncu request
// The ncu explanation on show, if any: re-run for each layout drawn (init
// sets it), so that it never speaks of a layout no longer on the page.
let explained = null;

function writeForm() {
    // a link's op that the menu lacks (a bare kind name) is kept as an option
    if (state.op && ![...$('lay-op').options].some((o) => o.value === state.op)) $('lay-op').add(new Option(state.op, state.op));
    for (const [k, id] of Object.entries(FIELDS)) $(id).value = state[k];
    $('lay-swap').checked = state.swap === '1';
}

// The form into `state`; whether that changed it.
function readForm() {
    const thread = state.thread, was = JSON.stringify(state);
    for (const [k, id] of Object.entries(FIELDS)) state[k] = $(id).value;
    if (state.thread !== thread) state.instr = '0';     // another copy: its first instruction
    state.swap = $('lay-swap').checked ? '1' : '';
    return JSON.stringify(state) !== was;
}

function rosettaRows(d) {
    const q = d.equivalents, sw = d.swizzle;
    const rows = [
        ['form', `${d.form}, ${d.element_bits}-bit elements, shape [${d.shape.join(', ')}] (${d.size} elements, first coordinate fastest)`],
        ['swizzle on bytes', sw ? sw.bytes.text : 'none (no Swizzle<B,M,S> form)'],
        ['swizzle on elements', sw ? (sw.elements ? sw.elements.text + ` (${d.element_bits}-bit)` : 'splits an element') : 'none'],
        ['acts on', d.swizzle_domain],
        ['TMA', q.tma ? q.tma + (q.tma_status ? ` (${q.tma_status})` : '') : '-'],
        ['GMMA layout_type (sm90)', q.gmma_layout_type ? `${q.gmma_layout_type.value} (${q.gmma_layout_type.name})` : '-'],
        ['UMMA layout_type (sm100)', q.umma_layout_type ? `${q.umma_layout_type.value} (${q.umma_layout_type.name})` : '-'],
        ['CuTe on the tile\'s bytes', q.cute_bytes || '-'],
        ['Triton swizzled_shared', q.triton_swizzled || '-'],
        ['Triton nvmma_shared', q.triton_nvmma || '-'],
        ['base alignment', `${d.alignment_bytes} bytes`],
        ['one-to-one', d.one_to_one ? 'yes' : `no: ${d.collisions} shared (offset ${d.shared.offset} at [${d.shared.coords.map((c) => c.join(',')).join('] and [')}])`],
        ['span', `${d.span_bytes} bytes`],
    ];
    if (d.address) {
        const a = d.address;
        rows.push(['pointer', `${a.value}: ${a.alignment_bytes}-byte aligned` + (a.swizzle_span_bytes ? `, swizzle span ${a.swizzle_span_bytes} bytes (${a.aligned_to_span ? 'aligned' : 'not aligned'})` : '') +
            (a.swizzle_reads_address ? `, ${a.moved} elements moved by its low bits` : '') + ` - ${a.note}`]);
    }
    if (d.descriptor) {
        const s = d.descriptor;
        rows.push(['descriptor', `${s.arch}: start ${s.start_address}, LBO ${s.leading_byte_offset}, SBO ${s.stride_byte_offset}, base_offset ${s.base_offset}, ${s.layout_name} (${s.tma})`]);
        const w = d.wgmma;
        rows.push(['wgmma reads (measured)', `${w.tile_wavefronts} wavefronts for the tile's ${w.tile_bytes} bytes, ${w.conflicts} conflicts` +
            (w.misread ? `; the descriptor's ${w.misread.descriptor_swizzle} reads ${w.misread.wrong} of ${w.misread.of} elements from the wrong place` : '')]);
    }
    return rows;
}

function renderRosetta(d) {
    $('lay-rosetta').tBodies[0].innerHTML = rosettaRows(d).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('');
    const cells = d.moved_cells.map((c) => `<li>[${c.coords.join(', ')}]: the layout says byte ${c.expected}, the hardware puts it at ${c.actual}</li>`).join('');
    $('lay-flags').innerHTML = d.validators.map((f) => `<li class="lay-flag ${esc(f.severity)}" data-code="${esc(f.code)}">${esc(f.message)}</li>`).join('') +
        (cells ? `<li>first moved cells:<ul>${cells}</ul></li>` : '') + (d.validators.length ? '' : '<li class="lay-flag ok" data-code="none">no validator fired</li>');
}

function renderAccess(cost, err) {
    $('acc-error').textContent = err ? `${err.field ? err.field + ': ' : ''}${err.message}` : '';
    showCaret($('acc-caret'), err, 'thread', state.thread);
    $('acc-verdict').dataset.descriptor = cost && cost.by_descriptor ? '1' : '';
    if (cost && cost.by_descriptor) {     // an SS wgmma operand: no lane access to chart
        $('acc-verdict').innerHTML = descriptorLine(cost);
        $('acc-verdict').dataset.wavefronts = String(cost.wavefronts);
        $('acc-banks').innerHTML = ''; $('acc-hits').innerHTML = '';
        return;
    }
    // No cost: nothing drawn, and no count left from the last one (its stamp
    // would say a number the page no longer shows).
    if (!cost) { $('acc-verdict').textContent = ''; delete $('acc-verdict').dataset.wavefronts; $('acc-banks').innerHTML = ''; $('acc-hits').innerHTML = ''; return; }
    const w = cost.wavefronts, k = cost.ideal_wavefronts;
    $('acc-verdict').innerHTML = `<b>${w}</b> wavefront${w === 1 ? '' : 's'} (ideal ${k}) &middot; ` +
        (w === k ? 'no bank conflict' : `${cost.ways}-way, ${cost.bank_conflicts} conflict wavefront${cost.bank_conflicts === 1 ? '' : 's'}`) +
        ` &middot; ${esc(opBits(cost))}`;
    $('acc-verdict').dataset.wavefronts = String(w);
    const availW = Math.max(480, $('acc-banks').clientWidth || 900);
    bankChart($('acc-banks'), cost, availW);
    hitsChart($('acc-hits'), cost, availW);
}

// A caret under the place an error points at (its `at`, issue 37) in the text
// of the field it names, the layout or the thread layout; hidden for none.
function showCaret(el, e, field, text) {
    const c = e && e.field === field ? caretAt(text || '', e.at) : null;
    el.hidden = !c;
    el.textContent = c ? `${c.line}\n${c.mark} ${c.row > 1 ? `line ${c.row}, ` : ''}column ${c.col}` : '';
}

// On an error, what belongs to the last good text is greyed and marked stale,
// and a caret goes under the place the error points at (issue 27.9).
function stale(on, e) {
    $('lay-results').dataset.stale = on ? '1' : '';
    showCaret($('lay-caret'), on ? e : null, 'layout', state.layout);
}

// push: a choice (a preset, a fix, an instruction of the tiled copy) is a new
// history entry, so that Back and Forward walk through them; an edit under
// way (typing) replaces the current one.
async function load(push = false) {
    const n = ++seq;
    const q = keepDisplay(toQuery(state));   // theme and presenter mode stay (issue 27.6)
    history[push ? 'pushState' : 'replaceState'](null, '', q ? '?' + q : location.pathname);
    let d;
    try {
        d = await api.layout(layoutBody(state));
    } catch (e) {
        if (n !== seq) return;
        $('lay-error').textContent = `${e.field ? e.field + ': ' : ''}${e.message}`;
        $('lay-error').dataset.field = e.field || '';
        for (const id of ['lay-text', 'lay-shape', 'lay-bits', 'lay-base', 'lay-desc']) $(id).classList.toggle(INVALID, FIELDS[e.field] === id || (e.field === 'element_bits' && id === 'lay-bits') || (e.field === 'descriptor' && id === 'lay-desc'));
        renderAccess(null, null);
        stale(true, e);
        bump('ready');
        return;
    }
    if (n !== seq) return;
    stale(false);
    tmaMeasureShow(layoutBody(state), d);
    $('lay-error').textContent = '';
    $('lay-error').dataset.field = '';
    for (const id of ['lay-text', 'lay-shape', 'lay-bits', 'lay-base', 'lay-desc']) $(id).classList.remove(INVALID);
    renderRosetta(d);
    let cost = null, aerr = null;
    rank = d.rank;
    if (wantsAccess(state) && d.rank >= 2) {
        try { cost = await api.layoutAccess(accessBody(state, d.rank)); } catch (e) { aerr = e; }
        if (n !== seq) return;
    }
    // the menu's first entry says what the print itself named, when it did
    $('lay-op').options[0].textContent = cost && cost.op && state.op === '' && state.thread.trim() !== '' && !cost.by_descriptor && cost.fits !== false
        ? `the print's: ${opBits(cost)}` : 'the print\'s (when it names one)';
    renderFix($('acc-fix'), cost);
    if (cost && cost.fits === false) cost = null;
    renderTiled($('acc-tiled'), cost && cost.tiled);
    const ax = axes(d, state.swap === '1');
    const g = drawTensor($('tensor'), d, ax, cost && !cost.by_descriptor ? cost : null, state.color, Math.max(600, $('tensor-wrap').clientWidth || 900));
    $('tensor').dataset.rows = String(g.rows);
    $('tensor').dataset.cols = String(g.cols);
    $('tensor-title').textContent = `Tensor: rows = dim ${ax.rowDim < 0 ? '-' : ax.rowDim}, columns = dim ${ax.colDim}; cells show the ${state.color === 'chunk' ? '16-byte chunk (of its 128-byte row)' : 'bank (32 x 4 bytes)'} of each element` +
        (g.partial ? ` (the first ${g.R} x ${g.C} drawn)` : '') + (d.rank === 3 ? ' (dim 2 = 0)' : '');
    renderAccess(cost, aerr);
    bump('ready');
    if (explained && cost && $('ncu-text').value.trim() !== '') explained();
    else if (explained) $('ncu-out').textContent = cost ? 'No ncu text to explain.' : 'Not explained: this layout\'s access is not costed (see Access above).';
}

async function init() {
    $('lay-presets').innerHTML = PRESETS.map((p) => `<button type="button" data-preset="${p.id}">${esc(p.label)}</button>`).join('');
    $('lay-presets').addEventListener('click', (ev) => {
        const b = ev.target.closest('button[data-preset]');
        if (!b) return;
        const p = PRESETS.find((x) => x.id === b.dataset.preset);
        state = { ...state, layout: p.layout, bits: String(p.bits), shape: p.shape, origin: '0,0', base: '0', desc: '', atom: p.atom ?? 'mma_m16n8k16_a_ldmatrix_x4',
            thread: p.thread || '', op: p.op || '', instr: '0' };
        writeForm();
        load(true);
    });
    try {
        const [{ atoms }, ops] = await Promise.all([api.atoms(), api.ops()]);
        setOps(ops);
        // the op menu for a thread layout whose print names none: the server's
        // kinds (which side of a tiled copy an op uses is the answer's `side`)
        $('lay-op').innerHTML += instrChoices().map((c) => `<option value="${esc(c.value)}">${esc(c.label)}</option>`).join('');
        $('lay-atom').innerHTML = '<option value="">none</option>' + atoms.map((a) => `<option value="${esc(a.name)}" title="${esc(a.source)}">${esc(a.label)} ${esc(a.coords)}</option>`).join('');
    } catch (e) {
        $('acc-error').textContent = e.message;
    }
    tmaMeasureInit();
    writeForm();
    // one click: the layout becomes what the API's tile_to_shape offered;
    // a row of the tiled copy's instructions: draw that one
    const pick = (id, sel, apply) => $(id).addEventListener('click', (ev) => {
        const el = ev.target.closest(sel);
        if (el) { apply(el.dataset); writeForm(); load(true); }
    });
    pick('acc-fix', 'button[data-fix]', (d) => { state.layout = d.fix; });
    pick('acc-tiled', 'tr[data-index]', (d) => { state.instr = d.index; });
    // Explain: the launch picked, if the text holds several; a text of several
    // and none picked lists them (by their full names) in the menu instead
    // (the latest call's answer is the one drawn: a layout drawn meanwhile
    // asks again)
    let asked = 0;
    const explain = async () => {
        const n = ++asked, text = $('ncu-text').value;
        explained = explain;
        try {
            const ans = await api.ncuExplain(ncuBody(state, rank, text, $('ncu-instr').value, $('ncu-launch').value));
            if (n !== asked) return;
            renderLaunches($('ncu-launch'), ans);
            renderNcu($('ncu-out'), ans, null);
        } catch (e) {
            if (n !== asked) return;
            if (e.field === 'launch') {
                try { renderLaunches($('ncu-launch'), await api.ncuExplain(ncuListBody(text))); } catch (_) { /* the first error says it */ }
            }
            renderNcu($('ncu-out'), null, e);
        }
        bump('ncuReady');
    };
    $('ncu-go').addEventListener('click', explain);
    $('ncu-launch').addEventListener('change', explain);
    $('ncu-text').addEventListener('input', () => { $('ncu-launch').value = ''; });
    let timer = 0;
    $('lay-form').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => { readForm(); load(); }, 250); });
    // A field's change after typing that was drawn already (leaving the field,
    // say to click a fix) draws nothing again: redrawing replaced the fix's
    // button under the pointer, and the click was lost.
    $('lay-form').addEventListener('change', () => { clearTimeout(timer); if (readForm()) load(); });
    // Back and Forward: the layout the URL names, as a load of it would draw.
    window.addEventListener('popstate', () => {
        clearTimeout(timer);
        state = fromQuery(new URLSearchParams(location.search));
        writeForm();
        load();
    });
    await load();
}

init();
