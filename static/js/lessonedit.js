// lessonedit.js - a teacher's own lesson: "Add this view" takes the view on
// screen (its URL parameters) with a title, narration ({placeholders},
// lessondata.js) and a question flag as a step of a draft kept in this
// browser; the draft plays, goes into a share link (#lesson=...), downloads
// as JSON, and a JSON file opens and plays. It must not compute the model:
// narration is filled from the API's answers when the step plays.

import { readLesson, viewParams, packLesson } from './lessondata.js';
import { esc } from './esc.js';

const $ = (id) => document.getElementById(id);
const KEY = 'swizzlescope-lesson-draft';

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
            l.steps.push({ title: title || `Step ${l.steps.length + 1}`, state: viewParams(ctx.state()), text, question: dlg.querySelector('#le-question').checked, look: ['access'], focus: 'acc-summary' });
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

    if (open) open.addEventListener('click', () => { if (!dlg) build(); list(); dlg.showModal(); });
    return { draft };
}
