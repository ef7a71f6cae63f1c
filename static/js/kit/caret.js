// caret.js - a caret under the place an error points at: the API's `at`
// ({line, column}, 1-based, the column in characters as the server counts
// them) in the text of the field the error names: the line that holds it and
// a "^" beneath (for a <pre>). It must not parse the text nor read the
// message's words.

/** {line, mark, row, col, index} for text and the error's `at`, or null when
 *  it has none: `line` the text's line `row`, `mark` the "^" under column
 *  `col` (tabs kept, so it lines up), `index` the place in text (UTF-16). */
export function caretAt(text, at) {
    const ok = (n) => Number.isInteger(n) && n >= 1;
    if (!at || !ok(at.line) || !ok(at.column)) return null;
    const lines = String(text ?? '').split('\n');
    if (at.line > lines.length) return null;
    const line = lines[at.line - 1];
    const before = Array.from(line).slice(0, at.column - 1);
    let index = before.join('').length;
    for (let k = 0; k < at.line - 1; k++) index += lines[k].length + 1;
    const mark = before.map((ch) => (ch === '\t' ? '\t' : ' ')).join('') + '^';
    return { line, mark, row: at.line, col: at.column, index };
}
