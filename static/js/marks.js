// marks.js - which map cells one warp instruction touches: each active lane's
// byte range [offset, offset + width) read against the contract's slot layout
// (physical slot p holds bytes [p * unit, (p + 1) * unit); the grid's log_of
// gives the logical unit stored there). It must not assign banks or phases:
// the phase of each lane comes from the API's lane detail.

const MATRIX_ROW_BYTES = 16;   // ldmatrix / stmatrix: each lane names one 16-byte row (PTX)

// r: {cost, ...} from the access view; d: the /api/swizzle answer.
// -> {swz: [{p, ph, title}], plain: [...], lanes, units, outside, phases}
export function accessMarks(r, d) {
    const c = r.cost, unit = d.unit.bytes, n = d.grid.log_of.length;
    const width = c.op === 'ld' || c.op === 'st' ? c.bytes : MATRIX_ROW_BYTES;
    const bySlot = new Map();
    let lanes = 0, outside = 0;
    const phases = new Set();
    for (const l of c.lanes) {
        if (!l.active) continue;
        lanes++;
        phases.add(l.phase);
        const p0 = Math.floor(l.offset / unit), p1 = Math.floor((l.offset + width - 1) / unit);
        if (p0 >= n) { outside++; continue; }
        for (let p = p0; p <= Math.min(p1, n - 1); p++) {
            if (!bySlot.has(p)) bySlot.set(p, { p, ph: l.phase, lanes: [] });
            bySlot.get(p).lanes.push(l.lane);
        }
    }
    const swz = [], plain = [];
    for (const m of bySlot.values()) {
        const who = m.lanes.length > 1 ? `lanes ${m.lanes.join(', ')}` : `lane ${m.lanes[0]}`;
        const title = `${who} (phase ${m.ph})`;
        swz.push({ p: m.p, ph: m.ph, title });
        plain.push({ p: d.grid.log_of[m.p], ph: m.ph, title });
    }
    return { swz, plain, lanes, units: bySlot.size, outside, phases: [...phases].sort((a, b) => a - b) };
}
