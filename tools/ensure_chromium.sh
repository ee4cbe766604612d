#!/usr/bin/env bash
# Install Debian's headless-capable Chromium for the viewer's browser tests, when absent.
# Without it the browser tests skip with a message; everything else runs the same.
set -uo pipefail
for exe in chromium chromium-browser google-chrome; do
    if command -v "$exe" >/dev/null 2>&1; then exit 0; fi
done
if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
    ($SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium chromium-driver) >/dev/null 2>&1 \
        || echo "ensure_chromium: could not install chromium; browser tests will be skipped" >&2
else
    echo "ensure_chromium: no apt-get; browser tests will be skipped" >&2
fi
exit 0
