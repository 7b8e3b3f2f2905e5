'use strict';
// The scale-out family's parts that need no Formloom nor PostgreSQL: the round-robin proxy (real node:http
// servers), the wire counter's parsing of the PostgreSQL protocol (bytes split at every boundary), and the
// capacity model's arithmetic and read/write classification.
const http = require('node:http');
const test = require('ava');
const { createRoundRobinProxy, roundRobin } = require('../lib/proxy');
const { countConnection, emptyCounts } = require('../lib/pg-wire');
const { isRead, readShare, routeModel, instancesByConnections, efficiency } = require('../lib/capacity-model');

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
const close = (server) => new Promise((resolve) => (server.closeAllConnections?.(), server.close(() => resolve())));

test('roundRobin takes each target in turn', (t) => {
  const next = roundRobin(3);
  t.deepEqual(Array.from({ length: 7 }, next), [0, 1, 2, 0, 1, 2, 0]);
  t.throws(() => roundRobin(0));
});

test('the proxy sends requests to each target in turn, with their bodies and answers whole', async (t) => {
  const targets = [0, 1, 2].map((i) =>
    http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(201, { 'x-target': String(i) }).end(`${i}:${req.method}:${req.url}:${body}`));
    }),
  );
  const urls = await Promise.all(targets.map(listen));
  const proxy = createRoundRobinProxy(urls);
  const url = await listen(proxy);
  t.teardown(async () => {
    await close(proxy);
    await Promise.all(targets.map(close));
  });
  const answers = [];
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${url}/p?i=${i}`, { method: 'POST', body: `b${i}` });
    answers.push([res.status, res.headers.get('x-target'), await res.text()]);
  }
  t.deepEqual(answers.map((a) => a[1]), ['0', '1', '2', '0', '1', '2']);
  t.deepEqual(answers[4], [201, '1', '1:POST:/p?i=4:b4']);
  t.deepEqual(proxy.served, [2, 2, 2]);
});

test('the proxy answers 502 for a target that is down', async (t) => {
  const gone = http.createServer();
  const goneUrl = await listen(gone);
  await close(gone);
  const proxy = createRoundRobinProxy([goneUrl]);
  const url = await listen(proxy);
  t.teardown(() => close(proxy));
  const res = await fetch(`${url}/x`);
  t.is(res.status, 502);
});

// ---- PostgreSQL wire protocol ----
const int32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const untyped = (code, body = Buffer.alloc(0)) => Buffer.concat([int32(8 + body.length), int32(code), body]);
const typed = (type, body = Buffer.alloc(0)) => Buffer.concat([Buffer.from(type), int32(4 + body.length), body]);

/** A client's conversation: SSL refused, startup, a simple query, one extended-protocol query in one write. */
const CLIENT = Buffer.concat([
  untyped(80877103),
  untyped(196608, Buffer.from('user\0postgres\0\0')),
  typed('Q', Buffer.from('SELECT 1\0')),
  typed('P', Buffer.from('\0SELECT $1\0\0\0')),
  typed('B', Buffer.alloc(12)),
  typed('D', Buffer.from('P\0')),
  typed('E', Buffer.from('\0\0\0\0\0')),
  typed('S'),
]);
/** The server's: 'N' (no TLS), auth ok, rows of both queries. */
const SERVER = Buffer.concat([
  Buffer.from('N'),
  typed('R', int32(0)),
  typed('Z', Buffer.from('I')),
  typed('D', Buffer.from('\0\x01\0\0\0\x011')),
  typed('C', Buffer.from('SELECT 1\0')),
  typed('D', Buffer.from('\0\x01\0\0\0\x011')),
  typed('d', Buffer.from('row\n')),
  typed('Z', Buffer.from('I')),
]);

/** Feeds `bytes` to `feed` in pieces of `size` bytes. */
const inPieces = (bytes, size, feed) => {
  for (let i = 0; i < bytes.length; i += size) feed(bytes.subarray(i, i + size));
};

for (const size of [1, 3, 7, 1000]) {
  test(`the wire counter counts statements, round trips and rows, bytes arriving ${size} at a time`, (t) => {
    const counts = emptyCounts();
    const c = countConnection(counts);
    // The client's SSL request comes before the server's one-byte answer, as on a real connection.
    inPieces(CLIENT.subarray(0, 8), size, c.fromClient);
    inPieces(SERVER, size, c.fromServer);
    inPieces(CLIENT.subarray(8), size, c.fromClient);
    t.deepEqual(counts, { statements: 2, round_trips: 2, rows: 3, bytes_sent: CLIENT.length, bytes_received: SERVER.length, connections: 1, encrypted: 0 });
  });
}

test('the wire counter stops counting a connection that turns to TLS', (t) => {
  const counts = emptyCounts();
  const c = countConnection(counts);
  c.fromClient(untyped(80877103));
  c.fromServer(Buffer.concat([Buffer.from('S'), typed('D')]));
  c.fromClient(typed('Q', Buffer.from('SELECT 1\0')));
  t.is(counts.encrypted, 1);
  t.is(counts.rows + counts.statements, 0);
});

// ---- capacity model ----
test('reads are told from writes, COPY of a SELECT included', (t) => {
  t.true(isRead('SELECT * FROM "forms" WHERE id = $1'));
  t.true(isRead('/* probe */ WITH x AS (SELECT 1) SELECT * FROM x'));
  t.true(isRead('COPY (SELECT a FROM t WHERE b IN (1, 2)) TO STDOUT (FORMAT binary)'));
  t.false(isRead('WITH due AS (SELECT id FROM "outbox") UPDATE "outbox" SET status = $1'));
  t.false(isRead('SELECT * FROM "outbox" FOR UPDATE SKIP LOCKED'));
  t.false(isRead('SELECT pg_advisory_xact_lock($1)'));
  t.false(isRead('INSERT INTO "rate_limits" VALUES ($1)'));
  t.false(isRead('COMMIT'));
  t.is(readShare([{ query: 'SELECT 1', exec_ms: 3 }, { query: 'UPDATE t SET a = 1', exec_ms: 1 }]), 0.75);
  t.is(readShare([]), null);
});

test('the model turns µs per request into requests a second per core, and app cores per PostgreSQL core', (t) => {
  const m = routeModel({ app_cpu_us: 500, db_exec_us: 100, db_cpu_us: 250, read_share: 0.75 });
  t.is(m.app_rps_per_core, 2000);
  t.is(m.db_rps_per_core_exec, 10000);
  t.is(m.db_rps_per_core_cpu, 4000);
  t.is(m.app_cores_per_db_core_exec, 5);
  t.is(m.app_cores_per_db_core_cpu, 2);
  t.is(m.primary_gain_with_replica, 4);
  t.is(routeModel({ app_cpu_us: null, db_exec_us: 0, db_cpu_us: null, read_share: null }).app_cores_per_db_core_exec, null);
  t.is(instancesByConnections(100), 8); // (100 - 3 reserved - 5 spare) / 11
  t.is(efficiency(300, 100, 3), 1);
  t.is(efficiency(0, 100, 2), null);
});
