// inspector.js - fills the address inspector from one /api/inspect answer.
// It prints what the server computed (addresses, bit fields, banks, how the
// cell moved in the form its slot_rule names) and colours the YYY / ZZZ bit
// ranges the server names; it must not compute addresses or slots itself.

import { setHTML } from '../kit/dom.js';
import { esc } from '../kit/esc.js';
import { YYY, ZZZ, UNIT } from '../kit/classes.js';
import { bitsXor } from './slotrule.js';


// Binary string with the bit ranges [lo, hi) of YYY and ZZZ and the unit's low bits marked.
function binHTML(bin, yyy, zzz, unitBits) {
    let s = String(bin).replace(/^0b/, '');
    const width = Math.max(s.length, yyy.hi, zzz.hi);
    s = s.padStart(width, '0');
    let out = '', prev = null;
    for (let i = 0; i < s.length; i++) {
        const bit = s.length - 1 - i;
        const cls = [];
        if (bit >= yyy.lo && bit < yyy.hi) cls.push(YYY);
        else if (bit >= zzz.lo && bit < zzz.hi) cls.push(ZZZ);
        else if (bit < unitBits) cls.push(UNIT);
        const field = cls[0] || '';
        if (i > 0 && field !== prev) cls.push('gap');
        prev = field;
        out += `<span data-bit="${bit}"${cls.length ? ` class="${cls.join(' ')}"` : ''}>${esc(s[i])}</span>`;
    }
    return out;
}

function addrBlock(title, a, yyy, zzz, unitBits, id) {
    return `<div class="addr" id="${id}">
  <h3>${title}</h3>
  <div class="nums"><span class="dec">${esc(a.addr)}</span><span class="hex">${esc(a.hex)}</span></div>
  <div class="bin" title="binary; YYY bits [${yyy.lo},${yyy.hi}) and ZZZ bits [${zzz.lo},${zzz.hi})">${binHTML(a.bin, yyy, zzz, unitBits)}</div>
</div>`;
}

// How this cell moved, in the form the API's slot_rule names: the XOR of
// column and row only where the server says it holds. Every number is a
// field of /api/inspect's tile object.
function ruleHTML(ins, T) {
    const t = ins.tile, rule = ins.slot_rule;
    const box = (title, body) => `<div class="xor" id="ins-xor" data-rule="${esc(rule || '')}" title="${esc(title)}">${body}</div>`;
    const num = (cls, id, v, what) => `<div><b${cls ? ` class="${cls}"` : ''} id="${id}">${v}</b><small>${what}</small></div>`;
    const op = (o) => `<span class="op">${o}</span>`;
    switch (rule) {
    case 'col_xor_row':
        return box(`physical slot in tile = logical column in tile XOR (row mod ${T})`,
            num(ZZZ, 'ins-col-in-tile', t.col_in_tile, 'col in tile') + op('&oplus;') + num(YYY, 'ins-row-mod', t.row_mod, `row mod ${T}`) +
            op('=') + num('', 'ins-slot', t.slot, 'physical slot'));
    case 'row_xor_col':
        return box(`physical row in tile = logical row in tile XOR (column mod ${T}); the column stays`,
            num(ZZZ, 'ins-row-in-tile', t.row_in_tile, 'row in tile') + op('&oplus;') + num(YYY, 'ins-col-in-tile', t.col_in_tile, `col mod ${T}`) +
            op('=') + num('', 'ins-phys-row', t.phys_row_in_tile, 'physical row'));
    case 'general': {
        const rng = bitsXor({ yyy_lo: ins.yyy.lo, yyy_hi: ins.yyy.hi, zzz_lo: ins.zzz.lo, zzz_hi: ins.zzz.hi });
        return box(rng, `<div class="rule" id="ins-rule-text">${esc(rng)}</div>` + op('&rarr;') +
            num('', 'ins-phys-in-tile', `(${t.phys_row_in_tile}, ${t.phys_col_in_tile})`, 'physical (row, col) in tile'));
    }
    case 'identity':
        return box('B = 0: the identity', `<div class="rule" id="ins-rule-text">nothing moves</div>` + op('=') + num('', 'ins-slot', t.slot, 'physical slot'));
    default:
        return box('the server named no slot rule', '');
    }
}

export function showHint(el, text) {
    setHTML(el, `<p class="hint">${esc(text)}</p>`);
}

export function showError(el, err) {
    setHTML(el, `<p class="err">${esc(err.message)}${err.field ? ` (<code>${esc(err.field)}</code>)` : ''}</p>`);
}

// ins: /api/inspect body; sw: the /api/swizzle body it belongs to.
export function render(el, ins, sw) {
    const t = ins.tile, b = ins.banks;
    const unitBits = sw.params.m;
    const T = sw.tile.size;
    let bankText;
    if (b.per_bank > 1) bankText = `unit = 1/${b.per_bank} of a bank word`;
    else if (b.count > 1) bankText = `${b.count} banks`;
    else bankText = '1 bank';
    setHTML(el, `
<dl class="kv">
  <dt>Logical (row, col)</dt><dd id="ins-logical">(${ins.logical.row}, ${ins.logical.col})</dd>
  <dt>Physical (row, col)</dt><dd id="ins-physical">(${ins.physical.row}, ${ins.physical.col})</dd>
  <dt>Logical / physical unit</dt><dd id="ins-units">${ins.logical.unit} &rarr; ${ins.physical.unit}</dd>
  <dt>Tile (row, col)</dt><dd id="ins-tile">(${t.row}, ${t.col})</dd>
</dl>
${ruleHTML(ins, T)}
<dl class="kv">
  <dt>YYY bits [${ins.yyy.lo}, ${ins.yyy.hi})</dt><dd id="ins-yyy">${ins.yyy.value}</dd>
  <dt>ZZZ bits [${ins.zzz.lo}, ${ins.zzz.hi})</dt><dd id="ins-zzz">${ins.zzz.value} &rarr; ${ins.zzz.swizzled}</dd>
</dl>
${addrBlock('Original address', ins.logical, ins.yyy, ins.zzz, unitBits, 'ins-orig')}
${addrBlock('Swizzled address', ins.physical, ins.yyy, ins.zzz, unitBits, 'ins-swz')}
<div class="banks-line">
  <h3 class="addr-h">Bank${b.list.length > 1 ? 's' : ''} <small>(${esc(bankText)})</small></h3>
  <div class="chips" id="ins-banks">${b.list.map((k) => `<span class="chip">${k}</span>`).join('')}</div>
</div>`);
}
