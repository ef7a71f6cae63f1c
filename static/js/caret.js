// caret.js - a caret under the column an error names: the line of the text
// that holds it and a "^" beneath (for a <pre>). It must not parse the text:
// the column is the one the API's message gives ("at column N", 1-based).

/** {line, mark} for text and the message's column, or null when it names none. */
export function caretAt(text, message) {
    const m = /at column (\d+)/.exec(message || '');
    if (!m) return null;
    const at = Math.max(0, Math.min(text.length, Number(m[1]) - 1));
    const start = text.lastIndexOf('\n', at - 1) + 1, end = text.indexOf('\n', at);
    const line = text.slice(start, end < 0 ? text.length : end);
    return { line, mark: ' '.repeat(at - start) + '^', col: Number(m[1]) };
}
