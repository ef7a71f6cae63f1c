// hints.js - a "how to fix it" line for an API error, chosen only by the name
// of the field the server blamed. The server's message says what is wrong and
// why; this table must not re-validate anything or guess beyond the field name.

const FIX = {
    b: { name: 'B (BBits)', fix: 'choose B in 0..10 with B <= |S|: lower B or raise |S|' },
    m: { name: 'M (MBase)', fix: 'keep M + |S| + B <= 31; for an access pattern, make the unit (2^M bytes) at least as wide as one access' },
    s: { name: 'S (SShift)', fix: 'make |S| >= B (S = 0 only with B = 0), and M + |S| + B <= 31' },
    rows: { name: 'Rows', fix: 'use a whole number of swizzle periods (a multiple of 2^B rows), at most 2^20 cells' },
    bank_bytes: { name: 'Bytes per bank', fix: 'pick a power of two from 1 to 32 (GPUs: 4)' },
    banks: { name: 'Banks', fix: 'pick a power of two from 1 to 128 (GPUs: 32 banks of 4 bytes)' },
    match_bank_row: { name: 'Match row width', fix: 'untick "Match row width to the bank row"' },
    row: { name: 'row', fix: 'pick a cell inside the grid' },
    col: { name: 'col', fix: 'pick a cell inside the grid' },
    pattern: { name: 'Pattern', fix: 'pick a pattern from the list' },
    step: { name: 'Step', fix: 'move the step slider back into range' },
    op: { name: 'Instruction', fix: 'pick ld, st, ldmatrix or stmatrix' },
    bytes: { name: 'Bytes per lane', fix: 'use 1, 2, 4, 8 or 16 bytes; ldmatrix / stmatrix rows are 16 bytes' },
    matrices: { name: 'Matrices', fix: 'use 1, 2 or 4 matrices, and only with ldmatrix / stmatrix' },
    trans: { name: '.trans', fix: 'untick .trans unless the instruction is ldmatrix / stmatrix' },
    offsets: { name: 'Offsets', fix: 'give exactly 32 values, one per lane: byte offsets, or null / - for an inactive lane' },
};

// {name, fix} for field (offsets[7] -> the offsets entry, naming lane 7), or null.
export function fixFor(field) {
    if (!field) return null;
    const m = /^offsets\[(\d+)\]$/.exec(field);
    if (m) return { name: `lane ${m[1]}'s offset`, fix: 'give a byte offset aligned to the access width (or null / - to leave the lane inactive)', lane: Number(m[1]) };
    return FIX[field] || null;
}
