# serve.sh - sourced by the render benches (bench/render.sh, render-ab.sh,
# render-pair.sh) and the load benches (flood.sh, idle_clients.sh) from the
# repository root: what they need before they start,
# and build/swizzlescope serving a static/ on a free port. It runs no bench.

PIDS=   # every server started here; the caller's trap kills them

# The server binary and playwright-core, or a clear error.
bench_needs() {
    [ -x build/swizzlescope ] || { echo "build/swizzlescope missing: run make" >&2; exit 1; }
    [ -d tests/browser/node_modules/playwright-core ] || (cd tests/browser && npm ci --no-audit --no-fund >&2)
}

# serve DIR [BIN]: BIN (default build/swizzlescope) serving DIR on a free
# port, returning once it answers; sets URL, and SERVED to its pid (also added
# to PIDS).
serve() {
    port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    "${2:-build/swizzlescope}" --port "$port" --static "$1" --measure-tool none >/dev/null 2>&1 &
    SERVED=$!
    PIDS="$PIDS $SERVED"
    i=0
    until curl -sf "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; do
        i=$((i + 1)); [ $i -lt 100 ] || { echo "server did not start" >&2; exit 1; }
        sleep 0.05
    done
    URL="http://127.0.0.1:$port/"
}

# The peer page (seed 003: "GPU Shared Memory Swizzle Visualizer",
# vj-krish/vj-krish.github.io assets/swizzle-visualizer.html, pinned), in
# .gl/peer/index.html (ignored; never committed): fetched when missing, or
# copied there by hand on an offline machine. Sets PEER_DIR.
peer_page() {
    PEER_DIR=.gl/peer
    peer_url=https://raw.githubusercontent.com/vj-krish/vj-krish.github.io/a0d65bd42aee2f3a9fb9e9935cd192578a85c2dc/assets/swizzle-visualizer.html
    mkdir -p "$PEER_DIR"
    [ -s "$PEER_DIR/index.html" ] && return 0
    curl -sfL --max-time 30 -o "$PEER_DIR/index.html" "$peer_url" || {
        rm -f "$PEER_DIR/index.html"
        echo "cannot fetch the peer page from $peer_url: put it at $PEER_DIR/index.html" >&2; exit 1; }
}
