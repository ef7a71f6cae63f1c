// maplayout.test.mjs - the pure grid / bank layout math (static/js/kit/maplayout.js).
// Each expected number is worked out by hand from the layout rules written
// beside it (row-label width 12 + 7 px per digit, column labels 18 px, cells
// fit the width less 6 px within [8, maxCell], banks within [6, 40]).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gridLayout, bankLayout, axisStep, fontFor, MAX_HEIGHT } from '../../static/js/kit/maplayout.js';

const AXIS = [
    // [px per position, min px between labels, every k-th labelled]
    [40, 18, 1], [18, 18, 1], [10, 18, 2], [5, 18, 4], [1, 13, 16],
];
for (const [px, min, k] of AXIS) test(`axisStep(${px}, ${min}) = ${k}`, () => assert.equal(axisStep(px, min), k));

const FONT = [[40, 16], [30, 13], [24, 10], [10, 9], [100, 16]];   // round(0.42 px) within [9, 16]
for (const [px, fs] of FONT) test(`fontFor(${px}) = ${fs}`, () => assert.equal(fontFor(px), fs));

// 8 x 8 grid in 400 px: lw = 12 + 7 = 19, cell = min(40, floor((400 - 19 - 6) / 8) = 46) = 40.
const g8 = gridLayout({ rows: 8, cols: 8, logOf: null, tile: 4, availW: 400, maxCell: 40, kind: 'grid' });

const GRID = [
    ['size W = 19 + 8*40 + 3, H = 18 + 8*40 + 3', [g8.W, g8.H], [342, 341]],
    ['label column and header', [g8.lw, g8.th, g8.rowH], [19, 18, 40]],
    ['every cell drawn', [g8.nRows, g8.nSlots, g8.truncated], [8, 64, 0]],
    ['rect of slot 9 (row 1, col 1)', g8.rect(9), [59, 58, 40, 40]],
    ['rect of slot 63', g8.rect(63), [19 + 7 * 40, 18 + 7 * 40, 40, 40]],
    ['rows 0-1 across the whole width', g8.slotRange(0, 2, 0, 342), [[0, 8], [8, 16]]],
    ['rows 1-2, x 100..180 = columns 2..4', g8.slotRange(1, 3, 100, 180), [[10, 13], [18, 21]]],
    ['tile lines every 4 cells: x(4) = 179, y(4) = 178', g8.band(0, 8, 0, 342).tiles, 'M179 18V338M19 178H339'],
    ['no tile lines inside one tile', g8.band(0, 3, 0, 140).tiles, ''],
    ['cell colour key defaults to the column', [g8.keyOf(9), g8.keyOf(17)], [1, 1]],
];
for (const [name, got, want] of GRID) test(`gridLayout: ${name}`, () => assert.deepEqual(got, want));

test('gridLayout: hover title names the slot, the logical unit and the first bank', () => {
    // A 2 x 4 grid whose slots hold the units of their neighbours.
    const L = gridLayout({ rows: 2, cols: 4, logOf: [1, 0, 3, 2, 5, 4, 7, 6], tile: 1, availW: 300, kind: 'grid', bankOf: [0, 4, 8, 12, 16, 20, 24, 28] });
    assert.equal(L.title(1), 'physical slot 1 <- logical column 0\nlogical (row 0, col 0) at physical (row 0, col 1)\nfirst bank 4');
    assert.equal(L.title(4), 'physical slot 4 <- logical column 1\nlogical (row 1, col 1) at physical (row 1, col 0)\nfirst bank 16');
});

test('gridLayout: a map taller than MAX_HEIGHT is drawn in part', () => {
    // 1 column of 200000 rows in 100 px: lw = 12 + 7*6 = 54, cell = min(34, 40) = 34.
    const L = gridLayout({ rows: 200000, cols: 1, logOf: null, tile: 1, availW: 100, kind: 'grid' });
    assert.equal(L.rowH, 34);
    assert.equal(L.nRows, Math.floor(4_000_000 / 34));
    assert.equal(L.truncated, 117647);
    assert.equal(MAX_HEIGHT, 4_000_000);
});

// 2 bank rows of 32 banks in 700 px, 16-byte units (4 banks each, 8 per row):
// lw = 19, bank width = floor((700 - 19 - 6) / 32) = 21, row height = 21.
const bankOf16 = Array.from({ length: 16 }, (_, p) => (p % 8) * 4);
const b16 = bankLayout({ banks: 32, bankRows: 2, unitsPerRow: 8, rowsPerUnit: 1, perBank: 1, spanned: 4, bankOf: bankOf16, logOf: null, cols: 8, unitBytes: 16, bankBytes: 4, availW: 700, kind: 'banks' });
// 1-byte units, 4 to a bank word: a shared bank is at least 14 px per unit (56).
const bankOf1 = Array.from({ length: 128 }, (_, p) => Math.floor(p / 4));
const b1 = bankLayout({ banks: 32, bankRows: 1, unitsPerRow: 128, rowsPerUnit: 1, perBank: 4, spanned: 1, bankOf: bankOf1, logOf: null, cols: 128, unitBytes: 1, bankBytes: 4, availW: 700, kind: 'banks' });
// 256-byte units over 128-byte bank rows: each unit is 2 whole rows.
const bw = bankLayout({ banks: 32, bankRows: 4, unitsPerRow: 0, rowsPerUnit: 2, perBank: 1, spanned: 32, bankOf: [0, 0], logOf: null, cols: 2, unitBytes: 256, bankBytes: 4, availW: 700, kind: 'banks' });

const BANK = [
    ['16 B units: size', [b16.W, b16.H, b16.rowH], [19 + 32 * 21 + 3, 18 + 2 * 21 + 3, 21]],
    ['16 B units: slot 9 over banks 4..7 of row 1', b16.rect(9), [19 + 4 * 21, 18 + 21, 4 * 21, 21]],
    ['16 B units: 16 slots, rows 0-1', [b16.nSlots, b16.slotRange(0, 2)], [16, [[0, 16]]]],
    ['16 B units: title', b16.title(9), 'physical slot 9 <- logical column 1\nlogical (row 1, col 1)\nbanks 4..7'],
    ['1 B units: slot 5 is the 2nd quarter of bank 1', b1.rect(5), [19 + 56 + 14, 18, 14, 26]],
    ['1 B units: title', b1.title(5), 'physical slot 5 <- logical column 5\nlogical (row 0, col 5)\n1/4 of bank 1 (1 B of a 4 B bank word)'],
    ['256 B units: slot 1 spans bank rows 2-3', bw.rect(1), [19, 18 + 2 * 21, 32 * 21, 2 * 21]],
    ['256 B units: 2 slots; rows 2-4 hold slot 1', [bw.nSlots, bw.slotRange(2, 4)], [2, [[1, 2]]]],
];
for (const [name, got, want] of BANK) test(`bankLayout: ${name}`, () => assert.deepEqual(got, want));
