import test from '../helpers/bounded-test';
import { forEachDb } from '../helpers/app';

/* A method a served path does not have: 405 with `Allow`, in the structured error shape (docs/decisions.md "Errors"). */
forEachDb(test, (it) => {
  it('a served path asked with a method it lacks answers 405 with Allow; an unknown path stays 404', async (t, app) => {
    const u = await app.user('pro');
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'M' } })).body;
    const cases: Array<[string, string, string]> = [
      ['PATCH', `/forms/${form.id}`, 'DELETE, GET, HEAD, OPTIONS, PUT'],
      ['DELETE', '/forms', 'GET, HEAD, OPTIONS, POST'],
      ['PUT', `/forms/${form.id}/publish`, 'DELETE, OPTIONS, POST'],
      ['POST', '/openapi.json', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/public/forms/some-slug', 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await app.api(method, path, { key: u.key });
      t.is(res.status, 405, `${method} ${path}`);
      t.is(res.headers.get('allow'), allow, `${method} ${path}`);
      t.like(res.body, { error: { code: 'METHOD_NOT_ALLOWED', status: 405 } }, `${method} ${path}`);
    }
    const options = await fetch(`${app.url}/api/v1/forms/${form.id}`, { method: 'OPTIONS' });
    t.is(options.status, 204);
    t.is(options.headers.get('allow'), 'DELETE, GET, HEAD, OPTIONS, PUT');
    const unknown = await app.api('GET', '/no-such-thing', { key: u.key });
    t.is(unknown.status, 404);
    t.is(unknown.body.error.code, 'NOT_FOUND');
    t.is((await app.api('GET', `/forms/${form.id}`, { key: u.key })).status, 200, 'the served methods still answer');
  });
});
