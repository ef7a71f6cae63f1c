// state.js - the page state and its one home, the URL query string.
// Values are kept as the strings the user typed so that the server, not the
// page, decides what is valid; this module only parses, fills defaults and prints.

export const DEFAULTS = Object.freeze({
    b: '2', m: '4', s: '3',        // 64B swizzle: Swizzle<2,4,3>
    bank_bytes: '4', banks: '32',
    rows: '',                     // '' = server default (one tile height)
    match: false,
    sel: null,                    // [row, col] logical unit, or null
    theme: '',                    // '' (light), 'dark' or 'presenter'
});

const KEYS = ['b', 'm', 's', 'bank_bytes', 'banks', 'rows'];

function parseSel(v) {
    if (!v) return null;
    const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(v);
    return m ? [Number(m[1]), Number(m[2])] : null;
}

export function fromSearch(search) {
    const q = new URLSearchParams(search);
    const st = { ...DEFAULTS };
    for (const k of KEYS) if (q.has(k)) st[k] = q.get(k).trim();
    if (q.has('match')) st.match = /^(1|true|yes|on)$/i.test(q.get('match'));
    st.sel = parseSel(q.get('sel'));
    if (/^(dark|presenter|light)$/.test(q.get('theme') || '')) st.theme = q.get('theme');
    return st;
}

export function toSearch(st) {
    const q = new URLSearchParams();
    for (const k of KEYS) if (st[k] !== '' && st[k] !== null && st[k] !== undefined) q.set(k, st[k]);
    if (st.match) q.set('match', '1');
    if (st.sel) q.set('sel', st.sel[0] + ',' + st.sel[1]);
    if (st.theme) q.set('theme', st.theme);
    // URLSearchParams escapes ',' as %2C; the selection reads better plain.
    return '?' + q.toString().replace(/%2C/g, ',');
}

// The query for /api/swizzle and /api/inspect.
export function apiQuery(st) {
    return {
        b: st.b, m: st.m, s: st.s, bank_bytes: st.bank_bytes, banks: st.banks,
        rows: st.rows, match_bank_row: st.match ? '1' : '0',
    };
}

export function sameParams(a, b) {
    return KEYS.every((k) => a[k] === b[k]) && a.match === b.match;
}
