import { applyMemoryPolicy } from './memory-policy';

// Run as `node examples/self-hosted/dist/src/main.js` (what `npm start` runs) so SIGTERM reaches this process
// (docs/operations.md, "Process managers"). The memory policy comes first: it must hold while the rest loads.
const started = applyMemoryPolicy();
const { BUILT_IN_AREAS } = require('@formloom/core') as typeof import('@formloom/core');
const { startSelfHosted } = require('./app') as typeof import('./app');

startSelfHosted(process.env).then(
  (app) => {
    started();
    const log = app.logger;
    log.info({ url: app.url, public_url: app.publicUrl, blob_store: app.blobStore }, `Formloom listening on ${app.url}`);
    if (app.configPath) {
      const added = app.formloom.plugins.filter((p) => !BUILT_IN_AREAS.some((a) => a.name === p.name));
      log.info({ config: app.configPath, plugins: added.map((p) => `${p.name} ${p.version}`) }, 'Formloom plugins loaded');
    }
    const stop = (signal: NodeJS.Signals) => {
      log.info({ signal }, 'Formloom stopping');
      app.close().then(
        () => {
          log.info({}, 'Formloom stopped');
          log.flush();
          process.exit(0);
        },
        (e: unknown) => {
          log.error({ err: e }, 'Formloom: error while stopping');
          log.flush();
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (e: unknown) => {
    // No logger yet (the configuration itself may be what is wrong): one plain line an operator can read.
    console.error(`Formloom could not start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
