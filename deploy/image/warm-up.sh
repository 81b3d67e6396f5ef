#!/usr/bin/env bash
# Starts the server once while the image is built, so that a container's first start finds ready
# what a first start otherwise makes (deploy/Containerfile runs it as root, before USER):
#   - PyTorch's and the tokenizer's native libraries, which DJL copies out of their jars into
#     $DJL_CACHE_DIR (500 MB, seconds, at every start of a container whose file system is new);
#   - the model's converted weights in $XDG_CACHE_HOME/cairn (147 MB; seconds of conversion);
#   - the class-data archive of `serve` beside the jar (scripts/run-jar.sh writes it as the JVM
#     exits; a container maps it read-only).
# The server runs on a data dir of its own, on a free loopback port, until GET /health answers
# 200; then it is stopped and its data dir deleted. What the server writes at run time goes to the
# image's user: the weights directory (the server keeps it current: a CPU without int8 converts
# its own file there) and JNA's directory for the native library it unpacks at every start. The
# PyTorch and tokenizer libraries and the archive stay root's, readable by all: the server only
# reads them.
set -euo pipefail
user="$1"
entrypoint=(/opt/cairn/bin/run-jar.sh /opt/cairn/app/cairn.jar)
data="$(mktemp -d)"
log="$(mktemp)"
CAIRN_DATA_DIR="$data" CAIRN_PORT=0 CAIRN_SERVER_HOST=127.0.0.1 "${entrypoint[@]}" serve >"$log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 600); do
    url=$(sed -n 's|^Cairn is listening on http://\([^ ]*\) .*|\1|p' "$log")
    [ -n "$url" ] && break
    if ! kill -0 "$pid" 2>/dev/null; then
        cat "$log" >&2
        echo "warm-up: the server stopped before it listened" >&2
        exit 1
    fi
    sleep 0.5
done
[ -n "$url" ] || { cat "$log" >&2; echo "warm-up: no server after 300 s" >&2; exit 1; }
# GET /health with bash alone (the image has no curl)
exec 3<>"/dev/tcp/${url%:*}/${url##*:}"
printf 'GET /health HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$url" >&3
status=$(head -n 1 <&3)
exec 3<&-
case "$status" in
*" 200 "*) ;;
*) cat "$log" >&2; echo "warm-up: GET /health answered '$status'" >&2; exit 1 ;;
esac
kill -TERM "$pid"
wait "$pid" || true
cat "$log"
rm -rf "$data" "$log"
chmod 0755 "$XDG_CACHE_HOME"
chmod -R a+rX "$DJL_CACHE_DIR"
for dir in "$XDG_CACHE_HOME"/*; do
    [ "$dir" -ef "$DJL_CACHE_DIR" ] || chown -R "$user:$user" "$dir"
done
