// scorecard.js - the write / read scorecard: a store (or a producer only the
// recommender costs, TMA) and a load on the current layout, both verdicts side
// by side (/api/access, step 0, fit=1: a misfit says why, with the API's fix),
// and the recommendation for the pair (/api/recommend, recommend.js) with an
// Apply button. It must not compute or rank costs; verdict.js has the words.

import * as api from '../kit/api.js';
import { verdict } from './verdict.js';
import { isStore, isAtomic, opShort } from '../kit/ops.js';
import { patternLabel } from './patterns.js';
import { fixButton } from './fixes.js';
import { stamp } from '../kit/stamps.js';
import { VERDICT, OK, BAD, INLINE_ERR, INLINE_HINT } from '../kit/classes.js';
import { setHTML } from '../kit/dom.js';
import { esc } from '../kit/esc.js';
import { recommendHTML } from './recommend.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createScorecard(ctx) {
    const slots = [
        { key: 'wr', sel: $('score-wr'), out: $('score-wr-out'), want: (op) => isStore(op) },
        { key: 'rd', sel: $('score-rd'), out: $('score-rd-out'), want: (op) => !isStore(op) },
    ];
    const rec = $('score-rec');
    let seq = 0;
    let producers = [];     // /api/patterns' producers: writes only the recommender costs

    const group = (sel, label, items) => {
        if (!items.length) return;
        const g = document.createElement('optgroup');
        g.label = label;
        for (const p of items) g.append(new Option(patternLabel(p), p.name));
        sel.append(g);
    };

    /* list: /api/patterns' patterns; prod: its producers (TMA). The read list
     * keeps its atomics apart from the loads. */
    function setPatterns(list, prod = []) {
        producers = prod;
        for (const s of slots) {
            s.sel.innerHTML = '';
            // /api/patterns may name each pattern's op; without it every pattern is offered.
            const fit = list.filter((p) => !p.op || s.want(p.op));
            if (s.key === 'wr') {
                group(s.sel, 'Warp stores', fit);
                group(s.sel, 'Other producers', prod);
            } else {
                group(s.sel, 'Loads', fit.filter((p) => !isAtomic(p.op)));
                group(s.sel, 'Atomics', fit.filter((p) => isAtomic(p.op)));
            }
            s.sel.title = 'Pattern for this side of the scorecard';
        }
    }

    const producer = (name) => producers.find((p) => p.name === name) || null;

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

    async function refreshRec(q, st, my, pending) {
        rec.dataset.total = '';
        if (!q) { setHTML(rec, ''); return; }
        try {
            const r = await (pending || api.recommend(q, st.wr, st.rd, st.elem));
            if (my !== seq) return;
            setHTML(rec, recommendHTML(r));
            rec.dataset.total = r.recommended ? String(r.recommended.total_wavefronts) : '';
            rec.dataset.bound = r.bound && r.bound.expressible ? String(r.bound.total) : '';
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
        return { sides: slots.map((s) => (producer(st[s.key]) ? null : quiet(api.accessFit(q, st[s.key], 0)))), rec: quiet(api.recommend(q, st.wr, st.rd, st.elem)) };
    }

    // Ask ahead what refresh() would need on layout query q with state st.
    function prefetch(q, st) {
        for (const s of slots) if (!producer(st[s.key])) api.prefetch.accessFit(q, st[s.key], 0).catch(() => {});
        api.prefetch.recommend(q, st.wr, st.rd, st.elem).catch(() => {});
    }

    async function refresh(pending = null) {
        const my = ++seq;
        const st = ctx.state(), q = ctx.query();
        const recDone = refreshRec(q, st, my, pending && pending.rec);
        await Promise.all(slots.map(async (s, i) => {
            s.out.classList.remove(BAD, OK);
            if (!q) { setHTML(s.out, '<div class="fine">Fix the parameters first.</div>'); return; }
            const pr = producer(st[s.key]);
            if (pr) { setHTML(s.out, `<div class="fine">${esc(pr.note || pr.label)}</div>`); s.out.dataset.wavefronts = ''; return; }
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
        if (b) ctx.go({ b: b.dataset.b, m: b.dataset.m, s: b.dataset.s, match: b.dataset.match === '1', rows: b.dataset.rows });
    });
    for (const s of slots) s.sel.addEventListener('change', () => { ctx.set({ [s.key]: s.sel.value }, true); refresh(); });
    return { setPatterns, sync, refresh, request, prefetch };
}
