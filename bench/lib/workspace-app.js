'use strict';
// The API, the public pages and the workspace in one Express app over a fresh SQLite file, for the
// workspace family (bench/scenarios/workspace.js). The browser signs in through an `authenticate` hook that
// reads a cookie (the embedding mode of docs/embedding.md), so the bench needs no sign-in screens.
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const express = require('express');
const { createFormloom } = require('@formloom/core');
const { createDataSource, createTypeormStorage, runMigrations } = require('@formloom/storage-typeorm');
const { createFormloomRouter, createPublicPagesRouter } = require('@formloom/express');
const { createWorkspaceRouter } = require('@formloom/workspace');

const COOKIE = 'bench_user';

async function startWorkspaceBenchApp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-bench-workspace-'));
  const dbFile = path.join(dir, 'bench.sqlite');
  const dataSource = createDataSource(`sqlite:${dbFile}`);
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  const formloom = createFormloom({ storage, config: { secretKey: 'bench-secret-key' } });
  const user = await formloom.accounts.createUser({ email: 'bench@example.com', plan: 'business', first_name: 'Bench', last_name: 'Owner' });
  const token = 'bench-session-token';
  const authenticate = (req) => ((req.headers.cookie || '').includes(`${COOKIE}=${token}`) ? { user_id: user.id, key_id: null, scope: 'forms' } : null);
  const app = express();
  app.use('/api/v1', createFormloomRouter({ formloom, authenticate, rateLimits: false }));
  app.use(createPublicPagesRouter({ formloom, rateLimits: false }));
  app.use(createWorkspaceRouter({ apiBase: '/api/v1' }));
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  /** Calls the API as the bench user (through the same router, with the cookie); resolves with status and JSON. */
  async function api(method, apiPath, body) {
    const res = await fetch(`${url}/api/v1${apiPath}`, {
      method,
      headers: { cookie: `${COOKIE}=${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }
  return {
    url,
    dbFile,
    cookie: { name: COOKIE, value: token, url },
    api,
    /** Creates a form as the bench user. */
    async createForm(body) {
      const res = await api('POST', '/forms', body);
      if (res.status !== 201) throw new Error(`create form: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async close() {
      await formloom.worker.stop();
      await new Promise((r) => server.close(() => r()));
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startWorkspaceBenchApp };
