// handout.js - the whole lesson as a printed handout (issue 27): "Print
// lesson" plays every step of the lesson on the page, copies what each one
// shows (its state, its map drawn whole, the verdict, the narration and the
// numbers it quotes) into one print page per step, and prints them; the page
// goes back to the step it was on. It copies what the page drew from the
// API's answers; it must not compute the model, nor draw a map of its own.

import { esc } from './esc.js';
import { stamp } from './stamps.js';
import { VIEW_IDS } from './maps.js';

const $ = (id) => document.getElementById(id);
const MAPS = new Set(Object.values(VIEW_IDS));
// Markup the page drew, without its ids (they stay the page's own).
const noIds = (html) => html.replace(/\sid="[^"]*"/g, '');

/* ctx: the PageCtx of app.js; lesson: lesson.js; maps: maps.js. */
export function createHandout(ctx, lesson, maps) {
    let busy = false;

    // A copy of an SVG the page drew, without ids (they are the page's).
    function copySVG(svg) {
        const c = svg.cloneNode(true);
        for (const e of [c, ...c.querySelectorAll('[id]')]) e.removeAttribute('id');
        c.removeAttribute('width'); c.removeAttribute('height');
        return c.outerHTML;
    }

    // The step's map, drawn whole (a map out of sight, or past its scroll
    // box, has only a band of its cells on screen): the one the step looks
    // at, else the swizzled grid with the access outlined.
    function mapOf(s) {
        const id = s.look.find((x) => MAPS.has(x)) || VIEW_IDS.gridSwz;
        const tg = maps.exportTarget(id);
        if (!tg) return '';
        tg.prepare();
        try {
            const title = ($(id).closest('figure').querySelector('figcaption span') || {}).textContent || '';
            return `<figure class="ho-map" data-map="${id}" data-cells="${tg.svg.querySelectorAll('rect.cell').length}">${copySVG(tg.svg)}<figcaption>${esc(title)}</figcaption></figure>`;
        } finally { tg.restore(); }
    }

    function pageHTML(k, n, s, title) {
        const sel = $('acc-pattern'), pat = sel && sel.selectedIndex >= 0 ? sel.options[sel.selectedIndex].textContent : '';
        const hits = s.look.some((x) => MAPS.has(x)) ? null : document.querySelector('#acc-hits svg');
        const verdict = $('verdict-line');
        return `<section class="ho-page" data-step="${k}">
<header><span class="ho-step">${esc(title)} &middot; step ${k + 1} of ${n}${s.question ? ' &middot; a question' : ''}</span><h2>${esc(s.title)}</h2></header>
<p class="ho-state"><b>${esc($('readout').textContent)}</b> &middot; ${esc(($('stat-grid') || {}).textContent || '')} &middot; ${esc(pat)}</p>
${verdict && verdict.textContent.trim() ? `<p class="ho-verdict">${noIds(verdict.innerHTML.replace(/<a [^>]*>.*?<\/a>/g, ''))}</p>` : ''}
<p class="ho-text">${esc($('lesson-text').textContent)}</p>
<div class="ho-figs">${noIds($('lesson-numbers-box').innerHTML)}${mapOf(s)}${hits ? `<figure class="ho-chart">${copySVG(hits)}<figcaption>Lanes per bank (bank hits)</figcaption></figure>` : ''}</div>
</section>`;
    }

    /** Build the handout of the lesson playing (or the built-in one) and print it. */
    async function build() {
        if (busy) return;
        busy = true;
        stamp('handout', 'building');
        const back = ctx.state().lesson ?? 0;
        try {
            const l = await lesson.load();
            const pages = [];
            for (let k = 0; k < l.steps.length; k++) {
                await lesson.showStep(k);
                await ctx.flush();   // the maps out of sight are drawn too
                pages.push(pageHTML(k, l.steps.length, l.steps[k], l.title));
            }
            let box = $('handout');
            if (!box) { box = document.createElement('div'); box.id = 'handout'; document.body.appendChild(box); }
            box.innerHTML = pages.join('');
            await lesson.showStep(Math.min(back, l.steps.length - 1));
            document.documentElement.dataset.handout = '1';
            stamp('handout', 'ready');
            window.print();
        } catch (e) {
            stamp('handout', '');
            const t = $('lesson-text');
            if (t) t.textContent = `The handout could not be made: ${e.message}`;
        } finally { busy = false; }
    }

    // After the dialog, printing shows the current view again.
    window.addEventListener('afterprint', () => { delete document.documentElement.dataset.handout; });
    document.addEventListener('click', (e) => { if (e.target.closest('#lesson-print')) build(); });
    return { build };
}
