// ops.js - the page's words for a warp instruction: which ops take matrices,
// which store, how an op is labelled, and the request bodies and query
// parameters that name one. Notation only: it must not decide validity (the
// server does) nor compute widths, banks or costs.

export const OPS = Object.freeze(['ld', 'st', 'ldmatrix', 'stmatrix']);

// ldmatrix / stmatrix take `matrices` and `.trans`; ld / st take `bytes`.
export const isMatrix = (op) => op === 'ldmatrix' || op === 'stmatrix';
export const isStore = (op) => op === 'st' || op === 'stmatrix';

// "ldmatrix.x4.trans" / "ld": the op as PTX spells the matrix forms.
// c: a cost answer or anything with {op, matrices, trans}.
export function opName(c, withTrans = true) {
    return isMatrix(c.op) ? `${c.op}.x${c.matrices}${withTrans && c.trans ? '.trans' : ''}` : c.op;
}

// The access view's line: "ldmatrix.x4.trans" or "ld, 4 B per lane".
export const opLabel = (c) => (isMatrix(c.op) ? opName(c) : `${c.op}, ${c.bytes} B per lane`);

// The scorecard's short form: "ldmatrix.x4" or "st 16 B".
export const opShort = (c) => (isMatrix(c.op) ? opName(c, false) : `${c.op} ${c.bytes} B`);

// The /api/conflicts (and /api/measure) body for an instruction: the cost
// answer's own op, width and geometry, with the lanes' offsets. trans: the
// caller's .trans when the answer does not carry it.
export function instrBody(c, offsets, trans = c.trans) {
    const body = { op: c.op, bytes: c.bytes, offsets };
    if (isMatrix(c.op)) { body.matrices = c.matrices; body.trans = !!trans; }
    body.bank_bytes = c.bank_bytes;
    body.banks = c.banks;
    return body;
}

// The instruction parameters of GET /api/access (expr and offsets forms)
// for the page state's op, bytes and matrices (strings as typed).
export function instrQuery(st) {
    return isMatrix(st.op) ? { op: st.op, matrices: st.mats } : { op: st.op, bytes: st.bytes };
}

// The page state's instruction fields for a cost answer (to edit it).
export function instrState(c) {
    return isMatrix(c.op) ? { op: c.op, mats: String(c.matrices), trans: !!c.trans } : { op: c.op, bytes: String(c.bytes) };
}
