// classes.js - the CSS class names the page's JS writes (uPlot's `pre + name`
// style): those toggled on live elements, those several modules write, and
// those the browser tests select by. A class that one template writes for
// style only stays in that template. It must not touch the DOM.

const pre = '';   // style.css's names carry no prefix today: add one here and there

// States toggled on live elements.
export const INVALID = pre + 'invalid';         // a control the server blamed
export const BUSY = pre + 'busy';               // <body> while a load runs
export const ERROR = pre + 'error';             // the readout of invalid parameters
export const WARN = pre + 'warn';               // a note that warns
export const STACK = pre + 'stack';             // wide grids, one under the other
export const EMPTY = pre + 'empty';             // a figure with no map (no export)
export const FAR = pre + 'far';                 // a map far from the window (canvas hidden)
export const MARKING = pre + 'marking';         // a map showing access outlines
export const TRACING = pre + 'tracing';         // a map tracing a column
export const OFF = pre + 'off';                 // a count that is not what it should be
export const ON = pre + 'on';                   // a pressed toggle button (play)
export const UNAVAILABLE = pre + 'unavailable'; // measurement status when it cannot run
export const DIFFER = pre + 'differ';           // measured and predicted differ; cycles != wavefronts
export const EDITED = pre + 'edited';           // the readout's parameter being typed
export const LOOK = pre + 'look';               // what a lesson step asks the class to look at

// Verdicts and inline messages (access view, trace, scorecard, measure).
export const VERDICT = pre + 'verdict';
export const OK = pre + 'ok';
export const BAD = pre + 'bad';
export const TRACE_VERDICT = pre + 'trace-verdict';
export const INLINE_ERR = pre + 'inline-err';
export const INLINE_HINT = pre + 'inline-hint';
export const SWATCH = pre + 'swatch';

// Map parts (mapview.js; the tests select rect.mark, rect.sel, rect.hit).
export const CELL = pre + 'cell';
export const TRACE = pre + 'trace';
export const MARK = pre + 'mark';
export const SEL = pre + 'sel';
export const SEL_HALO = pre + 'sel-halo';
export const HIT = pre + 'hit';

// Address bit fields (bit strip, inspector).
export const YYY = pre + 'yyy';
export const ZZZ = pre + 'zzz';
export const UNIT = pre + 'unit';

// The 16 colours cells are keyed by, and the 8 phase colours.
export const key = (k) => `${pre}k${k % 16}`;
export const phase = (ph) => `${pre}ph${ph % 8}`;
