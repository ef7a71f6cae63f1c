// baseline.js - the access view's baseline: the same instruction without the
// swizzle and on the best preset, beside the current swizzle, from the
// `compare` part of the /api/access answer (the server applies each swizzle
// to the same logical offsets and names the best). Words only: it must not
// count, compare or rank wavefronts itself.

import { esc } from './esc.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// What the extra wavefronts are, for the class the API names (verdict_class,
// server/verdict.c): an atomic's may be same-address serialization, not a
// bank conflict.
const WORDS = {
    not_native: 'not native: no exact count', conflict_free: 'conflict-free', conflict_free_broadcast: 'conflict-free',
    serialization: 'same-address serialization', conflict_and_serialization: 'bank conflict + same-address',
};
export function costWords(c) {
    if (c.verdict_class === 'conflict') return c.ways > 1 ? `${c.ways}-way` : 'bank conflict';
    return WORDS[c.verdict_class] || `no verdict (${c.verdict_class})`;
}

function cost(c) {
    if (!c || c.error !== undefined) return '';
    const n = c.wavefronts === null || c.wavefronts === undefined ? 'loop'
        : plural(c.wavefronts, 'wavefront', 'wavefronts');
    return `${n} <small>${esc(costWords(c))}</small>`;
}

function cell(id, title, c, cls = '') {
    return `<div class="bl${cls}" id="${id}" data-wavefronts="${c && c.wavefronts != null ? c.wavefronts : ''}"><span class="bl-what">${title}</span><span class="bl-cost">${cost(c)}</span></div>`;
}

// cmp: the answer's compare; presets: /api/presets in the order compare named
// them; cur: the answer's cost; name: the drawn swizzle's name.
export function baselineHTML(cmp, presets, cur, name) {
    if (!cmp) return '';
    const best = cmp.best >= 0 ? cmp.swizzles[cmp.best] : null;
    const bp = best ? presets[cmp.best] : null;
    return cell('acc-base-none', 'Without the swizzle', cmp.unswizzled) +
        '<span class="bl-arrow" aria-hidden="true">&rarr;</span>' +
        cell('acc-base-cur', `This swizzle, ${esc(name)}`, cur, ' cur') +
        (bp ? cell('acc-base-best', `Best preset, ${esc(bp.label || bp.id)} <small>${esc(`Swizzle<${bp.b},${bp.m},${bp.s}>`)}</small>`, best, ' best') : '');
}
