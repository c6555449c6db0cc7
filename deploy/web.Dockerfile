# The web app (Remix on Node), built at image build time (untested here: see docs/deploy.md).
FROM node:20-bookworm-slim

WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/edge/package.json apps/edge/
COPY apps/cli/package.json apps/cli/
COPY apps/web/package.json apps/web/
COPY apps/rooms-party/package.json apps/rooms-party/
COPY packages/db/package.json packages/db/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --workspace @booth/web --include-workspace-root

COPY tsconfig.base.json tsconfig.json ./
COPY packages/sdk packages/sdk
COPY apps/web apps/web
RUN npm run build -w @booth/web

ENV NODE_ENV=production \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=3000
EXPOSE 3000
USER node
CMD ["npm", "run", "start", "-w", "@booth/web"]
