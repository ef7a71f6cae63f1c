// api.js - the page's only door to the server: every fetch lives here.
// Returns the parsed JSON body, or throws ApiError carrying the contract's
// {code, field, message} and `at`. It must not interpret the model's numbers.
//
// Answers are kept in memory: the model has no state, so the answer to a
// request (a GET's URL) never changes while the page
// is open. prefetch.* asks ahead, in the page's idle time, for what the next
// control change will need; the change then draws from memory instead of
// waiting on a round trip. 4xx answers are kept too (the same request is
// refused the same way); unreachable, 5xx and /api/measure never are.

import { stamp } from './stamps.js';

export class ApiError extends Error {
    constructor(status, code, field, message, at = null) {
        super(message);
        this.name = 'ApiError';
        this.status = status;   // HTTP status, 0 when the server was not reached
        this.code = code;
        this.field = field;     // parameter the server blamed, or null
        this.at = at;           // {line, column} in that field's text, or null (issue 37)
    }
}

// The page's own requests on the wire (prefetches aside), stamped so that a
// test can wait for the page to finish its work before it navigates away.
let inflight = 0;

// p counts as in flight until it settles: the page's own requests (request
// below), and work whose end sends some (a module loading: app.js's extras),
// so that nothing in flight never reads true just before they go out.
// Returns p.
export function holding(p) {
    stamp('inflight', ++inflight);
    const done = () => stamp('inflight', --inflight);
    p.then(done, done);
    return p;
}

// The page's own requests count as in flight; asking ahead does not.
function request(path, init) {
    const p = exchange(path, init);
    return init.headers && init.headers['X-Swz-Prefetch'] ? p : holding(p);
}

async function exchange(path, init) {
    let res;
    try {
        res = await fetch(path, { cache: 'no-store', ...init });
    } catch (e) {
        throw new ApiError(0, 'unreachable', null, 'cannot reach the swizzlescope server (' + e.message + ')');
    }
    // A prefetch the server refuses comes back 204 with the status it would
    // have had (see README, "Prefetches"): not kept, so that the page's own
    // request, if the user goes there, gets the full error.
    const refused = res.status === 204 && res.headers.get('X-Swz-Refused');
    if (refused) throw new ApiError(Number(refused) || 400, 'refused_prefetch', null, 'refused (asked ahead)');
    let text = '', body = null;
    try {
        text = await res.text();
        body = JSON.parse(text);
    } catch {
        throw new ApiError(res.status, 'bad_response', null,
            `the server answered ${res.status} ${res.statusText} without a JSON body`);
    }
    if (!res.ok || (body && body.error)) {
        const e = (body && body.error) || {};
        throw new ApiError(res.status, e.code || 'http_' + res.status, e.field ?? null,
            e.message || res.statusText || 'request failed', e.at ?? null);
    }
    return { body, size: text.length };
}

// ---------- the memory ----------
const MAX_ENTRIES = 600;
const MAX_BYTES = 48 << 20;        // of JSON text; the oldest answers go first
const memo = new Map();            // key -> {p, by: 'page' | 'prefetch', settled, size}
let bytes = 0;
// Where the page's own requests (not the prefetches) were answered from:
// network (asked now), prefetch (an answer asked ahead, already here),
// prefetchWait (asked ahead, still on the wire), memory (asked before by the page).
const tally = { network: 0, prefetch: 0, prefetchWait: 0, memory: 0 };

const keep = (err) => err instanceof ApiError && err.status >= 400 && err.status < 500 && ![408, 409, 429].includes(err.status) &&
    err.code !== 'refused_prefetch';

function trim() {
    for (const [k, e] of memo) {
        if (memo.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
        if (!e.settled) continue;
        memo.delete(k);
        bytes -= e.size;
    }
}

function remembered(key, load, prefetch) {
    let e = memo.get(key);
    if (e) {
        memo.delete(key);          // most recently used last
        memo.set(key, e);
        if (!prefetch) {
            if (e.by === 'prefetch') { tally[e.settled ? 'prefetch' : 'prefetchWait']++; e.by = 'page'; }
            else tally.memory++;
        }
        return e.p;
    }
    if (!prefetch) tally.network++;
    e = { p: null, by: prefetch ? 'prefetch' : 'page', settled: false, size: 0 };
    e.p = load(prefetch).then(({ body, size }) => {
        e.settled = true;
        if (memo.get(key) === e) { e.size = size; bytes += size; trim(); }
        return body;
    }, (err) => {
        e.settled = true;
        if (memo.get(key) === e && !keep(err)) memo.delete(key);
        throw err;
    });
    memo.set(key, e);
    trim();
    return e.p;
}

// A prefetch says so in a header, so that a log (or a test) can tell the
// page's own requests from the ones asked ahead.
const headers = (prefetch, extra = {}) => ({ Accept: 'application/json', ...(prefetch ? { 'X-Swz-Prefetch': '1' } : {}), ...extra });

function getJSON(path, params, prefetch = false) {
    const url = path + (params ? '?' + new URLSearchParams(params).toString() : '');
    return remembered('GET ' + url, (pf) => request(url, { headers: headers(pf) }), prefetch);
}

function postJSON(path, body, prefetch = false, memoize = true) {
    const text = JSON.stringify(body);
    const load = (pf) => request(path, { method: 'POST', headers: headers(pf, { 'Content-Type': 'application/json' }), body: text });
    if (!memoize) return load(false).then((r) => r.body);
    return remembered('POST ' + path + ' ' + text, load, prefetch);
}

// Query parameters drop undefined / null / '' so the server applies its defaults.
function clean(q) {
    const out = {};
    for (const [k, v] of Object.entries(q)) {
        if (v !== undefined && v !== null && v !== '') out[k] = String(v);
    }
    return out;
}

export const health = () => request('api/health', { headers: headers(false) }).then((r) => r.body);
export const presets = () => getJSON('api/presets');
// A lesson's JSON file (lesson.js): a static file beside the page, or another URL.
export const lessonFile = (url) => request(url, { headers: headers(false) }).then((r) => r.body);
export const ops = () => getJSON('api/ops');
export const swizzle = (q) => getJSON('api/swizzle', clean(q));
// extra: a bank cell of the unit ({bank, bank_row} or {byte}, map, elem_bytes), or nothing.
export const inspect = (q, row, col, extra = {}) => getJSON('api/inspect', clean({ ...q, row, col, ...extra }));
export const patterns = () => getJSON('api/patterns');
export const access = (q, pattern, step) => getJSON('api/access', clean({ ...q, pattern, step }));
// A custom access on layout q: params {offsets: 'o0,...,o31' ('-' inactive), op, bytes | matrices}.
export const accessCustom = (q, params) => getJSON('api/access', clean({ ...q, ...params }));
// One logical column read down the tile, without and with the swizzle.
export const trace = (q, col) => getJSON('api/trace', clean({ ...q, col }));

// The page's first questions, asked once per page load: boot.js asks them
// as soon as it runs, while the rest of the page's modules still load, and
// app.js takes the same promises (the answers are not asked twice). q: the
// /api/swizzle query of the URL's state; step: the URL's named pattern step
// ({pattern, step}), or null (a custom access). The access view's step is
// asked as soon as the presets (compare=) and patterns are in, with the
// query the access view asks it with (compareOf, accessFit): its answer, the
// verdict, is in memory when app.js asks. Each promise settles as its own
// request does; none is left unhandled.
let first = null;
export function startup(q, step = null) {
    if (!first) {
        first = { presets: presets(), patterns: patterns(), health: health(), ops: ops(), swizzle: q ? swizzle(q) : null };
        first.access = q && step ? Promise.all([first.presets, first.patterns]).then(([pr, pa]) =>
            ((pa.patterns || []).length ? accessFit(q, step.pattern, step.step, compareOf(pr.presets || [])) : null)) : null;
        for (const p of Object.values(first)) if (p) p.catch(() => {});
    }
    return first;
}

// /api/access's compare= for a preset list (/api/presets): b,m,s;...
export const compareOf = (list) => list.map((p) => `${p.b},${p.m},${p.s}`).join(';');

// A measurement is never remembered: it runs on the GPU each time.
export const measure = (body) => postJSON('api/measure', body, false, false);
// POST /api/measure/tma: a tma: box placed by the GPU's copy engine, never remembered.
export const measureTma = (body) => postJSON('api/measure/tma', body, false, false);

// The same requests, asked ahead; they resolve as the page's would (callers
// that only warm the memory should catch).
export const prefetch = {
    swizzle: (q) => getJSON('api/swizzle', clean(q), true),
    access: (q, pattern, step) => getJSON('api/access', clean({ ...q, pattern, step }), true),
    accessCustom: (q, params) => getJSON('api/access', clean({ ...q, ...params }), true),
    trace: (q, col) => getJSON('api/trace', clean({ ...q, col }), true),
    recommend: (q, write, read, elem) => getJSON('api/recommend', clean({ ...q, write, read, elem, fit: 1 }), true),
};

// Counts of where the page's own requests were answered from (see tally).
export const sources = () => ({ ...tally });

// A named pattern's step asked with fit=1 (a pattern that does not fit the
// layout is answered {fits: false, why, fix}, not refused) and compare
// (b,m,s;... : the same access on those swizzles, and without one).
// The best layout for a write and a read pattern on layout q's tile, for the
// element type on screen (README, /api/recommend), asked with fit=1: a layout
// the server would refuse is answered {fits: false, why}.
export const recommend = (q, write, read, elem) => getJSON('api/recommend', clean({ ...q, write, read, elem, fit: 1 }));

export const accessFit = (q, pattern, step, compare) => getJSON('api/access', clean({ ...q, pattern, step, fit: 1, compare }));
prefetch.accessFit = (q, pattern, step, compare) => getJSON('api/access', clean({ ...q, pattern, step, fit: 1, compare }), true);

// The F2 workbench (linear.html): bodies as README's /api/linear rows.
export const linearEvaluate = (body) => postJSON('api/linear/evaluate', body);
export const linearOptimize = (body) => postJSON('api/linear/optimize', body);

// ---------- tensor layouts (layout.html) ----------
// POST /api/layout: {layout, element_bits, shape?, base?, descriptor?, descriptor_arch?}.
export const layout = (body) => postJSON('api/layout', body);
// POST /api/layout/access: the layout fields plus lanes, or atom and origin.
export const layoutAccess = (body) => postJSON('api/layout/access', body);
export const atoms = () => getJSON('api/atoms');

// Triton's TTGIR: a distributed encoding's bases; a dump's shared-memory ops, costed.
export const layoutDistributed = (body) => postJSON('api/layout/distributed', body);
// body: {text, part?} (a lit file's module or a dump's pass; the API picks one without it).
export const ttgir = (body) => postJSON('api/ttgir', body);
export const ncuExplain = (body) => postJSON('api/ncu/explain', body, false, false);
// A kernel's PTX (or CUDA) and its launch, costed (issue 38): not kept, the
// answer can be large and the next one is always a new text.
export const ptx = (body) => postJSON('api/ptx', body, false, false);
// the same launch run on the GPU under ncu, measured beside predicted (seconds; never memoized)
export const ptxMeasure = (body) => postJSON('api/ptx/measure', body, false, false);
export const conflicts = (body) => postJSON('api/conflicts', body);

/** The text of one of the page's own static files (an example kernel), or
 *  throws ApiError: the page's requests all go through here. */
export function staticText(url) {
    return holding((async () => {
        let res;
        try { res = await fetch(url, { cache: 'no-store' }); }
        catch (e) { throw new ApiError(0, 'unreachable', null, 'cannot reach the swizzlescope server (' + e.message + ')'); }
        if (!res.ok) throw new ApiError(res.status, 'http_' + res.status, null, `${url}: ${res.status} ${res.statusText}`);
        return res.text();
    })());
}
