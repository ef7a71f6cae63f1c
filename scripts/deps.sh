#!/bin/sh
# deps.sh - install what `make run` / `make test` / `make fuzz` need on Debian.
# Usage: scripts/deps.sh build|test|fuzz
# As root it installs the missing Debian packages (and the browser test's npm
# packages, pinned by tests/browser/package-lock.json); otherwise it prints the
# exact command to run and fails.  It never downloads anything but packages.
set -eu

need="pkg-config gcc make libmicrohttpd-dev libcjson-dev"
case "${1:-build}" in
    build) ;;
    test) need="$need chromium chromium-headless-shell nodejs npm valgrind" ;;
    fuzz) need="$need clang libclang-rt-14-dev" ;;
    *) echo "usage: $0 build|test|fuzz" >&2; exit 2 ;;
esac

missing=""
for p in $need; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        # node and npm may come from elsewhere than Debian (nodesource, a
        # toolchain image): a working binary counts as installed.
        case "$p" in
            nodejs) command -v node >/dev/null 2>&1 && continue ;;
            npm) command -v npm >/dev/null 2>&1 && continue ;;
        esac
        missing="$missing $p"
    fi
done

if [ -n "$missing" ]; then
    cmd="apt-get update && apt-get install -y$missing"
    if [ "$(id -u)" -ne 0 ]; then
        echo "deps: missing Debian packages:$missing" >&2
        echo "deps: run as root:  $cmd" >&2
        exit 1
    fi
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
fi

if [ "${1:-build}" = test ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
    echo "deps: installing the browser test's npm packages (npm ci)"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi
exit 0
