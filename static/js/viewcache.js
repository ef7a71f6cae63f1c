// viewcache.js - keeps a drawn map when a new answer would draw it the same:
// the inputs (sizes, flags, and the API's arrays by content) are compared with
// the ones it was drawn from. Rebuilding thousands of SVG nodes costs the
// browser more than the comparison. It must not look inside the arrays' meaning.

function same(a, b) {
    if (a === b) return true;
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
        return true;
    }
    return false;
}

export class ViewCache {
    constructor() { this.kept = new Map(); }   // element id -> {inputs, view}

    // The view for element `id`: the kept one when `inputs` (a flat object of
    // numbers, strings, booleans, arrays and null) match what it was drawn
    // from and it is still in the page, else make() drawn anew.
    get(id, inputs, make) {
        const k = this.kept.get(id);
        if (k && k.view.svg.isConnected && Object.keys(inputs).length === Object.keys(k.inputs).length &&
            Object.keys(inputs).every((key) => same(inputs[key], k.inputs[key]))) return k.view;
        const view = make();
        this.kept.set(id, { inputs, view });
        return view;
    }

    clear() { this.kept.clear(); }
}
