// extras.js - what the page's first screen does not draw, wired once that
// screen is drawn (app.js imports this module then): the panels of PANELS'
// `later` rows, the lesson editor, the handout and asking ahead (prefetch).
// Fewer modules stand before the first screen (boot.js: MODULES, LATER). It
// wires and starts the later panels' first drawing (the page's, as the
// other panels'); it must not draw by itself.

import { createLessonEdit } from './lessonedit.js';
import { createHandout } from './handout.js';
import { createPrefetch } from './prefetch.js';

/**
 * Load the `later` rows' modules and wire everything; resolves to
 * {prefetcher (prefetch.js), drawn: a promise, the later panels' first
 * drawing done}. page: {ctx (PageCtx), lesson (lesson.js), maps
 * (maps.js), panels (app.js's PANELS), presets: () => the preset list,
 * boot: () => the start-up answers or null, result: () => the access view's
 * last answer or null}. A later row's panel gets what the others got at start
 * (boot, sync, the last result) and draws the layout on screen now: the first
 * screen is drawn, and its requests are on the wire before this resolves.
 */
export async function wireExtras(page) {
    const { ctx, panels } = page;
    const rows = panels.filter((row) => row.later);
    const creates = await Promise.all(rows.map((row) => row.later()));
    createLessonEdit(ctx, page.lesson);
    createHandout(ctx, page.lesson, page.maps, page.result);
    const drawn = rows.map((row, i) => {
        row.p = creates[i](ctx);
        if (row.boot && page.boot()) row.boot(row.p, page.boot());
        if (row.sync) row.sync(row.p);
        if (row.result && page.result()) row.result(row.p, page.result());
        return row.follows ? row.refresh(row.p, ctx.data()) : null;
    });
    const prefetcher = createPrefetch({
        presets: page.presets,
        near: panels.filter((row) => row.near).map((row) => () => row.near(row.p)),
        panels: panels.filter((row) => row.prefetch).map((row) => (q, st, d) => row.prefetch(row.p, q, st, d)),
    });
    return { prefetcher, drawn: Promise.all(drawn) };
}
