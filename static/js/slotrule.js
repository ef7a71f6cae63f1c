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
