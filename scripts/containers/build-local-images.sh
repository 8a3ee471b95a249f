#!/usr/bin/env bash
# `pnpm images:local`: for machines whose container engine reaches no image registry (air-gapped
# CI). Every image the Dockerfile, the compose files and test/global-setup.ts name that is neither
# present nor pullable is built here from Debian's packages and tagged with that very name, so
# nothing else changes. Where `docker pull` succeeds, nothing is built.
#   base      graph-history/debian:bookworm  debootstrap --variant=minbase (as root, or through sudo)
#   node      node:20-bookworm-slim          the base + this machine's node (>= 20.19) and npm
#   postgres  postgres:15                    Debian's postgresql-15, entrypoint like the official
#   redis     redis:7                        Debian's redis-server (7.0)
#   haproxy   haproxy:2.6                    Debian's haproxy (2.6)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
BASE=graph-history/debian:bookworm
# All of them, or those named as arguments (e.g. `postgres:15 redis:7` for the tests alone).
IMAGES=(node:20-bookworm-slim postgres:15 redis:7 haproxy:2.6)
[ $# -eq 0 ] || IMAGES=("$@")

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
log() { printf '[images:local] %s\n' "$*" >&2; }
present() { docker image inspect "$1" >/dev/null 2>&1; }
pullable() { timeout 60 docker pull -q "$1" >/dev/null 2>&1; }

# The Debian mirror apt already uses on this machine (deb822 or one-line sources).
debian_mirror() {
  local m
  m=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ')
  echo "${m:-http://deb.debian.org/debian}"
}

build_base() {
  present "$BASE" && return
  command -v debootstrap >/dev/null || { log "debootstrap missing: apt-get install -y debootstrap"; exit 1; }
  local rootfs
  rootfs=$(mktemp -d /tmp/gh-rootfs.XXXXXX)
  trap 'as_root rm -rf "$rootfs"; trap - RETURN' RETURN
  log "debootstrap bookworm from $(debian_mirror)"
  as_root debootstrap --variant=minbase bookworm "$rootfs" "$(debian_mirror)" >/dev/null
  as_root rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
  # Keep apt's installs small, as the official slim images do.
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' |
    as_root tee "$rootfs"/etc/dpkg/dpkg.cfg.d/01-slim >/dev/null
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' |
    as_root tee "$rootfs"/etc/apt/apt.conf.d/01-slim >/dev/null
  as_root tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - "$BASE" >/dev/null
  log "built $BASE"
}

build_node() {
  local node npm_dir ctx
  node=$(command -v node)
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' ||
    { log "node:20-bookworm-slim needs this machine's node to be >= 20.19"; exit 1; }
  npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
  ctx=$(mktemp -d /tmp/gh-node.XXXXXX)
  trap 'rm -rf "$ctx"; trap - RETURN' RETURN
  cp "$(readlink -f "$node")" "$ctx/node"
  cp -r "$npm_dir" "$ctx/npm"
  cp "$here/local/node/Dockerfile" "$ctx/"
  docker build -q --build-arg BASE="$BASE" -t node:20-bookworm-slim "$ctx" >/dev/null
}

build_image() { # name, directory under local/
  docker build -q --build-arg BASE="$BASE" -t "$1" "$here/local/$2" >/dev/null
}

for image in "${IMAGES[@]}"; do
  if present "$image"; then log "$image: present"; continue; fi
  if pullable "$image"; then log "$image: pulled"; continue; fi
  build_base
  log "$image: building from Debian's packages"
  case "$image" in
    node:*) build_node ;;
    postgres:*) build_image "$image" postgres ;;
    redis:*) build_image "$image" redis ;;
    haproxy:*) build_image "$image" haproxy ;;
    *) log "$image: no local recipe"; exit 1 ;;
  esac
  log "$image: built ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))"
done
