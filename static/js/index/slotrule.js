// slotrule.js - words for how a swizzle moves units on the drawn grid, keyed
// by the API's `slot_rule` (identity, col_xor_row, row_xor_col, general) and
// its masks: the formula panel's grid lines and the bit fields' names.
// Notation only, and pure (imports under node): it must not decide which
// rule holds nor compute any slot; the server names the rule.

export const RULES = Object.freeze(['identity', 'col_xor_row', 'row_xor_col', 'general']);

// "bits [4, 7)", or "no bits" for an empty range.
export const bitRange = (lo, hi) => (hi > lo ? `bits [${lo}, ${hi})` : 'no bits');

// The general form, from the masks: "address bits [4, 7) ^= bits [7, 10)".
export const bitsXor = (mk) => `address ${bitRange(mk.zzz_lo, mk.zzz_hi)} ^= ${bitRange(mk.yyy_lo, mk.yyy_hi)}`;

// The formula panel's lines for the unit at logical (row, col): [code,
// comment] pairs, T the tile edge in units; [] for a rule it does not know.
export function gridLines(rule, T, mk) {
    switch (rule) {
    case 'identity':
        return [['physical slot = logical slot', 'B = 0: nothing moves']];
    case 'col_xor_row':
        return [
            [`col_in_tile   = col mod ${T}`, ''],
            [`row_mod       = row mod ${T}`, ''],
            ['physical slot = col_in_tile XOR row_mod', 'inside its tile; the tile does not move'],
        ];
    case 'row_xor_col':
        return [
            [`row_in_tile   = row mod ${T}`, ''],
            [`col_mod       = col mod ${T}`, ''],
            ['physical row  = row_in_tile XOR col_mod', 'inside its tile; every unit keeps its column'],
        ];
    case 'general':
        return [[bitsXor(mk), 'on this grid a unit moves across both rows and columns']];
    default:
        return [];
    }
}

// What the YYY and ZZZ bit fields are on the grid, for the bit strip's legend.
export function fieldWords(rule) {
    if (rule === 'col_xor_row') return { yyy: 'row in tile', zzz: 'column in tile, XORed with YYY' };
    if (rule === 'row_xor_col') return { yyy: 'column in tile', zzz: 'row in tile, XORed with YYY' };
    return { yyy: 'the source bits', zzz: 'XORed with YYY' };
}

// The page's explanations of the drawn swizzle ("How to read this", the grid
// panel's line), by the API's rule, T the tile edge in units: what moves
// inside a tile, what the colours do, what to read down a column.
export function readWords(rule, T) {
    switch (rule) {
    case 'identity':
        return {
            tile: `B = 0: the tile is one unit and nothing moves; every unit stays at its logical slot.`,
            colours: 'One colour per logical column. Without a swizzle each column keeps its colour all the way down: every row of a column hits the same banks, so a column read conflicts.',
            grid: 'The grid in swizzle units, row-major. B = 0: the swizzled grid is the plain one; a column read hits the same banks in every row.',
        };
    case 'row_xor_col':
        return {
            tile: `${T} × ${T} units. Inside a tile the unit of logical row r and column c moves to row r XOR (c mod ${T}) of the same column: units move between rows, never across columns.`,
            colours: 'One colour per logical column. This swizzle keeps every unit in its column, so the column colours read the same without and with it; show logical rows to see the units move between rows.',
            grid: 'The grid in swizzle units, row-major. Thick lines are tile borders. This swizzle moves units up and down inside their column (row XOR column), not along the row.',
        };
    case 'col_xor_row':
        return {
            tile: `${T} × ${T} units. Inside a tile, logical column c of row r is stored at physical slot c XOR (r mod ${T}).`,
            colours: 'One colour per logical column. Without the swizzle a column keeps one colour all the way down: every row of a column hits the same banks. With it the colours move, so the rows of a logical column land in different banks.',
            grid: 'The grid in swizzle units, row-major. Thick lines are tile borders. Read down a column of the swizzled grid: the colours change, so a column access spreads over the banks.',
        };
    default:
        return {
            tile: `${T} × ${T} units. This swizzle XORs address bits into other address bits that, on this grid, move a unit across both rows and columns (see the formula).`,
            colours: 'One colour per logical column; with the swizzle a unit may land in another row and another column.',
            grid: 'The grid in swizzle units, row-major. Thick lines are tile borders; units move across rows and columns (the formula names the bits).',
        };
    }
}
