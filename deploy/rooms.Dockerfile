# The live rooms under `wrangler dev` (workerd), for a one-host setup without Cloudflare (untested here: see
# docs/deploy.md). On Cloudflare, `npm run deploy -w @booth/rooms-party` instead.
FROM node:20-bookworm-slim

WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/edge/package.json apps/edge/
COPY apps/cli/package.json apps/cli/
COPY apps/web/package.json apps/web/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --workspace @booth/rooms-party --include-workspace-root

COPY tsconfig.base.json tsconfig.json ./
COPY packages/sdk packages/sdk
COPY apps/rooms-party apps/rooms-party

# wrangler writes its build under the app's .wrangler folder; rooms persist under /data.
RUN mkdir -p /data && chown node:node /data && chown -R node:node /app/apps/rooms-party
ENV PORT=1999 PARTY_HOST=0.0.0.0 DATA_DIR=/data
USER node
EXPOSE 1999
CMD ["npm", "run", "start", "-w", "@booth/rooms-party"]
