#!/bin/bash
# One million memories in 1,000 namespaces tenant-0001..tenant-1000, servers started with -Xmx3g
# (docs/operations.md#capacity-and-residency). Loopback only; stops what it started at the end.
#
#   scripts/measure-million.sh DATA_DIR [PORT]                          # the embedded store, as before
#   scripts/measure-million.sh --data ROOT --db-url JDBC [--servers N] [--namespaces N] [--port P]
#   scripts/measure-million.sh --data ROOT [--db-url JDBC] --load FILE [--namespaces N] [--port P]
#
# Measuring, over tenant-0001..N (--namespaces, default 1000, at least 300): starts --servers
# servers (server i on ROOT/server-i with --db-url, on ROOT itself without; more than one needs
# --db-url) and prints each one's ready line; with more than one, nginx on deploy/nginx/cairn.conf
# in front of them (consistent hashing on the namespace). Then through it (or the one server): the
# first recall of 300 namespaces spread over the N (each loads its table: cold), 600 recalls over
# 150 of them (warm), and each server's RSS, heap after a full collection (jcmd) and resident
# gauges (/metrics).
# --load FILE: one server (server 1) creates tenant-0001..N (--namespaces, default 1000) and
# imports the export FILE into each (`POST /v1/namespaces`, `POST .../import`); namespaces already
# there are skipped, so an interrupted load goes on where it stopped. Prints the time per 50.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
die() { echo "measure-million: $*" >&2; exit 2; }
T=${CAIRN_ADMIN_TOKEN:-capacity-admin-token-0123456789abcdef}
export CAIRN_ADMIN_TOKEN=$T CAIRN_JAVA_OPTS="-Xmx3g"
H="Authorization: Bearer $T"
root="" db_url="" servers=1 port=18099 load="" namespaces=1000
if [ $# -ge 1 ] && [[ "$1" != --* ]]; then root=$1; port=${2:-18099}; set --; fi
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "option $1 needs a value"
    case "$1" in
        --data) root=$2 ;;
        --db-url) db_url=$2 ;;
        --servers) servers=$2 ;;
        --port) port=$2 ;;
        --load) load=$2 ;;
        --namespaces) namespaces=$2 ;;
        *) die "unknown option $1" ;;
    esac
    shift 2
done
[ -n "$root" ] || die "usage: measure-million.sh DATA_DIR [PORT] | --data ROOT [--db-url JDBC] [--servers N] [--load FILE]"
[[ "$servers" =~ ^[1-9]$ ]] || die "--servers must be 1 to 9, got '$servers'"
min=300; [ -z "$load" ] || min=1
[[ "$namespaces" =~ ^[0-9]+$ ]] && [ "$namespaces" -ge $min ] && [ "$namespaces" -le 9999 ] \
    || die "--namespaces must be $min to 9999, got '$namespaces'"
[ "$servers" = 1 ] || [ -n "$db_url" ] || die "several servers share a store only on PostgreSQL: give --db-url"
[ -z "$load" ] || [ -f "$load" ] || die "no export file $load"
out=${TMPDIR:-/tmp}/cairn-million
mkdir -p "$out"

pids=() ports=() nginx_pid=""
cleanup() {
    [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in $nginx_pid "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done; done
}
trap cleanup EXIT

# start_server I: server I on its data dir and port PORT+I-1, waits for /health
start_server() {
    local i=$1 dir=$root p=$((port + $1 - 1))
    [ -z "$db_url" ] || dir=$root/server-$i
    if [ -n "$db_url" ]; then
        ./cairn serve --data "$dir" --port $p --db-url "$db_url" >"$out/server-$i.log" 2>&1 &
    else
        ./cairn serve --data "$dir" --port $p >"$out/server-$i.log" 2>&1 &
    fi
    pids+=($!) ports+=($p)
}
wait_ready() {
    local i
    for i in "${!pids[@]}"; do
        until curl -sf "localhost:${ports[$i]}/health" >/dev/null; do
            kill -0 "${pids[$i]}" 2>/dev/null || { tail -20 "$out/server-$((i + 1)).log" >&2; die "server $((i + 1)) did not start"; }
            sleep 0.5
        done
        echo "server $((i + 1)): $(grep -h "ready in" "$out/server-$((i + 1)).log" | cut -c20-220)"
    done
}

if [ -n "$load" ]; then
    start_server 1; wait_ready
    base=localhost:${ports[0]}/v1/namespaces
    start=$SECONDS last=$SECONDS
    for i in $(seq 1 "$namespaces"); do
        ns=tenant-$(printf %04d "$i")
        code=$(curl -s -o /dev/null -w "%{http_code}" -H "$H" -H 'Content-Type: application/json' "$base" -d "{\"name\":\"$ns\"}")
        case $code in
            201) curl -sf -o /dev/null -H "$H" -H 'Content-Type: application/x-ndjson' --data-binary @"$load" "$base/$ns/import" \
                || die "import into $ns failed" ;;
            409) ;; # there from an earlier run: an interrupted import is not skipped by the count below
            *) die "creating $ns answered $code" ;;
        esac
        if [ $((i % 50)) = 0 ]; then
            echo "loaded $i namespaces in $((SECONDS - start)) s (the last 50 in $((SECONDS - last)) s)"
            last=$SECONDS
        fi
    done
    exit 0
fi

for i in $(seq 1 "$servers"); do start_server "$i"; done
wait_ready
front=${ports[0]}
if [ "$servers" -gt 1 ]; then
    # nginx on the reference configuration with its upstream pointed at these servers
    [ -x /usr/sbin/nginx ] || bash scripts/setup-nginx.sh
    front=$((port + servers))
    nginx_dir=$out/nginx
    mkdir -p "$nginx_dir"
    chmod 755 "$out" "$nginx_dir"
    scripts/load/start-nginx.sh "$nginx_dir" $front "${ports[@]}" >"$nginx_dir/nginx.out" 2>&1 &
    nginx_pid=$!
    until curl -sf localhost:$front/health >/dev/null; do
        kill -0 $nginx_pid 2>/dev/null || { cat "$nginx_dir/error.log" "$nginx_dir/nginx.out" >&2; die "nginx did not start"; }
        sleep 0.2
    done
    echo "nginx on $front in front of ports ${ports[*]}"
fi

q() { curl -s -o /dev/null -w "%{time_total}\n" -H "$H" -H 'Content-Type: application/json' localhost:$front/v1/namespaces/tenant-$1/recall -d "{\"query\":\"$2\",\"scope\":\"namespace\"}"; }
# cold: the first recall of 300 namespaces spread over the thousand (or --namespaces)
for i in $(seq 1 300); do q $(printf %04d $(( (i * 7919) % namespaces + 1 ))) "what did she paint last summer"; done > "$out/cold.txt"
# warm: 600 recalls over 150 of those namespaces (every table still in memory under the bound?)
for r in 1 2 3 4; do for i in $(seq 1 150); do q $(printf %04d $(( (i * 7919) % namespaces + 1 ))) "camping trip number $r with the kids"; done; done > "$out/warm.txt"
# the heap each server's data needs: what a full collection leaves of it (jcmd, beside java)
jcmd=$(bash scripts/find-jdk.sh)/bin/jcmd
live_heap() {
    "$jcmd" "$1" GC.run >/dev/null 2>&1
    "$jcmd" "$1" GC.heap_info 2>/dev/null | awk '/garbage-first heap/ {
        for (f = 1; f <= NF; f++) { if ($f == "committed") t = $(f + 1); if ($f == "used") u = $(f + 1) }
        printf "heap %d MiB used after a full GC, %d MiB committed", u / 1024, t / 1024 }'
}
for i in "${!pids[@]}"; do
    echo "server $((i + 1)): RSS $(( $(ps -o rss= -p "${pids[$i]}") / 1024 )) MiB; $(live_heap "${pids[$i]}");" \
        $(curl -s localhost:${ports[$i]}/metrics | grep -E "^cairn_memory_resident|^cairn_memory_table")
done
for f in cold warm; do sort -n "$out/$f.txt" | awk -v f=$f '{a[NR]=$1} END {printf "%s: n=%d p50 %.1f ms p99 %.1f ms max %.1f ms\n", f, NR, a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000, a[NR]*1000}'; done
