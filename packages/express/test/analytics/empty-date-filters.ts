import test from '../helpers/bounded-test';
import { startTestApp, type TestApp } from '../helpers/app';

/*
 * An empty date bound (`?until=`) was taken as no bound by the responses list, the CSV export and the team
 * audit log, while analytics answered 400: every date filter now answers it with the same 400 (the API's
 * error shape, `field` naming the parameter). Leaving a parameter out is how a range stays open.
 */

let app: TestApp;
test.before(async () => {
  app = await startTestApp('sqlite', { rateLimits: false });
});
test.after.always(async () => app?.close());

test('an empty since or until is 400 with the field named on every endpoint that filters by date', async (t) => {
  const u = await app.user('enterprise');
  const form = await app.api('POST', '/forms', { key: u.key, body: { title: 'Dates', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  t.is(form.status, 201);
  const team = await app.api('POST', '/teams', { key: u.key, body: { name: 'Acme' } });
  t.is(team.status, 201, team.text);
  const paths = [
    `/forms/${form.body.id}/responses`,
    `/forms/${form.body.id}/responses/export`,
    `/forms/${form.body.id}/analytics`,
    `/forms/${form.body.id}/analytics/questions`,
    `/teams/${team.body.id}/audit-logs`,
  ];
  for (const path of paths) {
    for (const field of ['since', 'until']) {
      const res = await app.api('GET', `${path}?${field}=`, { key: u.key });
      t.is(res.status, 400, `${path}?${field}=`);
      t.like(res.body, { error: { code: 'BAD_REQUEST', status: 400, field } }, `${path}?${field}=`);
      t.is(typeof res.body?.error?.message, 'string');
    }
    // Without the parameter the range is open, as before.
    t.is((await app.api('GET', path, { key: u.key })).status, 200, path);
  }
});
