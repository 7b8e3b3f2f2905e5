import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqliteFile } from './config';

/**
 * The database URL as the operator may see it on stderr: a PostgreSQL password (in the user info or a
 * `password` query parameter) is replaced by `***`, so the line is safe to paste into a ticket.
 */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the driver could use either; show only the scheme rather than risk printing a password.
    return `${url.split(':')[0]}://***`;
  }
  if (parsed.password) parsed.password = '***';
  for (const name of ['password', 'sslpassword']) {
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
  }
  return decodeURIComponent(parsed.toString());
}

/**
 * An explicitly given SQLite file must live in an existing folder: a typo in `FORMLOOM_DATABASE_URL` would
 * otherwise make a new, empty database in a new folder and the command would "succeed" on it
 * (docs/cli.md). Only the default location under `./data` is created, as `npm start` does.
 */
export function checkSqliteFolder(databaseUrl: string, explicit: boolean): void {
  const file = sqliteFile(databaseUrl);
  if (file === null || !explicit) return;
  const folder = dirname(file);
  if (!existsSync(folder)) {
    throw new Error(`FORMLOOM_DATABASE_URL: the folder ${folder} does not exist (create it first, or fix the path)`);
  }
  if (!statSync(folder).isDirectory()) throw new Error(`FORMLOOM_DATABASE_URL: ${folder} is not a folder`);
}
