import test from '../helpers/bounded-test';
import { SessionIssuer } from '@formloom/core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { runMatrix } from '../helpers/matrix';
import { mailbox } from '../helpers/session-client';

/**
 * The authorization matrix again, every call made with a signed-in session (cookie, CSRF header, Origin)
 * instead of the caller's API key: a session must be allowed and refused exactly where the key is.
 */
function withSessions(app: TestApp): TestApp & { sessionCalls: () => number } {
  let calls = 0;
  const issuer = app.formloom.service(SessionIssuer);
  const byKey = new Map<string, { token: string; csrf: string }>();
  return {
    ...app,
    sessionCalls: () => calls,
    async user(plan) {
      const u = await app.user(plan);
      const user = await app.formloom.storage.users.findById(u.id);
      const opened = await issuer.open(app.formloom.storage, user!, { user_agent: 'matrix', ip_address: null });
      byKey.set(u.key, { token: opened.token, csrf: opened.csrf_token });
      return u;
    },
    api(method, path, opts = {}) {
      const s = opts.key ? byKey.get(opts.key) : undefined;
      if (!s) return app.api(method, path, opts);
      calls += 1;
      const headers = { ...opts.headers, cookie: `formloom_session=${s.token}`, 'x-formloom-csrf': s.csrf, origin: app.url };
      return app.api(method, path, { body: opts.body, headers });
    },
  };
}

for (const kind of DB_KINDS) {
  test(`authorization matrix on ${kind} with sessions instead of keys: the same answers`, async (t) => {
    t.timeout(180_000);
    const app = await startTestApp(kind, { sessions: { signup: 'open' }, mailer: mailbox() });
    try {
      const viaSessions = withSessions(app);
      await runMatrix(t, viaSessions);
      t.true(viaSessions.sessionCalls() > 200, `${viaSessions.sessionCalls()} calls made with a session`);
    } finally {
      await app.close();
    }
  });
}
