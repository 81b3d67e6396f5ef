#!/usr/bin/env bash
# Routing by namespace, measured (docs/operations.md#routing-by-namespace-nginx): three Cairn
# servers on one PostgreSQL behind nginx running deploy/nginx/cairn.conf, and in one run:
#   - recall at --connections through nginx with 3 servers, then with 1 (a second nginx on the
#     same file naming only the first server), then both again, p50/p99 from wrk;
#   - what each server holds after the first run of each: namespaces and estimated bytes of their
#     memory tables (/metrics: cairn_memory_resident_*), heap after a full GC (jcmd) and RSS;
#   - the cold-namespace latency: the first recall of each namespace the first server had not
#     loaded (what a failover or a restart costs each namespace once), through nginx, then the
#     second recall of the same namespaces.
# Everything on this machine (loopback only) and bounded; servers, nginx, the database schema and
# the temporary files are removed at the end.
#
#   scripts/load-nginx.sh [--namespaces 300] [--memories 10] [--duration 20] [--connections 16]
#
# --namespaces N   namespaces seeded (default 300, at most 1000)
# --memories M     LoCoMo turns written into each (default 10, at most 50)
# --duration S     seconds per wrk run (default 20, at most 120)
# --connections C  wrk connections (default 16, at most 64)
#
# PostgreSQL: CAIRN_LOAD_PG_URL (a JDBC URL), else scripts/setup-postgres.sh's database
# cairn_load; the run works in a schema of its own. nginx and wrk come from Debian's packages
# (scripts/setup-nginx.sh; apt-get install wrk), installed when missing. LoCoMo from
# /work/shared/datasets (or CAIRN_DATASETS) goes only to the servers under test.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
here="$root/scripts/load"
datasets="${CAIRN_DATASETS:-/work/shared/datasets}"

die() { echo "load-nginx: $*" >&2; exit 2; }
log() { echo "load-nginx: $*" >&2; }

namespaces=300 memories=10 duration=20 connections=16
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "option $1 needs a value"
    case "$1" in
        --namespaces) namespaces="$2" ;;
        --memories) memories="$2" ;;
        --duration) duration="$2" ;;
        --connections) connections="$2" ;;
        *) die "unknown option $1 (usage: scripts/load-nginx.sh [--namespaces 300] [--memories 10] [--duration 20] [--connections 16])" ;;
    esac
    shift 2
done
bounded() { # name value max
    [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le "$3" ] \
        || die "$1 must be a number in [1, $3], got '$2'"
}
bounded --namespaces "$namespaces" 1000
bounded --memories "$memories" 50
bounded --duration "$duration" 120
bounded --connections "$connections" 64

for tool in python3 curl psql; do
    command -v "$tool" >/dev/null || die "$tool is needed"
done
[ -x /usr/sbin/nginx ] || bash "$root/scripts/setup-nginx.sh"
if ! command -v wrk >/dev/null; then
    log "installing wrk from Debian's packages"
    apt-get install -y wrk >/dev/null || die "wrk is missing and apt-get install -y wrk failed"
fi
[ -f "$datasets/locomo/locomo10.json" ] || die "LoCoMo missing: $datasets/locomo/locomo10.json"

base_url="${CAIRN_LOAD_PG_URL:-$(bash "$root/scripts/setup-postgres.sh" cairn_load | tail -n 1)}"
# libpq's form of the JDBC URL, for psql
pg_uri="${base_url#jdbc:}"
schema="load_$(date +%s)_$$"
sep='?'; [[ "$base_url" == *\?* ]] && sep='&'
db_url="${base_url}${sep}currentSchema=${schema}%2Cpublic"

work="$(mktemp -d)"
chmod 755 "$work" # nginx's workers (nobody, when started as root) reach their temporary files
token="load-$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
declare -a server_pids=() server_ports=() nginx_pids=()

cleanup() {
    for pid in "${nginx_pids[@]}" "${server_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${nginx_pids[@]}" "${server_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    psql -X -q "$pg_uri" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

psql -X -q -v ON_ERROR_STOP=1 "$pg_uri" -c "CREATE SCHEMA $schema" >/dev/null
log "PostgreSQL schema $schema; building the server jar when needed"
"$root/cairn" --version >/dev/null

for i in 1 2 3; do
    port="$(free_port)"
    CAIRN_ADMIN_TOKEN="$token" "$root/cairn" serve --data "$work/server-$i" --port "$port" \
        --db-url "$db_url" >"$work/server-$i.log" 2>&1 &
    server_pids+=("$!")
    server_ports+=("$port")
done
for i in 0 1 2; do
    for _ in $(seq 1 300); do
        curl -fsS "http://127.0.0.1:${server_ports[$i]}/health" >/dev/null 2>&1 && break
        kill -0 "${server_pids[$i]}" 2>/dev/null \
            || { cat "$work/server-$((i + 1)).log" >&2; die "server $((i + 1)) did not start"; }
        sleep 1
    done
    curl -fsS "http://127.0.0.1:${server_ports[$i]}/health" >/dev/null \
        || die "server $((i + 1)) did not answer /health within 300 s"
done
log "servers on ports ${server_ports[*]}"

# start_nginx NAME PORT...: nginx on deploy/nginx/cairn.conf with its upstream's server lines
# pointed at these ports (the rest removed) and listen on a free port, which goes in nginx_port
start_nginx() {
    local name="$1" dir="$work/$1" port
    shift
    port="$(free_port)"
    mkdir -p "$dir"
    "$here/start-nginx.sh" "$dir" "$port" "$@" >"$dir/nginx.out" 2>&1 &
    nginx_pids+=("$!")
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null \
        || { cat "$dir/error.log" "$dir/nginx.out" >&2; die "nginx $name did not start"; }
    nginx_port="$port"
}
start_nginx nginx-3 "${server_ports[@]}"
nginx3="$nginx_port"
start_nginx nginx-1 "${server_ports[0]}"
nginx1="$nginx_port"
log "nginx in front of 3 servers on $nginx3, in front of the first alone on $nginx1"

queries="$work/locomo-questions.txt"
log "seeding $namespaces namespaces x $memories LoCoMo turns through nginx (3 servers)"
python3 "$here/seed.py" spread "http://127.0.0.1:$nginx3" "$token" route \
    "${namespaces}x${memories}" "$datasets/locomo/locomo10.json" "$queries" >&2
names="$work/namespaces.txt"
for i in $(seq 0 $((namespaces - 1))); do printf 'route-%03d\n' "$i"; done >"$names"

# recall_each PORT FILE OUT FROM: one recall per namespace of FILE through nginx on PORT, in
# order, asking the questions from line FROM on (each pass its own, so no query vector is cached);
# OUT gets "namespace seconds answering-server" per line
recall_each() {
    local port="$1" list="$2" out="$3" i="$4" ns count
    count="$(wc -l <"$queries")"
    : >"$out"
    while read -r ns; do
        i=$((i + 1))
        question="$(sed -n "$(( (i % count) + 1 ))p" "$queries")"
        curl -sS -o /dev/null -D "$work/headers" -w "%{http_code} %{time_total}\n" \
            -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            --data "$(python3 -c 'import json, sys; print(json.dumps({"query": sys.argv[1], "scope": "namespace"}))' "$question")" \
            "http://127.0.0.1:$port/v1/namespaces/$ns/recall" >"$work/answer"
        read -r code seconds <"$work/answer"
        [ "$code" = 200 ] || die "recall in $ns through port $port answered $code"
        echo "$ns $seconds $(tr -d '\r' <"$work/headers" | awk -F': ' 'tolower($1) == "x-cairn-upstream" {print $2}')"
    done <"$list" >>"$out"
}

# the run's table rows; wrk's queries start past the ones the recall passes ask
rows=()
declare -A offsets=([q]=2000)
run_wrk() { # NAME PORT
    local name="$1" port="$2" out result threads=2
    out="$(CAIRN_PATH='/v1/namespaces/{ns}/recall' CAIRN_NAMESPACES="$names" \
        CAIRN_BODY_EXTRA=',"scope":"namespace"' CAIRN_TOKEN="$token" CAIRN_QUERIES="$queries" \
        CAIRN_THREADS="$threads" CAIRN_OFFSET="${offsets[q]:-0}" \
        wrk -t "$threads" -c "$connections" -d "${duration}s" --timeout 30s -s "$here/queries.lua" \
        "http://127.0.0.1:$port" 2>&1)" || true
    result="$(grep '^RESULT' <<<"$out" || true)"
    [ -n "$result" ] || { echo "$out" >&2; die "wrk gave no result for $name"; }
    offsets[q]="$(sed 's/.*next=\([0-9]*\).*/\1/' <<<"$result")"
    rows+=("$(awk -v name="$name" -v c="$connections" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%-30s %5d %9s %9s %9s %8s %8s", name, c, v["rps"], v["p50_ms"], v["p99_ms"], v["non2xx"], v["sockerr"]
    }' <<<"$result")")
    log "done: $name"
}
warm_up() { # PORT: 5 s of unreported recalls, with queries far past any a measured run reaches
    CAIRN_PATH='/v1/namespaces/{ns}/recall' CAIRN_NAMESPACES="$names" \
        CAIRN_BODY_EXTRA=',"scope":"namespace"' CAIRN_TOKEN="$token" CAIRN_QUERIES="$queries" \
        CAIRN_THREADS=1 CAIRN_OFFSET=100000000 \
        wrk -t 1 -c 2 -d 5s --timeout 30s -s "$here/queries.lua" "http://127.0.0.1:$1" \
        >/dev/null 2>&1 || true
}

jcmd="$(bash "$root/scripts/find-jdk.sh")/bin/jcmd"
held=()
held_by_each() { # LABEL: a row per server: its tables (/metrics), heap after a full GC, RSS
    local i rss heap metrics
    for i in 0 1 2; do
        metrics="$(curl -fsS "http://127.0.0.1:${server_ports[$i]}/metrics")"
        "$jcmd" "${server_pids[$i]}" GC.run >/dev/null
        heap="$("$jcmd" "${server_pids[$i]}" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | tr -dc 0-9)"
        rss="$(ps -o rss= -p "${server_pids[$i]}" | tr -d ' ')"
        held+=("$(printf '%-24s %-8s %10s %14s %14s %9s' "$1" "server $((i + 1))" \
            "$(awk '$1 == "cairn_memory_resident_namespaces" {printf "%d", $2}' <<<"$metrics")" \
            "$(awk '$1 == "cairn_memory_resident_bytes" {printf "%d", $2}' <<<"$metrics")" \
            "$((heap / 1024))" "$((rss / 1024))")")
    done
}

log "3 servers: a recall in every namespace (each loads where nginx sends it), then wrk"
recall_each "$nginx3" "$names" "$work/owners.txt" 0
warm_up "$nginx3"
run_wrk "recall, 3 servers (1st)" "$nginx3"
held_by_each "3 servers"

first="127.0.0.1:${server_ports[0]}"
awk -v s="$first" '$3 != s {print $1}' "$work/owners.txt" >"$work/cold.txt"
log "cold: the first recall of the $(wc -l <"$work/cold.txt") namespaces the first server had not loaded"
recall_each "$nginx1" "$work/cold.txt" "$work/cold-first.txt" 1000
recall_each "$nginx1" "$work/cold.txt" "$work/cold-second.txt" 1500
warm_up "$nginx1"
run_wrk "recall, 1 server (1st)" "$nginx1"
held_by_each "1 server"
# again in the same order: the JVMs' warm-up and the machine's other work fall on both
run_wrk "recall, 3 servers (2nd)" "$nginx3"
run_wrk "recall, 1 server (2nd)" "$nginx1"

stats() { # FILE: p50, p99 and max of column 2, in ms
    awk '{print $2 * 1000}' "$1" | sort -n | awk '{v[NR] = $1} END {
        p50 = v[int((NR - 1) * 0.50) + 1]; p99 = v[int((NR - 1) * 0.99) + 1]
        printf "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d namespaces)", p50, p99, v[NR], NR }'
}

echo
echo "Routing by namespace through nginx: $namespaces namespaces x $memories LoCoMo turns," \
    "${duration} s per run, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
printf "%-30s %5s %9s %9s %9s %8s %8s\n" "recall through nginx" "conns" "req/s" "p50 ms" "p99 ms" "non-2xx" "sockerr"
printf '%s\n' "${rows[@]}"
echo
printf '%-24s %-8s %10s %14s %14s %9s\n' "after the 1st run with" "server" "namespaces" "resident bytes" "heap MiB (GC)" "RSS MiB"
printf '%s\n' "${held[@]}"
echo
echo "cold namespace, first recall through nginx: $(stats "$work/cold-first.txt")"
echo "same namespaces, second recall:             $(stats "$work/cold-second.txt")"
