import busboy from 'busboy';
import { FormloomError, uploadBodySchema, uploadOut, type UploadPolicy } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

interface ReceivedFile {
  name: string;
  type: string;
  data: Buffer;
}

/** Control characters (C0, DEL) in a file name: refused, see docs/security.md ("Input limits"). */
const CONTROL = /[\u0000-\u001f\u007f]/;

const malformed = () => new FormloomError('BAD_REQUEST', 'Malformed multipart body', { field: 'file' });

/**
 * Reads the single `file` part of a multipart body, refusing it as soon as it passes the size limit.
 * Settles exactly once, whatever busboy does: its errors (a truncated body, a malformed part header)
 * are 400s, a client that goes away mid-upload ends the read, and a failed part's stream is drained,
 * so nothing is stored from a body that was not read to its end.
 */
function receiveFile(ctx: RouteContext, policy: UploadPolicy, assertType: (t: string) => void): Promise<ReceivedFile> {
  const { req } = ctx;
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(new FormloomError('BAD_REQUEST', 'Send the file as multipart/form-data in a part named "file"', { field: 'file' }));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // busboy reads `filename` as latin1 unless told otherwise; browsers send UTF-8.
      bb = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: policy.maxBytes, fields: 10, parts: 20 } });
    } catch {
      return reject(malformed());
    }
    let file: ReceivedFile | null = null;
    let failure: FormloomError | null = null;
    let settled = false;
    const fail = (e: FormloomError) => {
      failure ??= e;
    };
    const finish = (error: FormloomError | null) => {
      if (settled) return;
      settled = true;
      req.off('close', onRequestClose);
      if (error) {
        // Stop parsing; whatever the client still sends is read and dropped by Node once we have answered.
        req.unpipe(bb);
        bb.destroy();
        req.resume();
        return reject(error);
      }
      if (failure) return reject(failure);
      if (!file) return reject(new FormloomError('BAD_REQUEST', 'file: a part named "file" is required', { field: 'file' }));
      resolve(file);
    };
    const onRequestClose = () => {
      if (!req.complete) finish(new FormloomError('BAD_REQUEST', 'The upload was interrupted before its end', { field: 'file' }));
    };
    bb.on('file', (field, stream, info) => {
      // Errors of the part (a truncated body) also reach busboy's own 'error', which answers.
      stream.on('error', () => fail(malformed()));
      if (field !== 'file' || failure) {
        stream.resume();
        return;
      }
      try {
        if (CONTROL.test(info.filename ?? '')) {
          throw new FormloomError('BAD_REQUEST', 'file: the file name must not contain control characters', { field: 'file' });
        }
        assertType(info.mimeType);
      } catch (e) {
        fail(e as FormloomError);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(new FormloomError('PAYLOAD_TOO_LARGE', `Files may be at most ${policy.maxBytes} bytes`)));
      stream.on('end', () => {
        if (!failure) file = { name: info.filename || 'file', type: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    bb.on('filesLimit', () => fail(new FormloomError('BAD_REQUEST', 'file: send one file per request', { field: 'file' })));
    bb.on('partsLimit', () => fail(new FormloomError('BAD_REQUEST', 'Too many parts in the multipart body')));
    bb.on('fieldsLimit', () => fail(new FormloomError('BAD_REQUEST', 'Too many fields in the multipart body')));
    bb.on('error', () => finish(malformed()));
    bb.on('close', () => finish(null));
    req.on('close', onRequestClose);
    // The client may have gone while the form was being looked up: then no 'close' is coming.
    if (req.destroyed) return onRequestClose();
    req.pipe(bb);
  });
}

/** Respondents' file uploads (public) and serving them back. */
export const uploadRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/public/forms/:slug/uploads',
    operationId: 'uploadFile',
    summary: 'Upload a file for a file_upload question (multipart/form-data, part "file"; query question_id required)',
    tag: 'Public',
    scope: null,
    query: [{ name: 'question_id', description: "required: the published file_upload question, whose max_size_mb and allowed_types apply", schema: { type: 'string' } }],
    accepts: { 'multipart/form-data': uploadBodySchema },
    success: { status: 201, description: '{url, name}: the answer value for the question', schema: uploadOut },
    errors: [400, 404, 413, 415],
    handler: async (ctx) => {
      const questionId = typeof ctx.req.query.question_id === 'string' ? ctx.req.query.question_id : undefined;
      const uploads = ctx.formloom.uploads;
      const policy = await uploads.policy(param(ctx, 'slug'), questionId);
      const file = await receiveFile(ctx, policy, (t) => uploads.assertType(policy, t));
      const { key, name } = await uploads.store(policy, file.name, file.type, file.data);
      const base = ctx.formloom.config.publicUrl.replace(/\/+$/, '');
      return json({ url: `${base}${ctx.req.baseUrl}/public/${key.split('/').map(encodeURIComponent).join('/')}`, name }, 201);
    },
  },
  {
    method: 'get',
    path: '/public/uploads/:formId/:token/:name',
    operationId: 'downloadUpload',
    summary: 'Download an uploaded file (the URL is the capability)',
    tag: 'Public',
    scope: null,
    success: { status: 200, description: 'the file, as an attachment, in the type it was uploaded with', media: ['*/*'] },
    errors: [404],
    handler: async (ctx) => {
      const blob = await ctx.formloom.uploads.read(`uploads/${param(ctx, 'formId')}/${param(ctx, 'token')}/${param(ctx, 'name')}`);
      return {
        contentType: blob.contentType,
        stream: [blob.data],
        attachment: param(ctx, 'name'),
        headers: { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'" },
      };
    },
  },
];
