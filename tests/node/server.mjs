// server.mjs - starts build/swizzlescope (or $SWZ_BIN) on a free port for the
// node tests that check a page module's list against the API's (api.test.mjs).
// The binary must exist (make builds it; `make check-node` and `make test` do).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.resolve(ROOT, process.env.SWZ_BIN || 'build/swizzlescope');

const freePort = () => new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

// {get(route, query) => parsed JSON body, stop()}; throws when the binary is
// missing or the server does not answer /api/health within 5 s.
export async function startServer() {
    if (!fs.existsSync(BIN)) throw new Error(`${BIN} missing: run make`);
    const port = await freePort();
    const child = spawn(BIN, ['--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (d) => { log += d; });
    const base = `http://127.0.0.1:${port}/api/`;
    const get = async (route, query = {}) => {
        const r = await fetch(base + route + '?' + new URLSearchParams(query));
        if (!r.ok) throw new Error(`${route}: ${r.status} ${await r.text()}`);
        return r.json();
    };
    for (let i = 0; i < 100; i++) {
        if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${log.trim()}`);
        try { await get('health'); return { get, stop: () => child.kill('SIGTERM') }; } catch { /* not up yet */ }
        await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGTERM');
    throw new Error('server did not answer /api/health within 5 s: ' + log.trim());
}
