# syntax=docker/dockerfile:1
# The self-hosted app (npm start) in a container: docs/docker.md.

# ---- build: every dependency, sqlite3 compiled from source, then tsc -b and the browser bundles ----
FROM node:20-bookworm AS build
WORKDIR /app
# node-gyp uses the headers shipped in the image instead of downloading them; .prebuild-installrc (copied
# with the sources) makes sqlite3 skip its prebuilt download. Only the npm registry is contacted.
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
COPY . .
RUN npm ci
RUN npm run build
# Production dependencies only (the self-hosted example declares pg and sqlite3, so both stay).
RUN npm prune --omit=dev

# ---- runtime: production deps and the compiled output, run as the unprivileged "node" user ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    FORMLOOM_DATA_DIR=/data \
    FORMLOOM_DATABASE_URL=sqlite:/data/formloom.sqlite
WORKDIR /app
# Owned by root: the app cannot change its own code. Workspace links in node_modules/@formloom stay links.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/examples ./examples
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form, no npm or shell in between: SIGTERM from `docker stop` reaches node, which drains and closes.
CMD ["node", "examples/self-hosted/dist/src/main.js"]
