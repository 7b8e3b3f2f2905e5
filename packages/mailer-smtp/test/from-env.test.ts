import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createMailerFromEnv } from '../src';
import { parseMessage } from '../src/testing/parse-message';
import { startSmtpServer } from '../src/testing/smtp-test-server';

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-mail-env-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function onlyMessage(dir: string) {
  const names = await readdir(dir);
  if (names.length !== 1) throw new Error(`expected one file in ${dir}, found ${names.join(', ')}`);
  return parseMessage(await readFile(join(dir, names[0]!)));
}

test('from env: without FORMLOOM_SMTP_URL, mails go to <dataDir>/outbox from the default sender', async (t) => {
  const dataDir = await tempDir(t);
  for (const env of [{}, { FORMLOOM_SMTP_URL: '  ' }]) {
    const mailer = createMailerFromEnv(env, dataDir);
    t.is(mailer.kind, 'file-outbox');
    await mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' });
    await mailer.close();
    const message = await onlyMessage(join(dataDir, 'outbox'));
    t.is(message.from, 'Formloom <no-reply@localhost>');
    await rm(join(dataDir, 'outbox'), { recursive: true });
  }
});

test('from env: FORMLOOM_MAIL_FROM sets the sender of the outbox', async (t) => {
  const dataDir = await tempDir(t);
  const mailer = createMailerFromEnv({ FORMLOOM_MAIL_FROM: 'Acme Forms <forms@acme.example>' }, dataDir);
  await mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' });
  t.is((await onlyMessage(join(dataDir, 'outbox'))).from, 'Acme Forms <forms@acme.example>');
});

test('from env: FORMLOOM_SMTP_URL selects SMTP with FORMLOOM_MAIL_FROM', async (t) => {
  const dataDir = await tempDir(t);
  const server = await startSmtpServer();
  const mailer = createMailerFromEnv(
    { FORMLOOM_SMTP_URL: server.url, FORMLOOM_MAIL_FROM: 'Acme Forms <forms@acme.example>' },
    dataDir,
  );
  try {
    t.is(mailer.kind, 'smtp');
    await mailer.send({ to: 'a@example.com', subject: 'Over SMTP', text: 'Hi' });
    t.is(server.messages.length, 1);
    t.is(server.messages[0]!.from, 'Acme Forms <forms@acme.example>');
    t.is(server.messages[0]!.subject, 'Over SMTP');
    t.deepEqual(await readdir(dataDir), [], 'nothing is written to the outbox');
  } finally {
    await mailer.close();
    await server.close();
  }
});

test('from env: an FORMLOOM_SMTP_URL that is not smtp:// fails at creation', (t) => {
  t.throws(() => createMailerFromEnv({ FORMLOOM_SMTP_URL: 'https://mail.example.com' }, '/tmp/unused'), {
    message: /smtp:\/\/ or smtps:\/\//,
  });
});
