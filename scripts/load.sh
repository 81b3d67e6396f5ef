#!/usr/bin/env bash
# Load scenarios against a Cairn server on this machine (loopback only, bounded in time and in
# connections). wrk comes from Debian's packages and is installed when missing.
#
#   scripts/load.sh stalled    [options]   recall with and without 500 stalled connections
#   scripts/load.sh throughput [options]   uncached recall and retrieve at 1, 4 and 16 connections
#
# Options:
#   --url URL          a running server (127.0.0.1 / localhost only); default: start one on a free
#                      port with a temporary data dir, and stop it at the end
#   --token TOKEN      admin token of --url (default $CAIRN_TOKEN); generated for a started server
#   --duration S       seconds per wrk run (default 15, at most 120)
#   --connections "N…" connection counts (default "1 4 16"; stalled: "4"; each at most 64)
#   --memories N       LoCoMo turns written as memories (default 2000; stalled: 200; at most 6000)
#   --documents N      SciFact abstracts ingested (default 2000, at most 5183)
#   --stalled N        stalled connections held (default 500, at most 2000)
#
# Output: one table, a row per endpoint and connection count: requests/s, p50 and p99 latency in
# ms, non-2xx answers and socket errors; for `stalled` also what the stalled clients saw. Dataset
# text (/work/shared/datasets, or CAIRN_DATASETS) goes only to the server under test.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
here="$root/scripts/load"
datasets="${CAIRN_DATASETS:-/work/shared/datasets}"

die() { echo "load: $*" >&2; exit 2; }
log() { echo "load: $*" >&2; }

scenario="${1:-}"
[ "$scenario" = stalled ] || [ "$scenario" = throughput ] \
    || die "usage: scripts/load.sh stalled|throughput [--url URL] [--token T] [--duration S] [--connections \"1 4 16\"] [--memories N] [--documents N] [--stalled N]"
shift

url="" token="${CAIRN_TOKEN:-}" duration=15 connections="" memories="" documents=2000 stalled=500
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || die "option $1 needs a value"
    case "$1" in
        --url) url="$2" ;;
        --token) token="$2" ;;
        --duration) duration="$2" ;;
        --connections) connections="$2" ;;
        --memories) memories="$2" ;;
        --documents) documents="$2" ;;
        --stalled) stalled="$2" ;;
        *) die "unknown option $1" ;;
    esac
    shift 2
done
if [ "$scenario" = stalled ]; then
    connections="${connections:-4}" memories="${memories:-200}"
else
    connections="${connections:-1 4 16}" memories="${memories:-2000}"
fi

bounded() { # name value max
    [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le "$3" ] \
        || die "$1 must be a number in [1, $3], got '$2'"
}
bounded --duration "$duration" 120
bounded --memories "$memories" 6000
bounded --documents "$documents" 5183
bounded --stalled "$stalled" 2000
for c in $connections; do bounded --connections "$c" 64; done

if ! command -v wrk >/dev/null; then
    log "installing wrk from Debian's packages"
    apt-get install -y wrk >/dev/null || die "wrk is missing and apt-get install -y wrk failed"
fi
command -v python3 >/dev/null || die "python3 is needed for seeding and the stalled clients"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "$url" ]; then
    host="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname or "")' "$url")"
    case "$host" in
        127.0.0.1 | localhost | ::1) ;;
        *) die "refusing $url: load runs against loopback only (127.0.0.1 or localhost)" ;;
    esac
    [ -n "$token" ] || die "--url needs --token (or CAIRN_TOKEN)"
else
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    token="load-$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
    url="http://127.0.0.1:$port"
    log "starting a server on $url (data in $work/data; log in $work/server.log)"
    CAIRN_ADMIN_TOKEN="$token" "$root/cairn" serve --data "$work/data" --port "$port" \
        >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 300); do
        curl -fsS "$url/health" >/dev/null 2>&1 && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; die "the server did not start"; }
        sleep 1
    done
    curl -fsS "$url/health" >/dev/null || die "the server did not answer /health within 300 s"
fi
url="${url%/}"
host="$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$url")"
port="$(python3 -c 'import sys, urllib.parse; u = urllib.parse.urlsplit(sys.argv[1]); print(u.port or 80)' "$url")"

# wrk RUN_NAME PATH QUERIES CONNECTIONS: one bounded wrk run; appends a row to the table
# Runs over one query file continue where the previous run stopped, so no query repeats.
rows=()
declare -A offsets
run_wrk() {
    local name="$1" path="$2" queries="$3" conns="$4" threads out result
    threads=$(( conns < 2 ? conns : 2 ))
    out="$(CAIRN_PATH="$path" CAIRN_TOKEN="$token" CAIRN_QUERIES="$queries" CAIRN_THREADS="$threads" \
        CAIRN_OFFSET="${offsets[$queries]:-0}" \
        wrk -t "$threads" -c "$conns" -d "${duration}s" --timeout 30s -s "$here/queries.lua" "$url" 2>&1)" || true
    result="$(grep '^RESULT' <<<"$out" || true)"
    [ -n "$result" ] || { echo "$out" >&2; die "wrk gave no result for $name"; }
    offsets[$queries]="$(sed 's/.*next=\([0-9]*\).*/\1/' <<<"$result")"
    rows+=("$(awk -v name="$name" -v c="$conns" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%-34s %5d %9s %9s %9s %8s %8s", name, c, v["rps"], v["p50_ms"], v["p99_ms"], v["non2xx"], v["sockerr"]
    }' <<<"$result")")
    log "done: $name at $conns connection(s)"
}

# warm_up PATH QUERIES: 5 s of requests, not reported (JIT, Lucene's readers), with queries far
# past any a measured run reaches
warm_up() {
    CAIRN_PATH="$1" CAIRN_TOKEN="$token" CAIRN_QUERIES="$2" CAIRN_THREADS=1 CAIRN_OFFSET=100000000 \
        wrk -t 1 -c 2 -d 5s --timeout 30s -s "$here/queries.lua" "$url" >/dev/null 2>&1 || true
}

print_table() {
    echo
    echo "Cairn load, scenario $scenario: $url, ${duration} s per run, $(nproc) cores," \
        "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    printf "%-34s %5s %9s %9s %9s %8s %8s\n" "run" "conns" "req/s" "p50 ms" "p99 ms" "non-2xx" "sockerr"
    printf '%s\n' "${rows[@]}"
}

recall_queries="$work/locomo-questions.txt"
log "seeding $memories LoCoMo turns as memories (namespace load)"
python3 "$here/seed.py" memories "$url" "$token" load "$memories" \
    "$datasets/locomo/locomo10.json" "$recall_queries" >&2

if [ "$scenario" = stalled ]; then
    warm_up /v1/namespaces/load/recall "$recall_queries"
    for c in $connections; do
        run_wrk "recall" /v1/namespaces/load/recall "$recall_queries" "$c"
    done
    stall_seconds=$(( duration * $(wc -w <<<"$connections") + 15 ))
    log "holding $stalled stalled connections for $stall_seconds s"
    python3 "$here/stall.py" "$host" "$port" "$stalled" "$stall_seconds" >"$work/stall.txt" &
    stall_pid=$!
    sleep 5
    for c in $connections; do
        run_wrk "recall, $stalled stalled held" /v1/namespaces/load/recall "$recall_queries" "$c"
    done
    wait "$stall_pid"
    print_table
    cat "$work/stall.txt"
else
    retrieve_queries="$work/scifact-queries.txt"
    log "ingesting $documents SciFact abstracts (namespace load-docs)"
    python3 "$here/seed.py" documents "$url" "$token" load-docs "$documents" \
        "$datasets/scifact" "$retrieve_queries" >&2
    warm_up /v1/namespaces/load/recall "$recall_queries"
    for c in $connections; do
        run_wrk "recall ($memories memories)" /v1/namespaces/load/recall "$recall_queries" "$c"
    done
    warm_up /v1/namespaces/load-docs/retrieve "$retrieve_queries"
    for c in $connections; do
        run_wrk "retrieve ($documents documents)" /v1/namespaces/load-docs/retrieve "$retrieve_queries" "$c"
    done
    print_table
fi
