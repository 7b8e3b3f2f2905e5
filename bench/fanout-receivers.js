'use strict';
// Local receivers for bench/integrations-fanout.js, each speaking the part of its service's HTTP API the
// plugin uses and keeping what the service would keep, so a repeat that the service would store shows:
// - chat webhooks (Slack, Discord): every message posted is a message in the channel;
// - REST Hooks (Zapier): a record per X-Formloom-Delivery id (Zapier's de-duplication by id);
// - Google Chat: spaces.messages.create with the client-assigned `messageId` (a repeat: 409 ALREADY_EXISTS);
// - Notion: databases.retrieve, data_sources.retrieve, data_sources.query (a text property equal to a
//   value) and pages.create: a page per create, whatever it holds.
// Each answers `stored()`: response id -> how many records (messages, pages) the service keeps for it.
const http = require('node:http');
const { randomUUID } = require('node:crypto');

const idIn = (text) => /(rsp_[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;
const add = (map, key, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

function listen(handler, extra) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      handler(req, new URL(req.url, 'http://x'), text ? JSON.parse(text) : null, res);
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close(), ...extra })),
  );
}

const json = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** An incoming webhook that keeps every message (`pick`: the response id a message names). */
function chatWebhook(pick, answer) {
  const kept = new Map();
  let requests = 0;
  return listen(
    (req, url, body, res) => {
      requests++;
      add(kept, pick(body));
      answer(res);
    },
    { stored: () => kept, requests: () => requests, repeatsRefused: () => 0 },
  );
}

const slack = () => chatWebhook((m) => idIn(JSON.stringify(m.blocks.at(-1))), (res) => res.end('ok'));
const discord = () => chatWebhook((m) => idIn(m.embeds[0].url), (res) => json(res, 200, { id: '1' }));

/** A REST Hooks subscriber that keeps one record per delivery id (as Zapier de-duplicates by id). */
function restHooks() {
  const byResponse = new Map();
  let requests = 0;
  let repeats = 0;
  return listen(
    (req, url, body, res) => {
      requests++;
      const ids = byResponse.get(body.response_id) ?? new Set();
      const id = req.headers['x-formloom-delivery'];
      if (ids.has(id)) repeats++;
      byResponse.set(body.response_id, ids.add(id));
      json(res, 200, { status: 'success' });
    },
    {
      stored: () => new Map([...byResponse].map(([k, ids]) => [k, ids.size])),
      requests: () => requests,
      repeatsRefused: () => repeats,
    },
  );
}

/** A Google Chat space's webhook: a message per create, a known `messageId` refused with 409 ALREADY_EXISTS. */
function googleChat() {
  const kept = new Map();
  const ids = new Set();
  let requests = 0;
  let repeats = 0;
  return listen(
    (req, url, body, res) => {
      requests++;
      const messageId = url.searchParams.get('messageId');
      if (messageId !== null && !/^client-[a-z0-9-]{1,56}$/.test(messageId)) return json(res, 400, { error: { code: 400, status: 'INVALID_ARGUMENT' } });
      if (messageId !== null && ids.has(messageId)) {
        repeats++;
        return json(res, 409, { error: { code: 409, message: 'Message already exists.', status: 'ALREADY_EXISTS' } });
      }
      if (messageId !== null) ids.add(messageId);
      add(kept, idIn(JSON.stringify(body.cardsV2)));
      json(res, 200, { name: `spaces/AAA/messages/${messageId ?? randomUUID()}` });
    },
    { stored: () => kept, requests: () => requests, repeatsRefused: () => repeats },
  );
}

/** A Notion database with a title and a "Response ID" text property. */
function notion(databaseId) {
  const dataSourceId = randomUUID();
  const pages = [];
  let requests = 0;
  let lookups = 0;
  let found = 0;
  const text = (v) => (v?.rich_text ?? []).map((t) => t.text.content).join('');
  return listen(
    (req, url, body, res) => {
      requests++;
      if (req.method === 'GET' && url.pathname === `/v1/databases/${databaseId}`) {
        return json(res, 200, { object: 'database', id: databaseId, data_sources: [{ id: dataSourceId, name: 'Responses' }] });
      }
      if (req.method === 'GET' && url.pathname === `/v1/data_sources/${dataSourceId}`) {
        return json(res, 200, { object: 'data_source', id: dataSourceId, properties: { Name: { id: 'title', name: 'Name', type: 'title', title: {} }, 'Response ID': { id: 'p1', name: 'Response ID', type: 'rich_text', rich_text: {} } } });
      }
      if (req.method === 'POST' && url.pathname === `/v1/data_sources/${dataSourceId}/query`) {
        lookups++;
        const want = body.filter.rich_text.equals;
        const hits = pages.filter((p) => text(p['Response ID']) === want).slice(0, body.page_size ?? 100);
        found += hits.length ? 1 : 0;
        return json(res, 200, { object: 'list', results: hits.map((p) => ({ object: 'page', id: p.id })), has_more: false, next_cursor: null });
      }
      if (req.method === 'POST' && url.pathname === '/v1/pages') {
        const page = { id: randomUUID(), ...body.properties };
        pages.push(page);
        return json(res, 200, { object: 'page', id: page.id });
      }
      json(res, 400, { object: 'error', status: 400, code: 'invalid_request_url', message: `${req.method} ${url.pathname}` });
    },
    {
      stored: () => {
        const kept = new Map();
        for (const p of pages) add(kept, text(p['Response ID']));
        return kept;
      },
      requests: () => requests,
      repeatsRefused: () => found,
      lookups: () => lookups,
    },
  );
}

module.exports = { slack, discord, restHooks, googleChat, notion };
