import { FormloomError, uploadBodySchema, uploadOut } from '@formloom/core';
import { json, param, type RouteResult, type RouteSpec } from '../route-table';
import { discard, requestedRange, sliceBytes } from '../byte-range';
import { receiveFile } from '../multipart-file';

/** A file is someone's answer: no shared cache may keep it for the next asker (the URL alone opens nothing). */
const FILE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'", 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, no-store' };

/** Respondents' file uploads (public) and serving them back to whoever may read the responses (docs/security.md "Uploaded files"). */
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
    success: {
      status: 201,
      description: "{url, name}: the answer value for the question. The url opens the file for whoever may read the form's responses (a key or a session), not for anyone who has it",
      schema: uploadOut,
    },
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
    summary: "Download an uploaded file: for whoever may read the form's responses, or with a signed link; a single byte range (Range: bytes=...) is answered 206",
    tag: 'Responses',
    scope: 'forms',
    anonymous:
      'a signed link (`expires` and `sig`, as webhook payloads carry the file URL) opens the file without credentials until it expires. ' +
      "Without either: 401; a caller who may not read the form's responses, or a forged link: 404; a link past its expiry: 403 `link_expired`.",
    query: [
      { name: 'expires', description: "A signed link's expiry (Unix seconds)", schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
      { name: 'sig', description: "A signed link's signature: HMAC-SHA256 of the file and `expires` (base64url)", schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
    ],
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
    errors: [401, 403, 404, 416],
    handler: async (ctx): Promise<RouteResult> => {
      const key = `uploads/${param(ctx, 'formId')}/${param(ctx, 'token')}/${param(ctx, 'name')}`;
      const blob = await ctx.formloom.uploads.open(key, ctx.principal ?? null, { expires: ctx.req.query.expires, sig: ctx.req.query.sig });
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
