// boot.js - starts the page (app.js) once its first contentful paint is on
// screen: fetched and compiled alongside that first frame, the page's ~40
// modules held it up by 100-150 ms on 2 CPUs (issue 14, bench/README.md).
// It must not do anything but start app.js.

let started = false;

function start() {
    if (started) return;
    started = true;
    import('./app.js');
}

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
