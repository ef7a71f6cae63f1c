// kernel.js - the "Your kernel" page (kernel.html): its input switch (?mode=;
// PTX and CUDA in kernelptx.js); in TTGIR mode one part of a dump's shared-memory
// ops from POST /api/ttgir, costliest first, as the instruction Triton emits, per
// warp and per CTA; the op's layouts, its instruction against the banks (POST
// /api/conflicts or /api/linear/evaluate), the fix as TTGIR, workbench links.
// It must not compute any of it: it prints the API's answers.

import * as api from '../kit/api.js';
import { esc } from '../kit/esc.js';
import { bankChart } from '../kit/bankchart.js';
import { bump } from '../kit/stamps.js';
import { keepDisplay } from '../kit/theme.js';   // on import it reads ?theme= and ?present= and adds their controls
import { initPtx } from './kernelptx.js';
import { EXAMPLES, exampleById, fromLocation, toLocation, ranked, workbenchHref, evaluateBody, ttgirBody, partLabel } from './kernelstate.js';

const $ = (id) => document.getElementById(id);
let state = fromLocation(location.search, location.hash);
let answer = null;
let seq = 0;

function writeLocation() {
    const { search, hash, linkable } = toLocation(state);
    const q = keepDisplay(search.replace(/^\?/, ''));
    history.replaceState(null, '', location.pathname + (q ? '?' + q : '') + hash);
    $('krn-link').textContent = linkable ? 'This view is in the page\'s address.' : 'Too long to keep in the address: the text stays in this tab only.';
}

function renderOps() {
    const tbody = $('krn-ops').tBodies[0];
    if (!answer) { tbody.innerHTML = ''; return; }
    tbody.innerHTML = ranked(answer.ops).map(({ op, i }) => {
        const bad = op.wavefronts_per_instruction > op.ideal;
        const tc = op.triton_bank_conflicts === null ? '-' : op.triton_bank_conflicts;
        return `<tr data-i="${i}" class="${i === state.sel ? 'sel' : ''}"><td>${op.line}</td><td>${esc(op.op)}</td>` +
            `<td>${op.shape.join('x')}</td><td>${op.element_bits}</td><td><code>${esc(op.instruction.name)}</code> ${op.vector_elems} (${op.bytes_per_lane} B)</td>` +
            `<td class="${bad ? 'bad' : ''}">${op.wavefronts_per_instruction} / ${op.ideal}</td><td>${op.instructions_per_warp} (${op.instructions_per_cta})</td>` +
            `<td class="${bad ? 'bad' : ''}">${op.conflict_wavefronts_per_warp}</td><td>${tc}</td>` +
            `<td>${op.buffer}${op.buffer_value ? ' ' + esc(op.buffer_value) : ''}</td><td>${op.conflict_wavefronts_per_cta}</td></tr>`;
    }).join('');
    $('krn-summary').textContent = `${answer.ops.length} ops costed on ${answer.num_banks} banks` +
        (answer.target ? ` (${answer.target})` : ` (assumed: ${answer.target_assumed})`) +
        (answer.num_warps ? `, ${answer.num_warps} warps (${answer.warps_from})` : `, warps from ${answer.warps_from}`) +
        `; ${answer.skipped.length} skipped. ${answer.source}.`;
    $('krn-skipped').innerHTML = answer.skipped.map((s) =>
        `<li>line ${s.line}: <code>${esc(s.op)}</code> skipped: ${esc(s.reason)}</li>`).join('');
}

// The convert_layout ops: each side as the API costs it, or why no shared memory.
function renderConverts() {
    const cv = answer ? answer.converts : [];
    $('krn-cvt-panel').hidden = cv.length === 0;
    const side = (s) => `<code>${esc(s.instruction)}</code>, ${s.wavefronts_per_instruction} / ${s.ideal}, ${s.instructions_per_warp} (${s.instructions_per_cta})`;
    $('krn-cvts').tBodies[0].innerHTML = cv.map((c) => `<tr><td>${c.line}</td><td>${c.shape.join('x')}</td><td>${c.element_bits}</td>` +
        (c.through_shared ? `<td>yes</td><td>${side(c.store)}</td><td>${side(c.load)}</td>`
            : `<td colspan="3">no: ${esc(c.reason)}</td>`) + '</tr>').join('');
}

// The part picker: shown when the text has more than one part.
function renderParts() {
    const parts = answer ? answer.parts : [];
    $('krn-part-box').hidden = parts.length < 2;
    $('krn-part').innerHTML = parts.map((p) => `<option value="${p.index}">${esc(partLabel(p))}</option>`).join('');
    if (answer) $('krn-part').value = String(answer.part);
}

function kv(rows) {
    $('krn-layouts').tBodies[0].innerHTML = rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`).join('');
}

function renderFix(op) {
    const f = op.fix;
    if (!f || f.ttgir === null) {
        $('krn-fix').innerHTML = `<p>${esc(f ? f.reason : 'none')}</p>`;
        return;
    }
    const pair = `written on line ${f.store_line ?? '-'}, read on line ${f.load_line ?? '-'}`;
    const need = f.needed ? '' : '<p>This buffer is already conflict-free for its writer and reader; the layout below is an equally good one.</p>';
    $('krn-fix').innerHTML = need +
        `<p>For the buffer ${esc(pair)}: a ${esc(f.form)} with ${f.vector_elems}-element vectors; ` +
        `stores ${f.store.wavefronts_per_instruction} wavefronts per instruction (ideal ${f.store.ideal}, ${esc(f.store.instruction)}), ` +
        `loads ${f.load.wavefronts_per_instruction} (ideal ${f.load.ideal}, ${esc(f.load.instruction)}).</p>` +
        (f.load.loses_ldmatrix ? `<p>On this layout Triton would load with ld.shared, not ldmatrix: ${esc(f.load.loses_ldmatrix)}.</p>` : '') +
        (f.store.loses_stmatrix ? `<p>On this layout Triton would store with st.shared, not stmatrix: ${esc(f.store.loses_stmatrix)}.</p>` : '') +
        `<pre class="krn-fixtext" id="krn-fixtext">${esc(f.ttgir)}</pre>` +
        '<button type="button" class="btn" id="krn-copy">Copy</button> ' +
        `<a href="${esc(workbenchHref(op, 'fix'))}">Open the fix in the F2 workbench</a>`;
    $('krn-copy').addEventListener('click', () => navigator.clipboard && navigator.clipboard.writeText(f.ttgir));
}

async function renderDetail() {
    const op = answer && state.sel !== null ? answer.ops[state.sel] : null;
    $('krn-detail').hidden = !op;
    if (!op) { bump('ready'); return; }
    $('krn-detail-title').textContent = `Line ${op.line}: ${op.op}`;
    kv([
        ['distributed', `<code>${esc(op.distributed.text)}</code> (${esc(op.distributed.encoding)}, ${op.distributed.lanes_per_warp} lanes, ${op.distributed.warps} warps)`],
        ['shared', `<code>${esc(op.shared.text)}</code> (${esc(op.shared.encoding)})`],
        ['instruction', `<code>${esc(op.instruction.name)}</code>: ${esc(op.instruction.rule)}` +
            (op.instruction.not_ldmatrix ? `; not ldmatrix: ${esc(op.instruction.not_ldmatrix)}` : '') +
            (op.instruction.not_stmatrix ? `; not stmatrix: ${esc(op.instruction.not_stmatrix)}` : '') +
            (op.instruction.assumed ? `; assumed: ${esc(op.instruction.assumed)}` : '')],
        ['access', `${esc(op.access)}: ${op.vector_elems} elements (${op.bytes_per_lane} bytes) a lane, ${op.lanes_per_wavefront} lanes; ` +
            `${op.instructions_per_warp} instructions per warp, ${op.instructions_per_cta} per CTA of ${op.warps} warps`],
        ['this tool', `${op.wavefronts_per_instruction} wavefronts per instruction, ideal ${op.ideal} (${esc(op.model)}); ` +
            `${op.wavefronts_per_warp} per warp, ${op.wavefronts_per_cta} per CTA`],
        ['Gluon\'s bank_conflicts', (op.triton_bank_conflicts === null ? 'not defined for this layout' : String(op.triton_bank_conflicts)) +
            ` (${esc(op.triton_bank_conflicts_unit)})`],
    ]);
    $('krn-wb').href = workbenchHref(op, 'current');
    renderFix(op);
    const mine = ++seq;
    try {
        // an ldmatrix: its costliest instruction's rows as the API gives them; ld/st: the F2 view
        let cost, label;
        if (op.conflicts_request) {
            cost = await api.conflicts(op.conflicts_request);
            label = `${op.instruction.name}, its costliest instruction`;
        } else {
            const ev = await api.linearEvaluate(evaluateBody(op));
            const side = op.access === 'store' ? ev.bank_view.store : ev.bank_view.load;
            cost = side.cost;
            label = `instruction ${side.index}`;
        }
        if (mine !== seq) return;
        $('krn-verdict').textContent = `${label}: ${cost.wavefronts} wavefronts, ideal ${cost.ideal_wavefronts}`;
        $('krn-verdict').dataset.wavefronts = String(cost.wavefronts);
        bankChart($('krn-banks'), cost, Math.max(320, $('krn-detail').clientWidth - 24));
    } catch (e) {
        if (mine !== seq) return;
        $('krn-verdict').textContent = `no bank view: ${e.message}`;
        $('krn-banks').innerHTML = '';
    }
    bump('ready');
}

async function run() {
    state.text = $('krn-text').value;
    writeLocation();
    $('krn-error').textContent = '';
    try {
        answer = await api.ttgir(ttgirBody(state));
    } catch (e) {
        answer = null;
        $('krn-error').textContent = e.message;
    }
    renderParts();
    renderConverts();
    if (answer && (state.sel === null || state.sel >= answer.ops.length))
        state.sel = answer.ops.length ? ranked(answer.ops)[0].i : null;
    writeLocation();
    renderOps();
    renderDetail();
}

function init() {
    const mode = new URLSearchParams(location.search).get('mode');
    for (const a of document.querySelectorAll('.krn-modes a[data-mode]')) {
        const on = a.dataset.mode === (['ptx', 'cuda'].includes(mode) ? mode : 'ttgir');
        a.href = '?' + keepDisplay('mode=' + a.dataset.mode);
        a.classList.toggle('on', on);
        if (on) a.setAttribute('aria-current', 'page');
    }
    if (mode === 'ptx' || mode === 'cuda') {
        $('krn-ttgir-main').hidden = true;
        initPtx(mode);
        return;
    }
    $('krn-example').innerHTML = '<option value="">(your own text)</option>' +
        EXAMPLES.map((e) => `<option value="${esc(e.id)}">${esc(e.label)}</option>`).join('');
    $('krn-example').value = state.ex || '';
    $('krn-text').value = state.text;
    $('krn-example').addEventListener('change', () => {
        const ex = exampleById($('krn-example').value);
        if (!ex) return;
        state = { text: ex.text, sel: null, ex: ex.id, part: null };
        $('krn-text').value = ex.text;
        run();
    });
    $('krn-form').addEventListener('submit', (e) => { e.preventDefault(); state.ex = null; state.sel = null; state.part = null; run(); });
    $('krn-part').addEventListener('change', () => { state.part = Number($('krn-part').value); state.sel = null; run(); });
    $('krn-ops').tBodies[0].addEventListener('click', (e) => {
        const tr = e.target.closest('tr[data-i]');
        if (!tr) return;
        state.sel = Number(tr.dataset.i);
        writeLocation();
        renderOps();
        renderDetail();
    });
    run();
}

init();
