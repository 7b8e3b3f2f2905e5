'use strict';
// Webhook receivers of the bench: N HTTP servers on 127.0.0.1 in one child process (forked by
// bench/scenarios/webhooks.js), so they never share an event loop with the app or the submitting client.
// Each delivery is recorded when its body has arrived: receiver, X-Service-Delivery, the body's response
// id, arrival time on the monotonic clock (ms, comparable across processes of the machine) and whether
// X-Service-Signature is the HMAC-SHA256 of the raw body with the secret. Every delivery is answered 200.
//
// IPC, one answer per request `{ id, cmd, ... }`:
//   { cmd: 'listen', count }  -> { ports }
//   { cmd: 'secret', secret } -> {}
//   { cmd: 'count' }          -> { count } (distinct receiver + response pairs: duplicates do not count)
//   { cmd: 'records' }        -> { records: [{ r, delivery, response, event, t, sig }] }
//   { cmd: 'stop' }           -> {} then exits
const crypto = require('node:crypto');
const http = require('node:http');

const records = [];
const distinct = new Set();
const servers = [];
let secret = null;

function signatureOk(raw, header) {
  if (!secret || typeof header !== 'string') return false;
  const expected = crypto.createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function receiver(index) {
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const t = Number(process.hrtime.bigint()) / 1e6;
      const raw = Buffer.concat(chunks);
      let response = null;
      try {
        response = JSON.parse(raw.toString('utf8')).response?.id ?? null;
      } catch {
        /* recorded with response null: counted as unexpected */
      }
      distinct.add(`${index}|${response}`);
      records.push({
        r: index,
        delivery: req.headers['x-service-delivery'] ?? null,
        response,
        event: req.headers['x-service-event'] ?? null,
        t,
        sig: signatureOk(raw, req.headers['x-service-signature']),
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
}

const listen = (srv) =>
  new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve(srv.address().port));
  });

const handlers = {
  async listen({ count }) {
    for (let i = 0; i < count; i++) servers.push(receiver(i));
    return { ports: await Promise.all(servers.map(listen)) };
  },
  secret(msg) {
    secret = msg.secret;
    return {};
  },
  count: () => ({ count: distinct.size }),
  records: () => ({ records }),
  async stop() {
    await Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))));
    return {};
  },
};

process.on('message', async (msg) => {
  try {
    const answer = await handlers[msg.cmd](msg);
    process.send({ id: msg.id, ok: true, ...answer }, () => msg.cmd === 'stop' && process.exit(0));
  } catch (e) {
    process.send({ id: msg.id, ok: false, error: String((e && e.stack) || e) });
  }
});
process.on('disconnect', () => process.exit(0));
