// patterns.js - the page's words for the named access patterns of
// /api/patterns: where one comes from, said to a reader (the project's seed
// documents are internal references: "seed 004: ..." reads as its text).
// Pure (imports under node); it must not name offsets or costs.

// The pattern's source without the project's seed numbering.
export function patternSource(p) {
    return String(p.source || '').replace(/^\s*seeds?\s+\d+(\s*(,|and)\s*\d+)*\s*:\s*/i, '');
}

// What a menu shows for the pattern: its label (the instruction and the walk).
export const patternLabel = (p) => p.label || p.name;
