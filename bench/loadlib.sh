# loadlib.sh - sourced by bench/load.sh and bench/bigmap.sh (bash): what both
# need around wrk: the tools, a temporary folder and the processes they start
# (stopped by pid on any exit), a free port, the server's RSS, and nginx
# serving a saved /api/swizzle answer as the reference, on loopback only.
# Callers set LOADLIB_NAME (for messages) before sourcing it.

# Exit 2 naming the package when wrk, nginx or curl is missing.
loadlib_need_tools() {
    for tool in wrk nginx curl; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "$LOADLIB_NAME: $tool is missing: apt-get install -y wrk nginx-light curl" >&2
            exit 2
        fi
    done
}

tmp=$(mktemp -d)
server_pid="" nginx_pid="" sampler_pid=""
cleanup() {
    # Only what this script started, by pid.
    for pid in "$sampler_pid" "$nginx_pid" "$server_pid"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for pid in "$sampler_pid" "$nginx_pid" "$server_pid"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A port nobody listens on; nginx cannot be asked for port 0 and told back.
free_port() {
    local p
    for _ in $(seq 1 100); do
        p=$((20000 + RANDOM % 40000))
        if ! ss -Hltn 2>/dev/null | awk '{print $4}' | grep -q ":$p\$"; then
            echo "$p"
            return 0
        fi
    done
    echo "$LOADLIB_NAME: no free port found" >&2
    return 1
}

# server_start BIN: the server on an ephemeral loopback port, serving static/;
# sets server_pid and port (read from the line it prints), or exits 1.
server_start() {
    "$1" --bind 127.0.0.1 --port 0 --static static >"$tmp/server.out" 2>&1 &
    server_pid=$!
    port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's|^swizzlescope serving http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/server.out")
        [ -n "$port" ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        echo "$LOADLIB_NAME: the server did not start:" >&2
        cat "$tmp/server.out" >&2
        exit 1
    fi
}

# The server's resident memory in KiB (0 once it is gone).
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || echo 0; }

# nginx_start DIR PORT CONNECTIONS: nginx serving DIR/www/api/swizzle from a
# private prefix under DIR; sets nginx_pid and waits until it answers.
nginx_start() {
    local dir=$1 port=$2 conns=$3
    # nginx's workers drop to an unprivileged user when started as root.
    chmod 755 "$dir" "$dir/www" "$dir/www/api"
    chmod 644 "$dir/www/api/swizzle"
    mkdir -p "$dir/nginx"
    cat >"$dir/nginx.conf" <<EOF
worker_processes $(nproc);
daemon off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections $conns; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    open_file_cache max=64;
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    server {
        listen 127.0.0.1:$port;
        root $dir/www;
        location = /api/swizzle { default_type application/json; }
    }
}
EOF
    nginx -e "$dir/nginx/error.log" -p "$dir/nginx" -c "$dir/nginx.conf" &
    nginx_pid=$!
    for _ in $(seq 1 50); do
        curl -s -o /dev/null "http://127.0.0.1:$port/api/swizzle" && break
        sleep 0.1
    done
}
