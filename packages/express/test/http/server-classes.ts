import { createServer, IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express, { type Express } from 'express';
import { expressServerClasses } from '../../src';

/*
 * Requests born with the app's prototypes (server-classes.ts, docs/embedding.md "Serving an Express app
 * fast"): everything Express adds to requests and responses still works, and Express's own
 * `setPrototypeOf` finds nothing to change.
 */

async function serve(t: { teardown(f: () => unknown): void }, app: Express, classes = expressServerClasses()): Promise<string> {
  classes.attach(app);
  const server: Server = createServer({ IncomingMessage: classes.IncomingMessage, ServerResponse: classes.ServerResponse }, app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('Express requests and responses keep every method, and their prototype is the one Express gives', async (t) => {
  const app = express();
  // Set before and after `attach`: both reach the requests.
  (app.request as unknown as { before: () => string }).before = () => 'before';
  const classes = expressServerClasses();
  let seen: { sameProto: boolean; appOk: boolean; isMessage: boolean } | null = null;
  app.get('/things/:id', (req, res) => {
    seen = {
      sameProto: Object.getPrototypeOf(req) === classes.IncomingMessage.prototype && Object.getPrototypeOf(res) === classes.ServerResponse.prototype,
      appOk: req.app === app && res.app === app,
      isMessage: req instanceof IncomingMessage,
    };
    const extra = req as unknown as { before: () => string; after: () => string };
    res.status(201).set('X-Thing', req.params.id!).cookie('c', 'v').json({ header: req.get('x-test'), query: req.query.q, before: extra.before(), after: extra.after() });
  });
  const url = await serve(t, app, classes);
  (app.request as unknown as { after: () => string }).after = () => 'after';
  const res = await fetch(`${url}/things/42?q=yes`, { headers: { 'x-test': 'hi' } });
  t.is(res.status, 201);
  t.is(res.headers.get('x-thing'), '42');
  t.regex(res.headers.get('set-cookie') ?? '', /^c=v/);
  t.deepEqual(await res.json(), { header: 'hi', query: 'yes', before: 'before', after: 'after' });
  t.deepEqual(seen, { sameProto: true, appOk: true, isMessage: true });
  // Express's 404 and error handling run on the same objects.
  t.is((await fetch(`${url}/nowhere`)).status, 404);
});

test('a router mounted in the app sees the same requests; the classes belong to one app', async (t) => {
  const app = express();
  const router = express.Router();
  router.post('/echo', express.json(), (req, res) => res.json({ got: req.body, base: req.baseUrl }));
  app.use('/api', router);
  const classes = expressServerClasses();
  const url = await serve(t, app, classes);
  const res = await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  t.deepEqual(await res.json(), { got: { a: 1 }, base: '/api' });
  t.notThrows(() => classes.attach(app));
  t.throws(() => classes.attach(express()), { message: /already attached to another app/ });
});
