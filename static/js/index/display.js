// display.js - how the page looks, kept in the URL like everything else:
// light / dark theme, presenter mode (large type, high contrast), the
// colour-blind-safe palette and the controls column (hidden: the maps get
// the width). It sets data attributes that style.css keys on;
// it must not touch the model or any view's content.

const $ = (id) => document.getElementById(id);

/* ctx: the PageCtx of app.js (changed() after presenter mode, which changes sizes). */
export function createDisplay(ctx) {
    const ui = { theme: $('theme'), palette: $('palette'), present: $('present'), side: $('side') };

    // Returns whether the sizes of the page's boxes may have changed (presenter
    // mode, the controls column, embedding): widths read before are stale.
    function apply() {
        const st = ctx.state(), root = document.documentElement;
        // Write only what changed: any write to these restyles the whole page.
        // sizing: the value style.css sizes boxes by (a first write of any
        // other value leaves the sizes as the page's first paint had them).
        let sized = false;
        const set = (k, v, sizing = null) => {
            const old = root.dataset[k];
            if (old === v) return;
            root.dataset[k] = v;
            if (sizing !== null && (old === sizing) !== (v === sizing)) sized = true;
        };
        set('theme', st.theme || 'light');
        set('present', st.present ? '1' : '0', '1');
        set('palette', st.palette || 'standard');
        set('side', st.side || 'show', 'hide');
        set('embed', st.embed ? '1' : '', '1');   // ?embed=1: one view for slides (style.css)
        // ?embed=1&view=: that panel alone, sized to the frame (style.css)
        const view = st.embed ? st.view : '';
        if ((root.dataset.view || '') !== view) { root.dataset.view = view; sized = true; }
        if (ui.side.checked !== (st.side !== 'hide')) ui.side.checked = st.side !== 'hide';
        if (ui.theme.value !== (st.theme || '')) ui.theme.value = st.theme || '';
        if (ui.palette.value !== (st.palette || '')) ui.palette.value = st.palette || '';
        if (ui.present.checked !== st.present) ui.present.checked = st.present;
        if (ui.present.getAttribute('aria-checked') !== String(st.present)) ui.present.setAttribute('aria-checked', String(st.present));
        return sized;
    }

    ui.theme.addEventListener('change', () => { ctx.set({ theme: ui.theme.value }, true); apply(); });
    ui.palette.addEventListener('change', () => { ctx.set({ palette: ui.palette.value }, true); apply(); });
    ui.present.addEventListener('change', () => { ctx.set({ present: ui.present.checked }, true); apply(); ctx.changed(); });
    ui.side.addEventListener('change', () => { ctx.set({ side: ui.side.checked ? '' : 'hide' }, true); apply(); ctx.changed(); });
    return { apply };
}
