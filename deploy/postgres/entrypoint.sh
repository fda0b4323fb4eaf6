#!/usr/bin/env bash
# First start: a cluster in $PGDATA with SCRAM passwords (the socket's too), the gateway's role and database
# (POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD). Every start: PostgreSQL in the foreground,
# listening on every address of the container's network; it stops cleanly on SIGTERM.
set -euo pipefail
: "${POSTGRES_USER:=smsgw}" "${POSTGRES_DB:=smsgw}"
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=scram-sha-256 \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "host all all ::/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  PGPASSWORD="$POSTGRES_PASSWORD" psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -q \
    -c "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\""
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
# Connections: the compose file's processes hold about 130 between them (an API instance 17,
# a sender or receipt worker 12, the others 5 or 6); 300 leaves room for more replicas and for
# an operator's psql. POSTGRES_MAX_CONNECTIONS changes it.
exec postgres -D "$PGDATA" -c listen_addresses='*' \
  -c max_connections="${POSTGRES_MAX_CONNECTIONS:-300}"
