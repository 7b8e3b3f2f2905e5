'use strict';
// A TCP relay in front of PostgreSQL that counts what crosses the wire (the v3 protocol's message framing),
// for the scale-out family's "database work per request": statements sent, round trips (each point where the
// client waits for the server: a simple Query or an extended-protocol Sync), rows returned (DataRow, CopyData) and bytes
// each way. It reads only the message headers and forwards every byte unchanged, so it works with any client
// and needs nothing of the server (pg_stat_statements gives the server's side where it is loaded). A
// connection that switches to TLS is relayed but no longer counted (`encrypted`).
const net = require('node:net');

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;

/** Zeroed counters: what `count()` accumulates. */
const emptyCounts = () => ({ statements: 0, round_trips: 0, rows: 0, bytes_sent: 0, bytes_received: 0, connections: 0, encrypted: 0 });

/**
 * A parser of one direction of a connection: `feed(chunk)` calls `onMessage(type, code)` once per complete
 * header. `untyped` messages (the client's first: Int32 length, Int32 code) come before the typed ones (Byte
 * type, Int32 length); `rawBytes` single bytes with no framing (the server's answer to an SSL request) first.
 */
function messageParser(onMessage, { untyped = false } = {}) {
  const state = { untyped, rawBytes: 0, remaining: 0, header: Buffer.alloc(8), have: 0, stopped: false };
  state.feed = (chunk) => {
    let pos = 0;
    while (pos < chunk.length && !state.stopped) {
      if (state.remaining > 0) {
        const take = Math.min(state.remaining, chunk.length - pos);
        state.remaining -= take;
        pos += take;
        continue;
      }
      if (state.rawBytes > 0) {
        state.rawBytes--;
        onMessage('raw', chunk[pos++]);
        continue;
      }
      const size = state.untyped ? 8 : 5;
      const take = Math.min(size - state.have, chunk.length - pos);
      chunk.copy(state.header, state.have, pos, pos + take);
      state.have += take;
      pos += take;
      if (state.have < size) break;
      state.have = 0;
      if (state.untyped) {
        const length = state.header.readInt32BE(0);
        state.remaining = length - 8;
        onMessage('startup', state.header.readInt32BE(4));
      } else {
        state.remaining = state.header.readInt32BE(1) - 4;
        onMessage(String.fromCharCode(state.header[0]));
      }
    }
  };
  return state;
}

/**
 * Counts one relayed connection into `counts`: the client's messages (Q: a statement and a round trip; E: a
 * statement; S: a round trip) and the server's (D, and d in a COPY TO: a row).
 */
function countConnection(counts) {
  counts.connections++;
  let server = null;
  const client = messageParser(
    (type, code) => {
      if (type === 'startup') {
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) server.rawBytes++;
        else if (code === PROTOCOL_3) client.untyped = false;
        return;
      }
      if (type === 'Q') {
        counts.statements++;
        counts.round_trips++;
      } else if (type === 'E') counts.statements++;
      else if (type === 'S') counts.round_trips++;
    },
    { untyped: true },
  );
  server = messageParser((type, code) => {
    if (type === 'raw' && code === 0x53 /* 'S': TLS from here on */) {
      counts.encrypted++;
      client.stopped = server.stopped = true;
    } else if (type === 'D' || type === 'd') counts.rows++; // a DataRow, or a CopyData: COPY TO sends one per row
  });
  return {
    fromClient: (chunk) => ((counts.bytes_sent += chunk.length), client.feed(chunk)),
    fromServer: (chunk) => ((counts.bytes_received += chunk.length), server.feed(chunk)),
  };
}

/**
 * Listens on 127.0.0.1 (a free port) and relays each connection to `target` ({ host, port }), counting.
 * Resolves with { port, counts() (a copy of the totals so far), close() }.
 */
async function startPgWireCounter(target) {
  const totals = emptyCounts();
  const sockets = new Set();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    const c = countConnection(totals);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
    }
    inbound.on('data', (chunk) => {
      c.fromClient(chunk);
      if (!outbound.write(chunk)) inbound.pause();
    });
    outbound.on('drain', () => inbound.resume());
    outbound.on('data', (chunk) => {
      c.fromServer(chunk);
      if (!inbound.write(chunk)) outbound.pause();
    });
    inbound.on('drain', () => outbound.resume());
    inbound.on('end', () => outbound.end());
    outbound.on('end', () => inbound.end());
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    counts: () => ({ ...totals }),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `after - before` for every counter. */
const diffCounts = (after, before) => Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]));

module.exports = { startPgWireCounter, countConnection, messageParser, diffCounts, emptyCounts };
