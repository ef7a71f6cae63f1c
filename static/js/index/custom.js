// custom.js - the access view's own-instruction form: 32 offsets (logical,
// the API applies the swizzle, or physical, already swizzled) or a lane
// expression in t and r, and the instruction (op, width, matrices, .trans).
// It mirrors the page state into its controls and turns the state into the
// /api/access parameters; it must not compute offsets, swizzles or costs, nor
// judge the text (the server names what it refuses, down to the column).

import { parseOffsets, formatOffsets } from '../kit/offsets.js';
import { isMatrix, instrQuery, menuOps } from '../kit/ops.js';
import { OFF } from '../kit/classes.js';
import { esc } from '../kit/esc.js';
import { caretAt } from '../kit/caret.js';

const $ = (id) => document.getElementById(id);

// The /api/access parameters of state st's custom access (acc 'custom' or
// 'expr'); tokens the server refuses go as typed, so it names them.
export function customParams(st) {
    if (st.acc === 'expr') return { expr: st.expr, steps: st.esteps, ...instrQuery(st) };
    const p = { offsets: formatOffsets(parseOffsets(st.offs).offsets), ...instrQuery(st) };
    if (st.space === 'physical') p.space = 'physical';
    else p.space = 'logical';
    return p;
}

// Is there anything to ask for?
export const hasCustom = (st) => (st.acc === 'expr' ? !!st.expr.trim() : !!st.offs.trim());

// What the answer is called on screen.
export function customLabel(st, name) {
    if (st.acc === 'expr') return `lane expression ${st.expr.trim()}`;
    return st.space === 'physical' ? 'custom offsets, taken as physical (already swizzled)'
        : `custom offsets, taken as logical: ${name} applied`;
}

// The expression with the character the API's error points at (its `at`,
// caret.js) marked and a caret under it, or '' when the error has no `at`.
export function caretHTML(expr, at) {
    const c = caretAt(expr, at);
    if (!c) return '';
    // the caret line goes under the error's line; the lines after it follow
    const i = c.index, first = Array.from(expr.slice(i))[0] || '', ch = first === '\n' ? '' : first;
    const after = expr.slice(i + ch.length), nl = after.indexOf('\n');
    const where = c.row > 1 ? `line ${c.row}, column ${c.col}` : `column ${c.col}`;
    return `${esc(expr.slice(0, i))}<mark id="acc-expr-mark">${esc(ch || ' ')}</mark>${esc(nl < 0 ? after : after.slice(0, nl))}` +
        `\n${esc(c.mark)} ${where}${nl < 0 ? '' : esc(after.slice(nl))}`;
}

export function createCustomForm() {
    const ui = {
        box: $('acc-custom-controls'), offsBox: $('acc-offsets-box'), exprBox: $('acc-expr-box'),
        offsets: $('acc-offsets'), count: $('acc-count'), logical: $('acc-space-logical'), physical: $('acc-space-physical'),
        expr: $('acc-expr'), esteps: $('acc-esteps'), caret: $('acc-expr-caret'),
        op: $('acc-op'), bytes: $('acc-bytes'), mats: $('acc-mats'), trans: $('acc-trans'),
    };

    function updateCount() {
        const n = parseOffsets(ui.offsets.value).count;
        ui.count.textContent = `${n} / 32 values`;
        ui.count.classList.toggle(OFF, n !== 32);
    }

    function sync(st) {
        const custom = st.acc !== '';
        ui.box.hidden = !custom;
        ui.offsBox.hidden = st.acc !== 'custom';
        ui.exprBox.hidden = st.acc !== 'expr';
        if (document.activeElement !== ui.offsets) ui.offsets.value = st.offs.replace(/,/g, ', ');
        if (document.activeElement !== ui.expr) ui.expr.value = st.expr;
        ui.esteps.value = st.esteps;
        ui.logical.checked = st.space !== 'physical';
        ui.physical.checked = st.space === 'physical';
        // The op menu: the server's kinds the form can edit (GET /api/ops).
        if (ui.op.options.length === 0) for (const k of menuOps()) ui.op.add(new Option(k.label, k.name));
        ui.op.value = st.op;
        ui.bytes.value = st.bytes;
        ui.mats.value = st.mats;
        ui.trans.checked = st.trans;
        const matrix = isMatrix(st.op);
        ui.bytes.disabled = matrix;
        ui.mats.disabled = !matrix;
        ui.trans.disabled = !matrix;
        updateCount();
    }

    // The state the form's controls say now.
    function read() {
        return {
            offs: formatOffsets(parseOffsets(ui.offsets.value).offsets), expr: ui.expr.value.trim(),
            esteps: ui.esteps.value.trim() || '1', space: ui.physical.checked ? 'physical' : '',
            op: ui.op.value, bytes: ui.bytes.value, mats: ui.mats.value, trans: ui.trans.checked,
        };
    }

    // The expression error's column under the expression (null: none).
    function showCaret(st, err) {
        const html = err && st.acc === 'expr' && err.field === 'expr' ? caretHTML(st.expr, err.at) : '';
        ui.caret.hidden = !html;
        ui.caret.innerHTML = html;
    }

    /* run(): analyze the form as it reads now. */
    function listen(run) {
        ui.offsets.addEventListener('input', updateCount);
        ui.offsets.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
        ui.expr.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); run(); } });
        for (const e of [ui.op, ui.bytes, ui.mats, ui.trans, ui.logical, ui.physical, ui.esteps]) e.addEventListener('change', run);
    }

    const fields = { op: ui.op, bytes: ui.bytes, matrices: ui.mats, trans: ui.trans, steps: ui.esteps, space: ui.logical };
    // The control an error of the custom form names, or null.
    function controlFor(st, field) {
        if (!field) return null;
        if (field === 'expr') return ui.expr;
        if (field.startsWith('offsets')) return ui.offsets;
        return fields[field] || null;
    }

    return { sync, read, listen, showCaret, controlFor, all: [ui.offsets, ui.expr, ui.esteps, ui.op, ui.bytes, ui.mats, ui.trans] };
}
