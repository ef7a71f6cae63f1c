// recommend.test.mjs - the recommendation as HTML (recommend.js): it prints
// the answer's layout, totals, verdict, code and the three fixes, escaped,
// and offers Apply only for a swizzle. The answer is written out by hand in
// /api/recommend's shape (README); nothing here is a model fact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recommendHTML } from '../../static/js/index/recommend.js';

const cost = { wavefronts: 1, ideal_wavefronts: 1, bank_conflicts: 0, cycles: 1, ways: 1, phases: [{ reason: 'clean' }] };
const side = (steps, wf) => ({ bytes_per_access: 4, steps, wavefronts: wf, ideal: wf, cycles: wf, worst: 1, worst_step: 0 });
const code = { element_type: 'float', cute: 'composition(Swizzle<4,1,4>{}, X)', cute_why: null, atom: null,
    triton: '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 16, order = [1, 0]}>', triton_form: 'swizzled_shared',
    triton_why: null, tma: null, tma_why: 'TMA <no>', c: 'off ^= (off >> 4) & 0x78u;' };
const ANSWER = {
    fits: true, tile: { rows: 16, row_bytes: 128, bytes: 2048, element_bits: 32, element_given: true, columns: 32 },
    searched: { valid: 268, distinct: 135 }, current: 0,
    candidates: [{ kind: 'swizzle', name: 'Swizzle<0,2,5>', total_wavefronts: 272 }],
    bound: { expressible: true, total: 32, ideal_total: 32, why: null },
    recommended: { kind: 'swizzle', b: 4, m: 3, s: 4, name: 'Swizzle<4,3,4>', match_bank_row: 0, drawable: true, origin: 'search', is_current: false,
        write_total: side(16, 16), read_total: side(16, 16), total_wavefronts: 32, ideal_wavefronts: 32, saves_wavefronts: 240,
        reaches_bound: true, verdict: 'a swizzle reaches the bound', write_cost: cost, read_cost: cost, code },
    fixes: [
        { fix: 'swizzle', extra_bytes: 0, layout: { name: 'Swizzle<4,3,4>' }, write_total: side(16, 16), read_total: side(16, 16), total_wavefronts: 32, ideal_wavefronts: 32, code },
        { fix: 'padding', extra_bytes: 120, layout: { name: '+8 bytes every 128' }, write_total: side(16, 16), read_total: side(16, 16), total_wavefronts: 32, ideal_wavefronts: 32,
            code: { ...code, c: 'uint32_t off = row * 136u + col * 4u;', triton: '#ttg.padded_shared<[32:+2] {order = [1, 0], shape = [16, 32]}>' } },
        { fix: 'lane_schedule', extra_bytes: 0, layout: { name: 'Swizzle<0,2,5>' }, write_total: side(16, 16), read_total: side(16, 16), total_wavefronts: 32, ideal_wavefronts: 32,
            code: { extra_bytes: 0, write: null, read: 'uint32_t rs = (r + (lane >> 0)) % 16u;' } },
    ],
};

test('recommendHTML: the layout, its totals, the bound and the verdict', () => {
    const h = recommendHTML(ANSWER);
    assert.match(h, /<code id="score-rec-name">Swizzle&lt;4,3,4&gt;<\/code>/);
    assert.match(h, /240 wavefronts fewer than now over the tile, of 135 distinct swizzles/);
    assert.match(h, /32 wavefronts \(ideal 32; 16 \+ 16 instructions\)/);
    assert.match(h, /F2 optimizer's bound: 32 wavefronts \(ideal 32\); a swizzle reaches the bound\./);
    assert.match(h, /id="score-rec-apply" data-b="4" data-m="3" data-s="4" data-match="0" data-rows="16"/);
});

test('recommendHTML: code for the element type, a missing form says why', () => {
    const h = recommendHTML(ANSWER);
    assert.match(h, /Paste it \(float\)/);
    assert.match(h, /id="score-rec-triton"><pre class="rec-code">#ttg.swizzled_shared&lt;\{vec = 2,/);
    assert.match(h, /id="score-rec-tma"><span class="fine">none: TMA &lt;no&gt;<\/span>/);
});

test('recommendHTML: three fixes with their totals, memory and code', () => {
    const h = recommendHTML(ANSWER);
    for (const f of ['swizzle', 'padding', 'lane_schedule']) assert.match(h, new RegExp(`<tr data-fix="${f}">`));
    assert.match(h, /<td class="rec-mem">\+120 bytes<\/td>/);
    assert.match(h, /#ttg.padded_shared&lt;\[32:\+2\]/);
    assert.match(h, /rs = \(r \+ \(lane &gt;&gt; 0\)\) % 16u;/);
});

test('recommendHTML: a swizzle no view of the tile draws has no Apply', () => {
    const h = recommendHTML({ ...ANSWER, recommended: { ...ANSWER.recommended, match_bank_row: null, drawable: false } });
    assert.doesNotMatch(h, /score-rec-apply/);
    assert.match(h, /id="score-rec-nodraw">\(no view of this tile draws it: paste the code below\)/);
});

test('recommendHTML: the optimizer\'s layout has no Apply; current and misfit', () => {
    const lin = { ...ANSWER, recommended: { ...ANSWER.recommended, kind: 'linear', name: "the optimizer's layout", offset_bases: [[0, 1]], reaches_bound: false } };
    const h = recommendHTML(lin);
    assert.doesNotMatch(h, /score-rec-apply/);
    assert.match(h, /Offset bases .*\[\[0,1\]\]/);
    assert.match(h, /class="warn"/);
    const cur = recommendHTML({ ...ANSWER, recommended: { ...ANSWER.recommended, is_current: true } });
    assert.match(cur, /already the best of 135 distinct swizzles/);
    assert.equal(recommendHTML({ fits: false }), '');
    assert.match(recommendHTML({ ...ANSWER, recommended: null }), /no layout runs both patterns/);
    assert.match(recommendHTML({ fits: true, recommended: null, why: { field: 'rows', message: 'at most <1024>' } }),
        /id="score-rec-why">Recommended: none here: at most &lt;1024&gt;/);
});
