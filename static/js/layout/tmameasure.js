// tmameasure.js - the layout page's "Measure on the GPU" for a tma: box: POST
// /api/measure/tma through api.js, and its answer printed (agree, the chunks
// that landed elsewhere, or the driver's refusal). It must not compute a
// placement or compare one: the server answers both sides and `agree`.

import * as api from '../kit/api.js';
import { esc } from '../kit/esc.js';

const $ = (id) => document.getElementById(id);
let body = null;        // the /api/measure/tma body of the layout on screen, or null

// The layout on screen changed: `lb` its /api/layout body, `d` the answer.
// The panel shows only for a tma: box; an old measurement is cleared.
export function tmaMeasureShow(lb, d) {
    const on = !!d && d.form === 'tma';
    $('tma-measure').hidden = !on;
    body = on ? { layout: lb.layout, element_bits: lb.element_bits, shape: lb.shape } : null;
    $('tma-out').textContent = '';
    $('tma-out').dataset.agree = '';
}

function answerHTML(r) {
    const m = r.measured;
    if (r.agree === null) return `the driver refused the map (${esc(m.encode_name)}): no copy ran`;
    const head = `<b>${r.agree ? 'agrees' : 'differs'}</b>: ${r.chunks - r.wrong} of ${r.chunks} 16-byte chunks where /api/layout says` +
        ` &middot; ${esc(r.device.name)}`;
    const cells = r.mismatches.map((c) => `<li>[${c.coords.join(', ')}]: predicted slot ${c.predicted}, measured ${c.measured}</li>`).join('');
    return head + (cells ? `<ul>${cells}</ul>` : '');
}

export function tmaMeasureInit() {
    $('tma-run').addEventListener('click', async () => {
        if (!body) return;
        const out = $('tma-out');
        out.textContent = 'measuring...';
        $('tma-run').disabled = true;
        try {
            const r = await api.measureTma(body);
            out.innerHTML = answerHTML(r);
            out.dataset.agree = String(r.agree);
        } catch (e) {
            out.textContent = `${e.field ? e.field + ': ' : ''}${e.message}`;
            out.dataset.agree = 'error';
        } finally {
            $('tma-run').disabled = false;
        }
    });
}
