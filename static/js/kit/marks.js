// marks.js - the outlines one warp instruction puts on the maps, from the
// `cells` of its /api/access answer: the swizzled maps outline each physical
// slot it touches, the plain maps the logical unit stored there, each in the
// colour of its phase. It must not compute slots, widths, banks or phases:
// the server says which cells the lanes touch (CONTRACT: access `cells`).

// r: the access view's result {cost, cells}.
// -> {swz: [{p, ph, title}], plain: [...], lanes, units, outside, phases}
export function accessMarks(r) {
    const cells = r.cells || { slots: [], outside: 0 };
    const swz = [], plain = [];
    for (const s of cells.slots) {
        const who = s.lanes.length > 1 ? `lanes ${s.lanes.join(', ')}` : `lane ${s.lanes[0]}`;
        const title = `${who} (phase ${s.phase})`;
        swz.push({ p: s.slot, ph: s.phase, title });
        plain.push({ p: s.logical, ph: s.phase, title });
    }
    // The active lanes and their phases, as the cost's lane detail lists them.
    const phases = new Set();
    let lanes = 0;
    for (const l of r.cost.lanes) if (l.active) { lanes++; phases.add(l.phase); }
    return { swz, plain, lanes, units: cells.slots.length, outside: cells.outside, phases: [...phases].sort((a, b) => a - b) };
}
