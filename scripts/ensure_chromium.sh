#!/usr/bin/env bash
# Make sure a headless Chromium is installed for the report's browser tests (tests/test_report.py).
# Found on the PATH (chromium, chromium-browser, google-chrome) or named by $CHROMIUM: nothing to do.
# Missing: installed with apt-get (Debian's `chromium` package and fonts-liberation, without the recommended
# desktop packages: headless needs none of them), as root or through sudo. If it
# cannot be installed, the run fails under CI=true (the browser tests would fail anyway) and
# otherwise says that they will be skipped.
set -euo pipefail
found() {
    [ -n "${CHROMIUM:-}" ] && [ -x "${CHROMIUM}" ] && return 0
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
        command -v google-chrome >/dev/null 2>&1
}
if found; then
    exit 0
fi
echo "ensure_chromium: no chromium on the PATH; installing Debian's chromium package" >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation) >&2 || true
    elif command -v sudo >/dev/null 2>&1; then
        (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation) >&2 || true
    fi
fi
if found; then
    exit 0
fi
if [ -n "${CI:-}" ]; then
    echo "ensure_chromium: chromium could not be installed, and CI is set: the browser tests need it" >&2
    exit 1
fi
echo "ensure_chromium: chromium could not be installed; the browser tests will be skipped" >&2
