#!/usr/bin/env bash
# `.ci/run`'s container step: when a container engine can be had (Debian's docker.io installed and
# dockerd started as root where missing), builds the local images where no registry answers and
# runs `pnpm test:containers`. A dockerd started here is stopped here, whatever happened; without
# an engine (no root, no apt-get) or without those images, it says so and succeeds.
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[ci:containers] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi; }
engine_up() { docker info >/dev/null 2>&1; }

state=$(mktemp -d /tmp/gh-dockerd.XXXXXX)
stop_dockerd() {
  if [ -s "$state/dockerd.pid" ]; then
    local pid
    pid=$(cat "$state/dockerd.pid")
    as_root kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do as_root kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    # The default bridge it made goes too (its iptables chains stay, empty).
    if [ -e "$state/no-bridge-before" ] && command -v ip >/dev/null 2>&1; then
      as_root ip link delete docker0 2>/dev/null || true
    fi
    log "stopped the dockerd it started"
  fi
  rm -rf "$state"
}
trap stop_dockerd EXIT

if ! engine_up; then
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 &&
      as_root apt-get update -qq &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null ||
      { log "no container engine can be had here: skipped"; exit 0; }
  fi
  log "starting dockerd"
  [ -e /sys/class/net/docker0 ] || touch "$state/no-bridge-before"
  as_root sh -c "dockerd --pidfile '$state/dockerd.pid' >'$state/dockerd.log' 2>&1 &" ||
    { log "dockerd needs root: skipped"; exit 0; }
  for _ in $(seq 1 30); do engine_up && break; sleep 1; done
  engine_up || { log "dockerd did not start:"; tail -5 "$state/dockerd.log" >&2; exit 1; }
fi
# The images the tests start; where they can be neither pulled nor built, the step is skipped.
bash scripts/containers/build-local-images.sh postgres:15 redis:7 ||
  { log "postgres:15 / redis:7 can be neither pulled nor built here: skipped"; exit 0; }
bash scripts/containers/test-containers.sh
