// typing.js - the typed number fields (B, M, S, rows): typing applies after a
// short pause, not on every keystroke (2048 is not also 2, 20 and 204); a
// spinner step applies at once. One edit, from the first change to Enter or
// leaving the field, is one history entry: its first write pushes, the rest
// replace. It must not judge values beyond their shape (the server does).

export const PAUSE_MS = 350;

/* form: the controls; fields: the typed fields' ids; apply(ev, push): apply
 * the field ev.target now, push: a new history entry (else replace);
 * done(ev): the edit ended (Enter or the field left). */
export function createTyping(form, fields, apply, done) {
    let timer = 0, pending = null, editing = false;
    // A value the server wrote (firstscreen.c) leaves the caret at the field's
    // start; one the page sets, at its end, where typing goes on: set anew.
    for (const id of fields) { const el = form.elements[id], v = el.value; el.value = ''; el.value = v; }
    const owns = (ev) => fields.includes(ev.target.id);

    function now(ev) {
        clearTimeout(timer);
        timer = 0; pending = null;
        apply(ev, !editing);
        editing = true;
    }
    function commit(ev) {
        if (pending) now(pending);
        if (!editing) return;
        editing = false;
        done(ev);
    }

    form.addEventListener('input', (ev) => {
        if (!owns(ev)) return;
        const v = ev.target.value.trim();
        if (!(/^-?\d+$/.test(v) || (ev.target.id === 'rows' && v === ''))) return;
        // A keystroke in the text is an InputEvent with an inputType; a spinner
        // step (arrow keys, the buttons) is not.
        if (!ev.inputType) { now(ev); return; }
        clearTimeout(timer);
        pending = ev;
        timer = setTimeout(() => now(ev), PAUSE_MS);
    });
    form.addEventListener('keydown', (ev) => { if (owns(ev) && ev.key === 'Enter') commit(ev); });
    form.addEventListener('focusout', (ev) => { if (owns(ev)) commit(ev); });
    return { owns };
}
