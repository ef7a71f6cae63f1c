// kernelptx.js - the kernel page's PTX and CUDA modes (kernel.html?mode=ptx|cuda):
// the launch form from the text's entries, POST /api/ptx's totals, assumptions and
// lines (most excess first), a line's worst warp access in the bank chart and on the
// swizzle page, errors with a caret, and "Measure on GPU" (POST /api/ptx/measure):
// the GPU's counts beside the predicted ones, each line marked equal or flagged.
// It must not compute a count, a bank, an address or an agreement: the API does.

import * as api from '../kit/api.js';
import { esc } from '../kit/esc.js';
import { caretAt } from '../kit/caret.js';
import { bankChart } from '../kit/bankchart.js';
import { bump } from '../kit/stamps.js';
import { keepDisplay } from '../kit/theme.js';
import { BAD, INVALID } from '../kit/classes.js';
import {
    PTX_EXAMPLES, ptxExample, exampleUrl, entriesOf, cudaEntriesOf, paramDefault, fromLocation, toLocation, ptxBody,
    lineKey, byExcess, costliest, worstOf, conflictsBody, swizzlePageHref, baseName,
    measuredLines, measuredKinds, measureSummary, tileOf, recommendView, fixHref,
} from './kernelptxstate.js';

const $ = (id) => document.getElementById(id);
// measured: the last POST /api/ptx/measure answer for `analysed`, the body of the analysis shown
let state, answer = null, exampleText = null, seq = 0, measured = null, analysed = null;
const store = () => 'swz-kernel-' + state.mode;

function writeLocation() {
    const { search, hash, linkable } = toLocation(state, exampleText);
    history.replaceState(null, '', location.pathname + '?' + keepDisplay(search.slice(1)) + hash);
    try { sessionStorage.setItem(store(), state.text || ''); } catch { /* private mode: the hash still has it */ }
    $('kp-link').textContent = linkable ? 'This view is in the page\'s address.' : 'Too long for the address: the text stays in this tab.';
}

// ---- the launch form ----
const DIMS = { block: ['kp-bx', 'kp-by', 'kp-bz'], grid: ['kp-gx', 'kp-gy', 'kp-gz'] };
function putDims(k, v) { const p = String(v).split(','); DIMS[k].forEach((id, i) => { $(id).value = (p[i] ?? '').trim(); }); }
function getDims(k) {
    const p = DIMS[k].map((id) => $(id).value.trim());
    while (p.length > 1 && p[p.length - 1] === '') p.pop();
    return p.join(',');
}

// The kernel menu and one field per parameter of the chosen entry, from the text's declarations.
function buildLaunch() {
    const cuda = state.mode === 'cuda';
    const entries = cuda ? cudaEntriesOf(state.text) : entriesOf(state.text);
    const many = entries.length > 1;
    $('kp-kernel').hidden = !many;
    $('kp-kernel-label').hidden = !many;
    const menu = entries.map((e) => `<option value="${esc(e.name)}">${esc(e.name)}</option>`).join('');
    if ($('kp-kernel').innerHTML !== menu) $('kp-kernel').innerHTML = menu;
    if (many) {
        if (!entries.some((e) => e.name === state.kernel)) state.kernel = entries[0].name;
        $('kp-kernel').value = state.kernel;
    } else if (!entries.some((e) => e.name === state.kernel)) state.kernel = '';
    const e = entries.find((x) => x.name === state.kernel) || entries[0];
    const given = String(state.params).split(',').map((s) => s.trim());
    const ps = e ? e.params : [];
    // Rebuilt only when the declarations change: a text edit must not take
    // away the field the user is moving to.
    const sig = JSON.stringify([state.mode, e || null]);
    if ($('kp-params').dataset.sig === sig) { readForm(); return; }
    $('kp-params').dataset.sig = sig;
    $('kp-params').innerHTML = ps.map((p, i) =>
        `<label for="kp-p${i}"><code>${esc(p.name)}</code> <span class="kp-type">${cuda ? '' : '.'}${esc(p.type)}</span></label>` +
        `<input id="kp-p${i}" class="kp-param" data-i="${i}" value="${esc(given[i] !== undefined && given[i] !== '' && ps.length === given.length ? given[i] : paramDefault(p))}"` +
        ` title="a number, or null for a pointer given its own zero-filled buffer">`).join('') +
        (e ? '' : cuda
            ? '<p class="help">No <code>__global__</code> function found yet: the route\'s defaults (a 64-bit parameter gets its own zero-filled buffer, the others 0).</p>'
            : '<p class="help">No <code>.entry</code> found yet: the route will say what it misses.</p>');
    readForm();
}

function readForm() {
    state.kernel = $('kp-kernel').hidden ? state.kernel : $('kp-kernel').value;
    state.block = getDims('block');
    state.grid = getDims('grid');
    state.params = [...document.querySelectorAll('.kp-param')].map((i) => i.value.trim()).join(',');
    state.dyn = $('kp-dyn').value.trim();
}

// ---- the answer ----
// The launch field the server blamed ("block", "params[2]", ...), or null.
function blamed(field) {
    const m = /^params\[(\d+)\]/.exec(field || '');
    if (m) return $('kp-p' + m[1]);
    const id = { block: 'kp-bx', grid: 'kp-gx', dynamic_shared: 'kp-dyn', kernel: 'kp-kernel', ptx: 'kp-text', cuda: 'kp-text' }[field];
    return id ? $(id) : null;
}

function showError(e) {
    $('kp-error').hidden = false;
    const el = blamed(e.field);
    if (el) el.classList.add(INVALID);
    const where = e.field ? `the ${e.field === 'ptx' || e.field === 'cuda' ? (e.field === 'ptx' ? 'PTX' : 'CUDA source') : `field "${e.field}"`}: ` : '';
    $('kp-error-text').textContent = `The server refused it (${e.status || 'no answer'}): ${where}${e.message}`;
    const c = e.field === state.mode || (e.field === 'ptx' && state.mode !== 'cuda') ? caretAt(state.text, e.at) : null;
    $('kp-caret').hidden = !c;
    $('kp-caret').textContent = c ? `line ${c.row}, column ${c.col}:\n${c.line}\n${c.mark}` : '';
    if (c) {
        const ta = $('kp-text');
        ta.setSelectionRange(c.index, c.index + 1);
        const lh = parseFloat(getComputedStyle(ta).lineHeight) || 15;   // bring the line into view
        ta.scrollTop = Math.max(0, (c.row - 4) * lh);
    }
}

// The GPU's counts and whether they equal the prediction (the route says):
// "=" marked, "≠" flagged, "–" where ncu gave none.
function measuredCells(m, agree) {
    const n = (v) => (v === null || v === undefined ? '–' : v);
    const mark = agree === true ? '<td class="kp-m kp-eq" title="measured equal to the prediction">= equal</td>'
        : agree === false ? '<td class="kp-m kp-ne" title="the GPU counted otherwise">&ne; differs</td>' : '<td class="kp-m help">no counts</td>';
    return m ? `<td class="kp-m">${n(m.executions)}</td><td class="kp-m">${n(m.wavefronts)}</td><td class="kp-m">${n(m.ideal)}</td>${mark}`
        : `<td class="kp-m help" colspan="3">not counted by the GPU</td>${mark}`;
}

function renderTotals() {
    const t = answer.totals;
    // CUDA text names its kernel by its own name; PTX by the entry's
    const name = state.mode === 'cuda' && answer.function ? answer.function : answer.kernel;
    $('kp-title').textContent = `${name}: block ${answer.block.join('x')}, grid ${answer.grid.join('x')}`;
    $('kp-state').innerHTML = (answer.exact
        ? '<strong>Exact</strong>: no unsure point; these are the counts Nsight Compute reports.'
        : `<strong class="${BAD}">Unsure</strong>: ` + (answer.partial ? `stopped early (${esc(answer.stopped || '')}); ` : '') +
          'the counts rest on the points below.') +
        ` ${answer.blocks_run} block${answer.blocks_run === 1 ? '' : 's'} run, ${answer.lane_instructions} lane-instructions.`;
    const mk = measuredKinds(measured);
    $('kp-totals').tHead.innerHTML = `<tr><th>kind</th><th>${measured ? 'predicted executions' : 'executions'}</th><th>wavefronts</th><th>ideal</th><th>excess</th>` +
        (measured ? '<th class="kp-m">measured executions</th><th class="kp-m">wavefronts</th><th class="kp-m">ideal</th><th class="kp-m">on the GPU</th>' : '') + '</tr>';
    // the kinds of the prediction, then any only the GPU counted
    const kinds = [...Object.keys(t), ...[...mk.keys()].filter((k) => !(k in t))];
    $('kp-totals').tBodies[0].innerHTML = kinds.map((k) => {
        const p = t[k], m = mk.get(k);
        const cells = p ? `<td>${p.executions}</td><td>${p.wavefronts}</td><td>${p.ideal}</td><td class="${p.excess > 0 ? BAD : ''}">${p.excess}</td>`
            : '<td colspan="4" class="help">not predicted</td>';
        return `<tr data-kind="${esc(k)}"><td><code>${esc(k)}</code></td>${cells}${measured ? measuredCells(m && m.measured, m ? m.agree : false) : ''}</tr>`;
    }).join('') || `<tr><td colspan="${measured ? 9 : 5}">no shared-memory instruction ran</td></tr>`;
    const items = [
        ...answer.unsure.map((n) => `<li class="${BAD}">unsure, PTX line ${n.ptx_line}: ${esc(n.text)}</li>`),
        ...answer.assumptions.map((n) => `<li>PTX line ${n.ptx_line}: ${esc(n.text)}</li>`),
    ];
    if (answer.notes_left_out) items.push(`<li>${answer.notes_left_out} more not listed</li>`);
    $('kp-assume').innerHTML = items.join('') || '<li>None: every instruction ran as written, nothing ptxas does changes the counts.</li>';
}

function renderLines() {
    const hot = costliest(answer.lines);
    const ml = measuredLines(measured);
    // The source column only where the request had the source (CUDA).
    $('kp-lines').classList.toggle('kp-nosrc', !answer.lines.some((l) => (l.source ?? l.text)));
    $('kp-lines').tHead.innerHTML = `<tr><th>file:line</th><th class="kp-src">source</th><th>kind</th><th>${measured ? 'predicted executions' : 'executions'}</th><th>wavefronts</th><th>ideal</th><th>excess</th>` +
        (measured ? '<th class="kp-m">measured executions</th><th class="kp-m">wavefronts</th><th class="kp-m">ideal</th><th class="kp-m">on the GPU</th>' : '') + '</tr>';
    const rows = byExcess(answer.lines).map((l) => {
        const k = lineKey(l);
        const src = l.source ?? l.text ?? '';
        const m = ml.byKey.get(k);
        const at = l.inlined_at ? ` <span class="help">inlined at ${esc(baseName(l.inlined_at.file))}:${l.inlined_at.line}</span>` : '';
        const cls = [hot.has(k) ? 'hot' : '', k === state.sel ? 'sel' : '', measured ? (m && m.agree ? 'kp-agree' : m && m.agree === null ? '' : 'kp-differ') : ''];
        return `<tr data-key="${esc(k)}" class="${cls.join(' ').trim()}">` +
            `<td title="${esc(l.file)}">${hot.has(k) ? '<span class="kp-hot" title="one of the costliest lines">&#9650;</span> ' : ''}${esc(baseName(l.file))}:${l.line}${at}</td>` +
            `<td class="kp-src">${src ? `<code>${esc(src)}</code>` : '<span class="help">-</span>'}</td><td>${esc(l.kind)}</td>` +
            `<td>${l.executions}</td><td>${l.wavefronts}</td><td>${l.ideal}</td><td class="${l.excess > 0 ? BAD : ''}">${l.excess}</td>` +
            (measured ? measuredCells(m && m.measured, m ? m.agree : false) : '') + '</tr>';
    });
    // lines only the GPU counted: flagged, never clickable (no prediction to open)
    for (const l of ml.only) {
        rows.push(`<tr class="kp-differ kp-gpu-only"><td title="${esc(l.file)}">${esc(baseName(l.file))}:${l.line}</td><td class="kp-src"></td><td>${esc(l.kind)}</td>` +
            `<td colspan="4" class="help">not predicted</td>${measuredCells(l.measured, l.agree)}</tr>`);
    }
    $('kp-lines').tBodies[0].innerHTML = rows.join('') || `<tr><td colspan="${measured ? 11 : 7}">no shared-memory line</td></tr>`;
}

async function renderDetail() {
    const l = answer && state.sel !== null ? answer.lines.find((x) => lineKey(x) === state.sel) : null;
    const ins = l ? worstOf(answer, l) : null;
    $('kp-detail').hidden = !ins;
    if (!ins) return;
    const w = ins.worst;
    $('kp-detail-title').textContent = `${baseName(l.file)}:${l.line}: its worst warp access (PTX line ${ins.ptx_line}, ${ins.opcode})`;
    $('kp-verdict').textContent = `${w.wavefronts} wavefronts where ${w.ideal} would do (${w.op}, ${w.bytes} bytes a lane); ` +
        `the instruction ran ${ins.executions} times for ${ins.wavefronts} wavefronts, ${ins.excess} in excess.`;
    $('kp-verdict').dataset.wavefronts = String(w.wavefronts);
    $('kp-swz').href = swizzlePageHref(w);
    const mine = ++seq;
    const fix = renderFix(l, mine);
    try {
        const cost = await api.conflicts(conflictsBody(w));
        if (mine !== seq) return;
        bankChart($('kp-banks'), cost, Math.max(320, $('kp-detail').clientWidth - 24), document.documentElement.dataset.present === '1');
    } catch (e) {
        if (mine !== seq) return;
        $('kp-banks').textContent = `no bank chart: ${e.message}`;
    }
    await fix;
}

// Where the line's worst access is a step of a tile the recommender knows
// (the answer's "tiles"), its answer for that tile (GET /api/recommend): the
// layout, what a tile's write and read cost under it against the kernel's own.
async function renderFix(l, mine) {
    const tile = tileOf(answer, l);
    $('kp-fix-panel').hidden = !tile;
    if (!tile) return;
    $('kp-fix').textContent = 'Asking the recommender...';
    try {
        const r = await api.recommend(recommendView(tile), tile.write, tile.read);
        if (mine !== seq) return;
        const rec = r.recommended, cur = r.candidates && r.candidates[r.current];
        if (!rec || !cur) throw new Error(r.why ? r.why.message : 'the recommender has no layout for this tile');
        $('kp-fix').textContent = `The tile of ${tile.rows} rows of ${tile.row_bytes} bytes at shared offset ${tile.base} is written as ${tile.write} and read as ${tile.read}. ` +
            `The recommender's layout: ${rec.name}, ` +
            `${rec.write_total.wavefronts} + ${rec.read_total.wavefronts} wavefronts a tile (ideal ${rec.ideal_wavefronts}) against ` +
            `${cur.write_total.wavefronts} + ${cur.read_total.wavefronts} as the kernel lays it out: ${rec.saves_wavefronts} fewer. ` +
            `${rec.verdict.charAt(0).toUpperCase()}${rec.verdict.slice(1)}.`;
        $('kp-fix').dataset.name = rec.name;
        $('kp-fix-link').href = fixHref(tile, rec);
        $('kp-fix-link').hidden = false;
    } catch (e) {
        if (mine !== seq) return;
        $('kp-fix').textContent = `No fix from the recommender: ${e.message}`;
        $('kp-fix-link').hidden = true;
    }
}

async function run() {
    readForm();
    state.text = $('kp-text').value;
    writeLocation();
    $('kp-error').hidden = true;
    for (const el of document.querySelectorAll('#kp-form .' + INVALID)) el.classList.remove(INVALID);
    measured = null;
    $('kp-measure-state').textContent = '';
    $('kp-measure-state').classList.remove(BAD);
    try {
        const body = ptxBody(state);
        answer = await api.ptx(body);
        analysed = body;
    } catch (e) {
        answer = null;
        showError(e);
    }
    for (const id of ['kp-summary-panel', 'kp-lines-panel']) $(id).hidden = !answer;
    if (answer) {
        if (!answer.lines.some((l) => lineKey(l) === state.sel)) state.sel = answer.lines.length ? lineKey(byExcess(answer.lines)[0]) : null;
        renderTotals();
        renderLines();
    } else $('kp-detail').hidden = true;
    writeLocation();
    await renderDetail();
    bump('ready');
}

// "Measure on GPU": the launch of the analysis shown, run by the server's
// measurement tool; its own prediction replaces the shown one (the same
// analysis), so each predicted number sits beside the count it was compared with.
async function measureGpu() {
    if (!analysed) return;
    const btn = $('kp-measure'), st = $('kp-measure-state');
    btn.disabled = true;
    st.classList.remove(BAD);
    st.textContent = 'Running it on the GPU under Nsight Compute (a few seconds)...';
    try {
        const m = await api.ptxMeasure(analysed);
        measured = m;
        answer = m.predicted;
        st.textContent = measureSummary(m);
        st.classList.toggle(BAD, m.compare.agree === false);
    } catch (e) {
        measured = null;
        st.textContent = `Not measured (${e.status || 'no answer'}): ${e.message}`;
        st.classList.add(BAD);
    }
    btn.disabled = false;
    renderTotals();
    renderLines();
    bump('ready');
}

async function loadExample(ex) {
    try {
        exampleText = await api.staticText(exampleUrl(ex, state.mode));
    } catch (e) {
        exampleText = null;
        showError(e);
    }
    return exampleText;
}

export async function initPtx(mode) {
    state = fromLocation(location.search, location.hash);
    state.mode = mode;
    $('kp-main').hidden = false;
    if (mode === 'cuda') {
        $('kp-text-label').textContent = 'CUDA source (compiled by your nvcc, -O3 -lineinfo)';
        $('kp-run').textContent = 'Compile and analyse';
    }
    $('kp-example').innerHTML = '<option value="">(your own text)</option>' +
        PTX_EXAMPLES.map((e) => `<option value="${esc(e.id)}">${esc(e.label)}</option>`).join('');
    const ex = ptxExample(state.ex);
    if (ex) await loadExample(ex);
    if (state.text === null) {
        let kept = null;
        try { kept = sessionStorage.getItem(store()); } catch { /* none */ }
        state.text = ex ? exampleText : kept !== null && kept !== '' ? kept : null;
    }
    if (state.text === null && !ex && !state.ex) {   // a first visit: the first example
        state.ex = PTX_EXAMPLES[0].id;
        const first = PTX_EXAMPLES[0];
        Object.assign(state, { block: first.block, grid: first.grid, params: first.params, dyn: first.dyn });
        state.text = await loadExample(first);
    }
    state.text = state.text || '';
    $('kp-example').value = state.ex || '';
    $('kp-text').value = state.text;
    putDims('block', state.block);
    putDims('grid', state.grid);
    $('kp-dyn').value = state.dyn;
    buildLaunch();

    $('kp-example').addEventListener('change', async () => {
        const e = ptxExample($('kp-example').value);
        if (!e) return;
        Object.assign(state, { ex: e.id, kernel: '', block: e.block, grid: e.grid, params: e.params, dyn: e.dyn, sel: null });
        state.text = (await loadExample(e)) || '';
        $('kp-text').value = state.text;
        putDims('block', state.block);
        putDims('grid', state.grid);
        $('kp-dyn').value = state.dyn;
        buildLaunch();
        run();
    });
    $('kp-text').addEventListener('change', () => {
        state.text = $('kp-text').value;
        if (state.text !== exampleText) { state.ex = null; $('kp-example').value = ''; }
        buildLaunch();
    });
    $('kp-kernel').addEventListener('change', () => { state.kernel = $('kp-kernel').value; state.params = ''; buildLaunch(); });
    $('kp-form').addEventListener('submit', (e) => {
        e.preventDefault();
        if ($('kp-text').value !== exampleText) { state.ex = null; $('kp-example').value = ''; }
        state.sel = null;
        run();
    });
    $('kp-measure').addEventListener('click', measureGpu);
    $('kp-lines').tBodies[0].addEventListener('click', (e) => {
        const tr = e.target.closest('tr[data-key]');
        if (!tr || !answer) return;
        state.sel = tr.dataset.key;
        writeLocation();
        renderLines();
        renderDetail().then(() => bump('ready'));
    });
    await run();
}
