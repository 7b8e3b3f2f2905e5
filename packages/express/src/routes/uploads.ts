import { FormloomError, uploadBodySchema, uploadOut } from '@formloom/core';
import { json, param, type RouteResult, type RouteSpec } from '../route-table';
import { discard, requestedRange, sliceBytes } from '../byte-range';
import { receiveFile } from '../multipart-file';

const FILE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'", 'Accept-Ranges': 'bytes' };

/** Respondents' file uploads (public) and serving them back. */
export const uploadRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/public/forms/:slug/uploads',
    operationId: 'uploadFile',
    summary: 'Upload a file for a file_upload question (multipart/form-data, part "file"; query question_id required)',
    tag: 'Public',
    scope: null,
    query: [{ name: 'question_id', required: true, description: 'the published file_upload question, whose max_size_mb and allowed_types apply', schema: { type: 'string' } }],
    accepts: { 'multipart/form-data': uploadBodySchema },
    success: { status: 201, description: '{url, name}: the answer value for the question', schema: uploadOut },
    errors: [400, 404, 413, 415],
    handler: async (ctx) => {
      const questionId = typeof ctx.req.query.question_id === 'string' ? ctx.req.query.question_id : undefined;
      const uploads = ctx.formloom.uploads;
      const policy = await uploads.policy(param(ctx, 'slug'), questionId);
      const file = await receiveFile(ctx.req, policy.maxBytes, (t) => uploads.assertType(policy, t));
      let stored: { key: string; name: string };
      try {
        // The bytes go to the blob store as they arrive: a file too big, a broken body or a client gone stores nothing.
        stored = await uploads.store(policy, file.name, file.type, file.body);
      } finally {
        file.release();
      }
      const { key, name } = stored;
      const base = ctx.formloom.config.publicUrl.replace(/\/+$/, '');
      return json({ url: `${base}${ctx.req.baseUrl}/public/${key.split('/').map(encodeURIComponent).join('/')}`, name }, 201);
    },
  },
  {
    method: 'get',
    path: '/public/uploads/:formId/:token/:name',
    operationId: 'downloadUpload',
    summary: 'Download an uploaded file (the URL is the capability); a single byte range (Range: bytes=...) is answered 206',
    tag: 'Public',
    scope: null,
    headers: [{ name: 'Range', description: 'One byte range (`bytes=0-1023`, `bytes=500-`, `bytes=-200`): answered 206', schema: { type: 'string', pattern: '^bytes=' } }],
    success: {
      status: 200,
      description: 'the file, as an attachment, in the type it was uploaded with',
      media: ['*/*'],
      headers: { 'Accept-Ranges': '`bytes`: a single range may be asked for' },
      others: [
        {
          status: 206,
          description: 'the requested byte range of the file',
          media: ['*/*'],
          headers: { 'Content-Range': '`bytes <first>-<last>/<size>`', 'Accept-Ranges': '`bytes`' },
        },
      ],
    },
    errors: [404, 416],
    handler: async (ctx): Promise<RouteResult> => {
      const blob = await ctx.formloom.uploads.read(`uploads/${param(ctx, 'formId')}/${param(ctx, 'token')}/${param(ctx, 'name')}`);
      const range = requestedRange(ctx.req.headers, blob.size);
      if (range === 'unsatisfiable') {
        await discard(blob.body);
        const error = new FormloomError('RANGE_NOT_SATISFIABLE', `The file has ${blob.size} bytes`);
        return { status: 416, body: error.toBody(), headers: { 'Content-Range': `bytes */${blob.size}` } };
      }
      const file = { contentType: blob.contentType, attachment: param(ctx, 'name') };
      if (!range) return { ...file, stream: blob.body, headers: { ...FILE_HEADERS, 'Content-Length': String(blob.size) } };
      return {
        ...file,
        status: 206,
        stream: sliceBytes(blob.body, range.start, range.end),
        headers: { ...FILE_HEADERS, 'Content-Length': String(range.end - range.start + 1), 'Content-Range': `bytes ${range.start}-${range.end}/${blob.size}` },
      };
    },
  },
];
