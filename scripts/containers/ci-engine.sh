#!/usr/bin/env bash
# `.ci/run`'s container engine, for the Testcontainers suites that `pnpm test` runs when an engine
# answers (scripts/containers/test-containers.sh --if-engine).
#   start: where none answers, installs Debian's docker.io (and debootstrap) as root and starts
#          dockerd; then builds postgres:15 and redis:7 from Debian's packages where no registry
#          answers. Never fails: without root, apt-get or the images it says so, and the suites
#          are skipped.
#   stop:  stops the dockerd `start` started (and the docker0 bridge it made), if any.
set -uo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[ci:containers] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi; }
engine_up() { docker info >/dev/null 2>&1; }
STATE="${TMPDIR:-/tmp}/gh-ci-dockerd"

start() {
  if ! engine_up; then
    if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
      command -v apt-get >/dev/null 2>&1 &&
        as_root apt-get update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null ||
        { log "no container engine can be had here: the Testcontainers suites will be skipped"; return 0; }
    fi
    mkdir -p "$STATE"
    [ -e /sys/class/net/docker0 ] || touch "$STATE/no-bridge-before"
    log "starting dockerd"
    as_root sh -c "dockerd --pidfile '$STATE/dockerd.pid' >'$STATE/dockerd.log' 2>&1 &" ||
      { log "dockerd needs root: the Testcontainers suites will be skipped"; return 0; }
    for _ in $(seq 1 30); do engine_up && break; sleep 1; done
    engine_up || { log "dockerd did not start:"; tail -5 "$STATE/dockerd.log" >&2; return 0; }
  fi
  bash scripts/containers/build-local-images.sh postgres:15 redis:7 ||
    log "postgres:15 / redis:7 can be neither pulled nor built here: the Testcontainers suites will be skipped"
}

stop() {
  [ -s "$STATE/dockerd.pid" ] || { rm -rf "$STATE"; return 0; }
  local pid
  pid=$(cat "$STATE/dockerd.pid")
  as_root kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do as_root kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  # The default bridge it made goes too (its iptables chains stay, empty).
  if [ -e "$STATE/no-bridge-before" ] && command -v ip >/dev/null 2>&1; then
    as_root ip link delete docker0 2>/dev/null || true
  fi
  rm -rf "$STATE"
  log "stopped the dockerd it started"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: ci-engine.sh start|stop" >&2; exit 2 ;;
esac
