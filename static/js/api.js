// api.js - the page's only door to the server: every fetch lives here.
// Returns the parsed JSON body, or throws ApiError carrying the contract's
// {code, field, message}. It must not interpret the model's numbers.

export class ApiError extends Error {
    constructor(status, code, field, message) {
        super(message);
        this.name = 'ApiError';
        this.status = status;   // HTTP status, 0 when the server was not reached
        this.code = code;
        this.field = field;     // parameter the server blamed, or null
    }
}

async function request(path, init) {
    let res;
    try {
        res = await fetch(path, { cache: 'no-store', ...init });
    } catch (e) {
        throw new ApiError(0, 'unreachable', null, 'cannot reach the swizzlescope server (' + e.message + ')');
    }
    let body = null;
    try {
        body = await res.json();
    } catch {
        throw new ApiError(res.status, 'bad_response', null,
            `the server answered ${res.status} ${res.statusText} without a JSON body`);
    }
    if (!res.ok || (body && body.error)) {
        const e = (body && body.error) || {};
        throw new ApiError(res.status, e.code || 'http_' + res.status, e.field ?? null,
            e.message || res.statusText || 'request failed');
    }
    return body;
}

function getJSON(path, params) {
    const qs = params ? '?' + new URLSearchParams(params).toString() : '';
    return request(path + qs, { headers: { Accept: 'application/json' } });
}

function postJSON(path, body) {
    return request(path, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
    });
}

// Query parameters drop undefined / null / '' so the server applies its defaults.
function clean(q) {
    const out = {};
    for (const [k, v] of Object.entries(q)) {
        if (v !== undefined && v !== null && v !== '') out[k] = String(v);
    }
    return out;
}

export const health = () => getJSON('api/health');
export const presets = () => getJSON('api/presets');
export const swizzle = (q) => getJSON('api/swizzle', clean(q));
export const inspect = (q, row, col) => getJSON('api/inspect', clean({ ...q, row, col }));
export const patterns = () => getJSON('api/patterns');
export const access = (q, pattern, step) => getJSON('api/access', clean({ ...q, pattern, step }));
// body: {op, bytes, matrices, trans, offsets: [32 ints or null], bank_bytes, banks}
export const conflicts = (body) => postJSON('api/conflicts', body);
export const measure = (body) => postJSON('api/measure', body);
