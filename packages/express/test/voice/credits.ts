import { SessionIssuer, voiceIdOf } from '@formloom/core';
import type { TestApp } from '../helpers/app';
import { voiceUser } from '../helpers/voice';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * `GET /voice/credits` (the balance and the ledger, docs/voice.md "Credits and the ledger"), the library's
 * `search`, and a signed-in session on the voice endpoints (docs/decisions.md, "Voice studio"). The audio is
 * asked for as WAV: its format is not what these tests are about, and each MP3 starts LAME in a worker thread, about 0.2 CPU-seconds (docs/testing.md, "What it costs").
 */

const VOICE = voiceIdOf('tone', 'en-us');
const BROKEN = voiceIdOf('failing', 'broken');

/** The `formloom_session` cookie of a new session of the user, and its CSRF token. */
async function sessionOf(app: TestApp, userId: string) {
  const user = (await app.formloom.storage.users.findById(userId))!;
  const opened = await app.formloom.service(SessionIssuer).open(app.formloom.storage, user, { user_agent: null, ip_address: null });
  return { cookie: `formloom_session=${opened.token}`, csrf: opened.csrf_token };
}

/** voice.test.ts registers these on the voice apps its parts share (`sharedVoiceApps`, helpers/voice.ts). */
export function register(db: SharedDb): void {
  db((t) => {
    t('credits: the balance and the ledger, newest first, paged; spends and credit-backs name their generation', async (tt, app) => {
      const u = await voiceUser(app, { credits: 100 });
      const ok = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text: 'Hello from Formloom.', format: 'wav' } });
      tt.is(ok.status, 200, ok.text);
      const failed = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: BROKEN, text: 'This one breaks.', format: 'wav' } });
      tt.is(failed.status, 500);
      const failedId = failed.body.error.generation_id as string;

      const res = await app.api('GET', '/voice/credits', { key: u.key });
      tt.is(res.status, 200, res.text);
      tt.is(res.body.data.object, 'voice.credits');
      tt.is(res.body.data.balance, 92);
      tt.is(res.headers.get('service-credits-remaining'), '92');
      tt.is(res.headers.get('service-credits-charged'), '0');
      tt.like(res.body.meta, { page: 1, per_page: 20, total: 4, total_pages: 1 });
      tt.is(res.body.meta.rate_card, res.headers.get('service-rate-card'));
      // A spend and its credit-back may share a millisecond (then ids order them): compare as a set, and the order by time.
      const rows = res.body.data.entries.map((e: any) => [e.kind, e.amount, e.generation_id]);
      const times = res.body.data.entries.map((e: any) => e.created_at);
      tt.deepEqual(times, [...times].sort().reverse(), 'newest first');
      tt.deepEqual(rows.slice(2), [['spend', -8, ok.body.data.id], ['purchase', 100, null]]);
      tt.deepEqual(new Set(rows.slice(0, 2).map((r: unknown[]) => JSON.stringify(r))), new Set([
        JSON.stringify(['credit_back', 7, failedId]),
        JSON.stringify(['spend', -7, failedId]),
      ]));
      for (const e of res.body.data.entries) {
        tt.is(e.object, 'voice.credit_entry');
        tt.true(e.id.startsWith('cre'));
        tt.false('key_id' in e);
        tt.false(Number.isNaN(Date.parse(e.created_at)));
      }
      tt.is(res.body.data.entries.reduce((s: number, e: any) => s + e.amount, 0), res.body.data.balance, 'the ledger sums to the balance');

      const page2 = await app.api('GET', '/voice/credits?per_page=3&page=2', { key: u.key });
      tt.like(page2.body.meta, { page: 2, per_page: 3, total: 4, total_pages: 2 });
      tt.deepEqual(page2.body.data.entries.map((e: any) => e.kind), ['purchase']);
      tt.is(page2.body.data.balance, 92, 'every page tells the balance');
      const clamped = await app.api('GET', '/voice/credits?per_page=500&page=x', { key: u.key });
      tt.like(clamped.body.meta, { page: 1, per_page: 100 });

      // Another account sees only its own ledger; an account that never bought sees an empty one (no 403).
      const other = await voiceUser(app, { credits: 5 });
      const theirs = await app.api('GET', '/voice/credits', { key: other.key });
      tt.deepEqual(theirs.body.data.entries.map((e: any) => [e.kind, e.amount]), [['purchase', 5]]);
      const never = await voiceUser(app);
      const empty = await app.api('GET', '/voice/credits', { key: never.key });
      tt.is(empty.status, 200);
      tt.deepEqual(empty.body.data, { object: 'voice.credits', balance: 0, entries: [] });
      tt.like(empty.body.meta, { total: 0, total_pages: 0 });
    });

    t('credits: a forms key is refused, no key is 401', async (tt, app) => {
      const forms = await app.user();
      const wrong = await app.api('GET', '/voice/credits', { key: forms.key });
      tt.is(wrong.status, 403);
      tt.is(wrong.body.error.reason, 'wrong_key_scope');
      const none = await app.api('GET', '/voice/credits');
      tt.is(none.status, 401);
      tt.is(none.body.error.code, 'UNAUTHORIZED');
    });

    t('library: search keeps generations whose title, words or voice name match, ignoring case', async (tt, app) => {
      const u = await voiceUser(app, { credits: 500 });
      const make = async (text: string, title?: string) => {
        const r = await app.api('POST', '/voice', { key: u.key, body: { mode: 'speak', voice: VOICE, text, format: 'wav', ...(title ? { title } : {}) } });
        tt.is(r.status, 200, r.text);
        return r.body.data.id as string;
      };
      const a = await make('Welcome to the survey.', 'Intro');
      const b = await make('Thanks for your time.', 'Welcome back');
      const c = await make('Goodbye.');
      const list = (q: string) => app.api('GET', `/voice/generations${q}`, { key: u.key });
      const found = await list('?search=WELCOME');
      tt.is(found.status, 200);
      tt.deepEqual(found.body.data.map((g: any) => g.id), [b, a]);
      tt.like(found.body.meta, { total: 2, total_pages: 1, page: 1 });
      tt.deepEqual((await list('?search=welcome&per_page=1&page=2')).body.data.map((g: any) => g.id), [a]);
      tt.deepEqual((await list('?search=tONE%20english')).body.data.length, 3, 'the voice name matches');
      tt.deepEqual((await list('?search=%25')).body.data, [], 'a % is a character, not a wildcard');
      tt.is((await list('?search=%20%20')).body.meta.total, 3, 'a blank search is no filter');
      tt.true((await list('')).body.data.some((g: any) => g.id === c));
      const long = await list(`?search=${'a'.repeat(201)}`);
      tt.is(long.status, 400);
      tt.is(long.body.error.field, 'search');
    });

    t('a signed-in session uses the voice endpoints as its owner (both scopes), writes need the CSRF token', async (tt, app) => {
      const u = await voiceUser(app, { credits: 50 });
      const s = await sessionOf(app, u.id);
      const origin = app.url;
      const credits = await app.api('GET', '/voice/credits', { headers: { cookie: s.cookie } });
      tt.is(credits.status, 200, credits.text);
      tt.is(credits.body.data.balance, 50);
      const body = { mode: 'speak', voice: VOICE, text: 'Made in the studio.', title: 'Studio', format: 'wav' };
      const noCsrf = await app.api('POST', '/voice', { headers: { cookie: s.cookie, origin }, body });
      tt.is(noCsrf.status, 403);
      tt.is(noCsrf.body.error.reason, 'csrf_failed');
      const made = await app.api('POST', '/voice', { headers: { cookie: s.cookie, origin, 'x-formloom-csrf': s.csrf }, body });
      tt.is(made.status, 200, made.text);
      tt.is(made.body.data.credits.charged, 8);
      const audio = await fetch(`${app.url}${made.body.data.audio.url}`, { headers: { cookie: s.cookie } });
      tt.is(audio.status, 200);
      tt.is(audio.headers.get('content-type'), 'audio/wav');
      tt.true((await audio.arrayBuffer()).byteLength > 100);
      const ledger = await app.api('GET', '/voice/credits', { headers: { cookie: s.cookie } });
      tt.deepEqual(ledger.body.data.entries.map((e: any) => [e.kind, e.amount, e.generation_id]), [['spend', -8, made.body.data.id], ['purchase', 50, null]]);
      // The same session still owns the forms endpoints.
      tt.is((await app.api('GET', '/forms', { headers: { cookie: s.cookie } })).status, 200);
      const del = await app.api('DELETE', `/voice/generations/${made.body.data.id}`, { headers: { cookie: s.cookie, origin, 'x-formloom-csrf': s.csrf } });
      tt.is(del.status, 200);
    });
  });
}
