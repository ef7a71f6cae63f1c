// lessondata.js - a lesson as data (README, "Lessons"): reads and checks a
// lesson's JSON (a title and a list of steps: page state as URL parameters,
// narration with {placeholders}, what to outline and bring into sight, a
// numbers table, a question flag), fills placeholders from the API's answers,
// and packs a lesson into a share link and back. It must not compute the
// model: every number it writes is a field of an answer it was handed.

import { fromSearch, toSearch, DEFAULTS } from '../kit/state.js';
import { verdict } from './verdict.js';
import { opName } from '../kit/ops.js';

// What a step leaves as the defaults unless its own state names it, so that
// one step's choices do not leak into the next.
export const CLEAR = Object.freeze({ sel: null, tcol: null, acc: '', step: 0, elem: '', show: '', b: '2', m: '4', s: '3', bank_bytes: '4', banks: '32', rows: '', match: false, pat: 'col_read' });
// URL parameters that are the view (a step's state), not the display or the lesson.
const VIEW_PARAMS = ['b', 'm', 's', 'bank_bytes', 'banks', 'rows', 'match', 'sel', 'tcol', 'elem', 'show', 'acc', 'pat', 'step', 'offs', 'space', 'expr', 'esteps', 'op', 'bytes', 'mats', 'trans', 'wr', 'rd'];

/**
 * Check a parsed lesson; returns {title, steps} or throws an Error naming the
 * step and field that is wrong.
 */
export function readLesson(j) {
    if (!j || typeof j !== 'object' || !Array.isArray(j.steps) || !j.steps.length) throw new Error('a lesson is {"title", "steps": [...]} with at least one step');
    const steps = j.steps.map((s, i) => {
        const where = `step ${i + 1}`;
        if (!s || typeof s !== 'object') throw new Error(`${where}: not an object`);
        if (typeof s.text !== 'string' || !s.text) throw new Error(`${where}: "text" (the narration) is required`);
        if (typeof (s.state ?? '') !== 'string') throw new Error(`${where}: "state" is URL parameters, a string`);
        const look = Array.isArray(s.look) ? s.look.filter((x) => typeof x === 'string') : [];
        return {
            title: typeof s.title === 'string' ? s.title : `Step ${i + 1}`, state: s.state || '', text: s.text,
            text_no_gpu: typeof s.text_no_gpu === 'string' ? s.text_no_gpu : null,
            look, focus: typeof s.focus === 'string' ? s.focus : look[0] || null,
            numbers: s.numbers === 'compare' ? 'compare' : null, question: !!s.question, measure: !!s.measure,
        };
    });
    return { title: typeof j.title === 'string' ? j.title : 'Lesson', steps };
}

/** The page state a step sets: CLEAR, then the parameters its state names. */
export function stepState(step) {
    const q = new URLSearchParams(step.state), st = fromSearch(step.state), out = { ...CLEAR };
    for (const p of VIEW_PARAMS) if (q.has(p)) out[p] = st[p];
    return out;
}

/** The view parameters of page state st, as a step's "state" string. */
export function viewParams(st) {
    const q = new URLSearchParams(toSearch(st)), out = new URLSearchParams();
    for (const p of VIEW_PARAMS) if (q.has(p) && q.get(p) !== String(DEFAULTS[p] ?? '')) out.set(p, q.get(p));
    return out.toString().replace(/%2C/g, ',');
}

// One placeholder's value: a dotted path into the answers, arrays of plain
// values joined, fractions to two places.
function lookup(ns, path) {
    let v = ns;
    for (const k of path.split('.')) { if (v === null || v === undefined) return undefined; v = v[k]; }
    if (Array.isArray(v)) return v.every((x) => typeof x !== 'object') ? v.join(', ') : undefined;
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
    return typeof v === 'string' ? v : undefined;
}

/**
 * The answers a step's placeholders read: {swizzle} (/api/swizzle), {access}
 * (the access view's cost), {compare} (its preset comparison), {inspect}
 * (/api/inspect of the selection), {measure} (POST /api/measure), and the
 * words {verdict} and {op} of the access cost.
 */
export function namespace({ d, r, ins, m }) {
    const c = r ? r.cost : null;
    return { swizzle: d, access: c, compare: r && r.access ? r.access.compare : null, inspect: ins, measure: m,
        verdict: c ? verdict(c).text : undefined, op: c ? opName(c) : undefined };
}

/** text with every {path} filled from ns; a path no answer has shows as "?" and is listed in missing. */
export function fill(text, ns, missing = []) {
    return text.replace(/\{([a-z_]+(?:\.[a-z0-9_]+)*)\}/gi, (all, path) => {
        const v = lookup(ns, path);
        if (v === undefined) { missing.push(path); return '?'; }
        return v;
    });
}

// Share links carry the lesson in the hash: #lesson=<base64url of its JSON>.
export function packLesson(lesson) {
    const bytes = new TextEncoder().encode(JSON.stringify(lesson));
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function unpackLesson(s) {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    return readLesson(JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))));
}
