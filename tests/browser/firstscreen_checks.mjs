// firstscreen_checks.mjs - the first screen the server writes into the page
// (server/net/firstscreen.c, issue 27's speed): for several URLs, the page loaded
// once with JavaScript off (what the first paint shows) and once as a user
// gets it; what the server wrote must be what the page's JS writes once
// ready: the readout, stats, verdict sentence, legend, bit strip, bank row,
// element line, menus and their values, inputs, <html>'s data attributes, and
// the tiles' cells (class, label, place) against the map view's own cells.
// Each check fails on a page the server does not render (run alone:
// SWZ_CHECKS=firstscreen).

// What a state's first screen holds, read from the DOM (no page module needed).
function readScreen() {
    const $ = (id) => document.getElementById(id);
    const sel = (id) => ({ value: $(id).value, options: [...$(id).options].map((o) => [o.value, o.text]) });
    const num = (id) => ({ value: $(id).value, min: $(id).min, max: $(id).max });
    const d = document.documentElement.dataset;
    // A tile: the server's SVG cells, or the map view's (what its canvas shows).
    const tile = (id) => {
        const el = $(id), v = el.mapView;
        if (v) {
            return { who: 'js', W: v.lay.W, H: v.lay.H, box: el.offsetHeight, cells: v.drawnCells().map((c) => ({ p: c.p, l: c.l, c: c.c, cls: `cell k${c.key % 16}`, label: c.label, x: c.x, y: c.y, w: c.w, h: c.h, ly: c.label === null ? null : c.ly })) };
        }
        const svg = el.querySelector('svg.map');
        if (!svg) return { who: 'none', cells: [] };
        const lbl = new Map([...svg.querySelectorAll('tspan.lbl')].map((t) => [Number(t.dataset.p), { text: t.textContent, x: Number(t.getAttribute('x')), ly: Number(t.parentNode.getAttribute('y')) }]));
        return {
            who: 'server', W: Number(svg.getAttribute('width')), H: Number(svg.getAttribute('height')), box: el.offsetHeight,
            cells: [...svg.querySelectorAll('rect.cell')].map((r) => {
                const a = (k) => Number(r.getAttribute(k)), p = Number(r.dataset.p), t = lbl.get(p);
                return { p, l: Number(r.dataset.l), c: Number(r.dataset.c), cls: r.getAttribute('class'), label: t ? t.text : null, x: a('x'), y: a('y'), w: a('width'), h: a('height'), ly: t ? t.ly : null, lx: t ? t.x : null };
            }),
        };
    };
    return {
        html: { theme: d.theme, present: d.present, palette: d.palette, side: d.side, embed: d.embed },
        readout: $('readout').innerHTML, stats: $('stats').innerHTML,
        verdict: $('verdict-line').innerHTML, verdictText: $('verdict-line').textContent, verdictClass: $('verdict-line').className,
        legend: $('legend').innerHTML, bitstrip: $('bitstrip').innerHTML, bankRow: $('bank-row').innerHTML,
        elemText: $('elem-swizzle').innerHTML, elemClass: $('elem-swizzle').className,
        selects: Object.fromEntries(['preset', 'bank_bytes', 'banks', 'elem', 'show', 'theme', 'palette'].map((id) => [id, sel(id)])),
        inputs: { b: num('b'), m: num('m'), s: num('s'), rows: $('rows').value, placeholder: $('rows').placeholder,
            match: $('match').checked, present: $('present').checked, presentAria: $('present').getAttribute('aria-checked'), side: $('side').checked },
        tilePlain: tile('tile-plain'), tileSwz: tile('tile-swz'),
        xbars: ['tile-plain', 'tile-swz'].map((id) => [...document.querySelectorAll(`.xbar[data-for="${id}"] button`)].map((b) => b.outerHTML)),
        verdictBox: (() => { const v = $('verdict-line-text'); if (!v) return null; const b = v.getBoundingClientRect(); return { top: b.top, bottom: b.bottom }; })(),
    };
}

export async function firstscreenChecks(t) {
    const { page, ctx, base, check, step, gotoReady, TIMEOUT } = t;
    const before = page.viewportSize();
    const off = await ctx.newPage();
    // JavaScript off in this tab only (what Playwright's javaScriptEnabled: false does).
    await (await ctx.newCDPSession(off)).send('Emulation.setScriptExecutionDisabled', { value: true });
    await off.setViewportSize({ width: 1440, height: 900 });
    await page.setViewportSize({ width: 1440, height: 900 });
    const server = async (q) => { await off.goto(base + q, { waitUntil: 'load' }); return off.evaluate(readScreen); };
    const js = async (q) => { await gotoReady(page, base + q); return page.evaluate(readScreen); };
    const same = (name, a, b) => check(name, JSON.stringify(a) === JSON.stringify(b), `server ${JSON.stringify(a).slice(0, 300)} | page ${JSON.stringify(b).slice(0, 300)}`);

    // The tile cells: the server's rect and label against the cell the map view painted.
    const sameTile = (name, s, j, T) => {
        if (!check(`${name}: the server drew ${T}x${T} cells`, s.who === 'server' && s.cells.length === T * T, `${s.who} ${s.cells.length}`)) return;
        check(`${name}: the page drew ${T}x${T} cells`, j.who === 'js' && j.cells.length === T * T, `${j.who} ${j.cells.length}`);
        const strip = (c) => ({ p: c.p, l: c.l, c: c.c, cls: c.cls, label: c.label, x: c.x, y: c.y, w: c.w, h: c.h, ly: c.ly });
        same(`${name}: each cell's class, label and place`, s.cells.map(strip), j.cells.map(strip));
        check(`${name}: each label is centred on its cell`, s.cells.every((c) => c.label === null || c.lx === c.x + c.w / 2));
        check(`${name}: the SVG is the layout's width, and the box keeps its height`, s.W === j.W && s.box === j.box, `server ${s.W}x${s.H} box ${s.box}, page ${j.W}x${j.H} box ${j.box}`);
    };

    // Issue 40.7: the sentence says in words what the warp reads (the
    // pattern's label, /api/patterns) before its wire name and step.
    const labels = new Map((await (await fetch(base + 'api/patterns')).json()).patterns.map((p) => [p.name, p.label]));
    for (const [q, T] of [['?b=3&m=4&s=3', 8], ['', 4], ['?b=2&m=4&s=3&banks=64&elem=fp16&pat=row_store', 4], ['?theme=dark&present=1', 4],
        ['?b=0&m=4&s=3&show=row&palette=cb&side=hide', 1], ['?b=4&m=2&s=4&bank_bytes=8&match=1&elem=fp32&step=3', 16]]) {
        await step(`firstscreen: ${q || '/'}`, async () => {
            const s = await server(q), j = await js(q);
            const name = `firstscreen ${q || '/'}`;
            check(`${name}: the server wrote the readout and verdict`, /data-p="b"/.test(s.readout) && /id="verdict-line-text"/.test(s.verdict), s.readout);
            const pat = new URLSearchParams(q).get('pat') || 'col_read', words = labels.get(pat);
            for (const [who, v] of [['server', s.verdictText], ['page', j.verdictText]])
                check(`${name}: the ${who}'s first sentence says what the warp does in words, then "${pat}" and its step`,
                    !!words && v.startsWith(words + ', step r = ') && v.indexOf(pat) > words.length, v.slice(0, 120));
            for (const k of ['html', 'readout', 'stats', 'verdict', 'verdictClass', 'legend', 'bitstrip', 'bankRow', 'elemText', 'elemClass', 'inputs']) same(`${name}: ${k}`, s[k], j[k]);
            for (const k of Object.keys(j.selects)) same(`${name}: the ${k} menu and its value`, s.selects[k], j.selects[k]);
            check(`${name}: the server's verdict is in the 1440x900 window`, s.verdictBox && s.verdictBox.top >= 0 && s.verdictBox.bottom <= 900, JSON.stringify(s.verdictBox));
            same(`${name}: the tiles' export buttons, once each`, s.xbars, j.xbars);
            check(`${name}: two export buttons per tile`, j.xbars.every((x) => x.length === 2), JSON.stringify(j.xbars));
            sameTile(`${name}: tile without swizzle`, s.tilePlain, j.tilePlain, T);
            sameTile(`${name}: tile with swizzle`, s.tileSwz, j.tileSwz, T);
        });
    }

    // A state the server does not render: the page as the JS alone draws it.
    await step('firstscreen: states left to the page', async () => {
        for (const q of ['?b=9', '?b=3&m=4&s=3&predict=1', '?b=3&m=4&s=3&acc=custom', '?b=3&m=4&s=3&sel=1,2', '?b=5&m=4&s=5']) {
            const s = await server(q);
            const tiles = s.tilePlain.cells.length + s.tileSwz.cells.length;
            const bigTile = q === '?b=5&m=4&s=5';   // 32 x 32: the rest is written, the tiles are the JS's
            check(`firstscreen ${q}: ${bigTile ? 'no tile past 16x16' : 'nothing written'} before the JS`,
                tiles === 0 && (bigTile ? /data-p="b"/.test(s.readout) : s.stats === '' && s.verdict === '' && s.selects.bank_bytes.options.length === 0 && s.html.theme === undefined),
                `${tiles} cells, stats ${s.stats.length} B, verdict ${s.verdict.slice(0, 80)}`);
        }
        // predict=1: the verdict stays hidden until a guess, with or without the JS.
        const s = await server('?b=3&m=4&s=3&predict=1');
        check('firstscreen predict=1: no verdict before the JS runs', s.verdictBox === null && s.verdict === '');
        const hidden = await (async () => { await gotoReady(page, base + '?b=3&m=4&s=3&predict=1'); return page.$eval('#verdict-line', (e) => getComputedStyle(e).visibility); })();
        check('firstscreen predict=1: none once it ran', hidden === 'hidden', hidden);
    });

    // The first paint holds the first screen only: the sections below it wait for boot.js (style.css).
    await step('firstscreen: the sections below the first screen', async () => {
        const look = (p) => p.evaluate(() => ({ booted: document.documentElement.hasAttribute('data-booted'),
            sections: [...document.querySelectorAll('main > section')].map((e) => ({ first: e.hasAttribute('data-first'), cv: getComputedStyle(e).contentVisibility, top: Math.round(e.getBoundingClientRect().top) })) }));
        await off.goto(base + '?b=3&m=4&s=3', { waitUntil: 'load' });
        const s = await look(off);
        const later = s.sections.filter((x) => !x.first);
        check('firstscreen: before the JS, the hero and the tiles are drawn and every section below them is left out',
            !s.booted && s.sections.filter((x) => x.first).length === 2 && s.sections.filter((x) => x.first).every((x) => x.cv === 'visible') &&
            later.length >= 6 && later.every((x) => x.cv === 'hidden'), JSON.stringify(s));
        check('firstscreen: nothing left out is in the 1440x900 window', later.every((x) => x.top >= 900), JSON.stringify(later.map((x) => x.top)));
        await gotoReady(page, base + '?b=3&m=4&s=3');
        const j = await look(page);
        check('firstscreen: once the page started, every section is drawn', j.booted && j.sections.every((x) => x.cv === 'visible'), JSON.stringify(j));
    });

    // The rendered page varies with its query: never a validator another query's body could match.
    await step('firstscreen: headers', async () => {
        const r = await fetch(base + '?b=3&m=4&s=3');
        const body = await r.text();
        check('firstscreen: the page is revalidated and has no ETag', r.headers.get('cache-control') === 'no-cache' && !r.headers.get('etag'), JSON.stringify([...r.headers]));
        check('firstscreen: the page keeps its CSP and frame refusal', /script-src 'self'/.test(r.headers.get('content-security-policy') || '') && r.headers.get('x-frame-options') === 'DENY');
        check('firstscreen: no marker reaches the browser', !/<!--\/?fs|data-fs=/.test(body));
        const bad = await fetch(base + '?b=9');
        check('firstscreen: an invalid state is still a 200 page', bad.status === 200 && !/<!--\/?fs|data-fs=/.test(await bad.text()), `${bad.status}`);
    });
    // Issue 37: the pages name every module and stylesheet by its version
    // (?v=, the import map; server/net/pagever.c), which the server lets the
    // browser keep: a second load asks the network for none of them, and the
    // map's inline script is one the CSP allows (no console error).
    await step('firstscreen: modules and stylesheets from the cache', async () => {
        const pg = await ctx.newPage();
        const cdp = await ctx.newCDPSession(pg);
        await cdp.send('Network.enable');
        const net = [], cached = new Set(), errors = [];
        cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
        cdp.on('Network.responseReceived', (e) => net.push({ id: e.requestId, url: e.response.url, disk: e.response.fromDiskCache, status: e.response.status }));
        pg.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        pg.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
        const files = (list) => list.filter((r) => /^\/(js|css)\//.test(new URL(r.url).pathname));
        const fromNet = (list) => files(list).filter((r) => !r.disk && !cached.has(r.id));
        // the index says it is ready (body data-ready); the other pages: no request for 500 ms
        const load = (url) => (/\.html/.test(url) ? pg.goto(url, { waitUntil: 'load' }) : gotoReady(pg, url));
        for (const path of ['', 'layout.html', 'kernel.html', 'linear.html']) {
            net.length = 0;
            await load(base + path);
            await pg.waitForLoadState('networkidle');
            const first = files(net);
            check(`cache ${path || '/'}: every module and stylesheet is asked for by version`, first.length > 0 && first.every((r) => /\?v=[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$/.test(r.url)),
                first.filter((r) => !/\?v=/.test(r.url)).map((r) => r.url).join(' ') || `${first.length} requests`);
            check(`cache ${path || '/'}: each asked for once`, new Set(first.map((r) => r.url)).size === first.length, first.map((r) => r.url).join(' '));
            net.length = 0;
            await load(base + path + (path ? '' : '?b=2&m=4&s=3'));
            await pg.waitForLoadState('networkidle');
            const again = fromNet(net);
            check(`cache ${path || '/'}: a second load asks the network for no module or stylesheet`, again.length === 0,
                again.map((r) => `${r.status} ${r.url}`).join(' '));
        }
        check('cache: no console error on the pages (the import map is allowed by the CSP)', errors.length === 0, errors.join(' | '));
        await pg.close();
    });
    await off.close();
    await page.setViewportSize(before);
}
