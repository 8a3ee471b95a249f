# The service's one image: `docker run IMAGE api | ingestor | graph-history <command> …`.
# Build: docker build -t graph-history .
# Behind a TLS-intercepting proxy, pass its CA to the build stage's npm registry calls:
#   --build-arg CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)"
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
ARG CA_CERTS=""
ARG PNPM_VERSION=10.34.9
WORKDIR /src
COPY . .
RUN if [ -n "$CA_CERTS" ]; then printf '%s\n' "$CA_CERTS" >/tmp/extra-ca.pem; export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && npm install -g --no-fund --no-audit "pnpm@${PNPM_VERSION}" \
 && CI=true pnpm install --frozen-lockfile \
 && pnpm build \
 # Production dependencies only, from the store the first install filled.
 && rm -rf node_modules apps/*/node_modules libs/*/node_modules db/node_modules \
 && CI=true pnpm install --prod --frozen-lockfile --offline \
 && rm -rf apps/*/src libs/*/src db/migrations/*.ts apps/viewer/node_modules/.bin \
 && find . -name '*.d.ts' -o -name '*.map' -o -name '*.tsbuildinfo' | xargs rm -f

FROM ${BASE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build /src /app
COPY scripts/containers/image-entrypoint.sh /usr/local/bin/graph-history-entrypoint
USER node
EXPOSE 3000 3001
# Ready when the API (PORT) or the ingestor (INGEST_PORT) of this container answers /readyz.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "scripts/containers/healthcheck.js"]
ENTRYPOINT ["graph-history-entrypoint"]
CMD ["api"]
