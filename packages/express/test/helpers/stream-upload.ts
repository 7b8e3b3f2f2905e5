import { createHash, randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import type { TestApp } from './app';
import { waitFor } from '@formloom/core/testing';

/** A published form with one file_upload question allowing `maxMb` megabytes of anything, and its owner's key. */
export async function uploadForm(app: TestApp, maxMb = 25) {
  const u = await app.user();
  const res = await app.api('POST', '/forms', {
    key: u.key,
    body: { title: 'Big files', published: true, questions: [{ type: 'file_upload', title: 'File', properties: { max_size_mb: maxMb } }] },
  });
  if (res.status !== 201) throw new Error(res.text);
  // The owner's key opens the form's files (docs/security.md "Uploaded files").
  return { id: res.body.id as string, slug: res.body.slug as string, qid: res.body.questions[0].id as string, key: u.key };
}
export type UploadForm = Awaited<ReturnType<typeof uploadForm>>;

export interface StreamedUpload {
  /** 0 when the connection was cut before an answer. */
  status: number;
  body: any;
  /** SHA-256 (hex) of the file bytes sent. */
  sha256: string;
  /** File bytes written to the socket. */
  sent: number;
}

/**
 * Uploads `size` random bytes as the `file` part of a multipart body, written piece by piece as the socket
 * takes them (the client never holds the file). `cutAfter`: once that many file bytes are written, waits for
 * `beforeCut` and then destroys the connection (a client gone mid-upload).
 */
export function streamUpload(
  app: Pick<TestApp, 'url'>,
  form: Pick<UploadForm, 'slug' | 'qid'>,
  size: number,
  opts: { name?: string; type?: string; cutAfter?: number; beforeCut?: () => Promise<void> } = {},
): Promise<StreamedUpload> {
  const boundary = 'streamboundary7d2f';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.name ?? 'big.bin'}"\r\nContent-Type: ${opts.type ?? 'application/zip'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  let sent = 0;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.qid}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    });
    req.on('response', async (res) => {
      answered = true;
      const parts: Buffer[] = [];
      for await (const p of res) parts.push(p as Buffer);
      const text = Buffer.concat(parts).toString('utf8');
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      resolve({ status: res.statusCode ?? 0, body, sha256: hash.digest('hex'), sent });
    });
    req.on('error', (e) => {
      // A server that answered early may close the connection while the rest is still being written.
      if (!answered && !req.destroyed) reject(e);
    });
    req.on('close', () => {
      if (!answered) resolve({ status: 0, body: null, sha256: hash.digest('hex'), sent });
    });
    const write = (chunk: Buffer) => new Promise<void>((done) => (req.write(chunk) ? done() : req.once('drain', done)));
    (async () => {
      await write(head);
      while (sent < size && !answered && !req.destroyed) {
        const piece = randomBytes(Math.min(64 * 1024, size - sent));
        hash.update(piece);
        await write(piece);
        sent += piece.length;
        if (opts.cutAfter !== undefined && sent >= opts.cutAfter) {
          await opts.beforeCut?.();
          req.destroy();
          return;
        }
      }
      if (!answered && !req.destroyed) req.end(tail);
    })().catch(reject);
  });
}

/**
 * A signed link to an uploaded file: it opens without a key, as webhook receivers get it (the URL alone opens
 * nothing; docs/security.md "Uploaded files").
 */
export const fileLink = (app: Pick<TestApp, 'formloom'>, url: string) => app.formloom.uploads.links.sign(url);

/** Downloads `url` piece by piece: status, headers, size and SHA-256 of the body (never held whole). */
export async function streamDownload(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    size += piece.byteLength;
  }
  return { status: res.status, headers: res.headers, size, sha256: hash.digest('hex') };
}

/** Runs `upload-client.js` with `args` in a process of its own (so the client's memory is not the server's). */
function inChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'upload-client.js'), args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`upload-client ${args[0]} exited with ${code}`))));
  });
}

/** `streamUpload` from a child process. */
export const streamUploadInChild = (app: Pick<TestApp, 'url'>, form: Pick<UploadForm, 'slug' | 'qid'>, size: number) =>
  inChild<StreamedUpload>(['upload', app.url, form.slug, form.qid, String(size)]);

/** `streamDownload` from a child process (headers as a plain object). */
export const streamDownloadInChild = (url: string) =>
  inChild<{ status: number; headers: Record<string, string>; size: number; sha256: string }>(['download', url]);

/*
 * The collector, so that a sample counts memory in use rather than garbage waiting for a collection. ava starts
 * every test process with `--expose-gc` and `--no-concurrent-array-buffer-sweeping` (package.json,
 * "nodeArguments"): the second has buffers' bytes freed by the collection itself, not later by a background
 * thread (which lags on a busy machine).
 */
function gc(options?: { type: 'minor' }): void {
  const collect = (globalThis as { gc?: (options?: { type: 'minor' }) => void }).gc;
  if (!collect) throw new Error('run under node --expose-gc (ava\'s nodeArguments in package.json)');
  collect(options);
}

/** Memory in use by JavaScript: its heap and the buffers' bytes. */
const inUse = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Runs `work` while sampling this process's memory every 10 ms, each sample right after a garbage collection (of
 * the young generation, where the pieces of a stream live and die; a full one every tenth sample). Returns how far
 * above what they were before they rose, in bytes: the resident memory (RSS; it also holds garbage of the last
 * 100 ms and what the allocator keeps) and the memory in use, measured after the full collections only.
 */
export async function memoryGrowth<T>(work: () => Promise<T>): Promise<{ result: T; rss: number; inUse: number }> {
  gc();
  const before = { rss: process.memoryUsage.rss(), inUse: inUse() };
  const peak = { ...before };
  let n = 0;
  const sample = (full: boolean) => {
    if (full) {
      gc();
      peak.inUse = Math.max(peak.inUse, inUse());
    } else {
      gc({ type: 'minor' });
    }
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
  };
  const timer = setInterval(() => sample(++n % 10 === 0), 10);
  try {
    const result = await work();
    sample(true);
    return { result, rss: peak.rss - before.rss, inUse: peak.inUse - before.inUse };
  } finally {
    clearInterval(timer);
  }
}

/** Whether `check` comes to hold within a generous 2 minutes (the shared `waitFor`): for state the server settles after a connection is cut. */
export async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  return waitFor(check, { timeoutMs: 120_000 }).then(
    () => true,
    () => false,
  );
}
