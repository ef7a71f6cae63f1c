// extras.js - what the page's first screen does not draw, wired once that
// screen is drawn (app.js imports this module then): the panels of PANELS'
// `later` rows, the lesson editor, the handout and asking ahead (prefetch).
// Fewer modules stand before the first screen (boot.js: MODULES, LATER). It
// wires; it must not draw: a later panel draws in the page's next flush.

import { createLessonEdit } from './lessonedit.js';
import { createHandout } from './handout.js';
import { createPrefetch } from './prefetch.js';

/**
 * Load the `later` rows' modules and wire everything; resolves to the page's
 * prefetcher (prefetch.js). page: {ctx (PageCtx), lesson (lesson.js), maps
 * (maps.js), panels (app.js's PANELS), presets: () => the preset list,
 * boot: () => the start-up answers or null, result: () => the access view's
 * last answer or null}. A later row's panel gets what the others got at start
 * (boot, sync, the last result), and its drawing is held for the next flush.
 */
export async function wireExtras(page) {
    const { ctx, panels } = page;
    const rows = panels.filter((row) => row.later);
    const creates = await Promise.all(rows.map((row) => row.later()));
    createLessonEdit(ctx, page.lesson);
    createHandout(ctx, page.lesson, page.maps);
    rows.forEach((row, i) => {
        row.p = creates[i](ctx);
        if (row.boot && page.boot()) row.boot(row.p, page.boot());
        if (row.sync) row.sync(row.p);
        if (row.result && page.result()) row.result(row.p, page.result());
        if (row.follows) ctx.later(row.id, () => row.refresh(row.p, ctx.data()));
    });
    return createPrefetch({
        presets: page.presets,
        near: panels.filter((row) => row.near).map((row) => () => row.near(row.p)),
        panels: panels.filter((row) => row.prefetch).map((row) => (q, st, d) => row.prefetch(row.p, q, st, d)),
    });
}
