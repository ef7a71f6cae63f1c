// handout.js - the lesson as printed handouts: plays each step, copies its state, whole map,
// verdict, narration, numbers and bank hits (redrawn by bankchart.js to print legibly) into
// one page per step, prints, and returns to the step it was on. The teacher's copy has every
// answer; the students' leaves a question's answers out and gives room to write (issue 40.3).
// It copies what the page drew from the API's answers; it must not compute the model, nor
// draw a map of its own.

import { esc } from '../kit/esc.js';
import { stamp } from '../kit/stamps.js';
import { VIEW_IDS } from './maps.js';
import { hitsChart } from '../kit/bankchart.js';

const $ = (id) => document.getElementById(id);
const MAPS = new Set(Object.values(VIEW_IDS));
// Markup the page drew, without its ids (they stay the page's own).
const noIds = (html) => html.replace(/\sid="[^"]*"/g, '');

// The bank-hit chart's width on paper, in CSS px (its font is presenter
// mode's, 11 px and up): drawn at the page's width it printed as a strip
// 8 mm high with 4 pt labels.
const HITS_PRINT_W = 600;

/* ctx: the PageCtx of app.js; lesson: lesson.js; maps: maps.js; result():
 * the access view's last answer ({cost, ...}) or null. */
export function createHandout(ctx, lesson, maps, result) {
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
            // The caption above its map, the map drawn from the left edge
            // under it: centred in a wide box, a narrow grid sat apart from it.
            const svg = copySVG(tg.svg).replace(/^<svg\b/, '<svg preserveAspectRatio="xMinYMin meet"');
            return `<figure class="ho-map" data-map="${id}" data-cells="${tg.svg.querySelectorAll('rect.cell').length}"><figcaption>${esc(title)}</figcaption>${svg}</figure>`;
        } finally { tg.restore(); }
    }

    // The bank hits of the access on screen, drawn for paper (HITS_PRINT_W).
    function hitsFigure() {
        const r = result();
        if (!r || !r.cost || !Array.isArray(r.cost.bank_hits)) return '';
        const box = document.createElement('div');
        hitsChart(box, r.cost, HITS_PRINT_W, true);
        const svg = box.querySelector('svg');
        return svg ? `<figure class="ho-chart"><figcaption>Lanes per bank (bank hits)</figcaption>${svg.outerHTML}</figure>` : '';
    }

    // One step's page; copy 'student' leaves a question's answers out.
    function pageHTML(k, n, s, title, copy) {
        const sel = $('acc-pattern'), pat = sel && sel.selectedIndex >= 0 ? sel.options[sel.selectedIndex].textContent : '';
        const ask = copy === 'student' && s.question;
        const hits = s.look.some((x) => MAPS.has(x)) || ask ? '' : hitsFigure();
        const verdict = $('verdict-line');
        const answers = ask
            ? `<div class="ho-write" data-write><p class="ho-q">Your answer, before the class sees it: how many wavefronts does this warp instruction take, which bank is hit hardest, and why?</p><div class="ho-lines"></div></div>`
            : `${verdict && verdict.textContent.trim() ? `<p class="ho-verdict">${noIds(verdict.innerHTML.replace(/<a [^>]*>.*?<\/a>/g, ''))}</p>` : ''}
<p class="ho-text">${esc($('lesson-text').textContent)}</p>`;
        return `<section class="ho-page" data-step="${k}"${s.question ? ' data-question' : ''}>
<header><span class="ho-step">${esc(title)} &middot; ${copy === 'student' ? 'student copy' : 'teacher copy'} &middot; step ${k + 1} of ${n}${s.question ? (ask ? ' &middot; a question' : ' &middot; a question, with its answer') : ''}</span><h2>${esc(s.title)}</h2></header>
<p class="ho-state"><b>${esc($('readout').textContent)}</b> &middot; ${esc(($('stat-grid') || {}).textContent || '')} &middot; ${esc(pat)}</p>
${answers}
<div class="ho-figs">${ask ? '' : noIds($('lesson-numbers-box').innerHTML)}${mapOf(s)}${hits}</div>
</section>`;
    }

    /** Build the handout of the lesson playing (or the built-in one), the
     *  teacher's copy or the students' (copy 'student'), and print it. */
    async function build(copy = 'teacher') {
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
                pages.push(pageHTML(k, l.steps.length, l.steps[k], l.title, copy));
            }
            let box = $('handout');
            if (!box) { box = document.createElement('div'); box.id = 'handout'; document.body.appendChild(box); }
            box.innerHTML = pages.join('');
            box.dataset.copy = copy;
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
    document.addEventListener('click', (e) => {
        if (e.target.closest('#lesson-print')) build('teacher');
        else if (e.target.closest('#lesson-print-student')) build('student');
    });
    return { build };
}
