import busboy from 'busboy';
import { FormloomError, type UploadPolicy } from '@formloom/core';
import { json, param, type RouteContext, type RouteSpec } from '../route-table';

interface ReceivedFile {
  name: string;
  type: string;
  data: Buffer;
}

/** Reads the single `file` part of a multipart body, refusing it as soon as it passes the size limit. */
function receiveFile(ctx: RouteContext, policy: UploadPolicy, assertType: (t: string) => void): Promise<ReceivedFile> {
  const { req } = ctx;
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(new FormloomError('BAD_REQUEST', 'Send the file as multipart/form-data in a part named "file"', { field: 'file' }));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: policy.maxBytes, fields: 10, parts: 20 } });
    } catch {
      return reject(new FormloomError('BAD_REQUEST', 'Malformed multipart body'));
    }
    let file: ReceivedFile | null = null;
    let failure: FormloomError | null = null;
    const fail = (e: FormloomError) => {
      failure ??= e;
    };
    bb.on('file', (field, stream, info) => {
      if (field !== 'file') {
        stream.resume();
        return;
      }
      try {
        assertType(info.mimeType);
      } catch (e) {
        fail(e as FormloomError);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(new FormloomError('PAYLOAD_TOO_LARGE', `Files may be at most ${policy.maxBytes} bytes`)));
      stream.on('close', () => {
        if (!failure) file = { name: info.filename || 'file', type: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    bb.on('error', () => fail(new FormloomError('BAD_REQUEST', 'Malformed multipart body')));
    bb.on('close', () => {
      if (failure) return reject(failure);
      if (!file) return reject(new FormloomError('BAD_REQUEST', 'file: a part named "file" is required', { field: 'file' }));
      resolve(file);
    });
    req.pipe(bb);
  });
}

/** Respondents' file uploads (public) and serving them back. */
export const uploadRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/public/forms/:slug/uploads',
    summary: 'Upload a file for a file_upload question (multipart/form-data, part "file"; optional query question_id)',
    tag: 'Public',
    scope: null,
    query: [{ name: 'question_id', description: "the file_upload question, whose max_size_mb and allowed_types apply", schema: { type: 'string' } }],
    success: { status: 201, description: '{url, name}: the answer value for the question' },
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
    summary: 'Download an uploaded file (the URL is the capability)',
    tag: 'Public',
    scope: null,
    success: { status: 200, description: 'the file, as an attachment' },
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
