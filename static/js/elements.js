// elements.js - element-type notation: which element indices a unit holds and
// how the byte swizzle reads when written over element indices.
// Notation only (sizes of fp32 / fp16 / fp8 and log2 of them); it must not
// compute addresses, banks or costs: those come from the API.

export const ELEMENT_TYPES = [
    { id: '', label: 'Units', bytes: 0 },
    { id: 'fp32', label: 'fp32 (4 B)', bytes: 4, name: 'fp32' },
    { id: 'fp16', label: 'fp16 / bf16 (2 B)', bytes: 2, name: 'fp16/bf16' },
    { id: 'fp8', label: 'fp8 (1 B)', bytes: 1, name: 'fp8' },
    { id: 'bytes', label: 'Raw bytes', bytes: 1, name: 'byte' },
];

export const elementType = (id) => ELEMENT_TYPES.find((e) => e.id === id) || ELEMENT_TYPES[0];

const log2 = (n) => Math.round(Math.log2(n));

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

// The same swizzle over element indices instead of byte offsets:
// Swizzle<B, M - log2(elem bytes), S>, defined only when a unit holds whole elements.
export function elementSwizzle(elemId, b, m, s) {
    const e = elementType(elemId);
    if (!e.bytes) return null;
    const k = log2(e.bytes);
    if (m < k) {
        return { ok: false, text: `no element form: a ${2 ** m}-byte unit splits a ${e.bytes}-byte ${e.name} element (needs M >= ${k})` };
    }
    return { ok: true, text: `Swizzle<${b},${m - k},${s}>`, note: `on ${e.name} element indices (M ${m} - log2(${e.bytes}) = ${m - k})` };
}
