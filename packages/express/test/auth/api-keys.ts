import test from '../helpers/bounded-test';
import { forEachDb } from '../helpers/app';

forEachDb(test, (it) => {
  it('401 for missing, malformed, unknown, revoked and expired keys', async (t, app) => {
    const u = await app.user();
    const check = async (headers: Record<string, string>, label: string) => {
      const res = await app.api('GET', '/forms', { headers });
      t.is(res.status, 401, label);
      t.like(res.body, { error: { code: 'UNAUTHORIZED', status: 401 } }, label);
    };
    await check({}, 'missing');
    await check({ authorization: 'Basic abc' }, 'not bearer');
    await check({ authorization: 'Bearer nonsense' }, 'malformed');
    await check({ authorization: `Bearer ${u.key.slice(0, -1)}${u.key.endsWith('0') ? '1' : '0'}` }, 'wrong secret');
    await check({ authorization: `Bearer ${u.key.replace(/^fl_[A-Za-z0-9]+_/, 'fl_aaaaaaaaaaaaaaaaaaaaaaaa_')}` }, 'unknown key');
    const { key_id, api_key } = await app.formloom.accounts.createKey(u.id);
    t.is((await app.api('GET', '/forms', { key: api_key })).status, 200);
    await app.formloom.accounts.revokeKey(key_id);
    await check({ authorization: `Bearer ${api_key}` }, 'revoked');
    const expired = await app.formloom.accounts.createKey(u.id, { expires_at: '2000-01-01T00:00:00.000Z' });
    await check({ authorization: `Bearer ${expired.api_key}` }, 'expired');
  });

  it('keys are stored hashed, never in clear', async (t, app) => {
    const u = await app.user();
    const secret = u.key.split('_')[2]!;
    const rows = await app.raw(`SELECT * FROM api_keys WHERE user_id = '${u.id}'`);
    t.is(rows.length, 1);
    t.false(JSON.stringify(rows).includes(secret));
  });

  it("403 for another user's form, 404 for a missing one, 403 for a voice key", async (t, app) => {
    const owner = await app.user();
    const other = await app.user();
    const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Mine' } });
    const id = created.body.id;
    for (const [method, path] of [
      ['GET', `/forms/${id}`],
      ['PUT', `/forms/${id}`],
      ['DELETE', `/forms/${id}`],
      ['POST', `/forms/${id}/publish`],
      ['DELETE', `/forms/${id}/publish`],
      ['GET', `/forms/${id}/versions`],
      ['GET', `/forms/${id}/theme`],
      ['PUT', `/forms/${id}/theme`],
      ['POST', `/forms/${id}/duplicate`],
    ] as const) {
      const res = await app.api(method, path, { key: other.key, body: method === 'PUT' ? { title: 'x' } : undefined });
      t.is(res.status, 403, `${method} ${path}`);
      t.is(res.body.error.code, 'FORBIDDEN');
      t.false(JSON.stringify(res.body).includes('Mine'));
    }
    t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, 'Mine');
    const missing = await app.api('GET', '/forms/frm_nope', { key: owner.key });
    t.is(missing.status, 404);
    t.like(missing.body, { error: { code: 'NOT_FOUND', status: 404 } });
    const voice = await app.formloom.accounts.createKey(owner.id, { scope: 'voice' });
    const res = await app.api('GET', '/forms', { key: voice.api_key });
    t.is(res.status, 403);
  });

  it('unknown routes are a structured 404; openapi.json documents the routes', async (t, app) => {
    const res = await app.api('GET', '/nothing-here');
    t.is(res.status, 404);
    t.is(res.body.error.code, 'NOT_FOUND');
    const doc = await app.api('GET', '/openapi.json');
    t.is(doc.status, 200);
    t.is(doc.body.openapi, '3.1.0');
    t.truthy(doc.body.paths['/forms/{id}'].put.requestBody);
    const schema = doc.body.paths['/forms'].post.requestBody.content['application/json'].schema;
    t.deepEqual(schema.required, ['title']);
    t.truthy(schema.properties.theme_color);
    t.truthy(doc.body.paths['/forms/{id}/theme'].put.requestBody.content['application/json'].schema.properties.show_question_nav);
  });
});
