#!/usr/bin/env bash
# Builds Cairn's container image (scripts/build-image.sh) and tests it (docs/deploy.md):
#
#   scripts/test-image.sh [IMAGE]        (default localhost/cairn:latest)
#
# 1. What the image is: its user (10001, not root), entrypoint and command, volume, port, the
#    variables that configure the server, its layers, and which files its user may write (only the
#    volume and the two caches the server keeps current).
# 2. The image running: a container on a fresh volume, on a podman network without a route out
#    (so nothing can be downloaded at run time), must answer GET /health, pass the README's
#    five-minute tour (scripts/readme-tour.sh), refuse a request without a token, keep and give back
#    an ARK conversation at deploy/ark-memory.yaml's address with the ARK token (and refuse that
#    token an admin call), stop on SIGTERM within the server's grace, and start again on the same
#    volume with the data still there.
#    Where podman cannot run a container, the same checks run on the image's root file system with
#    chroot, as the image's user, on this host's network; CAIRN_IMAGE_RUNNER=chroot forces that,
#    =podman forbids it.
# Needs root, podman, mmdebstrap, curl and jq. Prints what it checked and how long the steps took.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/podman-options.sh
source scripts/podman-options.sh
image="${1:-localhost/cairn:latest}"
runner="${CAIRN_IMAGE_RUNNER:-auto}"
podman=("${podman_cmd[@]}")
fail() { echo "test-image: $*" >&2; exit 1; }
ok() { echo "test-image: $*"; }
start=$SECONDS

bash scripts/build-image.sh "$image"
built=$((SECONDS - start))

# 1. What the image is.
config() { "${podman[@]}" image inspect --format "{{json .Config.$1}}" "$image"; }
expect() {
    [ "$2" = "$3" ] || fail "$1 is $2, expected $3"
    ok "$1 $2"
}
expect user "$(config User)" '"10001:10001"'
expect entrypoint "$(config Entrypoint)" '["/opt/cairn/bin/run-jar.sh","/opt/cairn/app/cairn.jar"]'
expect command "$(config Cmd)" '["serve"]'
expect volume "$(config Volumes)" '{"/var/lib/cairn":{}}'
expect port "$(config ExposedPorts)" '{"8080/tcp":{}}'
environment() { config Env | jq -r --arg name "$1" '.[] | select(startswith($name + "=")) | sub("^[^=]*="; "")'; }
expect CAIRN_DATA_DIR "$(environment CAIRN_DATA_DIR)" /var/lib/cairn/data
expect CAIRN_PORT "$(environment CAIRN_PORT)" 8080
expect CAIRN_SERVER_HOST "$(environment CAIRN_SERVER_HOST)" 0.0.0.0
echo "test-image: layers (newest first):"
"${podman[@]}" history --format '  {{.Size}}\t{{.CreatedBy}}' "$image" | grep -v ' 0 B' | cut -c1-110
layers=$("${podman[@]}" image inspect --format '{{len .RootFS.Layers}}' "$image")
[ "$layers" -ge 7 ] || fail "$layers layers: the base, user, runtime, libraries, jar, scripts and caches should each be one"
ok "$layers layers"
# The files the image's user may write, found on the image's root file system
container=$("${podman[@]}" create "$image")
mounted=$("${podman[@]}" mount "$container")
# (owned by the user, or world-writable files and directories; not sticky ones such as /tmp)
writable=$(cd "$mounted" && find . -xdev \( -user 10001 -o -perm -o+w -type f \
    -o -perm -o+w -type d ! -perm -1000 \) -prune -print | LC_ALL=C sort | tr '\n' ' ')
"${podman[@]}" umount "$container" >/dev/null
"${podman[@]}" rm "$container" >/dev/null
expect "writable by uid 10001" "$writable" './opt/cairn/cache/JNA ./opt/cairn/cache/cairn ./var/lib/cairn '

# 2. The image running, with an admin token and the ARK token deploy/ark-memory.yaml describes.
token=$(head -c 32 /dev/urandom | base64)
ark_secret=$(head -c 32 /dev/urandom | od -A n -t x1 | tr -d ' \n')
ark_path=$(sed -n 's/^ *path: *//p' deploy/ark-memory.yaml)
ark_namespace=${ark_path##*/}
settings=("CAIRN_ADMIN_TOKEN=$token" CAIRN_AUTH_TOKENS_0_NAME=ark
    "CAIRN_AUTH_TOKENS_0_SHA256=$(printf %s "$ark_secret" | sha256sum | cut -c1-64)"
    CAIRN_AUTH_TOKENS_0_ROLES_0=write "CAIRN_AUTH_TOKENS_0_NAMESPACES_0=$ark_namespace")
if [ "$runner" = auto ]; then
    if probe=$("${podman[@]}" run --rm "${podman_limits[@]}" --network none --entrypoint /bin/true "$image" 2>&1); then
        runner=podman
    else
        echo "test-image: podman cannot run a container here: $probe" >&2
        echo "test-image: running the image's root file system with chroot instead" >&2
        runner=chroot
    fi
fi
wait_healthy() { # URL SECONDS: waits for GET URL/health 200, prints the seconds it took
    local began=$SECONDS
    while [ $((SECONDS - began)) -lt "$2" ]; do
        if curl -sf -m 2 -o /dev/null "$1/health"; then
            echo $((SECONDS - began))
            return 0
        fi
        sleep 0.25
    done
    return 1
}
checks() { # URL: what every run of the image must answer
    local url="$1" status conversation
    TOKEN="$token" bash scripts/readme-tour.sh "$url"
    status=$(curl -s -o /dev/null -w '%{http_code}' "$url/v1/namespaces")
    expect "GET /v1/namespaces without a token:" "$status" 401
    # ARK's memory client at the ARK Memory's address: create (no token), append, read back
    curl -sf -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d "{\"name\":\"$ark_namespace\"}" "$url/v1/namespaces"
    conversation=$(curl -sf -X POST "$url$ark_path/conversations" | jq -r .conversation_id)
    curl -sf -o /dev/null -H "Authorization: Bearer $ark_secret" -H 'Content-Type: application/json' \
        -d "{\"conversation_id\":\"$conversation\",\"query_id\":\"q1\",\"messages\":[{\"role\":\"user\",\"content\":\"hello from ARK\"}]}" \
        "$url$ark_path/messages"
    expect "ARK's message read back at $ark_path with the ARK token:" "$(curl -sf \
        -H "Authorization: Bearer $ark_secret" "$url$ark_path/messages?conversation_id=$conversation" |
        jq -r '.items[0].message.content')" "hello from ARK"
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $ark_secret" \
        -H 'Content-Type: application/json' -d '{"name":"other"}' "$url/v1/namespaces")
    expect "the ARK token creating a namespace:" "$status" 403
}
case "$runner" in
podman)
    network=cairn-test-internal
    "${podman[@]}" network exists "$network" || "${podman[@]}" network create --internal "$network" >/dev/null
    volume="cairn-test-$$"
    name="cairn-test-$$"
    cleanup() {
        "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true
        "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
    }
    trap cleanup EXIT
    "${podman[@]}" run -d --name "$name" "${podman_limits[@]}" --network "$network" \
        -v "$volume:/var/lib/cairn" "${settings[@]/#/--env=}" "$image" >/dev/null
    # CNI, podman's network backend on Debian 12, gives the bridge of an --internal network no
    # address on the host (netavark gives it the gateway's), so the host could not reach the
    # container either: give the host the subnet's first address there. The container still has
    # no route out (only its subnet's).
    host_on_network() {
        local iface subnet base
        iface=$("${podman[@]}" network inspect --format '{{.NetworkInterface}}' "$network")
        ip -4 addr show dev "$iface" 2>/dev/null | grep -q 'inet ' && return 0
        subnet=$("${podman[@]}" network inspect --format '{{range .Subnets}}{{.Subnet}}{{end}}' "$network")
        base=${subnet%/*}
        ip addr add "${base%.*}.$((${base##*.} + 1))/${subnet#*/}" dev "$iface" ||
            fail "the host has no address on $network's bridge $iface and cannot add one (needs root)"
    }
    # the container's address on the network (a restart may give it another)
    address() {
        echo "http://$("${podman[@]}" inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$name"):8080"
    }
    host_on_network
    url=$(address)
    first=$(wait_healthy "$url" 180) || { "${podman[@]}" logs "$name" >&2; fail "no GET /health 200 within 180 s"; }
    ok "healthy $first s after podman run, on a network without a route out"
    checks "$url"
    began=$SECONDS
    "${podman[@]}" stop --time 30 "$name" >/dev/null
    stopped=$((SECONDS - began))
    code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")
    # the JVM ends with 128 + SIGTERM once its shutdown hooks are done
    expect "exit code after SIGTERM:" "$code" 143
    "${podman[@]}" logs "$name" 2>&1 | grep -q 'CairnServer: stopped in' || fail "the server did not log its stop"
    ok "stopped in $stopped s"
    "${podman[@]}" start "$name" >/dev/null
    url=$(address)
    again=$(wait_healthy "$url" 180) || { "${podman[@]}" logs "$name" >&2; fail "no GET /health 200 after a restart"; }
    ok "healthy $again s after a restart"
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url/v1/namespaces/ops")
    expect "the tour's namespace after a restart on the same volume:" "$status" 200
    ;;
chroot)
    container=$("${podman[@]}" create "$image")
    rootfs=$("${podman[@]}" mount "$container")
    volume=$(mktemp -d)
    chown 10001:10001 "$volume"
    chmod 0700 "$volume"
    mounts=()
    pid=""
    cleanup() {
        [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
        for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -R -l "${mounts[$i]}" || true; done
        "${podman[@]}" umount "$container" >/dev/null 2>&1 || true
        "${podman[@]}" rm "$container" >/dev/null 2>&1 || true
        rm -rf "$volume"
    }
    trap cleanup EXIT
    bind() { mount "$@" && mounts+=("${*: -1}"); }
    bind -t proc proc "$rootfs/proc"
    bind --rbind /dev "$rootfs/dev"
    bind --rbind /sys "$rootfs/sys"
    bind --bind "$volume" "$rootfs/var/lib/cairn"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mapfile -t env < <(config Env | jq -r '.[]')
    env -i "${env[@]}" "CAIRN_PORT=$port" "${settings[@]}" \
        chroot --userspec=10001:10001 "$rootfs" $(config Entrypoint | jq -r '.[]') serve &
    pid=$!
    url="http://127.0.0.1:$port"
    first=$(wait_healthy "$url" 180) || fail "no GET /health 200 within 180 s"
    ok "healthy $first s after chroot --userspec=10001:10001 started the entrypoint"
    checks "$url"
    kill -TERM "$pid"
    code=0
    wait "$pid" || code=$?
    pid=""
    expect "exit code after SIGTERM:" "$code" 143
    ;;
*) fail "CAIRN_IMAGE_RUNNER is '$runner': auto, podman or chroot" ;;
esac
ok "passed with $runner: built in $built s, tested in $((SECONDS - start - built)) s"
