import { createServer, type Server } from 'node:net';
import { runMailerConformance } from '@formloom/core/testing';
import test from 'ava';
import { createSmtpMailer, MailDeliveryError } from '../src';
import { smtpReply, startSmtpServer } from '../src/testing/smtp-test-server';

const FROM = 'Formloom Test <no-reply@formloom.test>';

runMailerConformance(test, {
  name: 'smtp',
  defaultFrom: FROM,
  async create() {
    const server = await startSmtpServer();
    const mailer = createSmtpMailer({ url: server.url, from: FROM });
    return {
      mailer,
      received: async () => server.messages,
      async close() {
        await mailer.close();
        await server.close();
      },
    };
  },
});

test('smtp: the envelope carries the bare sender and recipient addresses', async (t) => {
  const server = await startSmtpServer();
  const mailer = createSmtpMailer({ url: server.url, from: FROM });
  try {
    const { id } = await mailer.send({ to: 'Zoë <zoe@example.com>', subject: 'Hi', text: 'Hi' });
    t.is(server.messages.length, 1);
    t.deepEqual(server.messages[0]!.envelope, { from: 'no-reply@formloom.test', to: ['zoe@example.com'] });
    t.is(server.messages[0]!.headers.get('message-id')?.[0], id);
  } finally {
    await mailer.close();
    await server.close();
  }
});

test('smtp: a recipient refused with 550 rejects the send with the reply', async (t) => {
  const server = await startSmtpServer({
    onRcptTo: (_address, _session, callback) => callback(smtpReply(550, '5.1.1 No such user here')),
  });
  const mailer = createSmtpMailer({ url: server.url, from: FROM });
  try {
    const err = await t.throwsAsync(mailer.send({ to: 'nobody@example.com', subject: 'Hi', text: 'Hi' }), {
      instanceOf: MailDeliveryError,
    });
    t.regex(err!.message, new RegExp(`^SMTP server smtp://127\\.0\\.0\\.1:${server.port} did not accept`));
    t.regex(err!.message, /550 5\.1\.1 No such user here/);
    t.is(err!.responseCode, 550);
    t.is(server.messages.length, 0);
  } finally {
    await mailer.close();
    await server.close();
  }
});

test('smtp: message data refused with 550 rejects the send', async (t) => {
  const server = await startSmtpServer({
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback(smtpReply(550, '5.7.1 Message refused')));
    },
  });
  const mailer = createSmtpMailer({ url: server.url, from: FROM });
  try {
    const err = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' }), {
      instanceOf: MailDeliveryError,
    });
    t.regex(err!.message, /550 5\.7\.1 Message refused/);
    t.is(err!.responseCode, 550);
  } finally {
    await mailer.close();
    await server.close();
  }
});

test('smtp: a server that greets with 421 rejects the send (retry later)', async (t) => {
  const server = await startSmtpServer({
    onConnect: (_session, callback) => callback(smtpReply(421, 'Too busy, try again later')),
  });
  const mailer = createSmtpMailer({ url: server.url, from: FROM });
  try {
    const err = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' }), {
      instanceOf: MailDeliveryError,
    });
    t.regex(err!.message, /421/);
  } finally {
    await mailer.close();
    await server.close();
  }
});

test('smtp: a server that is down rejects the send, without leaking the password', async (t) => {
  const port = await freePort();
  const mailer = createSmtpMailer({ url: `smtp://mailer:s3cr3t-pw@127.0.0.1:${port}`, from: FROM });
  try {
    const err = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' }), {
      instanceOf: MailDeliveryError,
    });
    t.regex(err!.message, new RegExp(`^SMTP server smtp://127\\.0\\.0\\.1:${port} did not accept the message: .*ECONNREFUSED`));
    t.false(err!.message.includes('s3cr3t-pw'));
  } finally {
    await mailer.close();
  }
});

test('smtp: a server that never greets times out', async (t) => {
  const sockets = new Set<import('node:net').Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  await listen(silent);
  const port = (silent.address() as { port: number }).port;
  const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM, timeoutMs: 300 });
  const started = Date.now();
  try {
    const err = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi' }), {
      instanceOf: MailDeliveryError,
    });
    t.regex(err!.message, /greeting|timeout/i);
    // The client's own time-out ended it (a hang would wait for the OS): a generous bound, not a measurement.
    t.true(Date.now() - started < 60_000);
  } finally {
    await mailer.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('smtp: a URL that is not smtp:// or smtps:// is refused at creation', (t) => {
  t.throws(() => createSmtpMailer({ url: 'http://mail.example.com' }), { message: /smtp:\/\/ or smtps:\/\// });
  t.throws(() => createSmtpMailer({ url: 'mail.example.com:25' }), { message: /SMTP URL/ });
  t.throws(() => createSmtpMailer({ url: 'not a url' }), { message: /not a valid URL/ });
  t.notThrows(() => createSmtpMailer({ url: 'smtps://user:pw@mail.example.com' }));
});

async function listen(server: Server): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
