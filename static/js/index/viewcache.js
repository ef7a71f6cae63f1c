// viewcache.js - keeps a drawn map when a new answer would draw it the same:
// the inputs (sizes, flags, the API's arrays by content) are compared with the
// ones it was drawn from, cheaper than drawing anew (axes, tile lines, canvas).
// When only inputs that leave the map's shape and labelling alone differ (which
// unit a cell holds, the tile lines), the kept map is updated in place instead.
// It must not look inside the arrays' meaning.

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
    constructor() {
        this.kept = new Map();     // element id -> {inputs, view}
    }

    // The view for element `id`: the kept one when `inputs` (a flat object of
    // numbers, strings, booleans, arrays and null) match what it was drawn
    // from and it is still in the page; the kept one passed to update(view)
    // when only keys listed in `patch` differ; else make() drawn anew (a map
    // drawn anew reuses its element's canvas and SVG: mapview.js).
    get(id, inputs, make, patch = [], update = null) {
        const k = this.kept.get(id);
        const live = k && k.view.svg.isConnected && k.view.el.mapView === k.view;
        if (live && Object.keys(inputs).length === Object.keys(k.inputs).length) {
            const differ = Object.keys(inputs).filter((key) => !same(inputs[key], k.inputs[key]));
            if (!differ.length) return k.view;
            if (update && differ.every((key) => patch.includes(key))) {
                update(k.view);
                this.kept.set(id, { inputs, view: k.view });
                return k.view;
            }
        }
        const view = make();
        this.kept.set(id, { inputs, view });
        return view;
    }

    clear() { this.kept.clear(); }
}
