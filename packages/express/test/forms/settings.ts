import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { eventually, webhookReceiver } from '../helpers/browser';

/*
 * Respondent settings of a form (docs/decisions.md "Form settings"): hidden fields, close_at,
 * response_limit, redirect_url; stored and checked like every field, versioned, public where the page
 * needs them, enforced by the public submit.
 */
const q = [{ type: 'short_text', title: 'Name' }];

async function create(app: TestApp, key: string, body: Record<string, unknown>) {
  return app.api('POST', '/forms', { key, body: { title: 'Settings', questions: q, ...body } });
}

forEachDb(test, (it) => {
  it('settings are stored, checked, part of versions and of the changelog', async (t, app) => {
    const u = await app.user();
    const settings = { hidden_fields: ['utm_source', 'ref'], close_at: '2030-01-01T00:00:00.000Z', response_limit: 100, redirect_url: 'https://example.com/done', redirect_append_response_id: true };
    const res = await create(app, u.key, { ...settings, published: true });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.like(res.body, settings);
    const plain = await create(app, u.key, {});
    t.like(plain.body, { hidden_fields: null, close_at: null, response_limit: null, redirect_url: null, redirect_append_response_id: false });
    for (const [body, field] of [
      [{ hidden_fields: ['has space'] }, 'hidden_fields.0'],
      [{ hidden_fields: ['a', 'a'] }, 'hidden_fields'],
      [{ close_at: 'tomorrow' }, 'close_at'],
      [{ response_limit: 0 }, 'response_limit'],
      [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      [{ redirect_append_response_id: 'yes' }, 'redirect_append_response_id'],
    ] as const) {
      const bad = await app.api('PUT', `/forms/${res.body.id}`, { key: u.key, body });
      t.is(bad.status, 400, field);
      t.is(bad.body.error.field, field);
    }
    await app.api('PUT', `/forms/${res.body.id}`, { key: u.key, body: { response_limit: 5 } });
    await app.api('POST', `/forms/${res.body.id}/publish`, { key: u.key });
    const versions = (await app.api('GET', `/forms/${res.body.id}/versions`, { key: u.key })).body.versions;
    t.is(versions[0].snapshot.response_limit, 5);
    t.is(versions[1].snapshot.response_limit, 100);
    t.true(versions[0].changelog.some((c: any) => c.type === 'settings_changed' && c.description.includes('response_limit')));
    const pub = (await app.api('GET', `/public/forms/${res.body.slug}`)).body.snapshot;
    t.like(pub, { hidden_fields: ['utm_source', 'ref'], redirect_url: 'https://example.com/done', redirect_append_response_id: true, closed: false });
  });

  it('hidden field values are stored with the response and sent in the webhook; undeclared names are a 400', async (t, app) => {
    app.formloom.worker.start({ pollMs: 100 });
    const hook = await webhookReceiver();
    try {
      const u = await app.user('pro');
      const f = (await create(app, u.key, { hidden_fields: ['utm_source'], webhook_url: hook.url, published: true })).body;
      const bad = await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [], hidden: { other: 'x' } } });
      t.is(bad.status, 400);
      t.is(bad.body.error.field, 'hidden.other');
      const ok = await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [], hidden: { utm_source: 'newsletter' } } });
      t.is(ok.status, 201);
      t.deepEqual(ok.body.metadata.hidden, { utm_source: 'newsletter' });
      const stored = await app.api('GET', `/forms/${f.id}/responses/${ok.body.id}`, { key: u.key });
      t.deepEqual(stored.body.metadata.hidden, { utm_source: 'newsletter' });
      t.true(await eventually(() => hook.bodies.length === 1));
      t.deepEqual(hook.bodies[0].response.hidden, { utm_source: 'newsletter' });
    } finally {
      await hook.close();
    }
  });

  it('hidden fields are columns of the CSV export, after the questions', async (t, app) => {
    const u = await app.user();
    const f = (await create(app, u.key, { hidden_fields: ['utm_source', 'ref'], published: true })).body;
    const send = (name: string, hidden?: Record<string, string>) =>
      app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.questions[0].id, value: name }], ...(hidden ? { hidden } : {}) } });
    const ids: string[] = [];
    for (const [name, hidden] of [
      ['Ada', { utm_source: 'newsletter', ref: 'r1' }],
      ['Bob', { ref: '=HYPERLINK("x")' }],
      ['Cy', undefined],
      ['Di', { utm_source: 'a, "b"' }],
    ] as const) {
      const r = await send(name, hidden);
      t.is(r.status, 201, r.text);
      ids.push(r.body.id);
    }
    const csv = await app.api('GET', `/forms/${f.id}/responses/export`, { key: u.key });
    t.is(csv.status, 200);
    const lines = csv.text.split('\r\n');
    t.is(lines[0], 'responseId,submittedAt,completedAt,Name,utm_source,ref');
    const byId = new Map(lines.slice(1, -1).map((l) => [l.split(',')[0], l]));
    t.is(byId.size, 4);
    t.true(byId.get(ids[0])!.endsWith(',Ada,newsletter,r1'), byId.get(ids[0]));
    t.true(byId.get(ids[1])!.endsWith(`,Bob,,"'=HYPERLINK(""x"")"`), byId.get(ids[1]));
    t.true(byId.get(ids[2])!.endsWith(',Cy,,'), byId.get(ids[2]));
    t.true(byId.get(ids[3])!.endsWith(',Di,"a, ""b""",'), byId.get(ids[3]));
    // A form without hidden fields keeps its columns.
    const plain = (await create(app, u.key, { published: true })).body;
    await app.api('POST', `/public/forms/${plain.slug}/responses`, { body: { answers: [] } });
    t.is((await app.api('GET', `/forms/${plain.id}/responses/export`, { key: u.key })).text.split('\r\n')[0], 'responseId,submittedAt,completedAt,Name');
  });

  it('a form past close_at or at its response_limit is closed: public read says so, submit answers 409 form_closed', async (t, app) => {
    const u = await app.user();
    const past = (await create(app, u.key, { close_at: '2020-01-01T00:00:00Z', published: true })).body;
    t.true((await app.api('GET', `/public/forms/${past.slug}`)).body.snapshot.closed);
    const late = await app.api('POST', `/public/forms/${past.slug}/responses`, { body: { answers: [] } });
    t.is(late.status, 409);
    t.like(late.body.error, { code: 'CONFLICT', reason: 'form_closed' });
    const page = await (await fetch(`${app.url}/f/${past.slug}`)).text();
    t.true(page.includes('This form is closed.'));

    const two = (await create(app, u.key, { response_limit: 2, published: true })).body;
    for (let i = 0; i < 2; i++) t.is((await app.api('POST', `/public/forms/${two.slug}/responses`, { body: { answers: [] } })).status, 201);
    t.true((await app.api('GET', `/public/forms/${two.slug}`)).body.snapshot.closed);
    const third = await app.api('POST', `/public/forms/${two.slug}/responses`, { body: { answers: [] } });
    t.is(third.status, 409);
    t.is(third.body.error.reason, 'form_closed');
    t.is((await app.api('GET', `/forms/${two.id}/responses`, { key: u.key })).body.total, 2);
  });

  it('response_limit under concurrent submissions: exactly that many are stored, the rest get 409 form_closed', async (t, app) => {
    const u = await app.user();
    const f = (await create(app, u.key, { response_limit: 6, published: true })).body;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.questions[0].id, value: `n${i}` }] } }),
      ),
    );
    t.is(answers.filter((a) => a.status === 201).length, 6);
    const refused = answers.filter((a) => a.status !== 201);
    t.true(refused.every((a) => a.status === 409 && a.body.error.reason === 'form_closed'), JSON.stringify(refused.find((a) => a.status !== 409)?.body));
    t.is(refused.length, 24);
    const list = (await app.api('GET', `/forms/${f.id}/responses?per_page=100`, { key: u.key })).body;
    t.is(list.total, 6);
    t.is(list.responses.filter((r: any) => r.completed_at).length, 6);
    t.is((await app.api('GET', `/forms/${f.id}`, { key: u.key })).body.response_count, 6);
    t.is((await app.api('GET', `/forms/${f.id}/analytics`, { key: u.key })).body.completed_responses, 6);
    // A deleted response frees its slot: one more is admitted, then the form is closed again.
    t.is((await app.api('DELETE', `/forms/${f.id}/responses/${list.responses[0].id}`, { key: u.key })).status, 200);
    const again = await Promise.all(Array.from({ length: 4 }, () => app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [] } })));
    t.deepEqual(again.map((a) => a.status).sort(), [201, 409, 409, 409]);
  });
}, { allowPrivateWebhooks: true });
