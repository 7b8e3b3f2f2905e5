import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createPostgresBlobStore } from '@formloom/storage-typeorm';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFileBlobStore, createFormloomRouter, requestLogging, type HttpLogger } from '../../src';
import { DB_KINDS } from '../helpers/app';

/*
 * A download (an upload's file, the CSV export) logged Node's MaxListenersExceededWarning: the compression
 * middleware of /public and stream.pipeline put eight `close` listeners on the response, and a host's own
 * request log and count of requests in flight (as the self-hosted app has) took it past ten. Streams now
 * skip the compression middleware and are written without pipeline's listeners.
 */
const warnings: Error[] = [];
process.on('warning', (w) => {
  if (w.name === 'MaxListenersExceededWarning') warnings.push(w);
});

const quiet: HttpLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A host as the self-hosted app is: a request log and a count of requests in flight before the router. */
async function host(kind: (typeof DB_KINDS)[number]) {
  const db = await createTestDatabase(kind);
  const blobDir = mkdtempSync(join(tmpdir(), 'formloom-blobs-'));
  const formloom = createFormloom({
    storage: db.storage,
    blobStore: kind === 'postgres' ? createPostgresBlobStore(db.dataSource) : createFileBlobStore(blobDir),
    config: { secretKey: 'test-secret-key' },
  });
  let inFlight = 0;
  const app = express();
  app.use(requestLogging(quiet));
  app.use((_req, res, next) => {
    inFlight++;
    let done = false;
    const finish = () => void (done || ((done = true), inFlight--));
    res.once('finish', finish);
    res.once('close', finish);
    next();
  });
  app.use('/api/v1', createFormloomRouter({ formloom, logger: quiet }));
  const server: Server = await new Promise((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  return {
    url,
    formloom,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}

/** GET with raw headers (fetch would hide the encoding): status, encoding and the bytes as sent. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; encoding: string | null; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, encoding: (res.headers['content-encoding'] as string | undefined) ?? null, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const kind of DB_KINDS) {
  test(`[${kind}] downloading an upload and exporting responses log no MaxListenersExceededWarning`, async (t) => {
    const h = await host(kind);
    t.teardown(h.close);
    const user = await h.formloom.accounts.createUser({ email: `dl-${kind}@example.com`, plan: 'pro', first_name: 'D', last_name: 'L' });
    const { api_key } = await h.formloom.accounts.createKey(user.id);
    const auth = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
    const form: any = await (
      await fetch(`${h.url}/api/v1/forms`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ title: 'Files', published: true, questions: [{ type: 'file_upload', title: 'File' }] }),
      })
    ).json();
    // Large enough for many chunks, and so for back-pressure on the socket.
    const data = Buffer.alloc(3_000_000, 'formloom ');
    const fd = new FormData();
    fd.append('file', new Blob([data], { type: 'application/pdf' }), 'big.pdf');
    const uploaded = await fetch(`${h.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0].id}`, { method: 'POST', body: fd });
    t.is(uploaded.status, 201);
    const file: any = await uploaded.json();
    const submitted = await fetch(`${h.url}/api/v1/public/forms/${form.slug}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: [{ question_id: form.questions[0].id, value: file }] }),
    });
    t.is(submitted.status, 201);

    for (const encoding of ['gzip, br', 'identity']) {
      const whole = await get(file.url, { 'accept-encoding': encoding, authorization: auth.authorization });
      t.is(whole.status, 200);
      t.is(whole.encoding, null, 'a file is sent as stored');
      t.true(whole.body.equals(data));
    }
    const part = await get(file.url, { range: 'bytes=1000-1999', authorization: auth.authorization });
    t.is(part.status, 206);
    t.true(part.body.equals(data.subarray(1000, 2000)));
    t.is((await get(file.url, { authorization: auth.authorization }, 'HEAD')).status, 200);
    const csv = await get(`${h.url}/api/v1/forms/${form.id}/responses/export`, { authorization: auth.authorization, 'accept-encoding': 'gzip' });
    t.is(csv.status, 200);
    t.true(csv.body.toString().includes('big.pdf'));
    t.deepEqual(warnings.map((w) => w.message), []);
  });
}
