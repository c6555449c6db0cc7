# The edge and the job worker: one image, two commands (untested here: no image registry is reachable from the
# machines Booth is built on; see docs/deploy.md).
#   edge:    docker run ... booth-edge                (npm run start -w @booth/edge)
#   worker:  docker run ... booth-edge npm run start:worker -w @booth/edge
#   release: docker run ... booth-edge npm run migrate -w @booth/edge
FROM node:20-bookworm-slim

# ffmpeg for the worker (transcoding, the demo catalogue, generated songs); the edge alone needs none.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/edge/package.json apps/edge/
COPY apps/cli/package.json apps/cli/
COPY apps/web/package.json apps/web/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --workspace @booth/edge --include-workspace-root

COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
COPY apps/edge apps/edge

# DATA_DIR holds nothing shared in production (files are in S3, the rest in PostgreSQL and Redis), but the edge
# makes the folder at start: one the node user may write.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    FFMPEG_PATH=/usr/bin/ffmpeg
EXPOSE 8787
USER node
CMD ["npm", "run", "start", "-w", "@booth/edge"]
