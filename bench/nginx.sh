# nginx.sh - sourced by bench/load.sh and bench/bigmap.sh: nginx serving
# DIR/www/api/swizzle (a saved /api/swizzle answer) as the reference the API
# is measured against, on loopback, from a private prefix under DIR.
# nginx_start DIR PORT CONNECTIONS: write DIR/nginx.conf, start nginx in the
# background (sets nginx_pid), wait until it answers.  Needs bash.
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
