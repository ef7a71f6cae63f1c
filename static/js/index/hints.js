// hints.js - a "how to fix it" line for an API error, chosen only by the name
// of the field the server blamed. The server's message says what is wrong and
// why; this table must not re-validate anything or guess beyond the field name,
// and it names instruction kinds only as the server's table (ops.js) has them
// and ranges only as the server's limits (limits.js) give them.

import { opKinds, menuOps } from '../kit/ops.js';
import { rangeText } from './limits.js';

// "a, b or c" / "a / b": the words of a list.
const or = (xs) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}` : xs.join(''));
const names = (pick) => opKinds().filter(pick).map((k) => k.name);
const matrixKinds = () => names((k) => k.matrix).join(' / ');

const FIX = {
    b: { name: 'B (BBits)', fix: () => `choose B ${rangeText('b') ? `in ${rangeText('b')} ` : ''}with B <= |S|: lower B or raise |S|` },
    m: { name: 'M (MBase)', fix: 'keep M + |S| + B <= 31; for an access pattern, make the unit (2^M bytes) at least as wide as one access' },
    s: { name: 'S (SShift)', fix: 'make |S| >= B (S = 0 only with B = 0), and M + |S| + B <= 31' },
    rows: { name: 'Rows', fix: 'use a whole number of swizzle periods (a multiple of 2^B rows), at most 2^20 cells' },
    bank_bytes: { name: 'Bytes per bank', fix: () => `pick a power of two${rangeText('bank_bytes') ? ` in ${rangeText('bank_bytes')}` : ''} (GPUs: 4)` },
    banks: { name: 'Banks', fix: () => `pick a power of two${rangeText('banks') ? ` in ${rangeText('banks')}` : ''} (GPUs: 32 banks of 4 bytes)` },
    match_bank_row: { name: 'Match row width', fix: 'untick "Match row width to the bank row"' },
    row: { name: 'row', fix: 'pick a cell inside the grid' },
    col: { name: 'col', fix: 'pick a cell inside the grid' },
    pattern: { name: 'Pattern', fix: 'pick a pattern from the list' },
    step: { name: 'Step', fix: 'move the step slider back into range' },
    // The instruction's fields: the words come from the server's kinds (ops.js).
    op: { name: 'Instruction', fix: () => `pick ${or(menuOps().map((k) => k.name))}` },
    bytes: {
        name: 'Bytes per lane',
        fix: () => {
            const bytes = opKinds().find((k) => k.operands.includes('bytes'));
            const row = opKinds().find((k) => k.matrix);
            return `use ${or((bytes ? bytes.widths : []).map(String))} bytes; ${matrixKinds()} rows are ${row ? row.default_bytes : '?'} bytes`;
        },
    },
    matrices: {
        name: 'Matrices',
        fix: () => { const row = opKinds().find((k) => k.matrix); return `use ${or((row ? row.matrices : []).map(String))} matrices, and only with ${matrixKinds()}`; },
    },
    trans: { name: '.trans', fix: () => `untick .trans unless the instruction is ${names((k) => k.operands.includes('trans')).join(' / ')}` },
    offsets: { name: 'Offsets', fix: 'give exactly 32 values, one per lane: byte offsets, or null / - for an inactive lane' },
};

// {name, fix} for field (offsets[7] -> the offsets entry, naming lane 7), or null.
export function fixFor(field) {
    if (!field) return null;
    const m = /^offsets\[(\d+)\]$/.exec(field);
    if (m) return { name: `lane ${m[1]}'s offset`, fix: 'give a byte offset aligned to the access width (or null / - to leave the lane inactive)', lane: Number(m[1]) };
    const fx = FIX[field];
    return fx ? { ...fx, fix: typeof fx.fix === 'function' ? fx.fix() : fx.fix } : null;
}
