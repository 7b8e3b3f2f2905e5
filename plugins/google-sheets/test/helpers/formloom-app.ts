import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@formloom/cli';
import { startSelfHosted, type SelfHosted } from '@formloom/self-hosted';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';

/*
 * The self-hosted app on a test database of `kind`, with the plugins a formloom.config.mjs lists (given as
 * the file's text), an owner and a `forms` key, and `call` for its HTTP API. Receivers on this machine are
 * allowed (FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1): the services' stand-ins listen on 127.0.0.1.
 */

export interface TestApp {
  app: SelfHosted;
  url: string;
  apiKey: string;
  call(method: string, path: string, body?: unknown, key?: string | null): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startTestApp(kind: 'sqlite' | 'postgres', config = 'export default { plugins: [] };\n'): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-google-sheets-'));
  const db = await createTestDatabase(kind);
  const configPath = join(dir, 'formloom.config.mjs');
  writeFileSync(configPath, config);
  const env = {
    PORT: '0',
    FORMLOOM_DATA_DIR: join(dir, 'data'),
    FORMLOOM_DATABASE_URL: db.url,
    FORMLOOM_CONFIG: configPath,
    FORMLOOM_LOG_LEVEL: 'silent',
    FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
  };
  const app = await startSelfHosted(env);
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout) as Record<string, string>;
  await cli('user', 'create', '--email', 'owner@example.com', '--plan', 'pro', '--verified');
  const { api_key } = await cli('key', 'create', '--user', 'owner@example.com');
  const call: TestApp['call'] = async (method, path, body, key = api_key!) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    app,
    url: app.url,
    apiKey: api_key!,
    call,
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
