// baseline.js - the access view's baseline: the same instruction without the
// swizzle and on the best preset, beside the current swizzle, from the
// `compare` part of the /api/access answer (the server applies each swizzle
// to the same logical offsets and names the best). Words only: it must not
// count, compare or rank wavefronts itself.

import { esc } from '../kit/esc.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// What the extra wavefronts are, for the class the API names (verdict_class,
// server/model/verdict.c): an atomic's may be same-address serialization, not a
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
    // An atomic's split, as the API gives it (compare entries carry it flat):
    // every card names the same parts, so that no two say different things.
    const split = typeof c.conflict_wavefronts === 'number' && (c.conflict_wavefronts || c.serial_wavefronts)
        ? ` <small class="split">(${c.serial_wavefronts} same-address, ${c.conflict_wavefronts} conflict)</small>` : '';
    return `${n} <small>${esc(costWords(c))}</small>${split}`;
}

function cell(id, title, c, cls = '') {
    return `<div class="bl${cls}" id="${id}" data-wavefronts="${c && c.wavefronts != null ? c.wavefronts : ''}"><span class="bl-what">${title}</span><span class="bl-cost">${cost(c)}</span></div>`;
}

// cmp: the answer's compare; presets: /api/presets in the order compare named
// them; cur: the answer's cost; name: the drawn swizzle's name.
// physical: the offsets were pasted as physical, already swizzled: no other
// swizzle applies to them, so none is compared (issue 27.5).
export function baselineHTML(cmp, presets, cur, name, physical = false) {
    if (physical) return `<p class="fine" id="acc-base-physical">These offsets are physical (already swizzled): a swizzle does not apply to them, so no other swizzle or preset is compared. Take them as logical to compare.</p>`;
    if (!cmp) return '';
    // The access's own cost nests its atomic split; the cards read it flat.
    if (cur.atomic && typeof cur.atomic.conflict_wavefronts === 'number') cur = { ...cur, conflict_wavefronts: cur.atomic.conflict_wavefronts, serial_wavefronts: cur.atomic.serial_wavefronts };
    const best = cmp.best >= 0 ? cmp.swizzles[cmp.best] : null;
    const bp = best ? presets[cmp.best] : null;
    return cell('acc-base-none', 'Without the swizzle', cmp.unswizzled) +
        '<span class="bl-arrow" aria-hidden="true">&rarr;</span>' +
        cell('acc-base-cur', `This swizzle, ${esc(name)}`, cur, ' cur') +
        (bp ? cell('acc-base-best', `Best preset, ${esc(bp.label || bp.id)} <small>${esc(`Swizzle<${bp.b},${bp.m},${bp.s}>`)}</small>`, best, ' best') : '');
}
