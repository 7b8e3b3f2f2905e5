import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { answerProblem, isStreamAnswer, type Formloom, type StreamAnswer } from '@formloom/core';
import type { RouteResult, RouteSpec } from './route-table';
import type { ErrorLogger } from './errors';

/**
 * An AbortSignal that fires when the client goes away before the answer was fully written (a closed
 * socket, a cancelled download), so handlers can stop long work.
 */
export function clientGoneSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  // Made after the answer closed (a handler asking late): aborted at once if the client went away.
  if ((res as { closed?: boolean }).closed) {
    if (!res.writableFinished) controller.abort(new Error('The client went away'));
    return controller.signal;
  }
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('The client went away'));
  });
  return controller.signal;
}

/**
 * A route's context whose `signal` is made when first read: most handlers never read it, and a controller
 * with its listener was about 1.5 kB of allocation per request (docs/benchmarks.md, "CPU per cached GET").
 */
export class LazySignalContext<P> {
  private gone?: AbortSignal;

  constructor(
    readonly req: Request,
    readonly formloom: Formloom,
    readonly principal: P,
  ) {}

  get signal(): AbortSignal {
    return (this.gone ??= clientGoneSignal(this.req.res!));
  }
}

const clientGone = (err: unknown, signal: AbortSignal) =>
  signal.aborted || (err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE';

/**
 * Releases a stream that will not be read (the answer to a HEAD request): a Readable is destroyed; an iterator is
 * started and ended at once, which runs a generator's `finally` (ending one never started would not).
 */
async function release(stream: StreamAnswer['stream']) {
  if (stream instanceof Readable) return void stream.destroy();
  const it = Symbol.asyncIterator in stream ? stream[Symbol.asyncIterator]() : stream[Symbol.iterator]();
  try {
    await it.next();
  } finally {
    await it.return?.();
  }
}

async function sendStream(res: Response, answer: StreamAnswer, signal: AbortSignal, logger: ErrorLogger) {
  if (answer.headers) res.set(answer.headers);
  res.status(answer.status ?? 200).setHeader('Content-Type', answer.contentType);
  if (answer.attachment !== undefined) res.attachment(answer.attachment);
  if (res.req.method === 'HEAD') {
    // The headers (Content-Length among them) without the bytes: nothing is read from the store.
    res.end();
    return release(answer.stream).catch((err) => logger.error('Releasing a streamed answer failed', err));
  }
  // One chunk read ahead of the socket, not Readable.from's default of 16: an export's chunks are pages of
  // CSV, and sixteen of them waiting are memory held for nothing.
  const source = answer.stream instanceof Readable ? answer.stream : Readable.from(answer.stream, { highWaterMark: 1 });
  try {
    await writeAll(source, res, signal);
  } catch (err) {
    if (clientGone(err, signal)) return;
    // The source failed: the status line is sent, so an error shape can no longer follow; the client sees
    // a cut connection and the cause is logged.
    logger.error('Streamed answer failed', err);
    res.destroy();
  }
}

/**
 * Writes `source` to the response, the next chunk only once the socket took the last one, and ends it. When
 * the client goes away the source is destroyed, which ends a generator's iteration (its `finally` releases
 * what it holds). Not `stream.pipeline`: it puts seven `close` listeners on the response, which with the
 * host's own (a request log, a count of requests in flight, compression) passed Node's ten and logged a
 * MaxListenersExceededWarning at every download. This leaves only short-lived `drain`/`finish` listeners.
 */
async function writeAll(source: Readable, res: Response, signal: AbortSignal) {
  const stop = () => source.destroy();
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  // An error of the response itself (none is expected from a ServerResponse) ends the source too.
  const failed = (err: Error) => source.destroy(err);
  res.on('error', failed);
  try {
    for await (const chunk of source) {
      if (!res.write(chunk)) await once(res, 'drain', { signal });
    }
    const finished = once(res, 'finish', { signal });
    res.end();
    await finished;
  } finally {
    signal.removeEventListener('abort', stop);
    res.removeListener('error', failed);
  }
}

/** Writes a handler's answer: JSON with its status, or a stream with back-pressure (`client.signal` read then only). */
export async function sendAnswer(res: Response, answer: RouteResult, client: { readonly signal: AbortSignal }, logger: ErrorLogger) {
  if (isStreamAnswer(answer)) return sendStream(res, answer, client.signal, logger);
  if (answer.headers) res.set(answer.headers);
  res.status(answer.status ?? 200);
  // Bytes serialized beforehand are `JSON.stringify(body)`: what res.json writes unless the host app set
  // its own JSON formatting, which then wins.
  if (answer.serialized && !customJson(res)) {
    res.set('Content-Type', 'application/json; charset=utf-8').send(Buffer.from(answer.serialized.buffer, answer.serialized.byteOffset, answer.serialized.byteLength));
    return;
  }
  res.json(answer.body);
}

const customJson = (res: Response) => {
  const app = res.app;
  return app.get('json spaces') !== undefined || app.get('json replacer') !== undefined || !!app.get('json escape');
};

/**
 * `createFormloom({ strictResponses: true })`: an answer that differs from what its route documents is an
 * error (500, logged with the route and the difference), so drift shows in tests, not in clients.
 */
export function assertDocumented(spec: Pick<RouteSpec, 'method' | 'path' | 'success'>, answer: RouteResult): void {
  const problem = answerProblem(spec.success, answer);
  if (problem) throw new Error(`${spec.method.toUpperCase()} ${spec.path} answered what it does not document: ${problem}`);
}
