# The cloudprice image (docs/deploy.md). Three stages on the same base: `build` compiles the
# server and the web page with every dependency installed; `deps` installs the production
# dependencies only, without the build tools (--omit=optional, docs/adr/0015); the runtime
# stage holds those, the build output and the bundled snapshots, and nothing else.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install script is needed on Node.js 22 (ADR 0005); the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts scripts
COPY src src
COPY web web
# What `npm start` does before starting: the server (tsc) and the web page (vite) into dist/.
RUN node scripts/prestart.mjs

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

FROM node:22-bookworm-slim
# tini runs as PID 1 and forwards signals to node: the kernel ignores a signal that PID 1 has no
# handler for, and node installs its SIGTERM handler (the drain) only once it listens, so as
# PID 1 node would ignore a stop during the first start and be killed after the runtime's
# timeout. Under tini SIGTERM always acts: before listening it ends the process (the start is
# safe to interrupt), after it the drain of docs/operations.md runs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY data/snapshots data/snapshots
COPY deploy/healthcheck.mjs deploy/healthcheck.mjs
# DATA_DIR holds the SQLite database and a generated key file; the only writable place.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "deploy/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
