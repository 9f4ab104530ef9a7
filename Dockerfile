# syntax=docker/dockerfile:1
# Latchkey's production image: the built server, the built dashboard and the packed SDK on Node 20,
# run as the unprivileged `node` user. docs/production.md says how to run it (compose.yaml beside this
# file runs it with PostgreSQL); packages/server/test/production-files.test.ts keeps this file in step
# with the server's variables, and `npm test` lints it (scripts/lint-dockerfile.mjs).

# Debian-based (glibc), as on the machines the project is tested on: the native argon2 package is
# installed for glibc from the lockfile.
ARG NODE_IMAGE=node:20-bookworm-slim

# Every workspace's manifest, so `npm ci` sees the lockfile's whole workspace set; copied before
# the sources, so a change of source reuses the installed layer.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/js/package.json packages/js/
COPY packages/react/package.json packages/react/
COPY apps/dashboard/package.json apps/dashboard/
COPY apps/demo/package.json apps/demo/
COPY apps/dev-oidc-provider/package.json apps/dev-oidc-provider/

# Build: the whole toolchain, then `npm run build` (server, dashboard, packed SDK), then the SDK's
# tarballs copied to one known directory.
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
  && node --input-type=module -e "import { cpSync } from 'node:fs'; import { ensureSdkPacked } from './scripts/lib/sdk-build.mjs'; cpSync(await ensureSdkPacked(), '/app/sdk', { recursive: true });"

# The server's production dependencies alone (and @latchkey/shared, linked): no compiler, no test
# tools, no dashboard sources.
FROM manifests AS server-dependencies
RUN npm ci --omit=dev --workspace=@latchkey/server --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
  PORT=8102 \
  LATCHKEY_DASHBOARD_DIR=/app/apps/dashboard/dist \
  LATCHKEY_SDK_DIR=/app/sdk \
  LATCHKEY_DATA_DIR=/var/lib/latchkey/data
WORKDIR /app
# The application's files belong to root and are read-only to the server; it writes only under
# /var/lib/latchkey (PGlite, when DATABASE_URL is not set: for trying the image, not for production).
# The manifests and node_modules (npm nests a few under packages/server/node_modules), then the
# built parts over them (@latchkey/shared is bundled into the server's build).
COPY --from=server-dependencies /app ./
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist/
COPY --from=build /app/apps/dashboard/dist apps/dashboard/dist/
COPY --from=build /app/sdk sdk/
RUN mkdir -p /var/lib/latchkey && chown node:node /var/lib/latchkey
USER node
EXPOSE 8102
# Ready means the database answers and every migration is applied (GET /health/ready); Node's own
# fetch asks, so the image needs no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8102) + '/health/ready', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "packages/server/dist/main.js", "start"]
