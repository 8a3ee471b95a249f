#!/bin/sh
# The official postgres image's contract, small: on an empty $PGDATA, initdb as $POSTGRES_USER
# with $POSTGRES_PASSWORD, `host all all all <POSTGRES_HOST_AUTH_METHOD|scram-sha-256>`, create
# $POSTGRES_DB and run /docker-entrypoint-initdb.d/*.sh|*.sql on a server reachable only by socket;
# then exec postgres as user postgres.
set -e
case "$1" in -*) set -- postgres "$@" ;; esac
if [ "$1" != postgres ]; then exec "$@"; fi
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then set_pw="--pwfile=$pwfile"; else set_pw=""; fi
  initdb -D "$PGDATA" --username="$user" $set_pw --auth-local=trust >/dev/null
  rm -f "$pwfile"
  echo "host all all all ${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -q --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) . "$f" ;;
      *.sql) psql -v ON_ERROR_STOP=1 -q --username "$user" --dbname "$db" -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo 'PostgreSQL init process complete; ready for start up.'
fi
exec "$@"
