# The edge, the job worker and the release step: one image, three commands (the build context is the repository
# root: `docker build -f deploy/edge.Dockerfile .`).
#   edge (the default): node --enable-source-maps apps/edge/dist/main.node.js      (HTTP on PORT, 8787)
#   worker:             node --enable-source-maps apps/edge/dist/main.worker.js    (health on WORKER_PORT, 8790)
#   release step:       node --enable-source-maps apps/edge/dist/main.migrate.js   (migrates, then exits)
# deploy/compose.yaml runs all three; docs/deploy.md says how to run them elsewhere.

# Every workspace's package.json and the lockfile: npm ci installs what the lockfile says, for all of them.
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

# The edge's three entry points compiled to apps/edge/dist (@booth/db and @booth/sdk bundled in, the other packages
# left to node_modules).
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
COPY scripts/bundle.mjs scripts/
COPY apps/edge apps/edge
RUN npm run build -w @booth/edge

# What runs: the edge's production dependencies, the compiled files (the database's migrations in dist/migrations); Debian's ffmpeg for
# the worker's transcoding and tini as PID 1 (it hands SIGTERM to Node, which then drains, and reaps children such
# as ffmpeg).
FROM node:24-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/cli/package.json apps/cli/
COPY apps/edge/package.json apps/edge/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY apps/web/package.json apps/web/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --omit=dev --workspace @booth/edge --include-workspace-root --no-audit --no-fund \
  && npm cache clean --force
COPY --from=build /app/apps/edge/dist apps/edge/dist

# DATA_DIR holds nothing shared in production (files are in S3, the rest in PostgreSQL and Redis), but the edge makes
# the folder at start: one the node user may write.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    FFMPEG_PATH=/usr/bin/ffmpeg
EXPOSE 8787
USER node
# Slim images have no curl: Node's fetch asks. The worker's container asks /healthz on WORKER_PORT instead
# (deploy/compose.yaml), the release step's asks nothing.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tini", "--"]
CMD ["node", "--enable-source-maps", "apps/edge/dist/main.node.js"]
