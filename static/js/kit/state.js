// state.js - the page state and its one home, the URL query string.
// Values are kept as the strings the user typed so that the server, not the
// page, decides what is valid: this module parses, fills defaults and prints,
// and must not judge a value beyond its shape (a number, a pair, a flag).

export const DEFAULTS = Object.freeze({
    b: '2', m: '4', s: '3',        // 64B swizzle: Swizzle<2,4,3>
    bank_bytes: '4', banks: '32',
    rows: '',                     // '' = server default (one tile height)
    match: false,
    sel: null,                    // [row, col] logical unit, or null
    tcol: null,                   // traced logical column, or null (follows sel)
    // display
    theme: '',                    // '' (light) or 'dark'
    present: false,               // presenter mode: large type, high contrast
    palette: '',                  // '' (standard) or 'cb' (colour-blind safe)
    elem: '',                     // '' (unit columns), 'fp32', 'fp16', 'fp8', 'bytes'
    show: '',                     // what cells show: '' (logical column) or 'row' (logical row)
    // access view
    acc: '',                      // '' (named pattern), 'custom' (offsets) or 'expr'
    pat: 'col_read', step: 0,
    offs: '',                     // custom offsets as typed ('-' = inactive lane)
    space: '',                    // custom offsets are '' (logical: the API swizzles them) or 'physical'
    expr: '', esteps: '1',        // a lane expression in t and r, and its register steps
    op: 'ld', bytes: '4', mats: '4', trans: false,
    // write / read scorecard
    wr: 'row_store', rd: 'col_read',
    // classroom
    side: '',                     // '' (controls shown) or 'hide' (the maps get the width)
    lesson: null,                 // lesson step (lesson.js), or null
    lsrc: '',                     // the lesson's JSON file ('' = the built-in one)
    predict: false,               // predict, then reveal: answers hidden until a guess (predict.js)
    embed: false,                 // one view, no header or sidebar (for slides)
    view: '',                     // with embed: the one panel shown ('' = all of them; VIEWS)
});

// The panels ?embed=1&view= can show alone (index.html's data-panel).
export const VIEWS = Object.freeze(['tiles', 'grid', 'banks', 'access', 'recommend']);

const KEYS = ['b', 'm', 's', 'bank_bytes', 'banks', 'rows'];
// Keys written only when they differ from DEFAULTS, to keep links short.
const OPT = ['pat', 'offs', 'expr', 'esteps', 'op', 'bytes', 'mats', 'wr', 'rd'];
const ELEMS = ['fp32', 'fp16', 'fp8', 'bytes'];
const yes = (v) => /^(1|true|yes|on)$/i.test(v || '');

function parseSel(v) {
    if (!v) return null;
    const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(v);
    return m ? [Number(m[1]), Number(m[2])] : null;
}

function parseCount(v, dflt) {
    return /^\d{1,9}$/.test(v || '') ? Number(v) : dflt;
}

export function fromSearch(search) {
    const q = new URLSearchParams(search);
    const st = { ...DEFAULTS };
    for (const k of KEYS) if (q.has(k)) st[k] = q.get(k).trim();
    if (q.has('match')) st.match = yes(q.get('match'));
    st.sel = parseSel(q.get('sel'));
    st.tcol = q.has('tcol') ? parseCount(q.get('tcol'), null) : null;
    const th = q.get('theme') || '';
    if (th === 'dark') st.theme = 'dark';
    if (th === 'presenter' || yes(q.get('present'))) st.present = true;   // theme=presenter: older links
    if (q.get('palette') === 'cb') st.palette = 'cb';
    if (ELEMS.includes(q.get('elem'))) st.elem = q.get('elem');
    if (q.get('show') === 'row') st.show = 'row';
    if (['custom', 'expr'].includes(q.get('acc'))) st.acc = q.get('acc');
    if (q.get('space') === 'physical') st.space = 'physical';
    if (q.get('side') === 'hide') st.side = 'hide';
    st.lesson = q.has('lesson') ? parseCount(q.get('lesson'), null) : null;
    st.lsrc = (q.get('lsrc') || '').trim();
    st.predict = yes(q.get('predict'));
    st.embed = yes(q.get('embed'));
    if (VIEWS.includes(q.get('view'))) st.view = q.get('view');
    for (const k of OPT) if (q.has(k)) st[k] = q.get(k).trim();
    st.step = parseCount(q.get('step'), 0);
    st.trans = yes(q.get('trans'));
    return st;
}

export function toSearch(st) {
    const q = new URLSearchParams();
    for (const k of KEYS) if (st[k] !== '' && st[k] !== null && st[k] !== undefined) q.set(k, st[k]);
    if (st.match) q.set('match', '1');
    if (st.sel) q.set('sel', st.sel[0] + ',' + st.sel[1]);
    if (st.tcol !== null && st.tcol !== undefined) q.set('tcol', st.tcol);
    if (st.theme) q.set('theme', st.theme);
    if (st.present) q.set('present', '1');
    if (st.palette) q.set('palette', st.palette);
    if (st.elem) q.set('elem', st.elem);
    if (st.show) q.set('show', st.show);
    if (st.acc) q.set('acc', st.acc);
    if (st.space) q.set('space', st.space);
    if (st.side) q.set('side', st.side);
    if (st.lesson !== null && st.lesson !== undefined) q.set('lesson', st.lesson);
    if (st.lsrc) q.set('lsrc', st.lsrc);
    if (st.predict) q.set('predict', '1');
    if (st.embed) q.set('embed', '1');
    if (st.view) q.set('view', st.view);
    for (const k of OPT) if (st[k] !== DEFAULTS[k]) q.set(k, st[k]);
    if (st.step) q.set('step', st.step);
    if (st.trans) q.set('trans', '1');
    // URLSearchParams escapes ',' as %2C; the selection and offsets read better plain.
    return '?' + q.toString().replace(/%2C/g, ',');
}

// The access view's named pattern step ({pattern, step}: api.startup asks it
// first), or null when the state shows a custom access.
export const namedStep = (st) => (st.acc ? null : { pattern: st.pat, step: st.step });

// The query for /api/swizzle, /api/inspect and /api/access.
export function apiQuery(st) {
    return {
        b: st.b, m: st.m, s: st.s, bank_bytes: st.bank_bytes, banks: st.banks,
        rows: st.rows, match_bank_row: st.match ? '1' : '0',
    };
}

export function sameParams(a, b) {
    return KEYS.every((k) => a[k] === b[k]) && a.match === b.match;
}
