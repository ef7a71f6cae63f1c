// baseline.js - the access view's baseline: the same instruction without the
// swizzle and on the best preset, beside the current swizzle, from the
// `compare` part of the /api/access answer (the server applies each swizzle
// to the same logical offsets and names the best). Words only: it must not
// count, compare or rank wavefronts itself.

import { esc } from './esc.js';

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function cost(c) {
    if (!c || c.error !== undefined) return '';
    const how = c.bank_conflicts === 0 ? 'conflict-free' : c.ways > 1 ? `${c.ways}-way` : 'bank conflict';
    return `${plural(c.wavefronts, 'wavefront', 'wavefronts')} <small>${esc(how)}</small>`;
}

function cell(id, title, c, cls = '') {
    return `<div class="bl${cls}" id="${id}" data-wavefronts="${c ? c.wavefronts : ''}"><span class="bl-what">${title}</span><span class="bl-cost">${cost(c)}</span></div>`;
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
