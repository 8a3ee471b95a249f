#!/usr/bin/env bash
# `pnpm image:build`: docker build -t graph-history . (GH_IMAGE names another tag), handing the
# build stage this machine's extra CA certificates (/usr/local/share/ca-certificates, e.g. a
# TLS-intercepting proxy's) for its npm registry calls; prints the image's size.
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE=${GH_IMAGE:-graph-history}
ca=$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)
docker build -q -t "$IMAGE" --build-arg CA_CERTS="$ca" . >/dev/null
docker image inspect -f '{{.Size}}' "$IMAGE" | awk -v i="$IMAGE" '{printf "%s: %d MB\n", i, $1/1e6}'
