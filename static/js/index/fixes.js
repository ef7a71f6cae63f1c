// fixes.js - the one-click fix the API offers for a refusal (GET /api/access
// with fit=1 answers {field, value}: the nearest value of the blamed field
// that fits): its button, in words, and the page state it sets. Pure
// (imports under node): it must not search for, or judge, a value itself.

import { esc } from '../kit/esc.js';

// The page state key of each API field a fix can name.
const STATE_KEY = { b: 'b', m: 'm', s: 's', rows: 'rows', bank_bytes: 'bank_bytes', banks: 'banks', match_bank_row: 'match' };

// "Use 16 rows", "Set M to 2": the fix in words; null when the page has no control for it.
export function fixWords(fix) {
    if (!fix || !(fix.field in STATE_KEY)) return null;
    const v = fix.value;
    switch (fix.field) {
    case 'rows': return `Use ${v} rows`;
    case 'bank_bytes': return `Use ${v}-byte banks`;
    case 'banks': return `Use ${v} banks`;
    case 'match_bank_row': return v ? 'Match the row width to the bank row' : 'Untick "match row width"';
    default: return `Set ${fix.field.toUpperCase()} to ${v}`;
    }
}

// The state partial that applies fix.
export function fixState(fix) {
    const k = STATE_KEY[fix.field];
    return k === 'match' ? { match: !!fix.value } : { [k]: String(fix.value) };
}

// The button (the page applies it on click: data-fix-*), or '' when there is none.
export function fixButton(fix, id) {
    const w = fixWords(fix);
    if (!w) return '';
    return `<button type="button" class="btn primary fix-btn" id="${esc(id)}" data-fix-field="${esc(fix.field)}" data-fix-value="${esc(fix.value)}">${esc(w)}</button>`;
}

// The fix a clicked button carries.
export const fixOf = (btn) => ({ field: btn.dataset.fixField, value: Number(btn.dataset.fixValue) });
