#!/usr/bin/env bash
# `pnpm test:compose`: brings up docker-compose.yml, then docker-compose.fleet.yml, from the
# service's image (`graph-history`, built first when missing), each under a project of its own on
# free ports; creates a key, ingests a simulated share through the published ingest port (HAProxy
# for the fleet), reads it back through the published API port until every event is applied, and
# takes the stack down with its volumes and network, whatever happened. Bounded: each stack
# ~5 minutes at most.
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE=${GH_IMAGE:-graph-history}
EVENTS=200
export GH_IMAGE=$IMAGE

log() { printf '[test:compose] %s\n' "$*" >&2; }
free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
json_field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));console.log(v??"")}catch{console.log("")}})' "$1"; }

if ! docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "building $IMAGE"
  bash scripts/containers/build-image.sh
fi

# Waits up to $2 seconds for `$1` (a command) to succeed.
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 1
  done
}

# check_stack FILE: up, key, ingest, read, down.
check_stack() {
  local file=$1 project="ghtest$$$(basename "$1" .yml | tr -dc a-z)" started=$SECONDS
  export GH_API_PORT GH_INGEST_PORT GH_POSTGRES_PORT GH_REDIS_PORT
  GH_API_PORT=$(free_port) GH_INGEST_PORT=$(free_port) GH_POSTGRES_PORT=$(free_port) GH_REDIS_PORT=$(free_port)
  local dc=(docker-compose -p "$project" -f "$file")
  down=("${dc[@]}")
  log "$file: up (api :$GH_API_PORT, ingest :$GH_INGEST_PORT)"
  local out
  out=$(timeout 300 "${dc[@]}" up -d --quiet-pull 2>&1) ||
    { echo "$out" | tail -20 >&2; "${dc[@]}" logs --tail 30 >&2; return 1; }
  local api="http://127.0.0.1:$GH_API_PORT" ingest="http://127.0.0.1:$GH_INGEST_PORT"
  wait_for "curl -fsS $api/readyz && curl -fsS $ingest/readyz" 120 ||
    { log "$file: not ready"; "${dc[@]}" logs --tail 30 >&2; return 1; }
  local key
  key=$(timeout 60 "${dc[@]}" run --rm -T migrate graph-history keys create --account demo --json | json_field key)
  [ -n "$key" ] || { log "$file: no key"; return 1; }
  log "$file: ingesting $EVENTS events into gph_sim-1 through $ingest"
  timeout 120 docker run --rm --network host -e GRAPH_HISTORY_URL="$ingest" -e GRAPH_HISTORY_KEY="$key" \
    "$IMAGE" sh -c "graph-history-entrypoint graph-history simulate --graphs 1 --events $EVENTS --seed 7 >/tmp/sim.jsonl &&
      graph-history-entrypoint graph-history ingest --file /tmp/sim.jsonl" >/dev/null
  local count=''
  for _ in $(seq 1 60); do
    count=$(curl -fsS -H "Authorization: Bearer $key" "$api/api/v1/graphs/gph_sim-1" | json_field retention.event_count || true)
    [ "$count" = "$EVENTS" ] && break
    sleep 1
  done
  [ "$count" = "$EVENTS" ] || { log "$file: read $count events through $api, expected $EVENTS"; "${dc[@]}" logs --tail 30 >&2; return 1; }
  log "$file: read $count events through $api ($((SECONDS - started)) s)"
  take_down
}

down=()
take_down() {
  [ ${#down[@]} -gt 0 ] || return 0
  "${down[@]}" down -v --remove-orphans -t 5 >/dev/null 2>&1 || true
  down=()
}
trap take_down EXIT

check_stack docker-compose.yml
check_stack docker-compose.fleet.yml
log "both stacks passed"
