#!/usr/bin/env bash
# First start: a cluster in $PGDATA with SCRAM passwords (the socket's too), the gateway's role and database
# (POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD), and a login role per process kind. Every
# start: PostgreSQL in the foreground, listening on every address of the container's network.
#
# Roles: POSTGRES_USER owns the schema and is the migration job's alone. Each process kind
# signs in as its own role (smsgw_api, smsgw_sender, ...; passwords POSTGRES_API_PASSWORD,
# POSTGRES_SENDER_PASSWORD, ...); what it may do to the tables is db/grants.sql's, which the
# migration job applies. Each may read every session's activity (pg_read_all_stats): the outbox
# relay finds the transactions still running in other sessions there
# (db/functions/outbox_commit_horizon.sql), and PostgreSQL hides them from a role not theirs.
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
  roles=()
  for kind in api sender receipt inbound_keyword webhook_dispatcher rent_billing; do
    password_variable="POSTGRES_${kind^^}_PASSWORD"
    roles+=(-v "${kind}_password=${!password_variable:?set $password_variable}")
  done
  PGPASSWORD="$POSTGRES_PASSWORD" psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" \
    -q "${roles[@]}" <<'SQL'
CREATE ROLE smsgw_api LOGIN PASSWORD :'api_password' IN ROLE pg_read_all_stats;
CREATE ROLE smsgw_sender LOGIN PASSWORD :'sender_password' IN ROLE pg_read_all_stats;
CREATE ROLE smsgw_receipt LOGIN PASSWORD :'receipt_password' IN ROLE pg_read_all_stats;
CREATE ROLE smsgw_inbound_keyword LOGIN PASSWORD :'inbound_keyword_password' IN ROLE pg_read_all_stats;
CREATE ROLE smsgw_webhook_dispatcher LOGIN PASSWORD :'webhook_dispatcher_password' IN ROLE pg_read_all_stats;
CREATE ROLE smsgw_rent_billing LOGIN PASSWORD :'rent_billing_password' IN ROLE pg_read_all_stats;
SQL
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
# Connections: the compose file's processes hold about 130 between them (an API instance 17,
# a sender or receipt worker 12, the others 5 or 6); 300 leaves room for more replicas and for
# an operator's psql. POSTGRES_MAX_CONNECTIONS changes it.
exec postgres -D "$PGDATA" -c listen_addresses='*' \
  -c max_connections="${POSTGRES_MAX_CONNECTIONS:-300}"
