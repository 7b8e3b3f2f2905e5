'use strict';
// A round-robin HTTP proxy for the scale-out family: the load balancer in front of N Formloom instances on one
// PostgreSQL. Each request goes to the next target in turn, over a keep-alive agent per target (as a load
// balancer keeps its upstream connections open), body and answer streamed through. It is the least a balancer
// does, so what the instances serve is not hidden behind it; it runs in a process of its own
// (`node bench/lib/proxy.js <port> <target>...`) so its CPU is measured apart from the bench and the instances.
const http = require('node:http');

/** Index of the next target, turn by turn: 0, 1, ..., n-1, 0, ... */
function roundRobin(n) {
  if (!(n > 0)) throw new Error('roundRobin needs at least one target');
  let next = 0;
  return () => {
    const i = next;
    next = (next + 1) % n;
    return i;
  };
}

/**
 * An http.Server that forwards each request to `targets` (base URLs, e.g. 'http://127.0.0.1:3001') in turn.
 * `served` counts the requests sent to each target. A target that fails answers 502 for that request.
 */
function createRoundRobinProxy(targets, { maxSockets = 256 } = {}) {
  const upstreams = targets.map((t) => {
    const u = new URL(t);
    return { hostname: u.hostname, port: Number(u.port), agent: new http.Agent({ keepAlive: true, maxSockets }) };
  });
  const pick = roundRobin(upstreams.length);
  const served = upstreams.map(() => 0);
  const server = http.createServer((req, res) => {
    const i = pick();
    served[i]++;
    const up = upstreams[i];
    const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress };
    const out = http.request({ hostname: up.hostname, port: up.port, agent: up.agent, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: target ${i} failed: ${e.message}`);
    });
    req.pipe(out);
  });
  server.keepAliveTimeout = 60_000;
  server.served = served;
  server.on('close', () => upstreams.forEach((u) => u.agent.destroy()));
  return server;
}

// As a process: `node proxy.js <port> <target>...`; prints `listening <port>` once it accepts connections,
// and the requests per target on stderr when stopped (SIGTERM).
if (require.main === module) {
  const [port, ...targets] = process.argv.slice(2);
  const server = createRoundRobinProxy(targets);
  server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  process.once('SIGTERM', () => {
    process.stderr.write(`served per target: ${server.served.join(' ')}\n`);
    server.close();
    server.closeAllConnections();
  });
}

module.exports = { roundRobin, createRoundRobinProxy };
