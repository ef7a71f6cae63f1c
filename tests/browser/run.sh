#!/bin/sh
# run.sh - the browser test: installs playwright-core from the lockfile when missing
# (and Debian's chromium-headless-shell and poppler-utils when missing and we are
# root), then runs test_page.mjs.
# Env: SWZ_BIN (server binary, default build/swizzlescope), SWZ_CHROMIUM (default
# /usr/bin/chromium-headless-shell: the same Chromium release's headless build, which
# Playwright runs for headless tests; it takes about 25% less CPU than the full
# browser for the same checks; SWZ_CHROMIUM=/usr/bin/chromium runs them there).
set -eu
cd "$(dirname "$0")"
if [ -z "${SWZ_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ] && [ "$(id -u)" = 0 ] &&
   command -v apt-get >/dev/null; then
    echo "installing chromium-headless-shell (Debian package)" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >&2
fi
if [ ! -x "${SWZ_CHROMIUM:-/usr/bin/chromium-headless-shell}" ] && [ ! -x /usr/bin/chromium ] &&
   [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
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
