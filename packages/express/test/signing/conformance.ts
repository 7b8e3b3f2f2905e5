import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { contractForm, eventually, lazyRenderer, memoryMailer, ph, testRenderer } from '../helpers/signing';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * The signing API as documented (docs/signing.md, docs/decisions.md "Signing"), line by line: pagination,
 * timestamps, audit entry fields, team roles, invalidated links.
 */

const mailer = memoryMailer();
const typed = (value: string) => ({ signature: { type: 'typed', value } });
/** ISO 8601 UTC with milliseconds, as every timestamp of the API. */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test.before(async () => {
  await testRenderer();
});

async function sessions(app: TestApp, n: number, body: Record<string, unknown> = {}) {
  const { user, form } = await contractForm(app);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body })).body.id);
  return { user, form, ids };
}

/** A team owned by a user on `ownerPlan`, with one member per role of `roles` (members on `memberPlan`). */
async function teamWithRoles(app: TestApp, ownerPlan: 'free' | 'pro', memberPlan: 'free' | 'pro' = 'free', roles: ReadonlyArray<'admin' | 'editor' | 'viewer'> = ['admin', 'editor', 'viewer']) {
  const owner = await app.user(ownerPlan);
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Signing team' } })).body;
  const keys: Record<string, string> = { owner: owner.key };
  for (const role of roles) {
    const u = await app.user(memberPlan);
    const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: u.email, role } });
    const acc = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: u.key });
    if (acc.status !== 200) throw new Error(`join: ${acc.status} ${acc.text}`);
    keys[role] = u.key;
  }
  keys.stranger = (await app.user('pro')).key;
  return { team, keys };
}

const contractQuestion = (props: Record<string, unknown> = {}) => ({
  type: 'contract',
  title: 'Agreement',
  properties: { document: 'Terms.', signer_slots: [{ slot_number: 1, label: 'Client' }], ...props },
});

forEachDb(test, (t) => {
  t('list: page and per_page are clamped as "Lists and paging" says, never refused', async (tt, app) => {
    const { user, form, ids } = await sessions(app, 3);
    const list = (q: string) => app.api('GET', `/forms/${form.id}/signing-sessions${q}`, { key: user.key });
    const cases: Array<[string, number, number, number]> = [
      // query, page, per_page, items on the page
      ['?per_page=500', 1, 100, 3],
      ['?per_page=0', 1, 1, 1],
      ['?per_page=-4', 1, 1, 1],
      ['?per_page=abc', 1, 20, 3],
      ['?page=0', 1, 20, 3],
      ['?page=-2', 1, 20, 3],
      ['?page=abc&per_page=2', 1, 2, 2],
      ['?page=2&per_page=2', 2, 2, 1],
      ['?page=9', 9, 20, 0],
    ];
    for (const [q, page, perPage, items] of cases) {
      const res = await list(q);
      tt.is(res.status, 200, `${q}: ${res.text}`);
      tt.like(res.body, { total: 3, page, per_page: perPage }, q);
      tt.is(res.body.sessions.length, items, q);
    }
    // Newest first, and the pages split the collection without overlap.
    const p1 = (await list('?per_page=2')).body.sessions.map((s: any) => s.id);
    const p2 = (await list('?per_page=2&page=2')).body.sessions.map((s: any) => s.id);
    tt.deepEqual([...p1, ...p2], [...ids].reverse());
    const filtered = await list('?status=active&per_page=0');
    tt.like(filtered.body, { total: 3, page: 1, per_page: 1 });
    tt.is((await list('?status=bogus')).status, 400);
  });

  t('timestamps are ISO 8601 UTC with milliseconds everywhere (session, links, list, void, audit, documents)', async (tt, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const [a, b] = created.signer_links.map((l: any) => l.short_code);
    await app.api('GET', `/s/${a}/document`);
    await app.api('POST', `/s/${a}/sign`, { body: typed('A') });
    await app.api('POST', `/s/${b}/sign`, { body: typed('B') });
    const got = (await app.api('GET', `/signing-sessions/${created.id}`, { key: user.key })).body;
    for (const v of [created.created_at, created.expires_at, got.created_at, got.expires_at]) tt.regex(v, ISO_MS);
    tt.is(got.created_at, created.created_at);
    tt.is(got.expires_at, created.expires_at);
    tt.regex(got.signer_links[0].viewed_at, ISO_MS);
    for (const l of got.signer_links) tt.regex(l.signed_at, ISO_MS);
    const item = (await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: user.key })).body.sessions[0];
    tt.is(item.created_at, created.created_at);
    tt.is(item.expires_at, created.expires_at);
    for (const e of (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries) tt.regex(e.timestamp, ISO_MS);
    const docs = await eventually(async () => {
      const r = (await app.api('GET', `/signing-sessions/${created.id}/documents`, { key: user.key })).body.documents;
      return r.length === 1 && r;
    });
    tt.regex(docs[0].generated_at, ISO_MS);
    tt.regex(docs[0].document_hash, /^sha256:[0-9a-f]{64}$/);

    const other = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const voided = (await app.api('POST', `/signing-sessions/${other.id}/void`, { key: user.key, body: { reason: 'r' } })).body;
    tt.regex(voided.voided_at, ISO_MS);
    tt.is((await app.api('GET', `/signing-sessions/${other.id}`, { key: user.key })).body.voided_at, voided.voided_at);
  });

  t('audit entries carry the documented fields in the documented order; the team\'s own actions name the caller', async (tt, app) => {
    const { user, form } = await contractForm(app);
    const created = (await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { signers: [{ slot_number: 1, first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' }] },
    })).body;
    const [a, b] = created.signer_links.map((l: any) => l.short_code);
    tt.is((await app.api('POST', `/signing-sessions/${created.id}/resend/1`, { key: user.key })).status, 200);
    await app.api('GET', `/s/${a}/document`, { headers: { 'user-agent': 'AuditAgent/2' } });
    await app.api('POST', `/s/${a}/sign`, { body: typed('Ann Lee'), headers: { 'user-agent': 'AuditAgent/2' } });
    await app.api('POST', `/s/${b}/decline`, { body: { reason: 'No' } });
    const entries = (await app.api('GET', `/signing-sessions/${created.id}/audit`, { key: user.key })).body.entries as any[];
    const by = (action: string) => entries.find((e) => e.action === action);
    tt.deepEqual(entries.map((e) => e.action), ['session_created', 'signing_request_resent', 'email_sent', 'document_viewed', 'signed', 'declined']);
    // Every field that goes into the hash, on every entry (docs/signing.md, the canonical form).
    const fields = ['id', 'session_id', 'seq', 'action', 'timestamp', 'slot_number', 'actor_email', 'actor_name', 'ip_address', 'user_agent', 'details', 'prev_hash', 'hash'];
    for (const e of entries) tt.deepEqual(Object.keys(e), fields, e.action);
    tt.deepEqual(entries.map((e) => e.seq), [1, 2, 3, 4, 5, 6]);
    tt.like(by('email_sent'), { slot_number: 1, actor_email: null, details: { to: 'ann@example.com', kind: 'signing_request' } });
    tt.true(entries.every((e) => e.session_id === created.id));
    tt.like(by('signed'), { actor_email: 'ann@example.com', actor_name: 'Ann Lee', slot_number: 1, user_agent: 'AuditAgent/2' });
    tt.like(by('document_viewed'), { actor_email: 'ann@example.com', actor_name: null, slot_number: 1, user_agent: 'AuditAgent/2' });
    tt.like(by('session_created'), { slot_number: null, actor_name: null });
    // The owner reads a decline's reason through the API: in the audit entry and on the signer link.
    tt.like(by('declined'), { slot_number: 2, details: { reason: 'No' } });
    const declinedLink = (await app.api('GET', `/signing-sessions/${created.id}`, { key: user.key })).body.signer_links.find((l: any) => l.slot_number === 2);
    tt.like(declinedLink, { status: 'declined', decline_reason: 'No' });
    tt.is(by('session_created').actor_email, user.email, 'who created the session');
    tt.is(by('signing_request_resent').actor_email, user.email, 'who resent');
    for (const e of entries.filter((x) => x.action !== 'email_sent')) tt.regex(e.ip_address, /127\.0\.0\.1/);
  });

  t('team forms follow the team roles: viewers read, editors and up act, outsiders get 404', async (tt, app) => {
    const { team, keys } = await teamWithRoles(app, 'pro');
    const form = (await app.api('POST', '/forms', { key: keys.owner, body: { title: 'Team contract', team_id: team.id, questions: [contractQuestion()] } })).body;
    const create = (key: string) => app.api('POST', `/forms/${form.id}/signing-sessions`, { key, body: { signers: [{ slot_number: 1, email: 'c@example.com' }] } });
    for (const role of ['owner', 'admin', 'editor']) tt.is((await create(keys[role])).status, 201, role);
    const viewerCreate = await create(keys.viewer);
    tt.is(viewerCreate.status, 403);
    tt.like(viewerCreate.body.error, { code: 'FORBIDDEN', status: 403, reason: 'insufficient_role' });
    tt.is((await create(keys.stranger)).status, 404);

    const id = (await create(keys.owner)).body.id;
    const reads = [`/forms/${form.id}/signing-sessions`, `/signing-sessions/${id}`, `/signing-sessions/${id}/audit`, `/signing-sessions/${id}/documents`];
    for (const path of reads) {
      for (const role of ['owner', 'admin', 'editor', 'viewer']) tt.is((await app.api('GET', path, { key: keys[role] })).status, 200, `${role} GET ${path}`);
      tt.is((await app.api('GET', path, { key: keys.stranger })).status, 404, `stranger GET ${path}`);
      tt.is((await app.api('GET', path)).status, 401, `anonymous GET ${path}`);
    }
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/1`, { key: keys.viewer })).status, 403);
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/1`, { key: keys.stranger })).status, 404);
    tt.is((await app.api('POST', `/signing-sessions/${id}/resend/1`, { key: keys.editor })).status, 200);
    tt.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: keys.viewer, body: { reason: 'x' } })).status, 403);
    tt.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: keys.stranger, body: { reason: 'x' } })).status, 404);
    tt.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: keys.editor, body: { reason: 'x' } })).status, 200);
  });

  t('the team owner\'s plan decides: a free team owner\'s form gets 403 contract_requires_pro, whoever creates the session', async (tt, app) => {
    const { team, keys } = await teamWithRoles(app, 'free', 'pro', ['admin', 'editor']);
    const form = await app.api('POST', '/forms', { key: keys.editor, body: { title: 'Free team contract', team_id: team.id, questions: [contractQuestion()] } });
    tt.is(form.status, 201, form.text);
    for (const role of ['owner', 'admin', 'editor']) {
      const res = await app.api('POST', `/forms/${form.body.id}/signing-sessions`, { key: keys[role], body: {} });
      tt.is(res.status, 403, role);
      tt.like(res.body.error, { code: 'FORBIDDEN', reason: 'contract_requires_pro', upgrade_required: true });
    }
    // Publish check (b) says the same on publish.
    const publish = await app.api('POST', `/forms/${form.body.id}/publish`, { key: keys.admin });
    tt.is(publish.status, 409);
    tt.like(publish.body.error, { reason: 'contract_requires_pro', upgrade_required: true, question_ids: [form.body.questions[0].id] });
    tt.deepEqual(await app.raw(`SELECT id FROM signing_sessions WHERE form_id = ${ph(app, 1)}`, [form.body.id]), []);
  });

  t('publish check (b): a contract on a free owner\'s form is not published by create, update or publish', async (tt, app) => {
    const free = await app.user('free');
    const created = await app.api('POST', '/forms', { key: free.key, body: { title: 'C', published: true, questions: [contractQuestion()] } });
    tt.is(created.status, 201);
    tt.false(created.body.published);
    tt.like(created.body.publish_error, { reason: 'contract_requires_pro', upgrade_required: true, question_ids: [created.body.questions[0].id] });
    const put = await app.api('PUT', `/forms/${created.body.id}`, { key: free.key, body: { title: 'C2', published: true } });
    tt.is(put.status, 409);
    tt.like(put.body.error, { code: 'CONFLICT', reason: 'contract_requires_pro', saved_as_draft: true, form_id: created.body.id });
    tt.is((await app.api('GET', `/forms/${created.body.id}`, { key: free.key })).body.title, 'C2', 'the changes were saved');
    const pro = await app.user('pro');
    const ok = await app.api('POST', '/forms', { key: pro.key, body: { title: 'P', published: true, questions: [contractQuestion()] } });
    tt.true(ok.body.published);
  });

  t('the contract question\'s default_signing_order is the session\'s default; its properties are checked', async (tt, app) => {
    const user = await app.user('pro');
    const mk = (props: Record<string, unknown>) => app.api('POST', '/forms', { key: user.key, body: { title: 'C', questions: [contractQuestion(props)] } });
    const seq = (await mk({ default_signing_order: 'sequential' })).body;
    tt.is((await app.api('POST', `/forms/${seq.id}/signing-sessions`, { key: user.key, body: {} })).body.signing_order, 'sequential');
    tt.is((await app.api('POST', `/forms/${seq.id}/signing-sessions`, { key: user.key, body: { signing_order: 'any' } })).body.signing_order, 'any');
    const plain = (await mk({})).body;
    tt.is((await app.api('POST', `/forms/${plain.id}/signing-sessions`, { key: user.key, body: {} })).body.signing_order, 'any');
    for (const bad of [{ default_signing_order: 'random' }, { signer_slots: [{ slot_number: 0, label: 'X' }] }, { document: 42 }, { unknown: true }]) {
      const res = await mk(bad);
      tt.is(res.status, 400, JSON.stringify(bad));
      tt.is(res.body.error.code, 'BAD_REQUEST');
    }
  });

  t('a void invalidates the pending links: nothing more can be read, signed, declined or verified through them', async (tt, app) => {
    const { user, ids } = await sessions(app, 1, { password: 'secret-pass' });
    const links = (await app.api('GET', `/signing-sessions/${ids[0]}`, { key: user.key })).body.signer_links;
    const code = links[0].short_code;
    const token = (await app.api('POST', `/s/${code}/verify-password`, { body: { password: 'secret-pass' } })).body.access_token;
    const wrong = await app.api('POST', `/s/${code}/verify-password`, { body: { password: 'nope' } });
    tt.is(wrong.status, 401);
    tt.deepEqual(Object.keys(wrong.body), ['error'], 'the plain {error} shape');
    tt.is(typeof wrong.body.error, 'string');
    await app.api('POST', `/signing-sessions/${ids[0]}/void`, { key: user.key, body: { reason: 'Replaced' } });
    const headers = { 'x-access-token': token };
    const ctx = await app.api('GET', `/s/${code}`);
    tt.like(ctx.body, { status: 'voided', is_turn: false });
    for (const [method, path, body] of [
      ['GET', `/s/${code}/document`, undefined],
      ['POST', `/s/${code}/sign`, typed('Late')],
      ['POST', `/s/${code}/decline`, { reason: 'x' }],
    ] as const) {
      const res = await app.api(method, path, { headers, body });
      tt.is(res.status, 409, `${method} ${path}`);
      tt.like(res.body.error, { code: 'CONFLICT', reason: 'session_not_active' });
    }
    const actions = (await app.api('GET', `/signing-sessions/${ids[0]}/audit`, { key: user.key })).body.entries.map((e: any) => e.action);
    tt.false(actions.includes('document_viewed'), 'no view recorded');
    tt.false(actions.includes('signed'));
    tt.false(actions.includes('declined'));
  });
}, { mailer, signedDocuments: lazyRenderer(), config: CHEAP_PASSWORDS });
