import type { ExecutionContext, TestFn } from 'ava';
import type { Mailer, MailMessage } from '../ports/mailer';

/**
 * A message as the receiving side got it: header values decoded (RFC 2047 encoded words unfolded and
 * decoded, e.g. `Renée <r@example.org>`), and the text/plain body decoded (quoted-printable, base64). The
 * suite ignores CRLF versus LF and trailing line breaks in `text`.
 */
export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
}

export interface MailerHarnessInstance {
  mailer: Mailer;
  /** Every message received so far, in any order (messages of concurrent tests included). */
  received(): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export interface MailerHarness {
  /** Prefix of every test title. */
  name: string;
  /** The default sender the created mailer is configured with (`Name <address>` or a bare address). */
  defaultFrom: string;
  create(): Promise<MailerHarnessInstance>;
}

type MailerTest = (title: string, body: (t: ExecutionContext, instance: MailerHarnessInstance) => Promise<void>) => void;

/**
 * Registers the Mailer port's conformance tests on `test` (ava). Every mailer adapter runs them against a
 * real receiver (an SMTP server, the outbox directory, ...) that `received()` reads back.
 *
 * The harness is created once for the test file; tests run concurrently and tell their messages apart by
 * a tag in the subject.
 */
export function runMailerConformance(test: TestFn<any>, harness: MailerHarness): void {
  let instance: MailerHarnessInstance | undefined;
  test.before(async () => {
    instance = await harness.create();
  });
  test.after.always(async () => {
    await instance?.close();
  });
  const mailerTest: MailerTest = (title, body) =>
    test(`${harness.name}: ${title}`, async (t) => {
      if (!instance) throw new Error(`The ${harness.name} mailer harness was not created`);
      await body(t, instance);
    });

  mailerTest('a sent message arrives with to, from, subject and text intact', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const message = {
      to: `alice.${tag}@example.com`,
      from: `Forms Team <forms.${tag}@example.com>`,
      subject: `You are invited to a team [${tag}]`,
      text: 'Hello Alice,\n\nJoin the team: http://localhost:3000/invitations/abc\n.\n..two dots\n\n-- \nFormloom',
    };
    await mailer.send(message);
    const [got] = await waitForMail(t, inbox, tag, 1);
    assertMail(t, got, message);
  });

  mailerTest('non-ASCII subject, body and display names arrive intact', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const message = {
      to: `Zoë Ångström <zoe.${tag}@example.com>`,
      from: `"Renée Dupont, Ltd." <renee.${tag}@example.org>`,
      subject: `Signature requested: «Contrat de prestation» — 署名してください 🖋️ ${'é'.repeat(40)} [${tag}]`,
      text: [
        'Bonjour Zoë,',
        '',
        `Grüße aus Köln — 你好 — Привет — مرحبا — 🙂 ${'ü'.repeat(120)}`,
        '.a line that starts with a dot',
        '.',
        'From the beginning of a line',
        `${'x'.repeat(200)}`,
        'Code: 123456',
      ].join('\n'),
    };
    await mailer.send(message);
    const [got] = await waitForMail(t, inbox, tag, 1);
    assertMail(t, got, message);
  });

  mailerTest('the default sender applies when the message names none', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const message = { to: `bob.${tag}@example.com`, subject: `Your code [${tag}]`, text: 'Your code is 482913.' };
    await mailer.send(message);
    const [got] = await waitForMail(t, inbox, tag, 1);
    assertMail(t, got, { ...message, from: harness.defaultFrom });
  });

  mailerTest('`from` overrides the default sender', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const message = {
      to: `carol.${tag}@example.com`,
      from: `Acme Signing <signing.${tag}@acme.example>`,
      subject: `Please sign [${tag}]`,
      text: 'Please sign the contract.',
    };
    await mailer.send(message);
    const [got] = await waitForMail(t, inbox, tag, 1);
    assertMail(t, got, message);
    t.notDeepEqual(parseAddress(got.from), parseAddress(harness.defaultFrom));
  });

  mailerTest('a message with an html part still carries its text', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const message = {
      to: `dave.${tag}@example.com`,
      subject: `Invitation [${tag}]`,
      text: 'Join the team: http://localhost:3000/i/abc',
      html: '<p>Join <a href="http://localhost:3000/i/abc">the team</a></p>',
    };
    await mailer.send(message);
    const [got] = await waitForMail(t, inbox, tag, 1);
    assertMail(t, got, { ...message, from: harness.defaultFrom });
  });

  mailerTest('several concurrent sends all arrive, each once, with distinct ids', async (t, { mailer, ...inbox }) => {
    const tag = newTag();
    const messages = Array.from({ length: 8 }, (_, i) => ({
      to: `user${i}.${tag}@example.com`,
      subject: `Concurrent ${i} [${tag}]`,
      text: `Message number ${i} — ñ`,
    }));
    const results = await Promise.all(messages.map((message) => mailer.send(message)));
    t.is(new Set(results.map((r) => r.id)).size, messages.length);
    const got = await waitForMail(t, inbox, tag, messages.length);
    t.is(got.length, messages.length);
    for (const message of messages) {
      const copies = got.filter((m) => m.subject === message.subject);
      t.is(copies.length, 1, `${message.subject} arrived ${copies.length} times`);
      if (copies[0]) assertMail(t, copies[0], { ...message, from: harness.defaultFrom });
    }
  });

  mailerTest('send resolves a non-empty string id, different for each message', async (t, { mailer }) => {
    const tag = newTag();
    const first = await mailer.send({ to: `erin.${tag}@example.com`, subject: `One [${tag}]`, text: 'one' });
    const second = await mailer.send({ to: `erin.${tag}@example.com`, subject: `Two [${tag}]`, text: 'two' });
    for (const result of [first, second]) {
      t.is(typeof result.id, 'string');
      t.true(result.id.trim().length > 0);
    }
    t.not(first.id, second.id);
  });

  mailerTest('a message without a recipient is rejected', async (t, { mailer }) => {
    await t.throwsAsync(mailer.send({ to: '', subject: 'Nobody', text: 'nobody' }));
  });
}

let counter = 0;
function newTag(): string {
  counter += 1;
  return `t${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 8)}`;
}

async function waitForMail(
  t: ExecutionContext,
  inbox: Pick<MailerHarnessInstance, 'received'>,
  tag: string,
  count: number,
): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mine = (await inbox.received()).filter((m) => m.subject.includes(tag));
    if (mine.length >= count) return mine;
    if (Date.now() > deadline) {
      t.fail(`expected ${count} message(s) tagged ${tag}, received ${mine.length}`);
      return mine;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function assertMail(t: ExecutionContext, got: ReceivedMail | undefined, sent: MailMessage & { from: string }): void {
  if (!got) {
    t.fail('no message received');
    return;
  }
  t.deepEqual(parseAddress(got.to), parseAddress(sent.to), 'to');
  t.deepEqual(parseAddress(got.from), parseAddress(sent.from), 'from');
  t.is(got.subject, sent.subject, 'subject');
  t.is(normalizeText(got.text), normalizeText(sent.text), 'text');
}

/** `Name <address>`, `"Name" <address>` or `address` -> {name, address}; addresses compare case-insensitively. */
function parseAddress(value: string): { name: string; address: string } {
  const match = /^(.*?)\s*<([^<>]+)>\s*$/s.exec(value.trim());
  if (!match) return { name: '', address: value.trim().toLowerCase() };
  let name = (match[1] ?? '').trim();
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) {
    name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return { name, address: (match[2] ?? '').trim().toLowerCase() };
}

function normalizeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}
