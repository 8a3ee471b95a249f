#!/usr/bin/env bash
# `pnpm test:containers`: the suites that touch Postgres and Redis, with DATABASE_URL and REDIS_URL
# unset, so test/global-setup.ts starts postgres:15 and redis:7 through Testcontainers (run
# `pnpm images:local` first where no registry answers). Ryuk (the reaper image) is off: the global
# teardown stops what it started, and this script removes any container a crashed run left
# (label org.testcontainers), on success and on failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUITES=(
  test/db/migrations.e2e-spec.ts
  test/db/repositories
  test/ingestor/ingest-endpoint.e2e-spec.ts
  test/property/apply-then-read.e2e-spec.ts
  test/ingestor/faults.e2e-spec.ts
  test/api/rate-limit.e2e-spec.ts
)
# --if-engine (what `pnpm test` passes): without an engine that answers and the two images at
# hand, say so and succeed (`pnpm images:local` builds them where no registry answers).
if [ "${1:-}" = --if-engine ]; then
  shift
  if ! docker info >/dev/null 2>&1 || ! docker image inspect postgres:15 redis:7 >/dev/null 2>&1; then
    echo '[test:containers] no container engine with postgres:15 and redis:7 here: the Testcontainers run of the database suites is skipped' >&2
    exit 0
  fi
fi
leftovers() { docker ps -aq --filter label=org.testcontainers; }
remove_leftovers() {
  local ids
  ids=$(leftovers)
  [ -z "$ids" ] || docker rm -f -v $ids >/dev/null
}
trap remove_leftovers EXIT
env -u DATABASE_URL -u REDIS_URL TESTCONTAINERS_RYUK_DISABLED=true \
  TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-localhost}" \
  npx jest "${SUITES[@]}" "$@"
