import { join } from 'node:path';

/**
 * Applies the database's pending migrations in a child node process (migrate.ts) and waits for it: the server
 * itself then never loads the migrations' code, and the memory their run took goes back to the system when the
 * child exits (docs/operations.md, "Memory"). The child gets the server's own node flags (the launcher's) and
 * environment. A migration that fails stops the start with its own message, as when it ran in the server.
 * Two servers starting at once on one new database may both start a child: the migrations take turns (SQLite's
 * write lock, PostgreSQL's advisory lock) and the second finds nothing left to apply.
 */
export async function migrateInChild(databaseUrl: string): Promise<void> {
  // Loaded here: a start on an up-to-date database never needs child_process.
  const { fork } = await import('node:child_process');
  const child = fork(join(__dirname, 'migrate.js'), [], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  let reply: { ok?: true; error?: string } | null = null;
  let stderr = '';
  child.on('message', (m: { ok?: true; error?: string }) => (reply = m));
  child.stderr!.on('data', (chunk: Buffer) => {
    // Shown as the child wrote it (a warning of node's), and its end kept for a child that dies without a reply.
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  child.send(databaseUrl);
  const { code, signal } = await exited;
  // Its reply comes on the IPC channel, read in order before the channel's end.
  if (child.connected) await new Promise((resolve) => child.once('disconnect', resolve));
  const answer = reply as { ok?: true; error?: string } | null;
  if (answer?.error !== undefined) throw new Error(answer.error);
  if (answer?.ok && code === 0) return;
  const last = stderr.trim().split('\n').pop();
  throw new Error(`Database migrations stopped: their process ended ${signal ? `by ${signal}` : `with code ${code}`}${last ? `: ${last}` : ''}`);
}
