// stamps.js - the data-* stamps on <body> that the browser tests and the
// render bench (bench/render-lib.mjs) wait on and read: every name is here
// once, and only this module writes them. Imports under node (it touches the
// document only when called). It must not carry page state: stamps report.

export const STAMPS = Object.freeze({
    ready: 'ready',             // load n done: maps, panels and the URL (tests wait on it)
    followed: 'followed',       // index: a back/forward (popstate) followed: layout, panels and lesson as the URL says (a count)
    shown: 'shown',             // load n: what is on screen is drawn (render bench)
    renderMs: 'renderMs',       // ms to render the layout answer
    cycleMs: 'cycleMs',         // ms from a control change to its render
    api: 'api',                 // JSON: where the page's requests were answered from
    inspected: 'inspected',     // "row,col" shown in the inspector, '' for none
    bankcell: 'bankcell',       // the bank word the inspector describes, "plain|swizzled:bank,row"; '' for none
    handout: 'handout',         // the lesson handout: 'building', then 'ready' (every step drawn for print); '' for none
    traceReady: 'traceReady',   // trace panel drawn (a count)
    scoreReady: 'scoreReady',   // scorecard drawn (a count)
    accessShown: 'accessShown', // access view: what is on screen is drawn (a count)
    accessReady: 'accessReady', // access view: all of it drawn and the URL written (a count)
    accessMs: 'accessMs',       // ms from a step change to its render
    measuring: 'measuring',     // '1' while a measurement runs
    measured: 'measured',       // measurements finished (a count)
    counters: 'counters',       // 'pending' while ncu reads the counters of cycles on screen
    inflight: 'inflight',       // the page's own API requests on the wire now
    held: 'held',               // index: drawings held for after the next frame or running (later.js; 0: drawn)
    lesson: 'lesson',           // the lesson step whose narration is on screen ('' outside a lesson)
    predict: 'predict',         // predict, then reveal: 'ask' (answers hidden), 'shown' (guess beside answer), '' (off)
    linearReady: 'linearReady', // linear.html: a view drawn from its answer and the URL written (a count)
    bankMarks: 'bankMarks',     // linear.html: slots the bank view outlines now
    ncuReady: 'ncuReady',       // layout.html: an ncu explanation (or its error) drawn (a count)
});

// Set stamp `name` (a key of STAMPS) to `value`.
export function stamp(name, value) {
    if (!(name in STAMPS)) throw new Error(`stamps.js: no stamp named ${name}`);
    document.body.dataset[STAMPS[name]] = String(value);
}

// Add one to a counting stamp; returns the new count.
export function bump(name) {
    const n = Number(document.body.dataset[STAMPS[name]] || 0) + 1;
    stamp(name, n);
    return n;
}
