#!/bin/bash
# Capacity of one server (docs/operations.md#capacity-and-residency): starts `serve` on DATA_DIR
# with native memory tracking, recalls in every memory namespace and retrieves in every rb-*
# namespace (so every table and vector set is loaded), then prints the heap after a full GC,
# the resident gauges, native memory and RSS. Loopback only; stops the server at the end.
# Usage: scripts/measure-capacity.sh DATA_DIR LABEL PORT
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
D=$1; L=$2; PORT=$3
T=${CAIRN_ADMIN_TOKEN:-capacity-admin-token-0123456789abcdef}
export CAIRN_ADMIN_TOKEN=$T CAIRN_JAVA_OPTS="-XX:NativeMemoryTracking=summary -Xmx3g ${EXTRA_OPTS:-}"
./cairn serve --data $D --port $PORT > ${TMPDIR:-/tmp}/cairn-capacity-$L.log 2>&1 &
until curl -sf localhost:$PORT/health >/dev/null; do sleep 0.2; done
PID=$(pgrep -f -- "serve --data $D --port $PORT" | head -1)
H="Authorization: Bearer $T"
heap() { jcmd $PID GC.run >/dev/null; jcmd $PID GC.heap_info | grep -o 'used [0-9]*K' | head -1; }
echo "$L after start: $(heap)"
for ns in $(curl -s -H "$H" "localhost:$PORT/v1/namespaces?limit=1000" | python3 -c 'import json,sys; print(" ".join(n["name"] for n in json.load(sys.stdin)["items"]))'); do
  case $ns in
    rb-*) curl -s -o /dev/null -w "retrieve $ns %{time_total}\n" -H "$H" -H 'Content-Type: application/json' localhost:$PORT/v1/namespaces/$ns/retrieve -d '{"query":"disk is full on the node"}' ;;
    *) curl -s -o /dev/null -w "recall $ns %{time_total}\n" -H "$H" -H 'Content-Type: application/json' localhost:$PORT/v1/namespaces/$ns/recall -d '{"query":"what did she paint last summer","scope":"namespace"}' ;;
  esac
done > ${TMPDIR:-/tmp}/cairn-capacity-$L-latency.txt
sleep 2
echo "$L all loaded: $(heap)"
curl -s localhost:$PORT/metrics | grep -E "^cairn_memory_resident|^cairn_memory_table" 
jcmd $PID VM.native_memory summary | grep -E "^Total|Java Heap|Class \(|Thread \(|Code \(|GC \(|Other \(|Internal|Arena|Malloc" | head -12
echo "RSS $(ps -o rss= -p $PID) KB"
kill $PID; while kill -0 $PID 2>/dev/null; do sleep 0.5; done
