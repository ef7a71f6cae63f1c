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

// The layout page's instruction menu for a thread layout whose print names
// none (issue 39 item 6): every kind, at every width the server's table
// gives it (.x1/.x2/.x4 and .trans for the matrix kinds; .ca and .cg at
// each width for the kinds that take `cache`: the server refuses what PTX
// lacks, as cp.async.cg below 16 bytes), as
// [{value, label}]; value is "op/16", "op/16/cg", "op/x4/trans", which
// instrChoiceFields reads back into request fields.
export function instrChoices() {
    const out = [];
    for (const k of kinds) {
        if (k.matrix) {
            for (const m of k.matrices) for (const t of [false, true]) out.push({ value: `${k.name}/x${m}${t ? '/trans' : ''}`, label: `${k.name}.x${m}${t ? '.trans' : ''}` });
            continue;
        }
        const caches = k.operands.includes('cache') ? ['ca', 'cg'] : [''];
        for (const c of caches) {
            for (const b of k.widths) {
                out.push({ value: `${k.name}/${b}${c ? '/' + c : ''}`, label: `${k.name}${c ? '.' + c : ''} ${b} B per lane` });
            }
        }
    }
    return out;
}

// A menu value ("cp.async/16/cg", "ldmatrix/x4/trans", or a bare kind name)
// as the request fields it stands for: {op, bytes?, matrices?, trans?, cache?}.
export function instrChoiceFields(value) {
    const [op, ...rest] = String(value).split('/');
    const f = { op };
    for (const r of rest) {
        if (/^\d+$/.test(r)) f.bytes = Number(r);
        else if (/^x\d$/.test(r)) f.matrices = Number(r.slice(1));
        else if (r === 'trans') f.trans = true;
        else if (r) f.cache = r;
    }
    return f;
}

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
    // cp.async's answer carries its cache and global side: measure the same copy
    if (c.cache !== undefined) body.cache = c.cache;
    if (Array.isArray(c.global_offsets)) body.global_offsets = c.global_offsets;
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
