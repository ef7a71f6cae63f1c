// theme.js - theme and presenter mode for the pages that have no display
// controls of their own (layout.html, linear.html): reads ?theme=dark and
// ?present=1 into <html data-theme / data-present> (style.css does the rest)
// and adds the two controls to the page's header. It must not touch the
// page's own state: it reads and writes only these two URL parameters (and
// keepDisplay() hands them to a page that rewrites its URL).

const yes = (v) => /^(1|true|yes|on)$/i.test(v || '');

function apply(theme, present) {
    const d = document.documentElement.dataset;
    d.theme = theme === 'dark' ? 'dark' : 'light';
    d.present = present ? '1' : '0';
}

// The current URL with theme and present set (the page's other parameters kept).
function write(theme, present) {
    const u = new URL(location.href);
    if (theme === 'dark') u.searchParams.set('theme', 'dark'); else u.searchParams.delete('theme');
    if (present) u.searchParams.set('present', '1'); else u.searchParams.delete('present');
    history.replaceState(history.state, '', u.pathname + u.search.replace(/%2C/g, ',') + u.hash);
}

/** Query string q (no '?') with the current URL's theme and presenter mode
 * added: what a page writes when it rewrites its URL, so that they survive. */
export function keepDisplay(q) {
    const cur = new URLSearchParams(location.search), out = new URLSearchParams(q);
    for (const k of ['theme', 'present']) if (cur.has(k) && !out.has(k)) out.set(k, cur.get(k));
    return out.toString().replace(/%2C/g, ',');
}

/** Apply the URL's theme and presenter mode, and put their controls in header (an element). */
export function addDisplay(header) {
    const q = new URLSearchParams(location.search);
    let theme = q.get('theme') === 'dark' ? 'dark' : '', present = yes(q.get('present'));
    apply(theme, present);
    if (!header) return;
    const box = document.createElement('div');
    box.className = 'display';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Display');
    box.innerHTML = `<label for="theme">Theme <select id="theme"><option value="">Light</option><option value="dark">Dark</option></select></label>
<label class="check" for="present"><input id="present" type="checkbox"><span>Presenter</span></label>`;
    header.appendChild(box);
    const sel = box.querySelector('#theme'), chk = box.querySelector('#present');
    sel.value = theme; chk.checked = present;
    sel.addEventListener('change', () => { theme = sel.value; apply(theme, present); write(theme, present); });
    chk.addEventListener('change', () => { present = chk.checked; apply(theme, present); write(theme, present); });
}

addDisplay(document.querySelector('header.topbar'));
