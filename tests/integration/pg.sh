# A private PostgreSQL cluster for one test, sourced after lib.sh:
# `pg_start` runs initdb and pg_ctl in $WORK/pg (as the postgres user, or
# nobody, when the test runs as root: PostgreSQL refuses root), listening on a
# free loopback port only, and sets PG_SERVER (postgresql://edihub@127.0.0.1:PORT)
# and PG_URI (its edihub database); `pg_stop` stops it. No system-wide service.
pg_free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'; }
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
pg_run() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}
pg_start() {
  local bin
  bin=$(pg_bin)
  [[ -x "$bin/initdb" ]] || { echo "no PostgreSQL server binaries (tools/setup installs postgresql)"; exit 1; }
  PG_DIR="$WORK/pg"
  mkdir -p "$PG_DIR"
  PG_USER=$(id -un)
  if [[ $(id -u) -eq 0 ]]; then
    PG_USER=postgres
    id postgres >/dev/null 2>&1 || PG_USER=nobody
    chmod 711 "$WORK"
    chown "$PG_USER" "$PG_DIR"
  fi
  pg_run "$bin/initdb" -D "$PG_DIR/data" -U edihub -A trust -E UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 ||
    { echo "initdb failed: $(cat "$PG_DIR/initdb.log")"; exit 1; }
  PG_PORT=$(pg_free_port)
  # fsync off: the tests kill gateways, never the database; 200 connections for two nodes and replays.
  pg_run "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null ||
    { echo "PostgreSQL did not start: $(tail -20 "$PG_DIR/server.log")"; exit 1; }
  PG_SERVER="postgresql://edihub@127.0.0.1:$PG_PORT"
  psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U edihub -d postgres -c "CREATE DATABASE edihub" >/dev/null ||
    { echo "CREATE DATABASE failed"; exit 1; }
  PG_URI="$PG_SERVER/edihub"
}
pg_stop() {
  [[ -n "${PG_DIR:-}" && -d "$PG_DIR/data" ]] && pg_run "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
  return 0
}
# pg_sql QUERY: one value per line, from the edihub database.
pg_sql() { psql -X -A -t -q -h 127.0.0.1 -p "$PG_PORT" -U edihub -d edihub -c "$1"; }
