// viewcache.js - keeps a drawn map when a new answer would draw it the same:
// the inputs (sizes, flags, and the API's arrays by content) are compared with
// the ones it was drawn from. Rebuilding thousands of SVG nodes costs the
// browser more than the comparison. When only inputs that leave the map's
// shape alone differ (which unit a cell holds, its label, the tile lines), the
// kept map is updated in place instead of drawn anew. It must not look inside
// the arrays' meaning.

function same(a, b) {
    if (a === b) return true;
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
        return true;
    }
    return false;
}

const sameInputs = (a, b) => Object.keys(a).length === Object.keys(b).length &&
    Object.keys(a).every((key) => same(a[key], b[key]));
const PARKED = 3;   // views of another shape kept aside per element (a tile switches between presets)

export class ViewCache {
    constructor() {
        this.kept = new Map();     // element id -> {inputs, view}
        this.parked = new Map();   // element id -> [{inputs, view}], views taken out of the page, newest first
    }

    // The view for element `id`: the kept one when `inputs` (a flat object of
    // numbers, strings, booleans, arrays and null) match what it was drawn
    // from and it is still in the page; the kept one passed to update(view)
    // when only keys listed in `patch` differ; one drawn before for the same
    // inputs and parked, put back (maps that do not scroll); else make()
    // drawn anew.
    get(id, inputs, make, patch = [], update = null) {
        const k = this.kept.get(id);
        const live = k && k.view.svg.isConnected;
        if (live && Object.keys(inputs).length === Object.keys(k.inputs).length) {
            const differ = Object.keys(inputs).filter((key) => !same(inputs[key], k.inputs[key]));
            if (!differ.length) return k.view;
            if (update && differ.every((key) => patch.includes(key))) {
                update(k.view);
                this.kept.set(id, { inputs, view: k.view });
                return k.view;
            }
        }
        const parked = this.parked.get(id) || [];
        const i = parked.findIndex((x) => sameInputs(x.inputs, inputs));
        const back = i >= 0 ? parked.splice(i, 1)[0] : null;
        // The view leaving the page is parked for when its inputs come back.
        if (live && !k.view.scrolls) parked.unshift(k);
        parked.length = Math.min(parked.length, PARKED);
        this.parked.set(id, parked);
        if (back) {
            back.view.el.replaceChildren(back.view.svg);
            this.kept.set(id, back);
            return back.view;
        }
        const view = make();
        this.kept.set(id, { inputs, view });
        return view;
    }

    clear() { this.kept.clear(); this.parked.clear(); }
}
