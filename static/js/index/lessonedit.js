// lessonedit.js - a teacher's own lesson: "Add this view" saves the view (its URL parameters,
// selected cell and traced column included), a title, narration ({placeholders}, lessondata.js),
// a question flag and what the class looks at (the panel in view, or the teacher's choice) as a
// step of a draft kept in this browser; the draft plays, shares as a link (#lesson=...), saves
// and opens as JSON. It must not compute the model: narration is filled from the API's answers.

import { readLesson, viewParams, packLesson } from './lessondata.js';
import { esc } from '../kit/esc.js';

const $ = (id) => document.getElementById(id);
const KEY = 'swizzlescope-lesson-draft';
// What a step can look at: the elements it outlines and the one it brings
// into sight (lesson.js), in the page's order. A step that names a map prints
// that map in the handout (handout.js).
export const LOOKS = [
    { id: 'tiles', label: 'The tiles (one swizzle tile, the XOR staircase)', look: ['tile-plain', 'tile-swz'], focus: 'tile-swz' },
    { id: 'grid', label: 'The full grid', look: ['grid-plain', 'grid-swz'], focus: 'grid-swz' },
    { id: 'trace', label: 'The traced column', look: ['trace'], focus: 'trace' },
    { id: 'banks', label: 'The bank maps', look: ['banks-plain', 'banks-swz'], focus: 'banks-swz' },
    { id: 'access', label: 'The warp access and its bank chart', look: ['access'], focus: 'acc-summary' },
    { id: 'scorecard', label: 'The write / read scorecard', look: ['scorecard'], focus: 'scorecard' },
];

// The LOOKS entry whose elements show most in the window (the panel the
// teacher was looking at), or null when none shows.
function lookInView() {
    let best = null, most = 0;
    for (const c of LOOKS) {
        let area = 0;
        for (const id of c.look) {
            const e = $(id);
            if (!e) continue;
            const r = e.getBoundingClientRect();
            const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0), h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
            if (w > 0 && h > 0) area += w * h;
        }
        if (area > most) { most = area; best = c; }
    }
    return best;
}

/* ctx: the PageCtx of app.js; lesson: lesson.js. */
export function createLessonEdit(ctx, lesson) {
    const open = $('lesson-edit');
    let dlg = null;

    function draft() {
        try { return readLesson(JSON.parse(localStorage.getItem(KEY) || '')); } catch { return { title: 'My lesson', steps: [] }; }
    }
    function keep(l) { localStorage.setItem(KEY, JSON.stringify(l)); }
    const shareURL = (l) => `${location.origin}${location.pathname}?lesson=0#lesson=${packLesson(l)}`;

    function list() {
        const l = draft();
        dlg.querySelector('#le-count').textContent = `${l.steps.length} step${l.steps.length === 1 ? '' : 's'} in your lesson`;
        dlg.querySelector('#le-steps').innerHTML = l.steps.map((s, i) => `<li>${esc(s.title)}${s.question ? ' <small>(question)</small>' : ''} <code>${esc(s.state)}</code></li>`).join('');
        for (const b of dlg.querySelectorAll('[data-needs-steps]')) b.disabled = !l.steps.length;
    }

    // Play lesson l: it goes into the URL's hash, so the address is its link.
    function play(l) {
        const packed = packLesson(l);
        history.replaceState(history.state, '', `${location.pathname}${location.search}#lesson=${packed}`);
        dlg.close();
        lesson.play(l, 'hash:' + packed);
    }

    function build() {
        dlg = document.createElement('dialog');
        dlg.id = 'lesson-dialog';
        dlg.className = 'lesson-dialog';
        dlg.innerHTML = `<form method="dialog" id="le-form"><h2>Your lesson</h2>
<p class="fine">A step is the view on screen now, your title and narration. In the narration,
{verdict}, {op}, {access.wavefronts}, {swizzle.name}, {swizzle.grid.rows}... are filled from the API's answer when the step plays (README, "The page").</p>
<label class="vfield" for="le-title"><span class="name">Step title</span><input id="le-title" type="text"></label>
<label class="vfield" for="le-text"><span class="name">Narration</span><textarea id="le-text" rows="3">{swizzle.name}: {verdict}.</textarea></label>
<label class="vfield" for="le-look"><span class="name">The class looks at</span><select id="le-look">${LOOKS.map((c) => `<option value="${c.id}">${esc(c.label)}</option>`).join('')}</select></label>
<p id="le-look-note" class="fine"></p>
<label class="check" for="le-question"><input id="le-question" type="checkbox"><span>A question: the answer stays hidden until a guess</span></label>
<div class="le-row"><button type="button" class="btn primary" id="le-add">Add this view as a step</button></div>
<p id="le-count" class="fine"></p><ol id="le-steps"></ol>
<div class="le-row"><button type="button" class="btn" id="le-play" data-needs-steps>Play</button>
<button type="button" class="btn" id="le-share" data-needs-steps>Share link</button>
<button type="button" class="btn" id="le-save" data-needs-steps>Save JSON</button>
<label class="btn" for="le-file">Open file<input id="le-file" type="file" accept="application/json,.json" hidden></label>
<button type="button" class="btn" id="le-clear" data-needs-steps>Clear</button>
<button type="submit" class="btn">Close</button></div>
<input id="le-link" type="text" readonly hidden aria-label="Share link">
<p id="le-error" class="inline-err" role="alert" hidden></p></form>`;
        document.body.appendChild(dlg);
        const err = (m) => { const e = dlg.querySelector('#le-error'); e.hidden = !m; e.textContent = m || ''; };
        dlg.querySelector('#le-add').addEventListener('click', () => {
            const l = draft(), title = dlg.querySelector('#le-title').value.trim();
            const text = dlg.querySelector('#le-text').value.trim();
            if (!text) { err('The narration is empty.'); return; }
            l.steps.push({ title: title || `Step ${l.steps.length + 1}`, state: viewParams(ctx.state()), text, question: dlg.querySelector('#le-question').checked, ...lookOf(dlg.querySelector('#le-look').value) });
            keep(l); err(''); list();
        });
        dlg.querySelector('#le-play').addEventListener('click', () => play(draft()));
        dlg.querySelector('#le-share').addEventListener('click', () => {
            const f = dlg.querySelector('#le-link');
            f.value = shareURL(draft()); f.hidden = false; f.select();
        });
        dlg.querySelector('#le-save').addEventListener('click', () => {
            const a = document.createElement('a');
            a.href = URL.createObjectURL(new Blob([JSON.stringify(draft(), null, 2)], { type: 'application/json' }));
            a.download = 'lesson.json';
            a.click();
            setTimeout(() => URL.revokeObjectURL(a.href), 1000);
        });
        dlg.querySelector('#le-file').addEventListener('change', async (e) => {
            const f = e.target.files[0];
            if (!f) return;
            try { const l = readLesson(JSON.parse(await f.text())); keep(l); list(); play(l); } catch (x) { err(`${f.name}: ${x.message}`); }
            e.target.value = '';
        });
        dlg.querySelector('#le-clear').addEventListener('click', () => { localStorage.removeItem(KEY); list(); });
    }

    const lookOf = (id) => { const c = LOOKS.find((x) => x.id === id) || LOOKS.find((x) => x.id === 'access'); return { look: [...c.look], focus: c.focus }; };

    // The dialog opens on what the teacher was looking at: the panel in view,
    // and says which cell and column the step keeps (they are in its state).
    function aim() {
        const seen = lookInView(), st = ctx.state();
        dlg.querySelector('#le-look').value = (seen || LOOKS.find((x) => x.id === 'access')).id;
        const keeps = [st.sel ? `the selected cell (row ${st.sel[0]}, column ${st.sel[1]})` : '', st.tcol !== null && st.tcol !== undefined ? `the traced column ${st.tcol}` : ''].filter(Boolean);
        dlg.querySelector('#le-look-note').textContent = `${seen ? `In view now: ${seen.label}.` : 'No panel in view: the warp access.'}${keeps.length ? ` The step keeps ${keeps.join(' and ')}.` : ''}`;
    }

    if (open) open.addEventListener('click', () => { if (!dlg) build(); aim(); list(); dlg.showModal(); });
    return { draft };
}
