// offsets.js - reads and prints the custom-offsets text: 32 values, one per
// lane, separated by commas, spaces or newlines; `null` or `-` marks an
// inactive lane. Tokens that are not numbers are passed on as typed so that the
// server's validation names them; this module must not judge ranges or alignment.

// Text -> {offsets: [...], count}. Decimal and 0x hex numbers become numbers.
export function parseOffsets(text) {
    const tokens = String(text).split(/[\s,;]+/).filter((t) => t !== '');
    const offsets = tokens.map((t) => {
        if (/^(null|-)$/i.test(t)) return null;
        if (/^\d+$/.test(t)) return Number(t);
        if (/^0x[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
        return t;   // the server says why it is not an offset
    });
    return { offsets, count: tokens.length };
}

// Offsets -> the text form kept in the URL ('-' for inactive lanes).
export function formatOffsets(offsets) {
    return offsets.map((o) => (o === null || o === undefined ? '-' : String(o))).join(',');
}
