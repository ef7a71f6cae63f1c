// banner.js - the validation banner over the page: what the server said is
// wrong with the parameters, the field it blamed, how to fix it (hints.js),
// and that control marked invalid, then the one value the API says would fit
// as a button. It must not validate anything itself: it shows the API's words.

import { fixFor } from './hints.js';
import { fixButton } from './fixes.js';
import { esc } from '../kit/esc.js';
import { INVALID } from '../kit/classes.js';

/* el: the banner; form: the controls' form; controlOf(field): the control
 * for an API field name, or null. */
export function createBanner(el, form, controlOf) {
    function clearInvalid() {
        for (const c of form.querySelectorAll('.' + INVALID)) {
            c.classList.remove(INVALID);
            c.removeAttribute('aria-invalid');
        }
    }

    // err: an ApiError ({status, field, message}).
    function show(err) {
        clearInvalid();
        const field = err.field ? `<span class="field-name" id="banner-field">${esc(err.field)}</span>` : '';
        const fx = err.status >= 400 && err.status < 500 ? fixFor(err.field) : null;
        const what = fx ? `Invalid ${fx.name}` : err.status >= 400 && err.status < 500 ? 'Invalid parameters' : 'Server problem';
        el.innerHTML = `<div class="banner-what"><strong>${esc(what)}:</strong> <span id="banner-message">${esc(err.message)}</span> ${field}</div>` +
            (fx ? `<div class="banner-fix" id="banner-fix"><b>How to fix:</b> ${esc(fx.fix)}</div>` : '');
        el.hidden = false;
        const ctl = err.field && controlOf(err.field);
        if (ctl) {
            ctl.classList.add(INVALID);
            ctl.setAttribute('aria-invalid', 'true');
        }
    }

    // The one value the API says would fit (GET /api/access fit=1), as a button.
    function showFix(fix) {
        const btn = fixButton(fix, 'banner-fix-btn');
        if (!btn || el.hidden) return;
        // The rule in words stays (the API's field); the value that fits is the button.
        const box = el.querySelector('#banner-fix');
        if (box) box.insertAdjacentHTML('beforeend', ` ${btn}`);
        else el.insertAdjacentHTML('beforeend', `<div class="banner-fix" id="banner-fix"><b>How to fix:</b> ${btn}</div>`);
    }

    function hide() {
        if (el.hidden) return;
        el.hidden = true;
        el.textContent = '';
        clearInvalid();
    }

    return { show, hide, showFix };
}
