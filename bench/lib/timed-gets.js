'use strict';
// Sequential timed GETs, for the measures that want each request's own latency (scale family).
const http = require('node:http');
const { timedRequest } = require('./http');
const { describe } = require('./stats');

/**
 * p50/p95 (describe()) of `n` sequential GETs of `path` after 3 warm-ups, on one keep-alive connection,
 * with `apiKey` (default the app's); a non-200 is recorded in `errors`; `check` sees the last body.
 */
async function timeGets(app, path, n, errors, check, apiKey = app.apiKey) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () => timedRequest(app.url, 'GET', path, { apiKey, agent });
  try {
    for (let i = 0; i < 3; i++) await get();
    const ms = [];
    let last = null;
    for (let i = 0; i < n; i++) {
      const r = await get();
      if (r.status !== 200) errors.push(`GET ${path} answered ${r.status}: ${r.text.slice(0, 200)}`);
      ms.push(r.end_ms - r.start_ms);
      last = r;
    }
    if (check && last) check(JSON.parse(last.text));
    return describe(ms);
  } finally {
    agent.destroy();
  }
}

/**
 * Like timeGets for several paths measured against each other: their requests alternate (the order
 * flipped every round), so drift of the machine or of the app (a collection, a checkpoint) falls on
 * each alike. Returns one describe() per path; `checks[i]` sees path i's last body.
 */
async function timeGetsInterleaved(app, paths, n, errors, checks = [], apiKey = app.apiKey) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) => timedRequest(app.url, 'GET', path, { apiKey, agent });
  try {
    for (let i = 0; i < 3; i++) for (const path of paths) await get(path);
    const ms = paths.map(() => []);
    const last = paths.map(() => null);
    for (let i = 0; i < n; i++) {
      const order = paths.map((_, j) => j);
      if (i % 2) order.reverse();
      for (const j of order) {
        const r = await get(paths[j]);
        if (r.status !== 200) errors.push(`GET ${paths[j]} answered ${r.status}: ${r.text.slice(0, 200)}`);
        ms[j].push(r.end_ms - r.start_ms);
        last[j] = r;
      }
    }
    last.forEach((r, j) => r && checks[j] && checks[j](JSON.parse(r.text)));
    return ms.map((xs) => describe(xs));
  } finally {
    agent.destroy();
  }
}

module.exports = { timeGets, timeGetsInterleaved };
