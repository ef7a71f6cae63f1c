// lesson.js - the lesson mode: plays a lesson (lessondata.js) step by step with
// Space / arrows / PageDown (a clicker) / Escape, its bar holding the focus.
// Each step is a URL (lesson=k and its state); it outlines what to look at,
// scrolls it above the bar, and narrates from the answers on screen through
// the step's placeholders; a question step hides the answer until the
// student guesses or the first forward key reveals it (predict.js). It must not compute the model.

import * as api from '../kit/api.js';
import { stamp } from '../kit/stamps.js';
import { LOOK } from '../kit/classes.js';
import { esc } from '../kit/esc.js';
import { readLesson, stepState, namespace, fill, unpackLesson } from './lessondata.js';

const $ = (id) => document.getElementById(id);
export const BUILTIN = 'lessons/intro.json';
const FOCUS = 'look-focus';

/* ctx: the PageCtx of app.js; parts: {access(): the access view's result,
 * measure(): measure.js, predict: predict.js}. */
export function createLesson(ctx, parts) {
    const ui = { bar: null, start: $('lesson-start') };
    let seq = 0;
    let lesson = null, lessonFrom = null;   // the lesson played, and where it came from

    // The lesson the page names: the share link's hash, ?lsrc=, else the built-in one.
    async function source() {
        const h = /(?:^#|&)lesson=([A-Za-z0-9_-]+)/.exec(location.hash);
        const from = h ? 'hash:' + h[1] : ctx.state().lsrc || BUILTIN;
        if (lesson && lessonFrom === from) return lesson;
        lesson = h ? unpackLesson(h[1]) : readLesson(await api.lessonFile(from));
        lessonFrom = from;
        return lesson;
    }
    /** Play lesson l (already read) from its first step. */
    function play(l, from) { lesson = l; lessonFrom = from; go(0); }

    function bar() {
        if (ui.bar) return ui.bar;
        const el = document.createElement('aside');
        el.id = 'lesson';
        el.className = 'lesson';
        el.tabIndex = -1;
        el.setAttribute('aria-live', 'polite');
        el.innerHTML = `<div class="lesson-head"><span id="lesson-step"></span><b id="lesson-title"></b>
<span class="lesson-keys">Space / &rarr; / PageDown next &middot; &larr; back &middot; Esc leaves</span>
<button type="button" class="btn icon" id="lesson-prev" aria-label="Previous step">&#9664;</button><button type="button" class="btn icon" id="lesson-next" aria-label="Next step">&#9654;</button><button type="button" class="btn" id="lesson-print-student" title="Every step on its own page; a question's answers left out, with room to write">Print for students</button><button type="button" class="btn" id="lesson-print" title="Every step on its own page: state, map, verdict, narration, the answers">Print for the teacher</button><button type="button" class="btn" id="lesson-exit">Leave</button></div>
<p id="lesson-text"></p><p id="lesson-ask" class="lesson-ask">Your guess first: answer above and press Reveal (or the next key: Space, &rarr;, PageDown). The narration follows the answer.</p><div id="lesson-numbers-box"></div>`;
        document.body.appendChild(el);
        el.querySelector('#lesson-prev').addEventListener('click', () => go(ctx.state().lesson - 1));
        el.querySelector('#lesson-next').addEventListener('click', () => go(ctx.state().lesson + 1));
        el.querySelector('#lesson-exit').addEventListener('click', leave);
        ui.bar = el;
        return el;
    }

    const differs = (st, want) => Object.keys(want).some((k) => JSON.stringify(st[k]) !== JSON.stringify(want[k]));

    function go(k) {
        if (!lesson || k < 0 || k >= lesson.steps.length) return;
        ctx.go({ ...stepState(lesson.steps[k]), lesson: k });
        sync();
    }

    function leave() {
        for (const e of document.querySelectorAll('.' + LOOK + ', .' + FOCUS)) e.classList.remove(LOOK, FOCUS);
        if (ui.bar) ui.bar.hidden = true;
        document.documentElement.dataset.lesson = '';
        parts.predict.setQuestion(false);
        stamp('lesson', '');
        ctx.go({ lesson: null });
    }

    // Bring el into sight between the top of the window and the lesson bar
    // (the whole window when the bar is docked beside it).
    function scrollAbove(el, barEl) {
        const b = barEl.getBoundingClientRect(), r = el.getBoundingClientRect();
        const beside = b.left >= r.right || b.right <= r.left;
        const room = (beside ? window.innerHeight : b.top) - 8;
        const top = r.height <= room ? window.scrollY + r.top - Math.max(8, (room - r.height) / 2) : window.scrollY + r.top - 8;
        window.scrollTo({ top: Math.max(0, top), behavior: 'instant' });
    }

    // The per-preset numbers a step quotes, as the access view's compare answers them.
    function numbersHTML(kind, r) {
        const cmp = kind === 'compare' && r && r.access ? r.access.compare : null;
        if (!cmp) return '';
        const names = ctx.presets();
        const rows = cmp.swizzles.map((c, i) => `<tr><td>${esc((names[i] && names[i].label) || c.name || '')}</td><td class="num">${c.wavefronts === undefined ? '\u2014' : c.wavefronts}</td></tr>`).join('');
        return `<table class="lesson-numbers"><thead><tr><th>Preset</th><th>Wavefronts</th></tr></thead><tbody id="lesson-numbers">${rows}</tbody></table>`;
    }

    // Show the state's step: set its state when the URL lacks it, outline what
    // to look at, then narrate from the answers once they are drawn.
    async function sync() {
        const st = ctx.state(), k = st.lesson, my = ++seq;
        if (k === null || k === undefined) { if (ui.bar) ui.bar.hidden = true; parts.predict.setQuestion(false); return; }
        const el = bar();
        el.hidden = false;
        document.documentElement.dataset.lesson = '1';
        const text = el.querySelector('#lesson-text');
        try { await source(); } catch (e) {
            if (my !== seq) return;
            text.textContent = `This lesson could not be read: ${e.message}`;
            stamp('lesson', k);
            return;
        }
        if (my !== seq) return;
        const n = lesson.steps.length, s = lesson.steps[Math.max(0, Math.min(n - 1, k))];
        const want = stepState(s);
        if (differs(st, want)) ctx.go(want);
        el.dataset.steps = String(n);
        el.querySelector('#lesson-step').textContent = `Step ${k + 1} of ${n}`;
        el.querySelector('#lesson-title').textContent = s.title;
        text.textContent = '\u2026';
        el.querySelector('#lesson-numbers-box').innerHTML = '';
        if (!el.contains(document.activeElement)) el.focus({ preventScroll: true });
        parts.predict.setQuestion(s.question);
        for (const e of document.querySelectorAll('.' + LOOK + ', .' + FOCUS)) e.classList.remove(LOOK, FOCUS);
        await ctx.loaded();
        if (my !== seq) return;
        const looks = s.look.map((id) => $(id)).filter(Boolean);
        for (const e of looks) e.classList.add(LOOK);
        const f = (s.focus && $(s.focus)) || looks[0];
        if (f) { f.classList.add(FOCUS); scrollAbove(f, el); }
        const d = ctx.data(), r = parts.access();
        if (!d || !r) { text.textContent = 'This step has nothing on screen to talk about: the page could not draw it.'; stamp('lesson', k); return; }
        let ins = null, m = null;
        if (st.sel) { try { ins = await api.inspect(ctx.query(), st.sel[0], st.sel[1]); } catch { ins = null; } }
        if (s.measure) {
            const mm = parts.measure(), h = mm.health();
            m = h.available ? await mm.run() : null;
        }
        if (my !== seq) return;
        const ns = namespace({ d, r, ins, m });
        text.textContent = fill(s.measure && !(m && m.measured) && s.text_no_gpu ? s.text_no_gpu : s.text, ns);
        el.querySelector('#lesson-numbers-box').innerHTML = numbersHTML(s.numbers, r);
        if (f) scrollAbove(f, el);   // the narration may have grown the bar
        stamp('lesson', k);
    }

    // Space / arrows / PageDown / Escape while a lesson runs, on the page or on
    // the lesson's own buttons (a clicker sends PageDown); true when the key was its.
    function onKey(e) {
        const k = ctx.state().lesson;
        if (k === null || k === undefined || e.altKey || e.ctrlKey || e.metaKey) return false;
        const own = ui.bar && ui.bar.contains(e.target);
        if (!own && e.target.closest && e.target.closest('input, select, textarea, button, [contenteditable]')) return false;
        const step = { ' ': 1, ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 }[e.key];
        // On a question not yet answered, the first forward key reveals it (a
        // clicker has no Reveal button); the next one moves on.
        if (step === 1 && parts.predict.asking()) { e.preventDefault(); parts.predict.reveal(); return true; }
        if (step) { e.preventDefault(); go(k + step); return true; }
        if (e.key === 'Escape') { e.preventDefault(); leave(); return true; }
        return false;
    }

    /** Step k of the lesson on screen, narrated (handout.js); resolves when drawn. */
    async function showStep(k) {
        await source();
        ctx.go({ ...stepState(lesson.steps[k]), lesson: k });
        await sync();
    }

    if (ui.start) ui.start.addEventListener('click', () => source().then(() => go(0)).catch((e) => { bar().hidden = false; bar().querySelector('#lesson-text').textContent = `This lesson could not be read: ${e.message}`; }));
    return { sync, onKey, play, showStep, load: source, current: () => lesson };
}
