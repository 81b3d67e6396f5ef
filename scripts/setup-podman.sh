#!/usr/bin/env bash
# Installs what scripts/build-image.sh and test-image.sh need, from Debian's packages, when missing:
# podman, mmdebstrap (the base image's root file system) and runc (where crun cannot run a container,
# scripts/podman-options.sh). Idempotent: does nothing when they are there. Run as root.
set -euo pipefail

log() { printf 'setup-podman: %s\n' "$*" >&2; }

missing=()
for tool in podman mmdebstrap runc curl jq; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} = 0 ]; then
    log "present: $(podman --version), mmdebstrap $(mmdebstrap --version | awk '{print $2}')"
    exit 0
fi
log "installing ${missing[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
log "installed: $(podman --version), mmdebstrap $(mmdebstrap --version | awk '{print $2}')"
