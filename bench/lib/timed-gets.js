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

module.exports = { timeGets };
