#!/usr/bin/env bash
# nginx in the foreground on the reference configuration deploy/nginx/cairn.conf, with its
# upstream's server lines pointed at 127.0.0.1:SERVER_PORT... (the rest removed) and its listen
# line at 127.0.0.1:LISTEN_PORT; its configuration, logs and temporary files in DIR. Run it in the
# background and stop it by its pid (scripts/load-nginx.sh, scripts/measure-million.sh).
#
#   scripts/load/start-nginx.sh DIR LISTEN_PORT SERVER_PORT... &
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ $# -ge 3 ] || { echo "usage: start-nginx.sh DIR LISTEN_PORT SERVER_PORT..." >&2; exit 2; }
dir="$1" listen="$2"
shift 2
mkdir -p "$dir"
python3 - "$root/deploy/nginx/cairn.conf" "$listen" "$@" >"$dir/cairn.conf" <<'PY'
import re, sys
reference, listen, ports = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3:]
lines = iter(ports)
def server(m):
    port = next(lines, None)
    return "" if port is None else f"{m.group(1)}127.0.0.1:{port}{m.group(2)}"
text, n = re.subn(r"(?m)^(\s*server\s+)\S+:\d+((?:\s[^;\n]*)?;)", server, reference)
if n < len(ports):
    sys.exit(f"{sys.argv[1]} names {n} upstream servers, {len(ports)} needed")
text, n = re.subn(r"(?m)^(\s*listen\s+)\S+;", lambda m: f"{m.group(1)}127.0.0.1:{listen};", text)
if n != 1:
    sys.exit(f"{sys.argv[1]} must have exactly one listen line")
print(text)
PY
cat >"$dir/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $dir/cairn.conf;
}
EOF
exec /usr/sbin/nginx -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf"
