# The live rooms under `wrangler dev` (workerd) for a one-host Booth without Cloudflare: `docker build -f
# deploy/rooms.Dockerfile .` from the repository root. One process holds every room (Cloudflare spreads them over many
# machines: `npm run deploy -w @booth/rooms-party -- --env production`, docs/deploy.md). Room storage persists in
# /data/party.

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

# The rooms' production dependencies and wrangler (their runtime here, a development dependency of the app), with all
# they load, copied out of the full install to /out at the same paths (deploy/copy-packages.mjs says why).
FROM deps AS build
COPY deploy/copy-packages.mjs deploy/
RUN node deploy/copy-packages.mjs /out apps/rooms-party wrangler

FROM node:24-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /out/ ./
COPY package.json tsconfig.base.json tsconfig.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/sdk/src packages/sdk/src
COPY apps/rooms-party/package.json apps/rooms-party/wrangler.jsonc apps/rooms-party/tsconfig.json apps/rooms-party/
COPY apps/rooms-party/src apps/rooms-party/src
COPY apps/rooms-party/scripts apps/rooms-party/scripts

# wrangler bundles the Worker at start into the app's .wrangler folder and keeps its logs there.
RUN mkdir -p /data && chown node:node /data && chown -R node:node apps/rooms-party
ENV NODE_ENV=production \
    PORT=1999 \
    PARTY_HOST=0.0.0.0 \
    DATA_DIR=/data
EXPOSE 1999
USER node
# The Worker answers a room address that is no room with its own 404 "No such room." (wrangler's own error pages and
# a refused connection fail).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 1999) + '/parties/main/health').then(async (r) => process.exit(r.status === 404 && (await r.text()).includes('No such room') ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tini", "--"]
CMD ["node", "apps/rooms-party/scripts/dev.mjs"]
