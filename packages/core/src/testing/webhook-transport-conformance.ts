import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext, TestFn } from 'ava';
import { isDestinationRefused, RESPONSE_EXCERPT_BYTES, type WebhookTransport } from '../ports/webhook-transport';

export interface WebhookTransportHarness {
  /** Prefix of every test title. */
  name: string;
  /** A transport of the adapter under test; `allowPrivate` lets it reach loopback/private addresses. */
  create(options: { allowPrivate: boolean }): WebhookTransport | Promise<WebhookTransport>;
}

/** What the local receiver got. */
interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A receiver on 127.0.0.1 (ephemeral port): `/status/<code>` answers with that code, `/redirect` answers
 * 302 to `/status/200`, `/hang` never answers; every request is recorded, so a refused destination can be
 * shown to have received nothing. Tests tell their requests apart by a path suffix of their own.
 */
class Receiver {
  readonly requests: Received[] = [];
  private readonly held = new Set<ServerResponse>();
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => receiver.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  get port() {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1') {
    return `http://${host}:${this.port}${path}`;
  }

  hits(tag: string) {
    return this.requests.filter((r) => r.path.includes(tag));
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      this.requests.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/hang')) {
        this.held.add(res);
        res.on('close', () => this.held.delete(res));
        return;
      }
      if (path.startsWith('/redirect')) {
        res.writeHead(302, { Location: `/status/200${path.slice('/redirect'.length)}-followed` }).end();
        return;
      }
      if (path.startsWith('/big')) {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`start:${'x'.repeat(100_000)}`);
        return;
      }
      const code = Number(/^\/status\/(\d{3})/.exec(path)?.[1] ?? 200);
      res.writeHead(code, { 'Content-Type': 'text/plain' }).end('ok');
    });
  }

  async close() {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

type TransportTest = (title: string, body: (t: ExecutionContext, receiver: Receiver, tag: string) => Promise<void>) => void;

let tags = 0;

/**
 * Registers the WebhookTransport port's conformance tests on `test` (ava), against a local receiver on
 * 127.0.0.1. Every webhook transport adapter runs them. Needs no network beyond loopback: refusals of other
 * private ranges must happen before any connection is tried.
 */
export function runWebhookTransportConformance(test: TestFn<any>, harness: WebhookTransportHarness): void {
  let receiver: Receiver | undefined;
  test.before(async () => {
    receiver = await Receiver.start();
  });
  test.after.always(async () => {
    await receiver?.close();
  });
  const transportTest: TransportTest = (title, body) =>
    test(`${harness.name}: ${title}`, async (t) => {
      if (!receiver) throw new Error('The webhook receiver did not start');
      await body(t, receiver, `/t${++tags}-${process.pid}`);
    });
  const open = () => harness.create({ allowPrivate: true });
  const guarded = () => harness.create({ allowPrivate: false });

  transportTest('POSTs the body and headers and resolves with the status', async (t, receiver, tag) => {
    const transport = await open();
    const body = JSON.stringify({ event: 'response.submitted', text: 'Grüße 🙂' });
    const headers = { 'Content-Type': 'application/json', 'X-Formloom-Signature': 'sha256=abc' };
    t.like(await transport.post(receiver.url(`/status/200${tag}`), body, headers, 5000), { status: 200 });
    const [got] = receiver.hits(tag);
    t.is(got?.method, 'POST');
    t.is(got?.body, body);
    t.is(got?.headers['content-type'], 'application/json');
    t.is(got?.headers['x-formloom-signature'], 'sha256=abc');
    t.is(got?.headers['content-length'], String(Buffer.byteLength(body)), 'the length in bytes, not characters');
  });

  transportTest("the result's body, when given, is the start of the answer, at least RESPONSE_EXCERPT_BYTES of it", async (t, receiver, tag) => {
    const transport = await open();
    const small = await transport.post(receiver.url(`/status/404${tag}`), '{}', {}, 5000);
    if (small.body !== undefined) t.is(small.body, 'ok');
    const big = await transport.post(receiver.url(`/big${tag}`), '{}', {}, 5000);
    t.is(big.status, 500);
    if (big.body === undefined) {
      t.pass('this transport does not read bodies');
      return;
    }
    t.true(big.body.startsWith('start:xxx'));
    t.true(big.body.length >= RESPONSE_EXCERPT_BYTES && big.body.length < 100_000, 'read no further than needed');
  });

  transportTest('any status resolves: 4xx and 5xx are results, not errors', async (t, receiver, tag) => {
    const transport = await open();
    for (const code of [201, 204, 404, 410, 500, 503]) {
      t.like(await transport.post(receiver.url(`/status/${code}${tag}`), '{}', {}, 5000), { status: code });
    }
  });

  transportTest('a redirect is not followed', async (t, receiver, tag) => {
    const transport = await open();
    t.like(await transport.post(receiver.url(`/redirect${tag}`), '{}', {}, 5000), { status: 302 });
    t.is(receiver.hits(`${tag}-followed`).length, 0);
  });

  transportTest('loopback destinations are refused unless allowPrivate, and receive nothing', async (t, receiver, tag) => {
    const transport = await guarded();
    const urls = [
      receiver.url(`/status/200${tag}-a`),
      receiver.url(`/status/200${tag}-b`, 'localhost'),
      receiver.url(`/status/200${tag}-c`, '[::ffff:127.0.0.1]'),
      receiver.url(`/status/200${tag}-d`, '127.1.2.3'),
      receiver.url(`/status/200${tag}-e`, '[::1]'),
    ];
    for (const url of urls) {
      const err = await t.throwsAsync(transport.post(url, '{}', {}, 5000), undefined, url);
      t.true(isDestinationRefused(err), `${url}: a DestinationRefusedError, not ${err?.message}`);
    }
    t.deepEqual(receiver.hits(tag), [], 'no request reached the receiver');
    t.like(await (await open()).post(receiver.url(`/status/200${tag}-ok`), '{}', {}, 5000), { status: 200 });
  });

  transportTest('private, link-local, CGNAT and other non-public addresses are refused before connecting', async (t) => {
    const transport = await guarded();
    const hosts = [
      '10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '[fc00::1]', '[fd12:3456::1]', '[fe80::1]', '[::]', '[::ffff:10.0.0.1]', '[::ffff:192.168.0.1]',
    ];
    for (const host of hosts) {
      // A long time-out: a transport that tried to connect would fail the test by its time-out or message.
      const err = await t.throwsAsync(transport.post(`http://${host}:81/hook`, '{}', {}, 30_000), undefined, host);
      t.true(isDestinationRefused(err), `${host}: a DestinationRefusedError, not ${err?.message}`);
    }
  });

  transportTest('refuses an invalid or non-http(s) URL, even with allowPrivate', async (t) => {
    const transport = await open();
    for (const url of ['not a url', 'ftp://127.0.0.1/hook', 'file:///etc/passwd', '']) {
      const err = await t.throwsAsync(transport.post(url, '{}', {}, 5000), undefined, JSON.stringify(url));
      t.true(isDestinationRefused(err), `${JSON.stringify(url)}: a DestinationRefusedError, not ${err?.message}`);
    }
  });

  transportTest('rejects when nothing listens, and after the time-out when no response comes', async (t, receiver, tag) => {
    const transport = await open();
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const refused = await t.throwsAsync(transport.post(`http://127.0.0.1:${port}/hook`, '{}', {}, 5000), undefined, 'connection refused');
    t.false(isDestinationRefused(refused), 'a network error is retried later, not a refused destination');
    const late = await t.throwsAsync(transport.post(receiver.url(`/hang${tag}`), '{}', {}, 1000), undefined, 'no response in time');
    t.false(isDestinationRefused(late), 'a time-out is retried later, not a refused destination');
    t.is(receiver.hits(tag).length, 1, 'the request was sent; the response never came');
  });
}
