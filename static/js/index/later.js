// later.js - on screen first: a change draws the sections in sight at once
// and holds the drawing of the others until right after the next frame, so
// that work nobody sees yet stays off the path to the screen (and is still
// done, a frame later: a full-page screenshot shows every section). Sections
// in sight come from an IntersectionObserver. It schedules; it must not draw.

import { stamp } from '../kit/stamps.js';

// Right after the next frame is painted (a timer stands in where no frame
// comes, as in a hidden tab).
export function afterPaint() {
    return new Promise((resolve) => {
        let done = false;
        const go = () => { if (!done) { done = true; resolve(); } };
        requestAnimationFrame(() => setTimeout(go, 0));
        setTimeout(go, 100);
    });
}

/* sections: the elements to watch (the page's <section>s); beforeFlush():
 * runs first in every flush (the page writes its URL there); parts: elements
 * inside sections watched on their own (inSight). */
export function createLater(sections, beforeFlush = () => {}, parts = []) {
    const seen = new Set(), own = new Set(parts);
    let known = false;   // until the observer reports (the first load), every section counts as in sight
    const io = new IntersectionObserver((entries) => {
        known = true;
        for (const e of entries) { if (e.isIntersecting) seen.add(e.target); else seen.delete(e.target); }
    });
    for (const s of [...sections, ...own]) io.observe(s);

    const held = new Map();   // key -> drawing held for after the frame (the latest per key)
    let armed = false;

    // Is the section holding element `el` on screen?
    function inView(el) {
        const sec = el && el.closest('section');
        return !known || !sec || seen.has(sec);
    }

    // Is `el`, one of the parts, or the part (a <figure>) holding it, on screen?
    // (Not a part: its section's answer.)
    function inSight(el) {
        const part = own.has(el) ? el : el && el.closest('figure');
        return own.has(part) ? !known || seen.has(part) : inView(el);
    }

    // Where the watched elements are now, read from the layout (it forces
    // one): the observer reports a frame late, and its report from before
    // the first maps were drawn put sections in sight that the maps push out.
    // A part of a section out of sight is out of sight too, and is not read
    // (a section out of sight is not laid out: reading a part would lay it out).
    function measure() {
        const h = innerHeight, w = innerWidth;
        for (const el of [...sections, ...own]) {
            const sec = own.has(el) ? el.closest('section') : null;
            const r = sec && !seen.has(sec) ? null : el.getBoundingClientRect();
            if (r && r.bottom > 0 && r.top < h && r.right > 0 && r.left < w) seen.add(el); else seen.delete(el);
        }
        known = true;
    }

    // <body data-held>: how many drawings are held or running (0: the page
    // shows what its state says), for whoever reads the maps (the tests).
    const running = new Set();
    const count = () => stamp('held', held.size + running.size);

    // Run fn right after the next frame; a later fn with the same key replaces it.
    function later(key, fn) {
        held.set(key, fn);
        count();
        arm();
    }

    function arm() {
        if (armed) return;
        armed = true;
        afterPaint().then(() => { armed = false; flush(); });
    }

    // beforeFlush(), then every held drawing; resolves when they are drawn,
    // and the ones an earlier flush started too (a panel's own flush can run
    // the page's held drawings first: the page's flush must still wait on them).
    // A drawing that throws is reported, and does not hold up the others.
    function flush() {
        beforeFlush();
        const fns = [...held.values()];
        held.clear();
        for (const f of fns) {
            let p;
            try { p = Promise.resolve(f()).catch((e) => console.error(e)); } catch (e) { console.error(e); p = null; }
            if (p) { running.add(p); p.then(() => { running.delete(p); count(); }); }
        }
        count();
        return Promise.all([...running]);
    }

    const drop = (key) => { held.delete(key); count(); };
    return { inView, inSight, measure, later, arm, flush, drop };
}
