import { startSelfHosted } from './app';

startSelfHosted(process.env).then(
  (app) => {
    console.log(`Formloom listening on ${app.url}`);
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
