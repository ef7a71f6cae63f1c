// url.js - keeps the URL following the page state (state.js prints it): a
// write now or at the next flush, and writes waiting together make one
// history entry. It must not read the URL back into the state (app.js does,
// on load and popstate) nor hold any state of its own beyond the pending write.

import { toSearch } from '../kit/state.js';

/* state(): the page state; arm(): ask for a flush after the next frame. */
export function createURL(state, arm) {
    let pending = null;   // 'push' | 'replace' | null

    // push: a new history entry (else replace); defer: wait for flush().
    function write(push, defer = false) {
        pending = push || pending === 'push' ? 'push' : 'replace';
        if (defer) arm();
        else flush();
    }

    function flush() {
        const w = pending;
        pending = null;
        if (!w) return;
        const url = location.pathname + toSearch(state()) + location.hash;
        if (url === location.pathname + location.search + location.hash) return;
        if (w === 'push') history.pushState(null, '', url);
        else history.replaceState(null, '', url);
    }

    // The URL is the state now (popstate): drop a write still waiting.
    const drop = () => { pending = null; };

    return { write, flush, drop };
}
