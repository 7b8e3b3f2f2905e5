import test from '../helpers/bounded-test';
import type { ExecutionContext } from 'ava';
import { DB_KINDS, startTestApp, type ApiResponse, type TestApp, type TestAppOptions } from '../helpers/app';
import { memoryRateLimitStore } from '../../src';

/*
 * Every test starts its own app: the limits count per client address, and all requests here come from
 * 127.0.0.1, so tests sharing an app would share budgets.
 */
async function withApp(kind: (typeof DB_KINDS)[number], opts: TestAppOptions, fn: (app: TestApp) => Promise<void>) {
  const app = await startTestApp(kind, { clock: slowClock(), ...opts });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/**
 * A clock that moves a millisecond per real second: a test counting up to a limit never sees its one-minute
 * window end, however busy the machine (the counts are the outcome; the windows' length is not under test).
 */
function slowClock() {
  const started = Date.now();
  return { now: () => new Date(started + Math.floor((Date.now() - started) / 1000)) };
}

const badKey = (i: number) => `Bearer fl_${'a'.repeat(24)}_${i.toString(16).padStart(64, '0')}`;

function assertRateLimited(t: ExecutionContext, res: ApiResponse, label: string) {
  t.is(res.status, 429, label);
  t.like(res.body, { error: { code: 'RATE_LIMITED', status: 429 } }, label);
  t.is(typeof res.body.error.message, 'string', label);
  const retryAfter = res.headers.get('retry-after');
  t.regex(retryAfter ?? '', /^\d+$/, `${label}: Retry-After in seconds`);
  t.true(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `${label}: Retry-After within the window`);
  t.is(res.body.error.retry_after, Number(retryAfter), label);
}

async function publishedForm(app: TestApp, key: string, title = 'Limited') {
  const res = await app.api('POST', '/forms', { key, body: { title, published: true, incremental_submission: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

const submit = (app: TestApp, slug: string, headers: Record<string, string> = {}, completed = true) =>
  app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [], completed }, headers });

for (const kind of DB_KINDS) {
  test(`[${kind}] per-key limit: X-RateLimit headers on every authenticated answer, then 429 with Retry-After`, async (t) => {
    // The window is read on the app's own clock, never against the machine's: a busy start cannot move it.
    const clock = slowClock();
    await withApp(kind, { clock, rateLimits: { perKey: { limit: 3, windowSeconds: 60 } } }, async (app) => {
      const u = await app.user();
      const before = clock.now().getTime();
      const answers = [await app.api('GET', '/forms', { key: u.key }), await app.api('GET', '/forms/frm_nope', { key: u.key }), await app.api('GET', '/forms', { key: u.key })];
      t.deepEqual(answers.map((r) => r.status), [200, 404, 200]);
      t.deepEqual(answers.map((r) => r.headers.get('x-ratelimit-limit')), ['3', '3', '3'], 'also on an error answer');
      t.deepEqual(answers.map((r) => r.headers.get('x-ratelimit-remaining')), ['2', '1', '0']);
      const reset = answers[0]!.headers.get('x-ratelimit-reset')!;
      t.regex(reset, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'ISO 8601');
      t.true(Date.parse(reset) > before && Date.parse(reset) <= clock.now().getTime() + 60_000);
      t.is(answers[2]!.headers.get('x-ratelimit-reset'), reset, 'one window');
      const limited = await app.api('GET', '/forms', { key: u.key });
      assertRateLimited(t, limited, 'fourth request');
      t.is(limited.headers.get('x-ratelimit-remaining'), '0');
      t.is(limited.headers.get('x-ratelimit-reset'), reset);
      t.is((await app.api('POST', '/forms', { key: u.key, body: { title: 'x' } })).status, 429, 'every route of the key');
    });
  });

  test(`[${kind}] per-key limits are independent of each other`, async (t) => {
    await withApp(kind, { rateLimits: { perKey: { limit: 2 } } }, async (app) => {
      const a = await app.user();
      const b = await app.user();
      const a2 = await app.formloom.accounts.createKey(a.id);
      for (let i = 0; i < 2; i++) t.is((await app.api('GET', '/forms', { key: a.key })).status, 200);
      t.is((await app.api('GET', '/forms', { key: a.key })).status, 429);
      const other = await app.api('GET', '/forms', { key: b.key });
      t.is(other.status, 200, "another account's key");
      t.is(other.headers.get('x-ratelimit-remaining'), '1');
      t.is((await app.api('GET', '/forms', { key: a2.api_key })).status, 200, 'another key of the same account');
    });
  });

  test(`[${kind}] failed authentication: guesses are blocked per IP, also concurrent ones and a right key after them`, async (t) => {
    await withApp(kind, { rateLimits: { failedAuth: { limit: 5 } } }, async (app) => {
      const u = await app.user();
      for (let i = 0; i < 10; i++) t.is((await app.api('GET', '/forms')).status, 401, 'a missing header guesses nothing');
      const parallel = await Promise.all(Array.from({ length: 30 }, () => app.api('GET', '/forms', { key: u.key })));
      t.true(parallel.every((r) => r.status === 200), 'parallel successes count nothing');
      t.is((await app.api('GET', '/forms', { headers: { authorization: badKey(99) } })).status, 401, 'a first failure');
      const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => app.api('GET', '/forms', { headers: { authorization: badKey(i) } })));
      t.is(guesses.filter((r) => r.status === 401).length, 4, 'exactly the rest of the budget is checked');
      t.is(guesses.filter((r) => r.status === 429).length, 26);
      assertRateLimited(t, guesses.find((r) => r.status === 429)!, 'guess');
      t.is(guesses.find((r) => r.status === 429)!.headers.get('x-ratelimit-limit'), '5', "the failed-authentication limit's own headers");
      t.is(guesses.find((r) => r.status === 429)!.headers.get('x-ratelimit-remaining'), '0');
      assertRateLimited(t, await app.api('GET', '/forms', { key: u.key }), 'a right key from the same address is not checked');
    });
  });

  test(`[${kind}] failed authentication: unknown invitation tokens count, accepted work does not`, async (t) => {
    await withApp(kind, { rateLimits: { failedAuth: { limit: 3 } } }, async (app) => {
      const u = await app.user();
      for (let i = 0; i < 3; i++) {
        const res = await app.api('POST', `/invitations/inv_guess_${i}/accept`, { key: u.key });
        t.is(res.status, 404);
        t.is(res.headers.get('x-ratelimit-limit'), '600', 'the per-key headers of an authenticated answer');
      }
      assertRateLimited(t, await app.api('POST', '/invitations/inv_guess_9/accept', { key: u.key }), 'fourth guess');
      assertRateLimited(t, await app.api('GET', '/forms', { key: u.key }), 'the address is blocked for the window');
    });
  });

  test(`[${kind}] failed authentication: wrong resume tokens count`, async (t) => {
    await withApp(kind, { rateLimits: { failedAuth: { limit: 3 } } }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key);
      const partial = await submit(app, form.slug, {}, false);
      t.is(partial.status, 201);
      const patch = (token: string) =>
        app.api('PATCH', `/public/forms/${form.slug}/responses/${partial.body.id}`, { body: { answers: [] }, headers: { 'x-resume-token': token } });
      t.is((await patch(partial.body.resume_token)).status, 200, 'the right token counts nothing');
      for (let i = 0; i < 3; i++) t.is((await patch(`wrong${i}`)).status, 401);
      assertRateLimited(t, await patch('wrong-again'), 'fourth guess');
      assertRateLimited(t, await patch(partial.body.resume_token), 'even the right token, until the window ends');
    });
  });

  test(`[${kind}] public submissions: per client IP and form`, async (t) => {
    await withApp(kind, { rateLimits: { submissions: { limit: 3 } } }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key, 'Busy');
      const other = await publishedForm(app, u.key, 'Quiet');
      for (let i = 0; i < 3; i++) {
        const res = await submit(app, form.slug);
        t.is(res.status, 201);
        t.is(res.headers.get('x-ratelimit-remaining'), String(2 - i));
      }
      assertRateLimited(t, await submit(app, form.slug), 'fourth submission');
      t.is((await submit(app, other.slug)).status, 201, 'another form from the same address');
      t.is((await app.api('GET', `/forms/${form.id}/responses`, { key: u.key })).body.total, 3, 'nothing stored for the refused one');
    });
  });

  test(`[${kind}] public reads and uploads have their own per-IP limits`, async (t) => {
    await withApp(kind, { rateLimits: { publicReads: { limit: 2 }, uploads: { limit: 1 } } }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key);
      t.is((await app.api('GET', `/public/forms/${form.slug}`)).status, 200);
      t.is((await fetch(`${app.url}/f/${form.slug}`)).status, 200, 'the page counts as a public read');
      assertRateLimited(t, await app.api('GET', `/public/forms/${form.slug}`), 'third read');
      const page = await fetch(`${app.url}/f/${form.slug}`);
      t.is(page.status, 429);
      t.regex(page.headers.get('retry-after') ?? '', /^\d+$/);
      const upload = () => {
        const fd = new FormData();
        fd.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
        return fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads`, { method: 'POST', body: fd });
      };
      t.not((await upload()).status, 429);
      t.is((await upload()).status, 429);
    });
  });

  test(`[${kind}] configuration: limits raised, one turned off, all turned off`, async (t) => {
    await withApp(kind, { rateLimits: { perKey: { limit: 100_000 }, failedAuth: false } }, async (app) => {
      const u = await app.user();
      const res = await app.api('GET', '/forms', { key: u.key });
      t.is(res.headers.get('x-ratelimit-limit'), '100000');
      const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => app.api('GET', '/forms', { headers: { authorization: badKey(i) } })));
      t.true(guesses.every((r) => r.status === 401), 'failed authentication unlimited');
    });
    await withApp(kind, { rateLimits: false }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key);
      const res = await app.api('GET', '/forms', { key: u.key });
      t.is(res.status, 200);
      t.is(res.headers.get('x-ratelimit-limit'), null, 'no limit, no headers');
      const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => app.api('GET', '/forms', { headers: { authorization: badKey(i) } })));
      t.true(guesses.every((r) => r.status === 401));
      const subs = await Promise.all(Array.from({ length: 130 }, () => submit(app, form.slug)));
      t.true(subs.every((r) => r.status === 201), 'more than the default 120 submissions');
      t.is(await app.raw('SELECT * FROM rate_limits').then((rows) => rows.length), 0, 'nothing counted');
      t.is((await app.api('GET', '/openapi.json')).body.paths['/forms'].get.responses['429'], undefined, 'no 429 documented');
    });
  });

  test(`[${kind}] defaults: 600 a minute per key, 20 failed authentications per IP`, async (t) => {
    await withApp(kind, {}, async (app) => {
      const u = await app.user();
      t.is((await app.api('GET', '/forms', { key: u.key })).headers.get('x-ratelimit-limit'), '600');
      const doc = (await app.api('GET', '/openapi.json')).body;
      t.truthy(doc.paths['/forms'].get.responses['429'], 'the OpenAPI document lists the 429');
      t.truthy(doc.paths['/public/forms/{slug}/responses'].post.responses['429']);
      for (let i = 0; i < 20; i++) t.is((await app.api('GET', '/forms', { headers: { authorization: badKey(i) } })).status, 401);
      t.is((await app.api('GET', '/forms', { headers: { authorization: badKey(20) } })).status, 429);
    });
  });

  test(`[${kind}] a memory store instead of the database`, async (t) => {
    await withApp(kind, { rateLimits: { store: memoryRateLimitStore(), perKey: { limit: 1 } } }, async (app) => {
      const u = await app.user();
      t.is((await app.api('GET', '/forms', { key: u.key })).status, 200);
      t.is((await app.api('GET', '/forms', { key: u.key })).status, 429);
      t.is(await app.raw('SELECT * FROM rate_limits').then((rows) => rows.length), 0, 'the database holds no counter');
    });
  });

  test(`[${kind}] with trust proxy the client address comes from X-Forwarded-For, else from the socket`, async (t) => {
    await withApp(kind, { trustProxy: 'loopback', rateLimits: { submissions: { limit: 1 } } }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key);
      t.is((await submit(app, form.slug, { 'x-forwarded-for': '203.0.113.1' })).status, 201);
      t.is((await submit(app, form.slug, { 'x-forwarded-for': '203.0.113.1' })).status, 429);
      t.is((await submit(app, form.slug, { 'x-forwarded-for': '203.0.113.2' })).status, 201, 'another client behind the proxy');
    });
    await withApp(kind, { rateLimits: { submissions: { limit: 1 } } }, async (app) => {
      const u = await app.user();
      const form = await publishedForm(app, u.key);
      t.is((await submit(app, form.slug, { 'x-forwarded-for': '203.0.113.1' })).status, 201);
      t.is((await submit(app, form.slug, { 'x-forwarded-for': '203.0.113.2' })).status, 429, 'a forged header changes nothing');
    });
  });
}
