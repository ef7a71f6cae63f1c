// codepanel.js - the swizzle written as code: CuTe's Swizzle<B,M,S>{}, a plain C
// expression built from the masks the API returns, the element-unit form, the
// TMA / WGMMA / tcgen05 swizzle mode that names the same map where one does
// (/api/swizzle's "hardware", server/model/presets.c), and the formula panel beside
// it. Notation only: it must not compute masks, maps, slots or modes.

import { elementSwizzle, elementType } from './elements.js';
import { esc } from '../kit/esc.js';
import { gridLines } from './slotrule.js';
import { setHTML } from '../kit/dom.js';


// {tma, wgmma, tcgen05} in words, for the answer's "hardware" (null when no
// mode names the map).
export function hardwareNames(hw) {
    if (!hw) return null;
    return {
        tma: hw.tma + (hw.tma_cuda ? ` (CUDA ${hw.tma_cuda}+)` : ''),
        wgmma: hw.gmma >= 0 ? `GMMA::LayoutType::${hw.gmma_name} (${hw.gmma}); CuTe GMMA::${hw.gmma_atom}<T>` : null,
        tcgen05: hw.umma >= 0 ? `${hw.umma} (${hw.umma_words})` : null,
    };
}

// The C expression of the swizzle on byte offset `o`, from the API's masks.
export function cExpression(d) {
    const mk = d.masks, s = d.params.s;
    if (!mk.yyy) return 'o   /* B = 0: the identity */';
    const shift = s >= 0 ? `>> ${s}` : `<< ${-s}`;
    return `o ^ ((o & 0x${mk.yyy.toString(16)}) ${shift})`;
}

export function renderCode(el, d, elemId) {
    const { b, m, s } = d.params;
    const c = (t) => `<span class="c">${esc(t)}</span>`;
    const k = (t) => `<span class="k">${esc(t)}</span>`;
    const lines = [
        c('// CuTe (cute/swizzle.hpp), on byte offsets'),
        `<span id="code-cute">${k(`cute::Swizzle<${b}, ${m}, ${s}>{}`)}</span>`,
        '',
        c('// plain C, on a byte offset o'),
        `<span id="code-c">${k(cExpression(d))}</span>`,
    ];
    const es = elementSwizzle(elemId, d);
    if (es) {
        lines.push('', c(`// on ${elementType(elemId).name} element indices`));
        lines.push(es.ok ? `<span id="code-elem">${k(`cute::${es.text}{}`)}</span>   ${c(`// ${es.note}`)}` : `<span id="code-elem">${c(`// ${es.text}`)}</span>`);
    }
    const hw = hardwareNames(d.hardware);
    lines.push('', c('// the same map in hardware descriptors'));
    if (hw) {
        lines.push(`TMA     <span id="code-tma">${k(hw.tma)}</span>`);
        lines.push(`WGMMA   <span id="code-wgmma">${hw.wgmma ? k(hw.wgmma) : c('no sm_90 descriptor mode')}</span>`);
        lines.push(`tcgen05 <span id="code-tcgen05">${hw.tcgen05 ? k('swizzle mode ' + hw.tcgen05) : c('no sm_100 descriptor mode')}</span>`);
    } else {
        lines.push(`<span id="code-tma">${c('// no TMA / WGMMA swizzle mode matches this map: software addressing only')}</span>`);
    }
    setHTML(el, lines.join('\n'));
}

// The formula panel: CuTe's apply on a byte offset with the API's masks,
// and the same on the grid in the form the API's slot_rule names (the XOR
// of column and row only where it holds: slotrule.js).
export function renderFormula(el, d) {
    const mk = d.masks, s = d.params.s, T = d.tile.size;
    const shift = s >= 0 ? `>> ${s}` : `<< ${-s}`;
    const c = (t) => `<span class="c">${esc(t)}</span>`;
    const grid = gridLines(d.slot_rule, T, mk).map(([code, why]) => `${esc(code)}${why ? `   ${c(`// ${why}`)}` : ''}`);
    setHTML(el, [
        c(`// ${d.name} on a byte offset (CuTe swizzle.hpp)`),
        `<span class="y">yyy_msk</span> = 0x${mk.yyy.toString(16)}   ${c(`// bits [${mk.yyy_lo}, ${mk.yyy_hi})`)}`,
        `<span class="z">zzz_msk</span> = 0x${mk.zzz.toString(16)}   ${c(`// bits [${mk.zzz_lo}, ${mk.zzz_hi})`)}`,
        `offset' = offset ^ ((offset & <span class="y">yyy_msk</span>) ${shift})   ${c('// ZZZ ^= YYY')}`,
        ...(grid.length ? ['', c('// The same on the grid, for the unit at logical (row, col):'), `<span id="formula-grid" data-rule="${esc(d.slot_rule)}">${grid.join('\n')}</span>`] : []),
    ].join('\n'));
}
