// render-lib.mjs - what the page benches share: how one control change is
// timed in the page (render.mjs, render-pair.mjs), how a first paint is read
// in it and the Chromium the page-against-peer benches launch (peer.mjs,
// fcp-pair.mjs), and the statistics they report. It launches nothing and
// prints nothing.

// The p-quantile of xs (the smallest value with at least p of xs at or under it).
export function quantile(xs, p) {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// The mean of xs, and a bootstrap 90% interval of it: 4000 resamples with a
// fixed seed, so that a run's output can be reproduced from its data. For
// per-round differences of two pages loaded in the same rounds.
export function meanInterval(xs) {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const ms = [];
    for (let b = 0; b < 4000; b++) {
        let s = 0;
        for (let k = 0; k < xs.length; k++) s += xs[Math.floor(rand() * xs.length)];
        ms.push(s / xs.length);
    }
    return { mean: mean(xs), lo: quantile(ms, 0.05), hi: quantile(ms, 0.95) };
}

export function stats(xs) {
    return { median: quantile(xs, 0.5), p95: quantile(xs, 0.95), min: Math.min(...xs), max: Math.max(...xs) };
}

// Make one change in the page; resolve with {ready, painted, frame, all, src}.
// shownKey: the page's stamp "what is on screen is drawn"; readyKey: "all
// drawn" (the sections out of sight follow one frame later, and the URL).
export function timedChange(page, sel, shownKey, readyKey) {
    return page.evaluate(([sel, shownKey, readyKey]) => new Promise((resolve) => {
        const shown0 = document.body.dataset[shownKey], ready0 = document.body.dataset[readyKey];
        const src0 = JSON.parse(document.body.dataset.api || '{}');
        let t0 = 0, shown = 0, out = null, all = null, src = null;
        const finish = () => { if (out && all !== null) { obs.disconnect(); resolve({ ...out, all }); } };
        const obs = new MutationObserver(() => {
            const now = performance.now() - t0;
            if (all === null && document.body.dataset[readyKey] !== ready0) { all = now; finish(); }
            if (shown || document.body.dataset[shownKey] === shown0) return;
            shown = now;
            const src1 = JSON.parse(document.body.dataset.api || '{}');
            src = {};
            for (const k of Object.keys(src1)) src[k] = src1[k] - (src0[k] || 0);
        });
        obs.observe(document.body, { attributes: true });
        // The first frame that begins after the page stamped "shown": this
        // callback is asked for before the change, so it runs first in its
        // frame, and its task runs as soon as that frame's style, layout,
        // paint and commit are done.
        const onFrame = () => {
            if (!shown) { requestAnimationFrame(onFrame); return; }
            const raf = performance.now() - t0;
            setTimeout(() => {
                const painted = performance.now() - t0;
                out = { ready: shown, painted, frame: painted - raf, src };
                finish();
            }, 0);
        };
        requestAnimationFrame(onFrame);
        // The step walks forward and back between 0 and its last step.
        let target = sel;
        if (sel === '#acc-next') {
            const r = document.querySelector('#acc-step');
            if (Number(r.value) >= Number(r.max)) window.__swzBack = true;
            if (Number(r.value) <= 0) window.__swzBack = false;
            if (window.__swzBack) target = '#acc-prev';
        }
        t0 = performance.now();
        if (sel === '#preset') {
            const p = document.querySelector('#preset');
            p.value = p.value === '128B' ? '64B' : '128B';
            p.dispatchEvent(new Event('change', { bubbles: true }));
            return;
        }
        document.querySelector(target).click();
    }), [sel, shownKey, readyKey]);
}

// The options of the one headless Chromium (fresh profile, 1440 x 900) in
// which the page-against-peer benches load both pages.
export const PEER_BROWSER = {
    executablePath: process.env.SWZ_CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1440, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

// Run in the page (page.evaluate): its first contentful paint and load event
// end, in ms. The paint can come after the load event (the peer draws before
// load, and paints after it): its entry is waited for.
export const paintTimes = () => new Promise((resolve) => {
    const done = (fcp) => resolve({ fcp, load: performance.getEntriesByType('navigation')[0].loadEventEnd });
    const have = performance.getEntriesByName('first-contentful-paint')[0];
    if (have) { done(have.startTime); return; }
    new PerformanceObserver((list, obs) => {
        const e = list.getEntriesByName('first-contentful-paint')[0];
        if (e) { obs.disconnect(); done(e.startTime); }
    }).observe({ type: 'paint', buffered: true });
});
