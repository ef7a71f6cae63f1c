// verdictline.js - the first screen's one plain sentence: what the access
// view's warp access costs on this swizzle and without it, in the words
// verdict.js gives the API's verdict class, and a colour legend for the maps
// (what a cell's colour and number mean, with the palette's first colours).
// It must not count or compare wavefronts itself: it prints the answer.

import { verdict } from './verdict.js';
import { esc } from '../kit/esc.js';
import { SWATCH, VERDICT, key } from '../kit/classes.js';
import { setHTML } from '../kit/dom.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createVerdictLine(ctx) {
    const el = $('verdict-line'), legend = $('legend');

    // r: the access view's answer ({cost, label, access}) or null.
    function update(r) {
        const d = ctx.data();
        if (!r || !d) { setHTML(el, ''); el.className = 'verdict-line'; return; }
        const v = verdict(r.cost), cmp = r.access && r.access.compare;
        const without = cmp && cmp.unswizzled ? ` Without the swizzle: ${esc(verdict(cmp.unswizzled).text)}.` : '';
        // A named pattern is said in words first (its label), its name and
        // step after them: "col_read, step 0" alone told a newcomer nothing.
        const a = r.access, head = a && a.label ? `<b>${esc(a.label)}</b>, step r = ${a.step} (${esc(a.pattern)})` : `<b>${esc(r.label)}</b>`;
        el.className = `verdict-line ${v.cls}`;
        setHTML(el, `${head} on ${esc(d.name)}: <span class="${VERDICT} ${v.cls}" id="verdict-line-text">${esc(v.text)}</span>.${without} <a href="#access">Details</a>`);
    }

    // The colours of the maps: a cell's colour is the number it shows (a
    // logical column, or a row with "show rows"), from the palette's 16.
    function refresh(d) {
        if (!d) { setHTML(legend, ''); return Promise.resolve(); }
        const n = Math.min(d.grid.cols, 16), what = ctx.state().show === 'row' ? 'logical row' : 'logical column';
        let sw = '';
        for (let k = 0; k < n; k++) sw += `<span class="maplegend-item"><span class="${SWATCH} ${key(k)}"></span>${k}</span>`;
        setHTML(legend, `<span class="maplegend-what">Colour = ${what}${d.grid.cols > 16 ? ' (mod 16)' : ''}:</span> ${sw}`);
        return Promise.resolve();
    }
    return { update, refresh };
}
