import { BUILT_IN_AREAS } from '@formloom/core';
import { startSelfHosted } from './app';

// Run through examples/self-hosted/bin/formloom-server (what `npm start` and the Docker image run) so SIGTERM
// reaches this process and V8 gets its memory flags at start (docs/operations.md, "Process managers", "Memory").

// Pending migrations run in a child process, so this one never loads their code (docs/operations.md, "Memory").
startSelfHosted(process.env, undefined, { migrateInChild: true }).then(
  (app) => {
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
