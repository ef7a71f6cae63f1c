// kernelptx.test.mjs - the kernel page's PTX / CUDA pure module: the entries
// and parameters read from a corpus PTX's declarations, the URL round trip,
// the /api/ptx body, the lines in order of excess, the costliest marked, and
// the swizzle page's link read back by the swizzle page's own URL reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
    PTX_EXAMPLES, exampleUrl, entriesOf, paramDefault, fromLocation, toLocation, ptxBody, byExcess, costliest, lineKey, worstOf, swizzlePageHref,
    measuredLines, measuredKinds, measureSummary, cudaEntriesOf,
} from '../../static/js/kernel/kernelptxstate.js';
import { fromSearch } from '../../static/js/kit/state.js';

const corpus = JSON.parse(fs.readFileSync(new URL('../data/ptx/corpus.json', import.meta.url), 'utf8'));

test('kernelptx: every corpus entry and its parameter count read from the declarations', () => {
    for (const c of corpus) {
        const text = fs.readFileSync(new URL('../data/ptx/' + c.ptx, import.meta.url), 'utf8');
        const e = entriesOf(text).find((x) => x.name === c.kernel);
        assert.ok(e, c.name);
        assert.equal(e.params.length, c.params.length, c.name);
    }
    const [e] = entriesOf('.visible .entry k(\n\t.param .u64 .ptr .shared .align 16 k_p0,\n\t.param .f32 k_p1\n)\n{ ret; }');
    assert.deepEqual(e, { name: 'k', params: [{ type: 'u64', name: 'k_p0' }, { type: 'f32', name: 'k_p1' }] });
    assert.equal(paramDefault(e.params[0]), 'null');
    assert.equal(paramDefault(e.params[1]), '0');
});

test('kernelptx: the examples are the corpus launches', () => {
    for (const ex of PTX_EXAMPLES) {
        const c = corpus.find((x) => x.name === ex.id);
        assert.equal(ex.block, c.block.join(','));
        assert.equal(ex.grid, c.grid.join(','));
        assert.equal(ex.params, c.params.map((p) => (p === null ? 'null' : p)).join(','));
        assert.equal(ex.dyn, String(c.dynamic_shared));
        // served as kernels/NAME.ptx|cu from the corpus folder itself (the server's /kernels/)
        for (const mode of ['ptx', 'cuda']) {
            const url = exampleUrl(ex, mode);
            assert.match(url, /^kernels\/[a-z0-9_]+\.(ptx|cu)$/);
            assert.ok(fs.existsSync(new URL('../data/ptx/corpus/' + url.slice('kernels/'.length), import.meta.url)), url);
        }
        assert.equal('corpus/' + exampleUrl(ex, 'ptx').slice('kernels/'.length), c.ptx);
    }
});

test('kernelptx: the URL round trip and the body', () => {
    const s = { mode: 'ptx', ex: null, text: 'x', kernel: 'k', block: '32,8', grid: '2,2,1', params: 'null,64', dyn: '0', sel: 'a.cu:3:ld' };
    const { search, hash } = toLocation(s);
    assert.deepEqual(fromLocation(search, hash), s);
    assert.deepEqual(ptxBody(s), { ptx: 'x', kernel: 'k', block: [32, 8], grid: [2, 2, 1], params: [null, 64], dynamic_shared: 0 });
    assert.deepEqual(ptxBody({ ...s, mode: 'cuda', params: 'null,abc' }).params, [null, 'abc']);   // the server names it
    assert.equal('cuda' in ptxBody({ ...s, mode: 'cuda' }), true);
    const ex = { ...s, ex: 'transpose_naive', text: 'T' };
    assert.equal(toLocation(ex, 'T').hash, '');
    assert.equal(toLocation({ ...s, text: 'y'.repeat(20000) }).linkable, false);
});

test('kernelptx: lines by excess, the costliest marked, a line\'s worst instruction, the swizzle link', () => {
    const lines = [{ file: 'a.cu', line: 1, kind: 'st', excess: 0 }, { file: 'a.cu', line: 2, kind: 'ld', excess: 10 }, { file: 'a.cu', line: 3, kind: 'ld', excess: 6 }];
    assert.deepEqual(byExcess(lines).map((l) => l.line), [2, 3, 1]);
    assert.deepEqual([...costliest(lines)], ['a.cu:2:ld', 'a.cu:3:ld']);
    assert.equal(costliest([lines[0]]).size, 0);
    const offsets = Array.from({ length: 32 }, (_, i) => (i === 5 ? null : i * 128));
    const ins = [
        { file: 'a.cu', line: 2, kind: 'ld', worst: { op: 'ld', bytes: 4, wavefronts: 2, ideal: 1, offsets, banks: [] } },
        { file: 'a.cu', line: 2, kind: 'ld', worst: { op: 'ld', bytes: 4, wavefronts: 31, ideal: 1, offsets, banks: [] } },
    ];
    assert.equal(worstOf({ instructions: ins }, lines[1]), ins[1]);
    assert.equal(worstOf({ instructions: ins }, lines[0]), null);
    const st = fromSearch(swizzlePageHref(ins[1].worst).replace(/^index\.html/, ''));
    assert.equal(st.acc, 'custom');
    assert.equal(st.space, 'physical');
    assert.equal(st.offs.split(',').length, 32);
    assert.equal(st.offs.split(',')[5], '-');
    assert.equal(st.offs.split(',')[31], '3968');
    assert.equal(lineKey(lines[1]), 'a.cu:2:ld');
});

test('kernelptx: a measurement\'s lines by key, the GPU-only ones apart, and its sentence', () => {
    const row = (line, kind, agree, predicted = { executions: 1, wavefronts: 1, ideal: 1, excess: 0 }) =>
        ({ file: 'a/k.cu', line, kind, predicted, measured: { executions: 1, wavefronts: agree ? 1 : 2, ideal: 1, excess: agree ? 0 : 1 }, agree });
    const m = {
        measured: { device: { name: 'NVIDIA H200' }, ncu: { used: true } },
        compare: { totals: [{ kind: 'ld', agree: true }, { kind: 'st', agree: false }], lines: [row(3, 'ld', true), row(4, 'st', false), row(9, 'st', false, null)], lines_agree: 1, lines_total: 3, agree: false },
    };
    const { byKey, only } = measuredLines(m);
    assert.deepEqual([...byKey.keys()], ['a/k.cu:3:ld', 'a/k.cu:4:st']);
    assert.equal(byKey.get(lineKey({ file: 'a/k.cu', line: 4, kind: 'st' })).measured.wavefronts, 2);
    assert.deepEqual(only.map((l) => l.line), [9]);
    assert.deepEqual([...measuredKinds(m).keys()], ['ld', 'st']);
    assert.equal(measureSummary(m), 'Measured on NVIDIA H200: 2 of 3 lines and 1 of 2 kinds differ from the prediction.');
    const ok = { ...m, compare: { ...m.compare, totals: [m.compare.totals[0]], lines: [m.compare.lines[0]], lines_agree: 1, lines_total: 1, agree: true } };
    assert.equal(measureSummary(ok), 'Measured on NVIDIA H200: every kind (1) and all 1 lines equal the prediction.');
    const none = { measured: { device: { name: 'X' }, ncu: { used: false, reason: 'ncu not found' } }, compare: { ...ok.compare, agree: null } };
    assert.equal(measureSummary(none), 'Ran on X, but Nsight Compute gave no counts: ncu not found.');
    assert.deepEqual(measuredLines(null), { byKey: new Map(), only: [] });
});

test('kernelptx: CUDA mode reads each corpus kernel\'s __global__ signature: the PTX entry\'s parameters, named', () => {
    for (const c of corpus) {
        const cu = fs.readFileSync(new URL('../data/ptx/' + c.ptx.replace(/\.ptx$/, '.cu'), import.meta.url), 'utf8');
        const ptx = fs.readFileSync(new URL('../data/ptx/' + c.ptx, import.meta.url), 'utf8');
        const [k, ...more] = cudaEntriesOf(cu);
        const e = entriesOf(ptx).find((x) => x.name === c.kernel);
        assert.equal(more.length, 0, c.name);
        assert.ok(c.kernel === k.name || c.kernel.includes(k.name.length + k.name), `${c.kernel} is ${k.name}`);
        assert.equal(k.params.length, e.params.length, c.name);
        // a C pointer is the PTX's 64-bit parameter, and both default to null (their own buffers)
        k.params.forEach((p, i) => assert.equal(paramDefault(p), paramDefault(e.params[i]), `${c.name} ${p.type} ${p.name}`));
        assert.ok(k.params.every((p) => /^[A-Za-z_]\w*$/.test(p.name)), JSON.stringify(k.params));
    }
    const [k, v] = cudaEntriesOf('// __global__ void gone(int a)\n/* __global__ void gone2() */\nconst char *s = "__global__ void str(int x)";\n' +
        'template <int N> __global__ void __launch_bounds__(256, 2) k(const float *__restrict__ a, int b[4], Foo<int, 2> c = {})\n{}\n__global__ void v(void);');
    assert.deepEqual(k, { name: 'k', params: [{ type: 'const float *__restrict__', name: 'a' }, { type: 'int [4]', name: 'b' }, { type: 'Foo<int, 2>', name: 'c' }] });
    assert.deepEqual(v, { name: 'v', params: [] });
});
