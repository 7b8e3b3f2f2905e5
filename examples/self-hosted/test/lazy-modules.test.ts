import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startSelfHosted } from '../src';

/*
 * What the server holds at rest is mostly the code it loaded (docs/operations.md, "Memory"). The code that
 * is ours to defer stays on disk until used: the PostgreSQL client on SQLite, the XLSX export's exceljs,
 * proof of work's altcha-lib, the uploads' busboy, Node's HTTPS and TLS (the first delivery to an https
 * receiver), and the API's OpenAPI document, built at its first request. TypeORM's other drivers and zod's locales load with those libraries: their
 * upstream fixes are described in docs/decisions.md ("Dependencies are used as published").
 */

/** Node's own modules loaded so far, in order (`process.moduleLoadList`, which Node's types leave out). */
const builtinsLoaded = (): string[] => (process as unknown as { moduleLoadList: string[] }).moduleLoadList;

test('an app on SQLite does not load the PostgreSQL client, and builds the API document at its first request', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-lazy-modules-'));
  // Node's own modules the app loads at start (the test's own were loaded before).
  const builtinsBefore = new Set(builtinsLoaded());
  const app = await startSelfHosted({ PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}` }, { write: () => undefined });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  // Wherever npm placed them.
  t.deepEqual(Object.keys(require.cache).filter((path) => /\/node_modules\/(pg|pg-pool|pg-protocol)\//.test(path)), []);
  // exceljs (the XLSX export's writer, some megabytes of code) loads at the first XLSX export only.
  t.deepEqual(Object.keys(require.cache).filter((path) => /\/node_modules\/exceljs\//.test(path)), []);
  // The CalDAV client (booking calendars) and tar (backups) load at their first use: a calendar request, an archive.
  t.deepEqual(Object.keys(require.cache).filter((path) => /\/node_modules\/(tsdav|tar)\//.test(path)), []);
  // The integrations' SDKs (Google's, Notion's, Airtable's) load at their plugin's first delivery.
  t.deepEqual(Object.keys(require.cache).filter((path) => /\/node_modules\/(@googleapis|googleapis-common|google-auth-library|gaxios|@notionhq|airtable)\//.test(path)), []);
  // Proof of work's altcha-lib at the first challenge or proof, busboy at the first upload.
  t.deepEqual(Object.keys(require.cache).filter((path) => /\/node_modules\/(altcha-lib|busboy|streamsearch)\//.test(path)), []);
  // HTTPS and TLS at the first delivery to an https receiver (webhooks, integrations).
  t.deepEqual(builtinsLoaded().filter((m) => !builtinsBefore.has(m) && /^NativeModule (https|tls|_tls_wrap)$/.test(m)), []);

  const res = await fetch(`${app.url}/api/v1/openapi.json`);
  t.is(res.status, 200);
  t.truthy(((await res.json()) as { paths: Record<string, unknown> }).paths['/forms/{id}']);
});
