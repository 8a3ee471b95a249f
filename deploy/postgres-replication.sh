# /docker-entrypoint-initdb.d script of docker-compose.fleet.yml's Postgres: lets the replica
# stream WAL (`host all all all` does not cover the replication pseudo-database).
echo 'host replication all all trust' >>"$PGDATA/pg_hba.conf"
