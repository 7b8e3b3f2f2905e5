import { startEmbedExample } from './start';

startEmbedExample().then(
  (app) => {
    console.log(`Host app with Formloom listening on ${app.url}`);
    const stop = () =>
      void app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (e: unknown) => {
    console.error(`could not start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
