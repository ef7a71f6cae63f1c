#!/bin/sh
# run.sh - the browser test: installs playwright-core from the lockfile when missing
# (and Debian's chromium and poppler-utils when missing and we are root), then
# runs test_page.mjs.
# Env: SWZ_BIN (server binary, default build/swizzlescope), SWZ_CHROMIUM (default /usr/bin/chromium).
set -eu
cd "$(dirname "$0")"
if [ ! -x "${SWZ_CHROMIUM:-/usr/bin/chromium}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing chromium (Debian package)" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi
# pdftotext reads the printed page back (teach2_checks, issue 40.3)
if ! command -v pdftotext >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing poppler-utils (Debian package)" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >&2
fi
if [ ! -d node_modules/playwright-core ]; then
    npm ci --no-audit --no-fund >&2
fi
exec node test_page.mjs "$@"
