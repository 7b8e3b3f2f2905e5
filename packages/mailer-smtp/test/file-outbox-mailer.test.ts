import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMailerConformance } from '@formloom/core/testing';
import test from 'ava';
import { createFileOutboxMailer, MailDeliveryError } from '../src';
import { parseMessage } from '../src/testing/parse-message';

const FROM = 'Formloom Outbox <outbox@formloom.test>';
const NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{12}\.eml$/;

async function tempDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-outbox-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function readOutbox(dir: string) {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(names.map(async (name) => ({ name, raw: await readFile(join(dir, name)) })));
}

runMailerConformance(test, {
  name: 'file outbox',
  defaultFrom: FROM,
  async create() {
    const root = await mkdtemp(join(tmpdir(), 'formloom-outbox-'));
    const dir = join(root, 'data', 'outbox');
    const mailer = createFileOutboxMailer({ dir, from: FROM });
    return {
      mailer,
      async received() {
        const files = await readOutbox(dir).catch(() => []);
        return files.map(({ raw }) => parseMessage(raw));
      },
      async close() {
        await mailer.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  },
});

test('file outbox: creates the directory and names files by time, sortable and unique', async (t) => {
  const dir = join(await tempDir(t), 'a', 'b', 'outbox');
  const times = ['2026-11-21T15:44:07.123Z', '2026-11-21T15:44:07.123Z', '2026-11-21T16:00:00.000Z'];
  let call = 0;
  const mailer = createFileOutboxMailer({ dir, now: () => new Date(times[call++]!) });
  for (const [i] of times.entries()) {
    await mailer.send({ to: 'a@example.com', subject: `Message ${i}`, text: `Body ${i}` });
  }
  const entries = await readdir(dir);
  t.is(entries.length, 3, 'no temporary file is left behind');
  for (const name of entries) t.regex(name, NAME);
  const files = await readOutbox(dir);
  t.true(files[0]!.name.startsWith('2026-11-21T15-44-07.123Z-'));
  t.true(files[1]!.name.startsWith('2026-11-21T15-44-07.123Z-'));
  t.is(parseMessage(files[2]!.raw).subject, 'Message 2');
  t.true(files[2]!.name.startsWith('2026-11-21T16-00-00.000Z-'));
});

test('file outbox: each file is an RFC 5322 message with CRLF lines, Date, MIME-Version and the returned Message-ID', async (t) => {
  const dir = await tempDir(t);
  const mailer = createFileOutboxMailer({ dir });
  const { id } = await mailer.send({ to: 'a@example.com', subject: 'Ça va? ✓', text: 'Line one\nLine two — ü\n' });
  const [file] = await readOutbox(dir);
  const raw = file!.raw.toString('latin1');
  t.false(/[^\r]\n/.test(raw), 'every line ends with CRLF');
  t.true(/^[\x00-\x7f]*$/.test(raw), 'the message is 7-bit: non-ASCII text is MIME-encoded');
  const parsed = parseMessage(file!.raw);
  t.is(parsed.headers.get('message-id')?.[0], id);
  t.regex(id, /^<[^<>@\s]+@[^<>\s]+>$/);
  t.truthy(parsed.headers.get('date')?.[0]);
  t.is(parsed.headers.get('mime-version')?.[0], '1.0');
  t.is(parsed.from, 'Formloom <no-reply@localhost>');
  t.is(parsed.subject, 'Ça va? ✓');
  t.is(parsed.text.replace(/\r\n/g, '\n'), 'Line one\nLine two — ü\n');
});

test('file outbox: a line break in the subject cannot inject a header', async (t) => {
  const dir = await tempDir(t);
  const mailer = createFileOutboxMailer({ dir });
  await mailer.send({ to: 'a@example.com', subject: 'Hello\r\nBcc: evil@example.com', text: 'x' });
  const [file] = await readOutbox(dir);
  const parsed = parseMessage(file!.raw);
  t.is(parsed.headers.get('bcc'), undefined);
  t.is(parsed.headers.get('subject')?.length, 1);
});

test('file outbox: a directory that cannot be written rejects the send', async (t) => {
  const root = await tempDir(t);
  const blocker = join(root, 'outbox');
  await writeFile(blocker, 'a file where the directory should be');
  const mailer = createFileOutboxMailer({ dir: blocker });
  const err = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' }), {
    instanceOf: MailDeliveryError,
  });
  t.regex(err!.message, /^Could not write the message to the outbox /);
  t.truthy(err!.code);
});

test('file outbox: the directory is owner-only (0700) and each message file 0600', async (t) => {
  const root = await tempDir(t);
  const dir = join(root, 'data', 'outbox');
  const mailer = createFileOutboxMailer({ dir, from: FROM });
  await mailer.send({ to: 'ada@example.com', subject: 'Join us', text: 'https://x.test/teams/invite/secret' });
  t.is((await stat(dir)).mode & 0o777, 0o700);
  const [file] = await readOutbox(dir);
  t.is((await stat(join(dir, file!.name))).mode & 0o777, 0o600);
  await mailer.close();
});
