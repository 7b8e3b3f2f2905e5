import { openMigratedStorage } from '@formloom/storage-typeorm';

/*
 * A child process of the self-hosted server (migrations-in-child.ts): applies the pending migrations of the
 * database whose URL the server sends over IPC, answers `{ ok: true }` or `{ error: message }`, and exits. The
 * migrations' code and what running them leaves behind (TypeORM's migration executor, the SQL of 33 files)
 * then go back to the system with this process instead of staying in the server (docs/operations.md, "Memory").
 * The URL comes by IPC rather than the command line, where `ps` would show a PostgreSQL password.
 */

type Reply = { ok: true } | { error: string };

const reply = (message: Reply, code: number) => {
  process.exitCode = code;
  process.send!(message, () => process.disconnect());
};

process.once('message', (databaseUrl: unknown) => {
  openMigratedStorage(String(databaseUrl)).then(
    (storage) => storage.close().then(() => reply({ ok: true }, 0)),
    (e: unknown) => reply({ error: e instanceof Error ? e.message : String(e) }, 1),
  );
});
