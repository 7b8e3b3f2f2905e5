import test from '../helpers/bounded-test';
import { createSmtpMailer } from '@formloom/mailer-smtp';
import { smtpReply, startSmtpServer } from '@formloom/mailer-smtp/testing';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

async function until(fn: () => boolean | Promise<boolean>, ms = 60_000) {
  await waitFor(fn, { timeoutMs: ms });
}

for (const kind of DB_KINDS) {
  test(`[${kind}] the invitation email is received by a real SMTP server; a failing server delays it, never loses it`, async (t) => {
    let refuse = true;
    const smtp = await startSmtpServer({
      onRcptTo(_address, _session, callback) {
        // The first attempt meets a temporarily unavailable server.
        if (refuse) return callback(smtpReply(451, 'try again later'));
        callback();
      },
    });
    const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
    const mailer = createSmtpMailer({ url: smtp.url, from: 'Formloom <no-reply@formloom.test>' });
    const app = await startTestApp(kind, { clock, mailer });
    t.teardown(async () => {
      await app.close();
      await mailer.close();
      await smtp.close();
    });
    app.formloom.worker.start({ pollMs: 50 });
    const owner = await app.user('pro');
    const teamRes = await app.api('POST', '/teams', { key: owner.key, body: { name: 'Mail team' } });
    // A lower bound only: the failed attempt came after this, so its retry is at least the backoff after it.
    const before = Date.now();
    const inv = await app.api('POST', `/teams/${teamRes.body.id}/invitations`, { key: owner.key, body: { email: 'Invitee@Example.com', role: 'editor' } });
    t.is(inv.status, 201);

    await until(async () => (await app.raw(`SELECT last_error FROM outbox WHERE kind = 'mail'`)).some((r: any) => !!r.last_error));
    const [row] = await app.raw(`SELECT status, next_attempt_at FROM outbox WHERE kind = 'mail'`);
    t.is(row.status, 'pending', 'kept for a retry');
    t.true(Date.parse(row.next_attempt_at) > before + 5000, 'retried later, with backoff');
    t.is(smtp.messages.length, 0);
    // Every row of the tables that take part (the invitation itself keeps only a hash and a sealed copy).
    const holdsToken = async () =>
      (await Promise.all(['outbox', 'team_invitations'].map((table) => app.raw(`SELECT * FROM ${table}`))))
        .flat()
        .filter((r: any) => JSON.stringify(r).includes(inv.body.token)).length;
    t.is(await holdsToken(), 0, 'the queued mail is sealed, not in clear text');

    refuse = false;
    clock.offsetMs = 60_000;
    await until(() => smtp.messages.length === 1);
    const m = smtp.messages[0]!;
    t.deepEqual(m.envelope.to, ['invitee@example.com']);
    t.regex(m.subject, /invited you to join Mail team/);
    t.true(m.text.includes(`/teams/invite/${inv.body.token}`));
    await until(async () => (await app.raw(`SELECT status FROM outbox WHERE kind = 'mail'`))[0].status === 'delivered');
    t.is(await holdsToken(), 0, 'no row holds the token once the mail is sent');
    t.deepEqual(JSON.parse((await app.raw(`SELECT payload FROM outbox WHERE kind = 'mail'`))[0].payload), {});

    // Delivered rows are purged by the running worker once the retention (7 days by default) has passed.
    clock.offsetMs = 6 * 24 * 3600_000;
    t.is((await app.raw(`SELECT id FROM outbox WHERE kind = 'mail'`)).length, 1, 'kept within the retention');
    clock.offsetMs = 8 * 24 * 3600_000;
    await until(async () => (await app.raw(`SELECT id FROM outbox WHERE kind = 'mail'`)).length === 0);
  });
}
