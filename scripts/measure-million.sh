#!/bin/bash
# Data dir with namespaces tenant-0001..tenant-1000 (docs/operations.md#capacity-and-residency).
# Usage: scripts/measure-million.sh DATA_DIR [PORT]. Loopback only; stops the server at the end.
# 1M memories in 1,000 namespaces, -Xmx3g: start, then recalls over random namespaces (cold first, then warm repeats)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
T=${CAIRN_ADMIN_TOKEN:-capacity-admin-token-0123456789abcdef}
export CAIRN_ADMIN_TOKEN=$T CAIRN_JAVA_OPTS="-Xmx3g"
H="Authorization: Bearer $T"
D=${1:?usage: measure-million.sh DATA_DIR [PORT]}; PORT=${2:-18099}
./cairn serve --data $D --port $PORT > ${TMPDIR:-/tmp}/cairn-million.log 2>&1 &
until curl -sf localhost:$PORT/health >/dev/null; do sleep 0.5; done
grep -h "ready in" ${TMPDIR:-/tmp}/cairn-million.log | cut -c20-220
q() { curl -s -o /dev/null -w "%{time_total}\n" -H "$H" -H 'Content-Type: application/json' localhost:$PORT/v1/namespaces/tenant-$1/recall -d "{\"query\":\"$2\",\"scope\":\"namespace\"}"; }
# cold: the first recall of 300 namespaces spread over the 1,000
for i in $(seq 1 300); do q $(printf %04d $(( (i * 7919) % 1000 + 1 ))) "what did she paint last summer"; done > ${TMPDIR:-/tmp}/cairn-million-cold.txt
# warm: 600 recalls over 150 of those namespaces (every table still in memory under the bound?)
for r in 1 2 3 4; do for i in $(seq 1 150); do q $(printf %04d $(( (i * 7919) % 1000 + 1 ))) "camping trip number $r with the kids"; done; done > ${TMPDIR:-/tmp}/cairn-million-warm.txt
curl -s localhost:$PORT/metrics | grep -E "^cairn_memory_resident|^cairn_memory_table"
PID=$(pgrep -f -- "--port $PORT" | head -1)
echo "RSS $(ps -o rss= -p $PID) KB"
for f in cold warm; do sort -n ${TMPDIR:-/tmp}/cairn-million-$f.txt | awk -v f=$f '{a[NR]=$1} END {printf "%s: n=%d p50 %.1f ms p99 %.1f ms max %.1f ms\n", f, NR, a[int(NR*0.5)]*1000, a[int(NR*0.99)]*1000, a[NR]*1000}'; done
kill $PID; while kill -0 $PID 2>/dev/null; do sleep 0.5; done
