#!/usr/bin/env bash
# Prepares the local PostgreSQL for Cairn: builds and installs pgvector when the running major
# version lacks it, starts the cluster, creates the database with the `vector` extension and
# prints its JDBC URL as the last line of stdout. Progress goes to stderr. Idempotent; run as
# root (or a user allowed to apt-get and to write PostgreSQL's extension directory).
#
# Environment (all optional):
#   CAIRN_PG_DB       database to create                  (default cairn_test)
#   CAIRN_PG_HOST     host to connect to                  (default 127.0.0.1)
#   CAIRN_PG_PORT     port                                (default 5432)
#   CAIRN_PG_USER     superuser to connect as             (default postgres)
#   CAIRN_PG_MAJOR    PostgreSQL major version            (default: the running/newest cluster)
#   CAIRN_PG_CLUSTER  cluster name for pg_ctlcluster      (default main)
# A first positional argument overrides CAIRN_PG_DB.
set -euo pipefail

DB="${1:-${CAIRN_PG_DB:-cairn_test}}"
HOST="${CAIRN_PG_HOST:-127.0.0.1}"
PORT="${CAIRN_PG_PORT:-5432}"
PGUSER_NAME="${CAIRN_PG_USER:-postgres}"
CLUSTER="${CAIRN_PG_CLUSTER:-main}"
TRIXIE_SRC_LIST=/etc/apt/sources.list.d/trixie-src.list

log() { printf 'setup-postgres: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if [[ ! "$DB" =~ ^[a-zA-Z_][a-zA-Z0-9_]*$ ]]; then
    die "illegal database name '$DB', must match [a-zA-Z_][a-zA-Z0-9_]*"
fi

# --- which major version -------------------------------------------------------------------
if [[ -n "${CAIRN_PG_MAJOR:-}" ]]; then
    MAJOR="$CAIRN_PG_MAJOR"
elif command -v pg_lsclusters >/dev/null 2>&1; then
    # Prefer the cluster listening on our port, else the newest installed one.
    MAJOR="$(pg_lsclusters --no-header | awk -v p="$PORT" '$3 == p {print $1; exit}')"
    if [[ -z "$MAJOR" ]]; then
        MAJOR="$(pg_lsclusters --no-header | awk '{print $1}' | sort -n | tail -1)"
    fi
else
    MAJOR="$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)"
fi
[[ -n "$MAJOR" ]] || die "no PostgreSQL installation found under /usr/lib/postgresql"
PG_CONFIG="/usr/lib/postgresql/$MAJOR/bin/pg_config"
log "PostgreSQL major version $MAJOR (cluster $CLUSTER, $HOST:$PORT)"

# --- pgvector --------------------------------------------------------------------------------
vector_available() {
    local sharedir
    if [[ -x "$PG_CONFIG" ]]; then
        sharedir="$("$PG_CONFIG" --sharedir)"
    else
        sharedir="/usr/share/postgresql/$MAJOR"
    fi
    [[ -f "$sharedir/extension/vector.control" ]]
}

install_pgvector() {
    export DEBIAN_FRONTEND=noninteractive
    if ! grep -rqs '^deb-src .*trixie' /etc/apt/sources.list /etc/apt/sources.list.d/ \
        && ! { grep -hs -A3 '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources || true; } \
            | grep -q trixie; then
        log "adding $TRIXIE_SRC_LIST (pgvector source with HNSW support)"
        echo 'deb-src http://deb.debian.org/debian trixie main' >"$TRIXIE_SRC_LIST"
    fi
    log "apt-get update"
    apt-get update -qq >&2
    log "installing build dependencies"
    apt-get install -y -qq --no-install-recommends \
        "postgresql-server-dev-$MAJOR" build-essential dpkg-dev ca-certificates >&2
    [[ -x "$PG_CONFIG" ]] || die "$PG_CONFIG missing after installing postgresql-server-dev-$MAJOR"

    local work
    work="$(mktemp -d /tmp/pgvector-build.XXXXXX)"
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT
    log "fetching pgvector source into $work"
    (cd "$work" && apt-get source -qq --download-only pgvector >&2 \
        && dpkg-source --no-check -x ./pgvector_*.dsc src >&2)
    log "building pgvector against $PG_CONFIG"
    # OPTFLAGS='' keeps the build portable (no -march=native).
    make -C "$work/src" PG_CONFIG="$PG_CONFIG" OPTFLAGS='' -j"$(nproc)" >&2
    make -C "$work/src" PG_CONFIG="$PG_CONFIG" OPTFLAGS='' install >&2
    rm -rf "$work"
    trap - EXIT
}

if vector_available; then
    log "pgvector already installed for PostgreSQL $MAJOR"
else
    log "pgvector not installed for PostgreSQL $MAJOR; building it from Debian source"
    [[ "$(id -u)" -eq 0 ]] || die "installing pgvector needs root"
    install_pgvector
    vector_available || die "pgvector still missing after installation"
fi

# --- cluster up ------------------------------------------------------------------------------
psql_cmd() {
    psql -X -q -v ON_ERROR_STOP=1 -h "$HOST" -p "$PORT" -U "$PGUSER_NAME" "$@"
}

if ! pg_isready -q -h "$HOST" -p "$PORT"; then
    log "starting cluster $MAJOR/$CLUSTER"
    pg_ctlcluster --skip-systemctl-redirect "$MAJOR" "$CLUSTER" start >&2 \
        || log "pg_ctlcluster start reported failure; waiting anyway"
fi
for _ in $(seq 1 60); do
    if pg_isready -q -h "$HOST" -p "$PORT" && psql_cmd -d postgres -Atc 'select 1' >/dev/null 2>&1
    then
        break
    fi
    sleep 1
done
psql_cmd -d postgres -Atc 'select 1' >/dev/null || die "PostgreSQL at $HOST:$PORT does not answer"

# The running server must see the extension (a server started before installation does).
avail="$(psql_cmd -d postgres -Atc "select count(*) from pg_available_extensions where name = 'vector'")"
[[ "$avail" == "1" ]] || die "server at $HOST:$PORT does not list the vector extension"

# --- database and extension ------------------------------------------------------------------
exists="$(psql_cmd -d postgres -Atc "select 1 from pg_database where datname = '$DB'")"
if [[ "$exists" != "1" ]]; then
    log "creating database $DB"
    psql_cmd -d postgres -c "create database \"$DB\"" >&2
fi
psql_cmd -d "$DB" -c 'set client_min_messages = warning' \
    -c 'create extension if not exists vector' >&2
version="$(psql_cmd -d "$DB" -Atc "select extversion from pg_extension where extname = 'vector'")"
log "database $DB ready with pgvector $version"

echo "jdbc:postgresql://$HOST:$PORT/$DB?user=$PGUSER_NAME"
