# The web app (Remix on Node): `docker build -f deploy/web.Dockerfile .` from the repository root.
# It reaches the edge at BOOTH_EDGE_URL and the rooms at BOOTH_PARTY_URL; browsers reach them at
# BOOTH_PUBLIC_EDGE_URL and BOOTH_PUBLIC_PARTY_URL (docs/configuration.md).

# Every workspace's package.json and the lockfile: the same first stage as the other images (one cached layer).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/cli/package.json apps/cli/
COPY apps/edge/package.json apps/edge/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY apps/web/package.json apps/web/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --no-audit --no-fund

# Remix's build (apps/web/build: the server build and the browser's files) and the server compiled to
# apps/web/dist/server.js.
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
COPY scripts/bundle.mjs scripts/
COPY apps/web apps/web
RUN npm run build -w @booth/web

FROM node:24-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/cli/package.json apps/cli/
COPY apps/edge/package.json apps/edge/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY apps/web/package.json apps/web/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --omit=dev --workspace @booth/web --include-workspace-root --no-audit --no-fund \
  && npm cache clean --force
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/web/build apps/web/build

ENV NODE_ENV=production \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=3000
EXPOSE 3000
USER node
# /readyz answers 200 once the edge answers its own (the web waits up to 3 s for it).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.WEB_PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tini", "--"]
CMD ["node", "--enable-source-maps", "apps/web/dist/server.js"]
