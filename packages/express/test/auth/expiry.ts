import test from '../helpers/bounded-test';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

const DAY = 86_400_000;

for (const kind of DB_KINDS) {
  test(`[${kind}] a session ends after 14 idle days, and 90 days after sign-in however much it is used`, async (t) => {
    const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
    const app = await startTestApp(kind, { clock, sessions: { signup: 'open' }, mailer: mailbox(), config: CHEAP_PASSWORDS });
    t.teardown(() => app.close());
    const email = newEmail();
    const idle = new Browser(app);
    t.is((await idle.call('POST', '/auth/signup', { body: { email, password: PASSWORD } })).status, 201);
    const busy = new Browser(app);
    t.is((await busy.call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 200);

    // The clock only moves forward: `idle` is used on days 13 and 26, then left; `busy` every 10 days.
    const at = async (day: number, who: Browser) => {
      clock.offsetMs = day * DAY;
      return who.call('GET', '/auth/session');
    };
    t.is((await at(10, busy)).status, 200);
    t.is((await at(13, idle)).status, 200, 'day 13: still alive, and this use extends it');
    t.is((await at(20, busy)).status, 200);
    t.is((await at(26, idle)).status, 200, 'day 26: 13 idle days since the last use');
    t.is((await at(30, busy)).status, 200);
    clock.offsetMs = 40 * DAY + 1000;
    t.is((await idle.call('GET', '/auth/session')).status, 401, 'day 40: 14 idle days');
    for (let day = 40; day < 90; day += 10) {
      const res = await at(day, busy);
      t.is(res.status, 200, `day ${day}`);
      t.true(Date.parse(res.body.session.expires_at) <= Date.now() + 90 * DAY + 1000, 'never past the absolute expiry');
    }
    clock.offsetMs = 90 * DAY + 1000;
    t.is((await busy.call('GET', '/auth/session')).status, 401, 'day 90');
    t.is((await busy.call('GET', '/forms')).status, 401);
  });
}

test('the session cookie is Secure when the public URL is https', async (t) => {
  const app = await startTestApp('sqlite', { sessions: { signup: 'open' }, mailer: mailbox(), config: CHEAP_PASSWORDS });
  t.teardown(() => app.close());
  app.formloom.config.publicUrl = 'https://forms.example.com';
  const res = await new Browser(app).call('POST', '/auth/signup', { body: { email: newEmail(), password: PASSWORD }, origin: 'https://forms.example.com' });
  t.is(res.status, 201);
  t.regex(res.headers.get('set-cookie')!, /; Secure/);
  const wrongOrigin = await new Browser(app).call('POST', '/auth/signin', { body: { email: 'a@b.c', password: PASSWORD } });
  t.is(wrongOrigin.body.error.reason, 'csrf_failed', 'the http origin is not the public one');
});
