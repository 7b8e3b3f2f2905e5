import { BUILT_IN_AREAS } from '@formloom/core';
import { startSelfHosted } from './app';

startSelfHosted(process.env).then(
  (app) => {
    console.log(`Formloom listening on ${app.url}`);
    if (app.configPath) {
      const added = app.formloom.plugins.filter((p) => !BUILT_IN_AREAS.some((a) => a.name === p.name));
      console.log(`Formloom plugins from ${app.configPath}: ${added.map((p) => `${p.name} ${p.version}`).join(', ') || 'none'}`);
    }
    const stop = (signal: NodeJS.Signals) => {
      console.log(`Formloom stopping (${signal})`);
      app.close().then(
        () => process.exit(0),
        (e: unknown) => {
          console.error('Formloom: error while stopping:', e);
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (e: unknown) => {
    console.error(`Formloom could not start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
