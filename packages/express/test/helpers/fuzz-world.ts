import { z } from 'zod';
import { definePlugin, voiceIdOf, type FormloomPlugin } from '@formloom/core';
import type { TestApp, TestAppOptions } from './app';
import { CONTRACT, eventually, lazyRenderer, memoryMailer } from './signing';
import { voiceAppOptions, voiceUser } from './voice';
import { known } from './fuzz-targets';

/**
 * The fixture the fuzz tests aim at: real ids of every kind, so that some hostile requests get past the
 * look-ups and reach validation, services and storage.
 */

export const FUZZ_VOICE = voiceIdOf('espeak', 'en-us+klatt4');

/** A plugin with one route of each kind a plugin may declare (body schema, query schema, path parameter, voice scope). */
export const fuzzPlugin: FormloomPlugin = definePlugin({
  name: 'fuzzplug',
  version: '1.0.0',
  routes: () => [
    {
      method: 'post', path: '/fuzzplug/items/:name', scope: 'forms', summary: 'Checks an item', tags: ['Fuzz'],
      body: z.object({ count: z.number().int().min(0).max(100), tags: z.array(z.string().max(20)).max(5), meta: z.object({ a: z.string().max(50) }).strict().optional() }).strict(),
      errors: [400, 401, 403],
      handler: async (req) => ({ body: { name: req.params.name, ok: true } }),
    },
    {
      method: 'get', path: '/fuzzplug/search', scope: 'public', summary: 'Searches', tags: ['Fuzz'],
      query: z.object({ n: z.coerce.number().int().min(0).max(10).optional(), q: z.string().max(50).optional() }).strict(),
      errors: [400],
      handler: async (req) => ({ body: { n: req.query.n ?? null } }),
    },
    {
      method: 'get', path: '/fuzzplug/echo/:id', scope: 'voice', summary: 'Echoes', tags: ['Fuzz'], errors: [401, 403],
      handler: async (req) => ({ body: { id: req.params.id } }),
    },
  ],
});

export function fuzzAppOptions(): TestAppOptions {
  return { ...voiceAppOptions(), signedDocuments: lazyRenderer(), mailer: memoryMailer(), plugins: [fuzzPlugin], rateLimits: false };
}

export interface World {
  formsKey: string;
  voiceKey: string;
  /** Real values for each path parameter name (several where the name means different things). */
  params: Record<string, string[]>;
  /**
   * Forms the fuzz run itself created (from nearly valid bodies): later requests publish, render, answer and
   * export them, so hostile content that got stored is read back. Any request may change or delete them.
   */
  created: { id: string[]; slug: string[] };
  /** The generation id (the `:id` of voice routes). */
  generationId: string;
  /** The partial response's `X-Resume-Token`. */
  resumeToken: string;
  /** A valid `X-Access-Token` for the password-protected link. */
  accessToken: string;
  /** A sealed PDF of this instance, to corrupt for `/signing/verify`. */
  sealedPdf: Buffer;
  /** Plausible bodies of routes whose schema is not in the document or needs real ids. */
  templates: Record<string, () => unknown>;
  /** The form page's slug. */
  slug: string;
}

async function must(p: Promise<{ status: number; body: any; text: string }>, status: number) {
  const r = await p;
  if (r.status !== status) throw new Error(`fuzz setup: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

export async function makeWorld(app: TestApp): Promise<World> {
  const owner = await app.user('pro');
  const invitee = await app.user('pro');
  const key = owner.key;
  const team = await must(app.api('POST', '/teams', { key, body: { name: 'Fuzz team' } }), 201);
  const inv = await must(app.api('POST', `/teams/${team.id}/invitations`, { key, body: { email: invitee.email, role: 'viewer' } }), 201);
  const questions = [
    { type: 'short_text', title: 'Name', required: true },
    { type: 'file_upload', title: 'File' },
    { type: 'number', title: 'Age' },
    { type: 'contract', title: 'Lease', properties: { document: CONTRACT, signer_slots: [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }] } },
  ];
  const form = await must(app.api('POST', '/forms', { key, body: { title: 'Fuzz', team_id: team.id, incremental_submission: true, questions } }), 201);
  await must(app.api('POST', `/forms/${form.id}/publish`, { key }), 200);
  const q = form.questions as Array<{ id: string }>;
  const rsp = await must(app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: q[0]!.id, value: 'x' }], completed: false } }), 201);
  const members = (await must(app.api('GET', `/teams/${team.id}/members`, { key }), 200)).members;
  const fd = new FormData();
  fd.append('file', new Blob(['hi'], { type: 'text/plain' }), 'a.txt');
  const up = (await (await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${q[1]!.id}`, { method: 'POST', body: fd })).json()) as { url: string };
  const [, formId, uploadToken, name] = /\/public\/uploads\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(up.url)!;
  // GETs that create on first use: done now, so that the fuzz batch's reads write nothing.
  await must(app.api('GET', '/webhooks/secret', { key }), 200);

  // Signing: one sealed session (its PDF), one password-protected, one open.
  app.formloom.worker.start({ pollMs: 20 });
  const session = (body: object) => must(app.api('POST', `/forms/${form.id}/signing-sessions`, { key, body }), 201);
  const sealed = await session({});
  const codes = (s: any) => s.signer_links.map((l: any) => l.short_code as string) as string[];
  for (const code of codes(sealed)) await must(app.api('POST', `/s/${code}/sign`, { body: { signature: { type: 'typed', value: 'Sig' }, first_name: 'A', last_name: 'B' } }), 200);
  const docs = await eventually(async () => {
    const d = await app.api('GET', `/signing-sessions/${sealed.id}/documents`, { key });
    return d.status === 200 && d.body.documents.length ? d.body.documents : undefined;
  });
  const pdfRes = await fetch(`${app.url}/api/v1/signing-sessions/${sealed.id}/documents/${docs[0].id}`, { headers: { authorization: `Bearer ${key}` } });
  const sealedPdf = Buffer.from(await pdfRes.arrayBuffer());
  const locked = await session({ password: 'correct horse', signing_order: 'sequential' });
  const open = await session({ require_email_verification: true });
  const accessToken = (await must(app.api('POST', `/s/${codes(locked)[0]}/verify-password`, { body: { password: 'correct horse' } }), 200)).access_token;
  await app.formloom.worker.stop();

  // Voice: a user with credits and a generation in the library.
  const voice = await voiceUser(app, { credits: 1_000_000 });
  const gen = await must(app.api('POST', '/voice', { key: voice.key, body: { mode: 'speak', text: 'Hello there.', voice: FUZZ_VOICE } }), 200);

  Object.assign(known, { team_id: team.id, question_id: q[0]!.id });
  const answers = () => [{ question_id: q[0]!.id, value: 'Ann' }, { question_id: q[2]!.id, value: 42 }];
  return {
    formsKey: key,
    voiceKey: voice.key,
    generationId: gen.data.id,
    accessToken,
    resumeToken: rsp.resume_token,
    sealedPdf,
    slug: form.slug,
    created: { id: [], slug: [] },
    params: {
      id: [form.id], slug: [form.slug], teamId: [team.id], memberId: [members[0].id], invId: [inv.id], token: [inv.token],
      responseId: [rsp.id], deliveryId: ['dlv_none'], formId: [formId!], uploadToken: [uploadToken!], name: [name!],
      sessionId: [sealed.id, locked.id, open.id], slotNumber: ['1', '2'], docId: [docs[0].id],
      shortCode: [...codes(sealed), ...codes(locked), ...codes(open)],
    },
    templates: {
      'POST /voice': () => ({ mode: 'speak', text: 'Hi.', voice: FUZZ_VOICE }),
      'POST /voice#estimate': () => ({ mode: 'estimate', text: 'Hello there.', voice: FUZZ_VOICE, quality: 'phone' }),
      'POST /voice#script': () => ({ mode: 'script', lines: [{ voice: FUZZ_VOICE, text: 'Hi.' }, { pause_ms: 100 }], format: 'wav' }),
      'POST /voice/stream': () => ({ voice: FUZZ_VOICE, text: 'Hi.', format: 'pcm_24k' }),
      'POST /public/forms/:slug/responses': () => ({ answers: answers(), completed: true, visitor_id: 'v1', started_at: '2026-01-01T00:00:00.000Z' }),
      'PATCH /public/forms/:slug/responses/:responseId': () => ({ answers: answers(), completed: false }),
      'POST /signing/verify': () => ({ pdf_base64: sealedPdf.toString('base64') }),
      'POST /s/:shortCode/sign': () => ({ signature: { type: 'typed', value: 'Sig' }, first_name: 'A', last_name: 'B', email: 'a@example.com', email_code: '123456', send_copy: true }),
    },
  };
}
