import test from '../helpers/bounded-test';
import { createSmtpMailer } from '@formloom/mailer-smtp';
import { smtpReply, startSmtpServer, type TestSmtpServer } from '@formloom/mailer-smtp/testing';
import { waitFor } from '@formloom/core/testing';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';

/*
 * Mails about responses (docs/notifications.md), through the HTTP API, the outbox and a real SMTP server:
 * a mail per response per subscriber, never twice when the server fails first; the signed unsubscribe link;
 * the respondent's receipt with its reply-to and recall.
 */

const until = (fn: () => boolean | Promise<boolean>) => waitFor(fn, { timeoutMs: 90_000 });

async function setup(kind: (typeof DB_KINDS)[number]) {
  let refuse = false;
  const smtp = await startSmtpServer({
    onRcptTo(_address, _session, callback) {
      if (refuse) return callback(smtpReply(451, 'try again later'));
      callback();
    },
  });
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  const mailer = createSmtpMailer({ url: smtp.url, from: 'Formloom <no-reply@formloom.test>' });
  const app = await startTestApp(kind, { clock, mailer });
  app.formloom.worker.start({ pollMs: 50 });
  return { smtp, app, clock, mailer, setRefuse: (v: boolean) => (refuse = v), close: async () => (await app.close(), await mailer.close(), await smtp.close()) };
}

const mailsTo = (smtp: TestSmtpServer, to: string, subject: RegExp) => smtp.messages.filter((m) => m.envelope.to.some((a: string) => a.toLowerCase() === to.toLowerCase()) && subject.test(m.subject));
const settledMails = async (app: TestApp) => (await app.raw(`SELECT status FROM outbox WHERE kind = 'mail'`)).every((r: any) => r.status === 'delivered');

async function teamForm(app: TestApp) {
  const owner = await app.user('pro');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Mail team' } })).body;
  const viewer = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: viewer.email, role: 'viewer' } });
  await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: viewer.key });
  const quiet = await app.user();
  const inv2 = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: quiet.email, role: 'editor' } });
  await app.api('POST', `/invitations/${inv2.body.token}/accept`, { key: quiet.key });
  const res = await app.api('POST', '/forms', {
    key: owner.key,
    body: {
      title: 'Lunch <order>',
      team_id: team.id,
      published: true,
      questions: [
        { type: 'short_text', title: 'Name', required: true },
        { type: 'multiple_choice', title: 'Dish', properties: { choices: [{ label: 'Soup' }, { label: 'Salad' }] } },
        { type: 'yes_no', title: 'Dessert?' },
        { type: 'email', title: 'Your email' },
      ],
    },
  });
  if (res.status !== 201 || !res.body.published) throw new Error(JSON.stringify(res.body));
  return { owner, viewer, quiet, form: res.body };
}

const submit = async (app: TestApp, form: any, name: string, email = 'resp@example.com') => {
  const q = form.questions;
  const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
    body: { answers: [
      { question_id: q[0].id, value: name },
      { question_id: q[1].id, value: 'Soup' },
      { question_id: q[2].id, value: true },
      { question_id: q[3].id, value: email },
    ] },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
};

for (const kind of DB_KINDS) {
  test.serial(`[${kind}] each subscriber gets one mail per response, never twice across retries; the unsubscribe link works without signing in`, async (t) => {
    const env = await setup(kind);
    t.teardown(env.close);
    const { app, smtp } = env;
    const { owner, viewer, quiet, form } = await teamForm(app);
    const outsider = await app.user('pro');

    t.deepEqual((await app.api('GET', `/forms/${form.id}/notifications`, { key: owner.key })).body, { form_id: form.id, new_responses: 'off' });
    for (const u of [owner, viewer]) {
      const put = await app.api('PUT', `/forms/${form.id}/notifications`, { key: u.key, body: { new_responses: 'instant' } });
      t.deepEqual(put.body, { form_id: form.id, new_responses: 'instant' });
    }
    t.is((await app.api('GET', `/forms/${form.id}/notifications`, { key: viewer.key })).body.new_responses, 'instant', 'a viewer chooses for themselves');
    t.is((await app.api('GET', `/forms/${form.id}/notifications`, { key: quiet.key })).body.new_responses, 'off', "another member's choice is not theirs");
    t.is((await app.api('PUT', `/forms/${form.id}/notifications`, { key: outsider.key, body: { new_responses: 'instant' } })).status, 404);
    const bad = await app.api('PUT', `/forms/${form.id}/notifications`, { key: owner.key, body: { new_responses: 'weekly' } });
    t.is(bad.status, 400);
    t.is(bad.body.error.field, 'new_responses');
    // A change to the form keeps everyone's choice (it lives beside the form's settings, not in them).
    t.is((await app.api('PUT', `/forms/${form.id}`, { key: owner.key, body: { title: 'Lunch <order>' } })).status, 200);
    await until(() => settledMails(app)); // the invitations

    // The server refuses at first: the mails wait in the outbox and go out once it is back, once each.
    env.setRefuse(true);
    const r1 = await submit(app, form, '<b>Ada</b> & co');
    const r2 = await submit(app, form, 'Grace');
    await until(async () => (await app.raw(`SELECT last_error FROM outbox WHERE kind = 'mail'`)).filter((r: any) => !!r.last_error).length >= 4);
    env.setRefuse(false);
    env.clock.offsetMs = 3600_000;
    await until(async () => (await settledMails(app)) && mailsTo(smtp, viewer.email, /New response/).length === 2 && mailsTo(smtp, owner.email, /New response/).length === 2);
    t.is(mailsTo(smtp, quiet.email, /New response/).length, 0, 'no mail to a member who did not ask');
    t.is(smtp.messages.filter((m) => /New response/.test(m.subject)).length, 4, 'one per response per subscriber');

    const mail = mailsTo(smtp, viewer.email, /New response/).find((m) => m.text.includes(r1))!;
    t.truthy(mail, 'the mail links to the response');
    t.is(mail.subject, 'New response to Lunch <order>');
    t.true(mail.text.includes('<b>Ada</b> & co'), 'plain text as typed');
    t.regex(mail.text, /Dessert\?\s+Yes/);
    t.regex(mail.text, /Dish\s+Soup/);
    t.true(mail.text.includes(`/forms/${form.id}/results/${r1}`));
    t.true(mail.html.includes('&lt;b&gt;Ada&lt;/b&gt; &amp; co'), 'HTML escapes answers');
    t.false(mail.html.includes('<b>Ada</b>'));
    t.true(mail.html.includes('Lunch &lt;order&gt;'));
    t.truthy(mailsTo(smtp, owner.email, /New response/).find((m) => m.text.includes(r2)));

    // The unsubscribe link: works without a key, for that person only; a forged one is a 400.
    const link = new URL(/(http\S+\/notifications\/unsubscribe\?\S+)/.exec(mail.text)![1]!);
    const forged = new URL(link);
    forged.searchParams.set('user', owner.id);
    const refused = await fetch(`${app.url}${forged.pathname}${forged.search}`);
    t.is(refused.status, 400);
    t.is(((await refused.json()) as any).error.reason, 'invalid_link');
    const page = await fetch(`${app.url}${link.pathname}${link.search}`);
    t.is(page.status, 200);
    t.regex(page.headers.get('content-type') ?? '', /text\/html/);
    t.regex(await page.text(), /no more mails about new responses to &quot;Lunch &lt;order&gt;&quot;/);
    t.is((await app.api('GET', `/forms/${form.id}/notifications`, { key: viewer.key })).body.new_responses, 'off');
    t.is((await app.api('GET', `/forms/${form.id}/notifications`, { key: owner.key })).body.new_responses, 'instant');

    const r3 = await submit(app, form, 'Linus');
    await until(async () => (await settledMails(app)) && mailsTo(smtp, owner.email, /New response/).length === 3);
    t.is(mailsTo(smtp, viewer.email, /New response/).length, 2, 'no mail after unsubscribing');
    t.truthy(mailsTo(smtp, owner.email, /New response/).find((m) => m.text.includes(r3)));

    // A link to a deleted form is a 404 in the error shape, by GET and by POST.
    t.is((await app.api('DELETE', `/forms/${form.id}`, { key: owner.key })).status, 200);
    for (const method of ['GET', 'POST']) {
      const gone = await fetch(`${app.url}${link.pathname}${link.search}`, { method });
      t.is(gone.status, 404);
      t.is(((await gone.json()) as any).error.code, 'NOT_FOUND');
    }
  });

  test.serial(`[${kind}] a daily digest at midnight UTC holds the day's responses; a quiet day sends nothing; off ends the chain`, async (t) => {
    const env = await setup(kind);
    t.teardown(env.close);
    const { app, smtp, clock } = env;
    const { viewer, form } = await teamForm(app);
    const put = await app.api('PUT', `/forms/${form.id}/notifications`, { key: viewer.key, body: { new_responses: 'daily' } });
    t.deepEqual(put.body, { form_id: form.id, new_responses: 'daily' });
    t.is((await app.api('GET', `/forms/${form.id}/notifications`, { key: viewer.key })).body.new_responses, 'daily');
    const digestItems = async () => app.raw(`SELECT id, status FROM outbox WHERE kind = 'notifications.digest' ORDER BY created_at`);
    t.is((await digestItems()).length, 1, 'turning it on queues the first digest');
    t.is((await app.api('PUT', `/forms/${form.id}/notifications`, { key: viewer.key, body: { new_responses: 'daily' } })).status, 200);
    t.is((await digestItems()).length, 1, 'setting it again queues no second chain');

    const r1 = await submit(app, form, 'Ada');
    const r2 = await submit(app, form, 'Grace');
    await until(() => settledMails(app));
    t.is(mailsTo(smtp, viewer.email, /new response/).length, 0, 'nothing before midnight');

    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    clock.offsetMs = midnight - now.getTime() + 60_000;
    await until(() => mailsTo(smtp, viewer.email, /new responses? to/).length === 1);
    const digest = mailsTo(smtp, viewer.email, /new responses? to/)[0]!;
    t.is(digest.subject, '2 new responses to Lunch <order>');
    t.true(digest.text.includes(`/forms/${form.id}/results/${r1}`) && digest.text.includes(`/forms/${form.id}/results/${r2}`));
    t.regex(digest.text, /Dessert\?: Yes/);
    t.true(digest.text.includes('/notifications/unsubscribe?'));
    await until(async () => (await digestItems()).filter((i: any) => i.status === 'pending').length === 1 && (await digestItems()).length === 2);

    // A day without responses: no mail, and the chain goes on.
    clock.offsetMs += 86_400_000;
    await until(async () => (await digestItems()).length === 3);
    t.is(mailsTo(smtp, viewer.email, /new responses? to/).length, 1);

    // Off: the queued digest ends without a mail and queues no next one.
    t.is((await app.api('PUT', `/forms/${form.id}/notifications`, { key: viewer.key, body: { new_responses: 'off' } })).status, 200);
    await submit(app, form, 'Linus');
    clock.offsetMs += 86_400_000;
    await until(async () => (await digestItems()).every((i: any) => i.status === 'delivered'));
    t.is((await digestItems()).length, 3);
    t.is(mailsTo(smtp, viewer.email, /new responses? to/).length, 1);
  });

  test.serial(`[${kind}] the respondent receipt goes to the email answer with recall, branding and the owner's reply-to`, async (t) => {
    const env = await setup(kind);
    t.teardown(env.close);
    const { app, smtp } = env;
    const owner = await app.user('pro');
    const plain = await app.api('POST', '/forms', { key: owner.key, body: { title: 'No email', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
    const refused = await app.api('PUT', `/forms/${plain.body.id}/receipt`, { key: owner.key, body: { enabled: true } });
    t.is(refused.status, 400);
    t.is(refused.body.error.reason, 'no_email_question');

    const created = await app.api('POST', '/forms', {
      key: owner.key,
      body: {
        title: 'Workshop',
        published: true,
        theme_color: '#ff5500',
        branding_footer_text: 'Acme Workshops',
        questions: [
          { type: 'short_text', title: 'Name' },
          { type: 'yes_no', title: 'Vegetarian?' },
          { type: 'email', title: 'Email' },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [name] = form.questions;
    const bad = await app.api('PUT', `/forms/${form.id}/receipt`, { key: owner.key, body: { enabled: true, reply_to: 'not an address' } });
    t.is(bad.status, 400);
    t.is(bad.body.error.field, 'reply_to');
    const put = await app.api('PUT', `/forms/${form.id}/receipt`, {
      key: owner.key,
      body: { enabled: true, reply_to: 'owner@acme.example', subject: 'Thanks {answer.' + name.id + '|friend}', message: 'See you soon, {answer.' + name.id + '}.' },
    });
    t.is(put.status, 200, JSON.stringify(put.body));
    t.like(put.body, { enabled: true, reply_to: 'owner@acme.example', question_id: null });
    t.like((await app.api('GET', `/forms/${form.id}/receipt`, { key: owner.key })).body, { enabled: true, reply_to: 'owner@acme.example' });

    const q = form.questions;
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: [{ question_id: q[0].id, value: 'Ada <3' }, { question_id: q[1].id, value: false }, { question_id: q[2].id, value: 'Ada@Example.com' }] },
    });
    t.is(res.status, 201);
    await until(async () => (await settledMails(app)) && mailsTo(smtp, 'ada@example.com', /Thanks/).length === 1);
    const m = mailsTo(smtp, 'ada@example.com', /Thanks/)[0]!;
    t.is(m.subject, 'Thanks Ada <3');
    t.regex(m.headers.get('reply-to')?.[0] ?? '', /owner@acme\.example/);
    t.true(m.text.includes('See you soon, Ada <3.'));
    t.regex(m.text, /Vegetarian\?\s+No/);
    t.true(m.text.includes('Acme Workshops'));
    t.true(m.html.includes('See you soon, Ada &lt;3.'));
    t.true(m.html.includes('#ff5500'), "the form's colour");
    t.is(smtp.messages.length, 1, 'nothing to the owner, who did not ask for new-response mails');
  });
}
