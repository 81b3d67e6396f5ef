#!/usr/bin/env bash
# Installs Debian's nginx when it is missing: NginxNamespaceRoutingTest and scripts/load-nginx.sh
# run it as a child process of their own (`nginx -p DIR -c CONF`, deploy/nginx/cairn.conf), never
# the system's service. Idempotent: does nothing when /usr/sbin/nginx is there. The package's
# installation would start the service (port 80, Debian's default site); a policy-rc.d that
# refuses every start is put in place for the installation when there is none, so nothing is
# started. Run as root (or a user allowed to apt-get).
set -euo pipefail

log() { printf 'setup-nginx: %s\n' "$*" >&2; }

NGINX=/usr/sbin/nginx
POLICY=/usr/sbin/policy-rc.d

if [[ -x "$NGINX" ]]; then
    log "present: $("$NGINX" -v 2>&1)"
    exit 0
fi
if [[ ! -e "$POLICY" ]]; then
    # invoke-rc.d and deb-systemd-invoke ask this script; 101 means "action not allowed"
    printf '#!/bin/sh\nexit 101\n' >"$POLICY"
    chmod 755 "$POLICY"
    trap 'rm -f "$POLICY"' EXIT
fi
log "installing nginx with apt-get (its service is not started)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends nginx >&2
log "installed: $("$NGINX" -v 2>&1)"
