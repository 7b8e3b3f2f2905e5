import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSelfHosted, type SelfHosted } from '../../src';
import { freePort } from './app-process';
import { waitFor } from '@formloom/core/testing';

/*
 * The self-hosted app as a newcomer meets it, for browser tests of the workspace (docs/workspace.md): its own
 * data dir and SQLite file, mails in the file outbox, served at http://localhost:<port> (a passkey's relying
 * party must be a domain; `localhost` is one, 127.0.0.1 is not).
 */

export { axeViolations, launchBrowser } from '@formloom/test-browser';

export interface WorkspaceApp {
  app: SelfHosted;
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startApp(env: Record<string, string> = {}): Promise<WorkspaceApp> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-workspace-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const app = await startSelfHosted({ PORT: String(port), FORMLOOM_DATA_DIR: dataDir, FORMLOOM_PUBLIC_URL: url, FORMLOOM_LOG_LEVEL: 'warn', ...env }, { write: () => true } as never);
  return {
    app,
    url,
    dataDir,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for `check` to return a value (not undefined/false), polling; fails after `ms` with `what`. */
export async function eventually<T>(what: string, check: () => T | Promise<T>, ms = 30_000): Promise<Exclude<T, false | undefined | null>> {
  return waitFor(check, { timeoutMs: ms, intervalMs: 100, what });
}

/** The decoded text of each `.eml` in the outbox (quoted-printable undone). */
function mails(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return names.map((n) =>
    readFileSync(join(dir, n), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
  );
}

/** The first link under `path` in a mail to `to` that is not in `seen`, waiting for the worker to send it. */
export async function mailedLink(w: WorkspaceApp, to: string, path: string, seen = new Set<string>()): Promise<string> {
  const pattern = new RegExp(`${w.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path}[^\\s"'<>)\\]]+`, 'g');
  const link = await eventually(`a mail to ${to} with a ${path} link`, () => {
    for (const m of mails(w.dataDir)) {
      if (!m.toLowerCase().includes(to.toLowerCase())) continue;
      for (const found of m.match(pattern) ?? []) if (!seen.has(found)) return found;
    }
    return undefined;
  });
  seen.add(link);
  return link;
}

