// boot.js - starts the page once its first contentful paint is on screen:
// shows the sections below the first screen (data-booted, style.css), asks
// the API its first questions (api.startup), asks for every module of the
// first screen at once (MODULES) and starts app.js. It must not do
// anything but start the page; its lists of modules (MODULES, LATER) must be
// the page's import graph (tests/node/preload.test.mjs reads them).

import { startup } from '../kit/api.js';
import { fromSearch, apiQuery, namedStep } from '../kit/state.js';

// Every module the first screen needs, at any depth: app.js's static import
// graph. Imported one level at a time, the graph took four round trips after
// the first paint; asked for together, one. (Listed in the HTML instead, they
// were fetched before the first paint and held it up by 100 ms on 2 CPUs:
// bench/peer.sh.) Paths under js/, as the preload links name them.
const MODULES = [
    'kit/api.js', 'kit/stamps.js', 'kit/state.js', 'index/app.js', 'index/inspector.js',
    'kit/dom.js', 'kit/esc.js', 'kit/classes.js', 'index/slotrule.js', 'index/access.js',
    'kit/bankchart.js', 'index/verdict.js', 'kit/offsets.js', 'index/hints.js', 'kit/ops.js',
    'index/limits.js', 'index/fixes.js', 'index/baseline.js', 'index/custom.js',
    'index/patterns.js', 'index/measure.js', 'index/display.js', 'index/maps.js', 'kit/mapview.js',
    'kit/maplayout.js', 'kit/paint.js', 'index/elements.js', 'index/viewcache.js', 'kit/marks.js',
    'index/selection.js', 'index/bankcell.js', 'index/banner.js', 'index/url.js',
    'index/readout.js', 'index/explain.js', 'index/peek.js', 'index/lesson.js',
    'index/lessondata.js', 'index/predict.js', 'index/typing.js', 'index/verdictline.js',
    'index/export.js', 'index/later.js', 'kit/caret.js'
];
// The rest of the page, not preloaded: app.js imports them (import()) once
// the first screen is drawn (extras.js), so that they do not share the
// connections with the modules above. Fewer modules before it: first screen
// sooner (bench/README.md).
const LATER = [
    'index/scorecard.js', 'index/recommend.js', 'index/trace.js', 'index/extras.js',
    'index/lessonedit.js', 'index/handout.js', 'index/prefetch.js', 'index/codepanel.js'
];

let started = false;

function start() {
    if (started) return;
    started = true;
    // The sections below the first screen, left out of the first paint (style.css).
    document.documentElement.setAttribute('data-booted', '');
    // The page's first answers, asked first: they arrive while the modules
    // load. (Asked when boot.js ran, before the first paint, their answers
    // were handled in that paint's way: first paint 120 -> 136 ms.)
    const st = fromSearch(location.search);
    startup(apiQuery(st), namedStep(st));
    for (const m of MODULES) {
        const l = document.createElement('link');
        l.rel = 'modulepreload';
        // resolved through the page's import map: the versioned URL the
        // import below asks for (a preload's href is not mapped)
        l.href = import.meta.resolve('../' + m);
        document.head.append(l);
    }
    import('./app.js');
}

// Evaluated in the first frame, the page's modules held the first paint up
// (issue 14, bench/README.md): app.js starts once that paint is on screen.
// A module script runs once the document is parsed. No paint is coming (a
// hidden tab) or none can be observed: start at once. The timer is a guard
// only; the paint comes long before it.
if (document.visibilityState === 'hidden' || !(PerformanceObserver.supportedEntryTypes || []).includes('paint')) start();
else {
    new PerformanceObserver((list, obs) => {
        if (list.getEntriesByName('first-contentful-paint').length) { obs.disconnect(); start(); }
    }).observe({ type: 'paint', buffered: true });
    setTimeout(start, 1000);
}
