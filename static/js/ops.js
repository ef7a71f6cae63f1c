// ops.js - the page's words for a warp instruction, from the server's table
// of instruction kinds (GET /api/ops, installed once by setOps): which kinds
// take matrices, which store, how an op is labelled, and the request bodies
// and query parameters that name one. It must not keep a list of kinds of its
// own, decide validity (the server does) nor compute widths, banks or costs.

let kinds = [];                 // the /api/ops answer's rows, in the server's order
let byName = new Map();

// Install the /api/ops answer ({ops: [...]}); every function below reads it.
export function setOps(answer) {
    kinds = Object.freeze([...((answer && answer.ops) || [])]);
    byName = new Map(kinds.map((k) => [k.name, k]));
}

// Every kind's row, and one kind's (undefined when the server has none).
export const opKinds = () => kinds;
export const opKind = (op) => byName.get(op);

// The request fields the page's instruction form has inputs for (custom.js);
// the kinds whose fields are all among them are the ones its menu offers
// (atom and red also take func and type, which it has no input for yet).
export const FORM_OPERANDS = Object.freeze(['bytes', 'matrices', 'trans']);
export const menuOps = () => kinds.filter((k) => k.operands.every((f) => FORM_OPERANDS.includes(f)));

// Kinds that take `matrices` and `.trans` (ldmatrix / stmatrix); kinds that store.
export const isMatrix = (op) => !!(opKind(op) && opKind(op).matrix);
export const isStore = (op) => !!(opKind(op) && opKind(op).store);
// Kinds that are shared-memory atomics (atom / red).
export const isAtomic = (op) => !!(opKind(op) && opKind(op).atomic);

// "ldmatrix.x4.trans" / "ld": the op as PTX spells the matrix forms.
// c: a cost answer or anything with {op, matrices, trans}.
export function opName(c, withTrans = true) {
    return isMatrix(c.op) ? `${c.op}.x${c.matrices}${withTrans && c.trans ? '.trans' : ''}` : c.op;
}

// The access view's line: "ldmatrix.x4.trans" or "ld, 4 B per lane".
export const opLabel = (c) => (isMatrix(c.op) ? opName(c) : `${c.op}, ${c.bytes} B per lane`);

// The scorecard's short form: "ldmatrix.x4" or "st 16 B".
export const opShort = (c) => (isMatrix(c.op) ? opName(c, false) : `${c.op} ${c.bytes} B`);

// The layout page's form: "ldmatrix.x4.trans" or "ld.32b".
export const opBits = (c) => (isMatrix(c.op) ? opName(c) : `${c.op}.${c.bytes * 8}b`);

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
