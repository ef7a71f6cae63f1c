// linearview.js - the F2 workbench's panels as markup (linear.html): the toggle
// grid, layouts and memory layout as 0/1 matrices, the verdicts, the algebra,
// the phase rule and the equivalents, each from an /api/linear answer. Pure
// string building (imports under node). It must not compute any number it
// shows: each comes from the answer, or is the user's own input redrawn.

import { esc } from '../kit/esc.js';
import { isStore } from '../kit/ops.js';
import { OK, BAD, WARN, ON } from '../kit/classes.js';
import { bitName, laneRuns, log2, mainPageHref, DIMS } from '../kit/linearstate.js';

const sub = (name, i) => `${name}<sub>${i}</sub>`;
const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;

// The toggle grid: one button per (row bit i, column bit j), pressed when
// row bit i folds into column bit j. Disabled (with a note) when the memory
// layout is not of that form.
export function toggleGrid(shape, fold) {
    const rows = log2(shape[0]), cols = log2(shape[1]);
    let h = '<table class="lin-toggles"><thead><tr><th scope="col">row bit \u2192 column bit</th>';
    for (let j = 0; j < cols; j++) h += `<th scope="col">${sub('n', j)}</th>`;
    h += '</tr></thead><tbody>';
    for (let i = 0; i < rows; i++) {
        h += `<tr><th scope="row">${sub('m', i)}</th>`;
        for (let j = 0; j < cols; j++) {
            const on = !!fold && ((fold[i] >> j) & 1) === 1;
            h += `<td><button type="button" class="lin-tog${on ? ' ' + ON : ''}" data-i="${i}" data-j="${j}" ` +
                `aria-pressed="${on}"${fold ? '' : ' disabled'} title="fold m${i} into n${j}">${on ? '1' : '0'}</button></td>`;
        }
        h += '</tr>';
    }
    return h + '</tbody></table>';
}

// Output bits of the tile, the matrix rows: n_0.. then m_0.. (the element's
// row-major index, column bits low).
function outBits(shape) {
    const rows = [];
    for (let j = 0; j < log2(shape[1]); j++) rows.push({ label: sub('n', j), dim: 1, bit: j });
    for (let i = 0; i < log2(shape[0]); i++) rows.push({ label: sub('m', i), dim: 0, bit: i });
    return rows;
}

// A matrix over F2 drawn as a 0/1 grid: columns are input bits (each a basis
// [d0, d1] the user or the server gave), rows the tile's bits. `groups`:
// [{name, short, bases}] in column order.
export function matrix(shape, groups, caption) {
    const rows = outBits(shape);
    let h = `<table class="lin-matrix"><caption>${esc(caption)}</caption><thead><tr><th></th>`;
    for (const g of groups) {
        g.bases.forEach((_, k) => { h += `<th scope="col" class="lin-g-${esc(g.short)}${k === 0 ? ' lin-gstart' : ''}" title="${esc(g.name)} bit ${k}">${sub(esc(g.short), k)}</th>`; });
    }
    h += '</tr></thead><tbody>';
    for (const r of rows) {
        h += `<tr><th scope="row">${r.label}</th>`;
        for (const g of groups) {
            g.bases.forEach((b, k) => {
                const one = ((b[r.dim] >> r.bit) & 1) === 1;
                h += `<td class="${one ? 'lin-one' : 'lin-zero'}${k === 0 ? ' lin-gstart' : ''}">${one ? 1 : 0}</td>`;
            });
        }
        h += '</tr>';
    }
    return h + '</tbody></table>';
}

export const layoutGroups = (l) => DIMS.filter((d) => (l[d] || []).length)
    .map((d) => ({ name: d, short: d === 'register' ? 'r' : d === 'lane' ? 't' : 'w', bases: l[d] }));

// One side's verdict: the simulated wavefronts against the lower bound.
export function verdict(side, title) {
    const free = side.bank_conflicts_per_instruction === 0;
    const f = side.formula, lem = side.lemma_9_4;
    let h = `<div class="lin-verdict ${free ? OK : BAD}" data-side="${esc(side.op)}">` +
        `<div class="lin-vt">${esc(title)}</div>` +
        `<div class="lin-big"><span class="lin-wf" data-wf="${side.wavefronts_per_instruction}">${side.wavefronts_per_instruction}</span> ` +
        `<small>${side.wavefronts_per_instruction === 1 ? 'wavefront' : 'wavefronts'} per instruction</small></div>` +
        `<div class="lin-vsub">${free ? 'conflict-free' : `${plural(side.bank_conflicts_per_instruction, 'bank conflict')}`}: ` +
        `ideal ${side.lower_bound} (${plural(side.phases, 'phase')} of ${side.lanes_per_phase} lanes, ${side.bytes_per_lane} B a lane` +
        `${side.paired ? ', lane pairs share addresses' : ''})</div>` +
        `<div class="lin-vsub">simulated ${side.simulated.instructions_simulated} of ${plural(side.simulated.instructions, 'instruction')} \u00b7 ` +
        `formula ${f.wavefronts_per_instruction} \u00b7 Lemma 9.4 ${lem.wavefronts_per_instruction}</div>`;
    if (side.formula_undercounts) {
        h += `<div class="lin-flag ${WARN}" data-undercounts="1">Lemma 9.4 on element space gives ${lem.wavefronts_per_instruction}, ` +
            `below the ${side.wavefronts_per_instruction} simulated: a lane direction here moves within a 32-bit word ` +
            'and across segments at once, which the element-space intersection cannot see. The word-space formula counts it.</div>';
    }
    if (!side.agree) h += `<div class="lin-flag ${BAD}">formula and simulation differ</div>`;
    return h + '</div>';
}

const basisList = (v) => (v.length ? v.map((b) => `<code>${esc(bitName(b))}</code>`).join(', ') : '<code>{0}</code>');

// The algebra of one side (seed 001 sec. 05): span(M_Seg), the lanes of one
// phase, their intersection, and 2^dim beside the simulated count.
export function algebra(side, title) {
    const f = side.formula, lem = side.lemma_9_4;
    const sim = side.wavefronts_per_instruction;
    return `<div class="lin-alg" data-side="${esc(side.op)}"><h3>${esc(title)}</h3><dl class="kv">` +
        `<dt>M<sub>Seg</sub> basis</dt><dd class="lin-seg">${basisList(side.segment_basis)}</dd>` +
        `<dt>Thr (one phase)</dt><dd class="lin-thr">${basisList(side.thread_basis)}</dd>` +
        `<dt>\u2229 (word space)</dt><dd class="lin-inter">${basisList(f.conflict_basis)} \u2014 dim ${f.conflict_dim}</dd>` +
        `<dt>2<sup>dim</sup></dt><dd><span class="lin-ways" data-ways="${f.ways}">${f.ways}</span>-way \u00d7 ` +
        `${plural(side.phases, 'phase')} = <b class="lin-formula">${f.wavefronts_per_instruction}</b> ` +
        `<span class="${f.wavefronts_per_instruction === sim ? OK : BAD}">${f.wavefronts_per_instruction === sim ? '=' : '\u2260'} ` +
        `${sim} simulated</span></dd>` +
        `<dt>Lemma 9.4</dt><dd>dim ${lem.dim} \u2192 ${lem.wavefronts_per_instruction}` +
        `${side.formula_undercounts ? ` <span class="${WARN}">undercounts</span>` : ''}</dd></dl></div>`;
}

// The phase rule a side was costed with, and where it comes from.
export function phaseRule(side) {
    const r = side.phase_rule;
    const published = r.status !== 'measured';
    return `<li data-side="${esc(side.op)}"><b>${isStore(side.op) ? 'store' : 'load'}:</b> ${esc(r.rule)}; phase 0 = lanes ` +
        `<code>${esc(laneRuns(r.phase0_lanes))}</code> <span class="lin-status${published ? ' ' + WARN : ''}">${esc(r.status)}</span>` +
        `<br><small>${esc(r.source)}</small></li>`;
}

// The memory layout in the notations people write, and the main page's link.
export function equivalents(eq, s = null) {
    const rows = [];
    rows.push(['CuTe', eq.cute ? `<code>${esc(eq.cute.name)}</code> on byte offsets` : 'none']);
    rows.push(['Triton', eq.triton ? `<code>swizzled_shared(vec=${eq.triton.vec}, perPhase=${eq.triton.per_phase}, ` +
        `maxPhase=${eq.triton.max_phase}, order=[${eq.triton.order.join(', ')}])</code>`
        : eq.shared_linear ? `<code id="lin-shared-linear">${esc(eq.shared_linear)}</code>` : 'none']);
    rows.push(['NVMMA / TMA', eq.nvmma ? `<code>${eq.nvmma.swizzle_bytes}B swizzle${eq.nvmma.transposed ? ', transposed' : ''}</code>` : 'none']);
    let h = '<dl class="kv lin-eq">' + rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('') + '</dl>';
    const href = mainPageHref(eq.cute, s);
    h += href ? `<a id="lin-open-main" class="btn" href="${esc(href)}">Open ${esc(eq.cute.name)} on the swizzle page</a>`
        : '<p class="help">No CuTe swizzle gives this layout, so the swizzle page cannot show it.</p>';
    return h;
}

// The optimum's construction, from the optimize answer.
export function construction(c) {
    if (!c) return '';
    return `<p class="note" id="lin-construction">Optimal construction: ${plural(c.vector_bits, 'vector bit')}, ` +
        `${plural(c.word_fill_bits, 'word-fill bit')}, ${plural(c.bank_bits, 'bank bit')}, ${plural(c.segment_bits, 'segment bit')}: ` +
        `${plural(c.shared_lane_directions, 'shared lane direction')} protected, ${plural(c.pairs, 'pair')} e\u2295f, ` +
        `${plural(c.free_directions, 'free direction')}${c.padding ? `, <b>${plural(c.padding, 'padding direction')}</b> (conflicts cannot all go)` : ''}; ` +
        `${c.conflict_free ? 'conflict-free both ways' : 'the fewest conflicts possible'}.</p>`;
}
