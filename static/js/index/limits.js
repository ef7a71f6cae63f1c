// limits.js - the ranges the API accepts for a map's parameters, as GET
// /api/presets' `limits` gives them (server/base/bits.h): the controls take their
// min, max and menus from here and hints.js its words. It must not write a
// range of its own: before setLimits nothing is known.

let current = null;

// Keep the answer's `limits` object ({b: {min, max}, ..., banks: {min, max, pow2}}).
export function setLimits(l) { current = l || null; }

// The kept limits, or null before setLimits.
export function limits() { return current; }

// "lo..hi" for a field the limits name, or null.
export function rangeText(field) {
    const r = current && current[field];
    return r ? `${r.min}..${r.max}` : null;
}

// The menu anew: the server may have written it (firstscreen.c).
function fillPow2Select(sel, { min, max }) {
    sel.replaceChildren();
    for (let v = min; v <= max; v *= 2) sel.add(new Option(String(v), String(v)));
}

// The kept ranges on the controls: the two bank menus, and min/max on each of
// the number inputs ui[k] for k in `numbers`.
export function applyLimits(ui, numbers) {
    if (!current) return;
    fillPow2Select(ui.bank_bytes, current.bank_bytes);
    fillPow2Select(ui.banks, current.banks);
    for (const k of numbers) { ui[k].min = String(current[k].min); ui[k].max = String(current[k].max); }
}
