// scorecard.js - the write / read scorecard: one store pattern and one load
// pattern on the current layout, both verdicts side by side (/api/access,
// step 0, fit=1: a pattern that does not fit says why, with the API's fix),
// and the recommended swizzle for the pair (/api/recommend) with an Apply
// button. It must not compute or rank costs; verdict words come from verdict.js.

import * as api from './api.js';
import { verdict } from './verdict.js';
import { isStore, opShort } from './ops.js';
import { patternLabel } from './patterns.js';
import { fixButton } from './fixes.js';
import { stamp } from './stamps.js';
import { VERDICT, OK, BAD, INLINE_ERR, INLINE_HINT } from './classes.js';
import { setHTML } from './dom.js';
import { esc } from './esc.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createScorecard(ctx) {
    const slots = [
        { key: 'wr', sel: $('score-wr'), out: $('score-wr-out'), want: (op) => isStore(op) },
        { key: 'rd', sel: $('score-rd'), out: $('score-rd-out'), want: (op) => !isStore(op) },
    ];
    const rec = $('score-rec');
    let seq = 0;

    function setPatterns(list) {
        for (const s of slots) {
            s.sel.innerHTML = '';
            // /api/patterns may name each pattern's op; without it every pattern is offered.
            const fit = list.filter((p) => !p.op || s.want(p.op));
            for (const p of fit) s.sel.add(new Option(patternLabel(p), p.name));
            s.sel.title = 'Pattern for this side of the scorecard';
        }
    }

    function sync() {
        const st = ctx.state();
        for (const s of slots) if ([...s.sel.options].some((o) => o.value === st[s.key])) s.sel.value = st[s.key];
    }

    function card(a, key) {
        if (a.fits === false) {
            return `<div class="${INLINE_HINT}"><b>Does not fit this grid:</b> ${esc(a.why.message)}</div>${fixButton(a.fix, `score-${key}-fix`)}`;
        }
        const c = a.cost, v = verdict(c);
        return `<div class="${VERDICT} ${v.cls}">${esc(v.text)}</div>
<div class="fine">${c.cycles} cycle${c.cycles === 1 ? '' : 's'} &middot; ${esc(opShort(c))} &middot; step 0 of ${a.steps}</div>`;
    }

    // The "Recommended" line: the API's winner, both its verdicts, Apply.
    function recLine(r) {
        if (r.fits === false) return '';   // the sides say why the layout does not fit
        const w = r.recommended;
        if (!w) return '<span class="fine">Recommended: no candidate swizzle runs both patterns.</span>';
        const tried = `${r.candidates.length} swizzles tried`;
        if (w.is_current) return `<span class="fine">Recommended: the current ${esc(w.name)} is already the best of ${tried}.</span>`;
        const side = (k, c) => { const v = verdict(c); return `<span class="${VERDICT} ${v.cls}" data-side="${k}">${k}: ${esc(v.text)}</span>`; };
        const t16 = (w.triton || []).find((x) => x.element_bits === 16);
        const tri = t16 ? ` <span class="fine" title="Triton, 16-bit elements on a ${t16.shape.join('x')} tile">(Triton vec=${t16.vec}, perPhase=${t16.per_phase}, maxPhase=${t16.max_phase})</span>` : '';
        const saves = w.saves_wavefronts === null ? '' : ` <span class="fine">${w.saves_wavefronts} wavefront${w.saves_wavefronts === 1 ? '' : 's'} fewer than now, of ${tried}</span>`;
        return `<span><b>Recommended:</b> <code id="score-rec-name">${esc(w.name)}</code>${tri}</span>
${side('write', w.write_cost)} ${side('read', w.read_cost)}${saves}
<button type="button" class="btn primary" id="score-rec-apply" data-b="${w.b}" data-m="${w.m}" data-s="${w.s}">Apply ${esc(w.name)}</button>`;
    }

    async function refreshRec(q, st, my, pending) {
        rec.dataset.total = '';
        if (!q) { setHTML(rec, ''); return; }
        try {
            const r = await (pending || api.recommend(q, st.wr, st.rd));
            if (my !== seq) return;
            setHTML(rec, recLine(r));
            rec.dataset.total = r.recommended ? String(r.recommended.total_wavefronts) : '';
        } catch (err) {
            if (my !== seq) return;
            setHTML(rec, `<div class="${INLINE_ERR}">Recommended: ${esc(err.message)}</div>`);
        }
    }

    // Start the requests for layout query q (both sides and the recommender);
    // refresh(pending) uses them.
    function request(q) {
        if (!q) return null;
        const st = ctx.state();
        const quiet = (p) => { p.catch(() => {}); return p; };
        return { sides: slots.map((s) => quiet(api.accessFit(q, st[s.key], 0))), rec: quiet(api.recommend(q, st.wr, st.rd)) };
    }

    // Ask ahead what refresh() would need on layout query q with state st.
    function prefetch(q, st) {
        for (const s of slots) api.prefetch.accessFit(q, st[s.key], 0).catch(() => {});
        api.prefetch.recommend(q, st.wr, st.rd).catch(() => {});
    }

    async function refresh(pending = null) {
        const my = ++seq;
        const st = ctx.state(), q = ctx.query();
        const recDone = refreshRec(q, st, my, pending && pending.rec);
        await Promise.all(slots.map(async (s, i) => {
            s.out.classList.remove(BAD, OK);
            if (!q) { setHTML(s.out, '<div class="fine">Fix the parameters first.</div>'); return; }
            try {
                const a = await ((pending && pending.sides[i]) || api.accessFit(q, st[s.key], 0));
                if (my !== seq) return;
                setHTML(s.out, card(a, s.key));
                s.out.dataset.wavefronts = a.cost ? String(a.cost.wavefronts) : '';
            } catch (err) {
                if (my !== seq) return;
                setHTML(s.out, `<div class="${INLINE_ERR}">${esc(err.message)}</div>`);
                s.out.dataset.wavefronts = '';
            }
        }));
        await recDone;
        if (my === seq) stamp('scoreReady', my);
    }

    // Apply: the recommended B, M, S through the page state (URL, controls, load).
    rec.addEventListener('click', (e) => {
        const b = e.target.closest('#score-rec-apply');
        if (b) ctx.go({ b: b.dataset.b, m: b.dataset.m, s: b.dataset.s });
    });
    for (const s of slots) s.sel.addEventListener('change', () => { ctx.set({ [s.key]: s.sel.value }, true); refresh(); });
    return { setPatterns, sync, refresh, request, prefetch };
}
