import type { Request } from 'express';
import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { FormloomError, fileTooLarge } from '@formloom/core';

/** The `file` part of a multipart body, handed over as soon as its header is read. */
export interface IncomingFile {
  name: string;
  /** The declared content type of the part. */
  type: string;
  /**
   * The part's bytes as the client sends them: the next piece is read from the socket only when the last
   * one was taken (back-pressure). Throws instead of ending when the body turns out bad after the file
   * (a second file, a truncated or malformed body), the file passes `maxBytes` (413 `file_too_large`, at
   * once) or the client goes away, so a store that keeps only what ends cleanly keeps nothing then. Leaving
   * the loop early stops parsing; the rest of the body is read and dropped.
   */
  body: AsyncIterable<Uint8Array>;
  /**
   * Call once done with the file, whatever happened (a `finally`): unless `body` was read to its end, stops
   * parsing and drops the rest of the request, so a request whose file was never read does not hang.
   */
  release(): void;
}

/** busboy loads at the first upload, not at start (docs/operations.md, "Memory"); CommonJS caches it after. */
const loadBusboy = () => require('busboy') as typeof busboy;

/** Control characters (C0, DEL) in a file name: refused, see docs/security.md ("Input limits"). */
const CONTROL = /[\u0000-\u001f\u007f]/;

const malformed = () => new FormloomError('BAD_REQUEST', 'Malformed multipart body', { field: 'file' });
const interrupted = () => new FormloomError('BAD_REQUEST', 'The upload was interrupted before its end', { field: 'file' });

/**
 * Starts reading the single `file` part of a multipart body. Resolves with the part once its header passed
 * `checkPart` (the file name and type); rejects when the body has no such part, is malformed before it, or the
 * check fails (then at once, without reading the file). Settles exactly once, whatever busboy does: its errors
 * are 400s, and a client that goes away ends the read.
 */
export function receiveFile(req: Request, maxBytes: number, checkPart: (type: string) => void): Promise<IncomingFile> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(new FormloomError('BAD_REQUEST', 'Send the file as multipart/form-data in a part named "file"', { field: 'file' }));
  }
  let bb: busboy.Busboy;
  try {
    // busboy reads `filename` as latin1 unless told otherwise; browsers send UTF-8. It reports its limit once a file
    // reaches it, so a file of exactly `maxBytes` needs a limit one byte higher.
    bb = loadBusboy()({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: maxBytes + 1, fields: 10, parts: 20 } });
  } catch {
    return Promise.reject(malformed());
  }
  return new Promise((resolve, reject) => {
    /** The first failure of the body: what the file's reader (or the promise, before it) gets. */
    let failure: FormloomError | null = null;
    let file: Readable | null = null;
    let handedOver = false;
    let stopped = false;
    /** The body was read to its end and nothing failed. */
    let complete = false;
    /** Settles when busboy has parsed the whole body (or failed). */
    let parsedResolve!: () => void;
    const parsed = { resolve: () => parsedResolve(), promise: new Promise<void>((r) => (parsedResolve = r)) };

    /** Stops parsing; whatever the client still sends is read and dropped by Node. */
    const stop = () => {
      if (stopped) return;
      stopped = true;
      req.off('close', onRequestClose);
      req.unpipe(bb);
      bb.destroy();
      req.resume();
    };
    const fail = (e: FormloomError, now = false) => {
      failure ??= e;
      if (!handedOver) {
        if (now) {
          stop();
          reject(failure);
        }
        return;
      }
      // The reader learns of it at its next piece (or at once, when it waits for one).
      if (now) file?.destroy(failure);
      parsed.resolve();
    };
    const onRequestClose = () => {
      if (!req.complete) fail(interrupted(), true);
    };

    bb.on('file', (field, stream, info) => {
      // Errors of the part (a truncated body) also reach busboy's own 'error', which answers.
      stream.on('error', () => fail(malformed()));
      if (field !== 'file' || failure || handedOver) {
        stream.resume();
        return;
      }
      try {
        if (CONTROL.test(info.filename ?? '')) {
          throw new FormloomError('BAD_REQUEST', 'file: the file name must not contain control characters', { field: 'file' });
        }
        checkPart(info.mimeType);
      } catch (e) {
        stream.resume();
        return fail(e as FormloomError, true);
      }
      stream.on('limit', () => fail(fileTooLarge(maxBytes), true));
      file = stream;
      handedOver = true;
      resolve({ name: info.filename || 'file', type: info.mimeType, body: read(stream), release: () => (complete ? undefined : stop()) });
    });
    bb.on('filesLimit', () => fail(new FormloomError('BAD_REQUEST', 'file: send one file per request', { field: 'file' })));
    bb.on('partsLimit', () => fail(new FormloomError('BAD_REQUEST', 'Too many parts in the multipart body')));
    bb.on('fieldsLimit', () => fail(new FormloomError('BAD_REQUEST', 'Too many fields in the multipart body')));
    bb.on('error', () => fail(malformed(), true));
    bb.on('close', () => {
      if (handedOver) return parsed.resolve();
      stop();
      reject(failure ?? new FormloomError('BAD_REQUEST', 'file: a part named "file" is required', { field: 'file' }));
    });

    async function* read(stream: Readable): AsyncGenerator<Uint8Array> {
      try {
        try {
          for await (const piece of stream) {
            if (failure) break;
            yield piece as Buffer;
          }
        } catch {
          // The part was destroyed or broke: the failure says why.
          failure ??= malformed();
        }
        // The file's end is not the body's: a second file or a broken closing boundary may still come.
        if (!failure) await parsed.promise;
        if (failure) throw failure;
        if (!req.complete && req.destroyed) throw interrupted();
        complete = true;
      } finally {
        if (!complete) stop();
        else req.off('close', onRequestClose);
      }
    }

    req.on('close', onRequestClose);
    // The client may have gone while the form was being looked up: then no 'close' is coming.
    if (req.destroyed) return onRequestClose();
    req.pipe(bb);
  });
}
