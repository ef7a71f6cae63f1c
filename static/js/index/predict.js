// predict.js - predict, then reveal: while the mode is on (?predict=1, the P
// key, or a lesson step marked as a question) the verdicts, the wavefront
// numbers and the bank charts stay hidden (style.css, html[data-predict="ask"])
// until the student commits a guess (how many wavefronts, and which bank is
// hit hardest) or the teacher's clicker reveals it without one. The reveal puts the guess beside the API's answer. It must not
// compute the model: the answer is the access view's cost, printed.

import { esc } from '../kit/esc.js';
import { VERDICT } from '../kit/classes.js';
import { verdict } from './verdict.js';
import { stamp } from '../kit/stamps.js';

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js. */
export function createPredict(ctx) {
    const card = $('predict');
    let question = false;    // a lesson step asks
    let result = null;       // the access view's answer
    let guess = null;        // {wavefronts, bank} for the view `view`
    let view = '';           // the view guessed on (layout + access), so a new view asks again

    const on = () => ctx.state().predict || question;
    const viewKey = () => { const st = ctx.state(); return JSON.stringify([st.b, st.m, st.s, st.bank_bytes, st.banks, st.rows, st.match, st.acc, st.pat, st.step, st.offs, st.expr, st.op, st.bytes, st.mats, st.trans, st.space]); };

    function draw() {
        const active = on();
        if (guess && view !== viewKey()) guess = null;
        const mode = !active ? '' : guess ? 'shown' : 'ask';
        if (document.documentElement.dataset.predict !== mode) document.documentElement.dataset.predict = mode;
        card.hidden = !active;
        if (!active) { stamp('predict', ''); return; }
        if (!guess) {
            card.innerHTML = `<h3>Predict first</h3><p class="fine">The answer is hidden until you guess.</p>
<form id="predict-form" class="predict-form" autocomplete="off">
<label class="vfield" for="predict-wf"><span class="name">How many wavefronts?</span><input id="predict-wf" type="number" min="1" step="1" inputmode="numeric" required></label>
<label class="vfield" for="predict-bank"><span class="name">Which bank is hit hardest? <small>(optional)</small></span><input id="predict-bank" type="number" min="0" step="1" inputmode="numeric"></label>
<button type="submit" class="btn primary" id="predict-reveal">Reveal</button></form>`;
            stamp('predict', 'ask');
            return;
        }
        const c = result && result.cost;
        if (!c) { card.innerHTML = '<p class="fine">No answer for this view yet.</p>'; return; }
        const v = verdict(c), ph = c.phases && (c.phases.find((p) => p.max_per_bank === c.ways) || c.phases[0]), worst = ph ? ph.worst_bank : null;
        const mark = (ok) => (ok ? '<span class="predict-ok">right</span>' : '<span class="predict-no">not quite</span>');
        card.innerHTML = `<h3>Your guess beside the answer</h3>
<table class="predict-table" id="predict-table"><thead><tr><th></th><th>Your guess</th><th>The answer</th><th></th></tr></thead><tbody>
<tr><th>Wavefronts</th><td id="predict-guess-wf">${guess.wavefronts === null ? 'no guess' : guess.wavefronts}</td><td id="predict-answer-wf">${c.wavefronts}</td><td>${guess.wavefronts === null ? '' : mark(guess.wavefronts === c.wavefronts)}</td></tr>
${guess.bank === null ? '' : `<tr><th>Hardest-hit bank</th><td id="predict-guess-bank">${guess.bank}</td><td id="predict-answer-bank">${worst === null ? '\u2014' : worst}</td><td>${mark(guess.bank === worst)}</td></tr>`}
</tbody></table><p class="${VERDICT} ${v.cls}" id="predict-verdict">${esc(v.text)}</p>
<button type="button" class="btn" id="predict-again">Guess again</button>`;
        stamp('predict', 'shown');
    }

    // The guess in the form; `blank` allows none (a clicker's key reveals a
    // question whatever the boxes hold: an empty box is no guess).
    function commit(blank) {
        const wf = $('predict-wf').value.trim(), bank = $('predict-bank').value.trim();
        if (!blank && !/^\d+$/.test(wf)) { $('predict-wf').focus(); return; }
        guess = { wavefronts: /^\d+$/.test(wf) ? Number(wf) : null, bank: /^\d+$/.test(bank) ? Number(bank) : null };
        view = viewKey();
        draw();
    }
    card.addEventListener('submit', (e) => { e.preventDefault(); commit(false); });
    card.addEventListener('click', (e) => { if (e.target.id === 'predict-again') { guess = null; draw(); } });

    // P toggles the mode (not while typing in a field).
    function onKey(e) {
        if (e.key !== 'p' && e.key !== 'P') return false;
        if (e.altKey || e.ctrlKey || e.metaKey || (e.target.closest && e.target.closest('input, select, textarea, [contenteditable]'))) return false;
        ctx.set({ predict: !ctx.state().predict }, true);
        guess = null;
        draw();
        return true;
    }

    return {
        update(r) { result = r; draw(); },
        sync: () => draw(),
        setQuestion(q) { if (q !== question) { question = q; guess = null; } draw(); },
        /** True while the mode hides an answer this view has (a reveal would show it). */
        asking: () => on() && !(guess && view === viewKey()),
        /** Reveal with what the form holds, a guess or none (the clicker's first key). */
        reveal: () => { if (card.querySelector('#predict-form')) commit(true); },
        onKey,
    };
}
