// elements.js - element-type notation: which element indices a unit holds and
// the words for the byte swizzle written over element indices (the form
// itself is the API's: /api/swizzle's "elements", server/model/swizzle.c).
// Notation only (the menu's element sizes); it must not compute swizzles,
// addresses, banks or costs: those come from the API.

export const ELEMENT_TYPES = [
    { id: '', label: 'Units', bytes: 0 },
    { id: 'fp32', label: 'fp32 (4 B)', bytes: 4, name: 'fp32' },
    { id: 'fp16', label: 'fp16 / bf16 (2 B)', bytes: 2, name: 'fp16/bf16' },
    { id: 'fp8', label: 'fp8 (1 B)', bytes: 1, name: 'fp8' },
    { id: 'bytes', label: 'Raw bytes', bytes: 1, name: 'byte' },
];

export const elementType = (id) => ELEMENT_TYPES.find((e) => e.id === id) || ELEMENT_TYPES[0];

// Cell labels for logical column `col` of a row of `unitBytes`-byte units:
// null for plain column numbers, else the index (within the row) of the first
// element the unit holds.
export function cellLabel(elemId, unitBytes) {
    const e = elementType(elemId);
    if (!e.bytes) return null;
    return (col) => String(Math.floor(col * unitBytes / e.bytes));
}

// Hover text: the element range a unit holds (or the part of one element).
export function cellTitle(elemId, unitBytes) {
    const e = elementType(elemId);
    if (!e.bytes) return null;
    if (unitBytes >= e.bytes) {
        const n = unitBytes / e.bytes;
        return (col) => `${e.name} elements ${col * n}..${col * n + n - 1} of the row`;
    }
    const parts = e.bytes / unitBytes;
    return (col) => `1/${parts} of ${e.name} element ${Math.floor(col / parts)} of the row`;
}

// The same swizzle over element indices instead of byte offsets, in words:
// the form the /api/swizzle answer `d` gives for this element size (its
// "elements", Swizzle<B, M - log2(elem bytes), S> where a unit holds whole
// elements), or null for plain units.
export function elementSwizzle(elemId, d) {
    const e = elementType(elemId);
    if (!e.bytes) return null;
    const f = (d.elements || []).find((x) => x.bytes === e.bytes);
    if (!f) return { ok: false, text: `no element form for ${e.bytes}-byte elements in the answer` };
    if (!f.ok) {
        return { ok: false, text: `no element form: a ${d.unit.bytes}-byte unit splits a ${e.bytes}-byte ${e.name} element (needs M >= ${f.needs_m})` };
    }
    return { ok: true, text: f.name, note: `on ${e.name} element indices (M ${d.params.m} - log2(${e.bytes}) = ${f.m})` };
}
