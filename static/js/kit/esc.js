// esc.js - the page's one HTML escape: text from the API or the user made
// safe inside markup, as element content or a quoted attribute value.
// It must not format, shorten or judge the text it is given.

const ENTITY = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ENTITY[c]);
}
