// prefetch.js - asks the API ahead, in the page's idle time, for what the
// next control change is likely to need: the drawn layout with "match row
// width" flipped and the other presets at the current geometry, each with the
// requests its panels (access view, scorecard, trace) would then send.
// api.js keeps the answers, so such a change draws from memory. It forms the
// queries the panels would; it must not compute the model nor draw anything.

import * as api from '../kit/api.js';
import { apiQuery } from '../kit/state.js';

// A layout answer grows with its cells (about 12 bytes each): past this many
// the alternatives are asked for only when the user changes to them.
const MAX_CELLS = 1 << 16;

const idle = () => new Promise((resolve) => {
    if (window.requestIdleCallback) requestIdleCallback(resolve, { timeout: 400 });
    else setTimeout(resolve, 20);
});

/* presets(): the /api/presets list; near: [() => void], first asks (the
 * neighbours of what is on screen, such as the next register step);
 * panels: [(q, st, d) => void], each asks ahead (api.prefetch) what it would
 * ask for layout query q, state st and layout answer d. */
export function createPrefetch({ presets, near = [], panels }) {
    let gen = 0;

    // The states one control change away, likeliest first: the match toggle,
    // then the presets nearest the current one in the menu.
    function alternatives(st) {
        const out = [{ ...st, match: !st.match }];
        const list = presets();
        const at = list.findIndex((p) => String(p.b) === st.b && String(p.m) === st.m && String(p.s) === st.s);
        const others = list.map((p, i) => [p, i]).filter(([, i]) => i !== at)
            .sort((x, y) => (at < 0 ? x[1] - y[1] : Math.abs(x[1] - at) - Math.abs(y[1] - at) || x[1] - y[1]));
        for (const [p] of others) out.push({ ...st, b: String(p.b), m: String(p.m), s: String(p.s) });
        return out;
    }

    // After a render of state st with layout answer d (null: nothing valid
    // drawn, nothing asked). A later call or cancel() stops the walk.
    async function schedule(st, d) {
        const my = ++gen;
        await idle();
        if (my !== gen) return;
        for (const ask of near) ask();
        if (!d || d.grid.rows * d.grid.cols > MAX_CELLS) return;
        for (const alt of alternatives(st)) {
            await idle();
            if (my !== gen) return;
            const q = apiQuery(alt);
            let da;
            try { da = await api.prefetch.swizzle(q); } catch { continue; }   // refused: its panels would not ask
            if (my !== gen) return;
            for (const ask of panels) ask(q, alt, da);
        }
    }

    return { schedule, cancel() { gen++; } };
}
