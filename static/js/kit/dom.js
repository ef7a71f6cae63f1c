// dom.js - page writes that skip what would not change. Writing the same
// markup again still makes the browser parse it, restyle and lay it out, and
// most of a re-render repeats what is already on screen. It must not build
// any markup itself.

const written = new WeakMap();   // element -> {html, first}: what setHTML put there
const parser = document.createElement('template');
const SVGNS = 'http://www.w3.org/2000/svg';

// Make the children of live node `a` those of the detached node `b`,
// touching only what differs: equal nodes stay (no restyle, no relayout),
// nodes of another kind are replaced, attributes and text are set where
// they changed.
function morphChildren(a, b) {
    let ca = a.firstChild, cb = b.firstChild;
    while (ca && cb) {
        const na = ca.nextSibling, nb = cb.nextSibling;
        if (ca.nodeType !== cb.nodeType || ca.nodeName !== cb.nodeName) a.replaceChild(cb, ca);
        else if (ca.nodeType === Node.ELEMENT_NODE) {
            if (ca.isEqualNode(cb)) { ca = na; cb = nb; continue; }   // compared natively, left alone
            for (const at of cb.attributes) if (ca.getAttribute(at.name) !== at.value) ca.setAttribute(at.name, at.value);
            for (let i = ca.attributes.length - 1; i >= 0; i--) {
                const name = ca.attributes[i].name;
                if (!cb.hasAttribute(name)) ca.removeAttribute(name);
            }
            morphChildren(ca, cb);
        } else if (ca.nodeValue !== cb.nodeValue) ca.nodeValue = cb.nodeValue;
        ca = na; cb = nb;
    }
    while (ca) { const n = ca.nextSibling; a.removeChild(ca); ca = n; }
    while (cb) { const n = cb.nextSibling; a.appendChild(cb); cb = n; }
}

// el.innerHTML = html, unless setHTML already put exactly that there (and
// nothing has replaced it since); markup of the same shape as what is there
// is merged in (morphChildren), so a redraw that moves a few bars or changes
// a few numbers costs the browser those, not the whole panel. Returns
// whether it wrote.
export function setHTML(el, html) {
    const w = written.get(el);
    if (w && w.html === html && w.first === el.firstChild) return false;
    if (w && w.first === el.firstChild && el.firstChild) {
        // Markup for inside an SVG element is parsed inside an <svg>, as it would be there.
        const svg = el.namespaceURI === SVGNS;
        parser.innerHTML = svg ? `<svg xmlns="${SVGNS}">${html}</svg>` : html;
        morphChildren(el, svg ? parser.content.firstChild : parser.content);
    } else el.innerHTML = html;
    written.set(el, { html, first: el.firstChild });
    return true;
}

// el.textContent = text, unless it already reads so.
export function setText(el, text) {
    text = String(text);
    if (el.textContent === text) return false;
    el.textContent = text;
    return true;
}

// Toggle one class or attribute only when it would change.
export function setClass(el, cls, on) {
    if (el.classList.contains(cls) !== !!on) el.classList.toggle(cls, !!on);
}

export function setHidden(el, hidden) {
    if (el.hidden !== !!hidden) el.hidden = !!hidden;
}
