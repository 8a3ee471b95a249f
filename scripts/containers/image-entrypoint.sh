#!/bin/sh
# The image's command picks the process: api, ingestor, or graph-history <cli command …>.
set -e
cd /app
case "$1" in
  api) shift; exec node --max-semi-space-size=64 apps/api/dist/main.js "$@" ;;
  ingestor) shift; exec node --max-semi-space-size=64 apps/ingestor/dist/main.js "$@" ;;
  graph-history) shift; exec node apps/cli/dist/main.js "$@" ;;
  *) exec "$@" ;;
esac
