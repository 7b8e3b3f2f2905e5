# syntax=docker/dockerfile:1
# The self-hosted app (npm start) in a container: docs/docker.md.

# ---- build: dependencies first (a layer that survives source changes), then the sources, tsc -b and the browser bundles ----
FROM node:20-bookworm AS build
WORKDIR /app
# node-gyp uses the headers shipped in the image instead of downloading them; .prebuild-installrc makes
# sqlite3 skip its prebuilt download. Only the npm registry is contacted.
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
# Only the manifests: a change to the sources does not reinstall or recompile sqlite3.
COPY package.json package-lock.json .prebuild-installrc ./
COPY packages/core/package.json packages/core/
COPY packages/storage-typeorm/package.json packages/storage-typeorm/
COPY packages/mailer-smtp/package.json packages/mailer-smtp/
COPY packages/blob-store-file/package.json packages/blob-store-file/
COPY packages/blob-store-s3/package.json packages/blob-store-s3/
COPY packages/webhook-http/package.json packages/webhook-http/
COPY packages/pdf/package.json packages/pdf/
COPY packages/audio/package.json packages/audio/
COPY packages/renderer/package.json packages/renderer/
COPY packages/speech-flite/package.json packages/speech-flite/
COPY packages/speech-espeak/package.json packages/speech-espeak/
COPY packages/speech-openai/package.json packages/speech-openai/
COPY packages/test-browser/package.json packages/test-browser/
COPY packages/express/package.json packages/express/
COPY packages/workspace/package.json packages/workspace/
COPY packages/backup/package.json packages/backup/
COPY packages/payments-stripe/package.json packages/payments-stripe/
COPY packages/calendar-caldav/package.json packages/calendar-caldav/
COPY packages/cli/package.json packages/cli/
COPY examples/self-hosted/package.json examples/self-hosted/
COPY examples/embed-express/package.json examples/embed-express/
COPY plugins/google-sheets/package.json plugins/google-sheets/
COPY plugins/notion/package.json plugins/notion/
COPY plugins/airtable/package.json plugins/airtable/
COPY plugins/n8n-nodes-formloom/package.json plugins/n8n-nodes-formloom/
COPY plugins/slack/package.json plugins/slack/
COPY plugins/rest-hooks/package.json plugins/rest-hooks/
COPY packages/telephony-twilio/package.json packages/telephony-twilio/
COPY packages/translator-deepl/package.json packages/translator-deepl/
COPY packages/translator-libretranslate/package.json packages/translator-libretranslate/
RUN npm ci
COPY . .
# tsc -b, then the browser bundles of the workspace and the renderer (esbuild, a dev dependency: before the prune).
RUN npm run build
# Production dependencies only (the self-hosted example declares pg and sqlite3, so both stay), then what
# each workspace publishes (its "files": dist/src, assets, bin), without sources or test builds.
# --omit=optional too: what only optional edges reach is not needed to run: ava (an optional peer of
# @formloom/core, for its conformance suites), node-gyp (sqlite3 is built already), pg-cloudflare.
RUN npm prune --omit=dev --omit=optional && node .docker/runtime-files.mjs /runtime

# ---- runtime: production deps and the compiled output, run as the unprivileged "node" user ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    FORMLOOM_DATA_DIR=/data \
    FORMLOOM_DATABASE_URL=sqlite:/data/formloom.sqlite
WORKDIR /app
# Owned by root: the app cannot change its own code. Workspace links in node_modules/@formloom stay links.
COPY --from=build /runtime ./
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Ready, not only alive: /readyz answers 503 while the app cannot serve (database unreachable, shutting down).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form, and the launcher execs node (as `npm start` does, with the same malloc setting: docs/operations.md):
# SIGTERM from `docker stop` reaches node, which drains and closes.
CMD ["examples/self-hosted/bin/formloom-server"]
