#!/usr/bin/env bash
# Measures restarts of `cairn serve` on an existing data dir: the wall time from launching the
# launcher to the first `GET /health` that answers 200, for each launcher given, alternating them
# round by round so every variant sees the same machine load. Prints each run, then the median and
# worst per variant, with the load average before and after.
#
#   scripts/measure-restart.sh DATA_DIR ROUNDS NAME=LAUNCHER [NAME=LAUNCHER...]
#   e.g. scripts/measure-restart.sh /tmp/os-data 5 before=/work/base/cairn after=./cairn
#
# Each start runs `LAUNCHER serve --data DATA_DIR --port PORT` (a free port) with CAIRN_ADMIN_TOKEN
# set, is stopped with SIGTERM once healthy, and waited for (a server writes its snapshots at stop).
# Environment passed through: CAIRN_CDS, CAIRN_JAVA_OPTS, CAIRN_DB_URL.
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
data="$1"
rounds="$2"
shift 2
export CAIRN_ADMIN_TOKEN="${CAIRN_ADMIN_TOKEN:-measure-restart-admin-token-of-32-chars}"

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# one start: prints the seconds from launch to the first 200 from /health
start_once() {
    local launcher="$1" port log pid t0 t1 code
    port=$(free_port)
    log=$(mktemp)
    t0=$(date +%s.%N)
    "$launcher" serve --data "$data" --port "$port" >"$log" 2>&1 &
    pid=$!
    while :; do
        code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health" || true)
        [ "$code" = 200 ] && break
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "server exited before it was healthy; its log:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.05
    done
    t1=$(date +%s.%N)
    kill -TERM "$pid"
    wait "$pid" || true
    grep -o 'ready in .*' "$log" | head -n 1 >&2 || true
    rm -f "$log"
    awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.3f\n", a - b }'
}

echo "load before: $(uptime)"
declare -A times
for ((round = 1; round <= rounds; round++)); do
    for variant in "$@"; do
        name="${variant%%=*}"
        launcher="${variant#*=}"
        s=$(start_once "$launcher")
        printf 'round %d %-8s %.2f s\n' "$round" "$name" "$s"
        times[$name]="${times[$name]:-} $s"
    done
done
echo "load after: $(uptime)"
for variant in "$@"; do
    name="${variant%%=*}"
    # shellcheck disable=SC2086
    printf '%s\n' ${times[$name]} | sort -n | awk -v name="$name" '
        { v[NR] = $1 }
        END {
            median = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%-8s runs %d  median %.2f s  worst %.2f s\n", name, NR, median, v[NR]
        }'
done
