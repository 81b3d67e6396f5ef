#!/usr/bin/env bash
# Installs Debian's chromium for the console's browser tests when /usr/bin/chromium is missing.
# Idempotent: does nothing when it is already there. Playwright never downloads a browser here
# (the tests set PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 and point playwright-core at this binary).
# Run as root (or a user allowed to apt-get).
set -euo pipefail

log() { printf 'setup-browser: %s\n' "$*" >&2; }

if [[ -x /usr/bin/chromium ]]; then
    log "chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi
log "installing chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends chromium fonts-liberation >&2
log "installed: $(/usr/bin/chromium --version 2>/dev/null)"
