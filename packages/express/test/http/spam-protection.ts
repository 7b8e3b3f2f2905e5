import test from '../helpers/bounded-test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Browser } from 'playwright-core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage } from '../helpers/browser';

/*
 * Spam protection without a third party (docs/respondents.md "Spam protection"): a scripted bot posting
 * straight to the submit endpoint over HTTP is refused (400, reason `spam_suspected`) and nothing is stored;
 * a solved challenge works once, for its own form only; a person on the page notices nothing.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const QUESTIONS = [{ type: 'short_text', title: 'Name', required: true }];

async function publish(app: TestApp, key: string, body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, questions: QUESTIONS, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

/** What a bot that studied the page would do: fetch a challenge and solve it with the reference solver. */
async function solvedProof(app: TestApp, slug: string): Promise<string> {
  const res = await app.api('GET', `/public/forms/${slug}/challenge`);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const challenge = res.body.challenge as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

for (const kind of DB_KINDS) {
  test(`[${kind}] a scripted bot is refused with spam_suspected and nothing is stored; a proof works once, for its form`, async (t) => {
    t.timeout(120_000);
    const app = await startTestApp(kind);
    try {
      const u = await app.user();
      const f = await publish(app, u.key, { title: 'Guarded', spam_protection: { honeypot: true, proof_of_work: true } });
      const other = await publish(app, u.key, { title: 'Other', spam_protection: { proof_of_work: true } });
      const answers = [{ question_id: f.questions[0]!.id, value: 'Bot' }];
      const post = (slug: string, body: Record<string, unknown>) => app.api('POST', `/public/forms/${slug}/responses`, { body });
      const refused = async (body: Record<string, unknown>, why: string, slug = f.slug) => {
        const res = await post(slug, body);
        t.is(res.status, 400, why);
        t.is(res.body.error.reason, 'spam_suspected', why);
        t.is(res.body.error.code, 'BAD_REQUEST', why);
      };

      await refused({ answers }, 'straight to the endpoint');
      await refused({ answers, spam_check: { honeypot: 'https://spam.example' } }, 'honeypot filled');
      await refused({ answers, spam_check: { honeypot: '' } }, 'no proof of work');
      await refused({ answers, spam_check: { honeypot: '', proof: 'not base64 json' } }, 'garbage proof');
      const proof = await solvedProof(app, f.slug);
      const decoded = JSON.parse(Buffer.from(proof, 'base64').toString());
      // The key past the public prefix is what only the work finds: a guessed one is refused.
      const key: string = decoded.solution.derivedKey;
      const forged = { ...decoded, solution: { ...decoded.solution, derivedKey: key.slice(0, -1) + (key.endsWith('0') ? '1' : '0') } };
      await refused({ answers, spam_check: { honeypot: '', proof: Buffer.from(JSON.stringify(forged)).toString('base64') } }, 'wrong key');
      const tampered = { ...decoded, challenge: { ...decoded.challenge, parameters: { ...decoded.challenge.parameters, data: { form: other.id } } } };
      await refused({ answers: [{ question_id: other.questions[0]!.id, value: 'x' }], spam_check: { proof: Buffer.from(JSON.stringify(tampered)).toString('base64') } }, 'signed parameters changed', other.slug);
      await refused({ answers: [{ question_id: other.questions[0]!.id, value: 'x' }], spam_check: { proof } }, "another form's proof", other.slug);
      t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 0, 'nothing stored');
      t.is((await app.api('GET', `/forms/${other.id}/responses`, { key: u.key })).body.total, 0);

      const ok = await post(f.slug, { answers, spam_check: { honeypot: '', proof } });
      t.is(ok.status, 201, JSON.stringify(ok.body));
      await refused({ answers, spam_check: { honeypot: '', proof } }, 'the same proof again');
      t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 1);
      const stored = (await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.responses[0];
      t.false(JSON.stringify(stored).includes('spam_check'), 'the checks are not stored');

      const challenge = await app.api('GET', `/public/forms/${f.slug}/challenge`);
      t.is(challenge.headers.get('cache-control'), 'no-store');
      t.is((await app.api('GET', '/public/forms/nope/challenge')).status, 404);
      // Forms without spam_protection are as before.
      const open = await publish(app, u.key, { title: 'Open' });
      t.is((await post(open.slug, { answers: [{ question_id: open.questions[0]!.id, value: 'x' }] })).status, 201);
      const bad = await app.api('POST', '/forms', { key: u.key, body: { title: 'Bad', spam_protection: { captcha: true } } });
      t.is(bad.status, 400);
    } finally {
      await app.close();
    }
  });
}

test('a person on the page notices nothing: the proof is solved in the background, the honeypot is out of reach', async (t) => {
  t.timeout(120_000);
  const app = await startTestApp('sqlite');
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    const u = await app.user();
    const f = await publish(app, u.key, {
      title: 'Guarded',
      incremental_submission: true,
      spam_protection: { honeypot: true, proof_of_work: true },
      questions: [...QUESTIONS, { type: 'yes_no', title: 'Happy?' }],
    });
    await page.goto(`${app.url}/f/${f.slug}`);
    const form = page.locator('formloom-form');
    await form.getByRole('heading', { name: 'Name' }).waitFor();
    // Tab from the field reaches the page's buttons, never the honeypot.
    await page.keyboard.press('Tab');
    t.not(await page.evaluate(() => ((globalThis as any).document.querySelector('formloom-form').shadowRoot.activeElement as any)?.name), 'website');
    // Clipped where it stands: no visible area, and no width added to the page in either direction.
    const trap = await form.locator('.fl-trap').evaluate((el: any) => {
      const box = el.getBoundingClientRect();
      const doc = (globalThis as any).document.documentElement;
      return { area: box.width * box.height, clip: (globalThis as any).getComputedStyle(el).clipPath, wide: doc.scrollWidth > doc.clientWidth };
    });
    t.true(trap.area <= 1 && trap.clip !== 'none' && !trap.wide, `the honeypot takes no room: ${JSON.stringify(trap)}`);
    t.deepEqual(await axeViolations(page), []);
    await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Happy?' }).waitFor();
    await page.keyboard.press('y');
    await form.getByRole('heading', { name: 'Thank you!' }).waitFor();
    const list = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
    t.is(list.body.total, 1);
    t.truthy(list.body.responses[0].completed_at);
    t.deepEqual(list.body.responses[0].answers.map((a: any) => a.value), ['Ada', true]);
    const solved = await page.evaluate(() => performance.getEntriesByName('formloom:pow-solved').length);
    t.true(solved >= 1, 'the page solved a challenge');

    // A bot driving a browser that fills every field it finds is refused, and the page says so.
    await page.evaluate(() => (globalThis as any).localStorage.clear());
    await page.reload();
    await form.getByRole('heading', { name: 'Name' }).waitFor();
    await form.locator('.fl-trap input').evaluate((el: any) => (el.value = 'http://spam.example'));
    await form.getByRole('textbox', { name: 'Name' }).fill('Bot');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Happy?' }).waitFor();
    await page.keyboard.press('n');
    await form.locator('.fl-banner').filter({ hasText: /automated/ }).waitFor();
    t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 1);
    t.deepEqual(errors, []);
  } finally {
    await close();
    await app.close();
  }
});
