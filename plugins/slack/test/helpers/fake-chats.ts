import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Local stand-ins of the four services' incoming webhooks, checking a message as each service documents it
 * and answering as it does: Slack `200 ok` (400 `invalid_blocks` / `no_text`), Discord with `?wait=true`
 * the message as JSON (400 `Invalid Form Body`, 429 with `retry_after`), a Teams workflow `202` (400 on a
 * message without an Adaptive Card), Google Chat the message as JSON (400 `INVALID_ARGUMENT`; 409
 * `ALREADY_EXISTS` for a `messageId` the space has).
 */

export type Service = 'slack' | 'discord' | 'teams' | 'gchat';

function problem(service: Service, m: any, query: URLSearchParams): string | null {
  if (!m || typeof m !== 'object') return 'not JSON';
  if (service === 'slack') {
    if (!m.text && !m.blocks) return 'no_text';
    if (m.blocks && (!Array.isArray(m.blocks) || m.blocks.length > 50)) return 'invalid_blocks';
    for (const b of m.blocks ?? []) {
      if (b.type === 'header' && (b.text?.type !== 'plain_text' || b.text.text.length > 150)) return 'invalid_blocks';
      if (b.type === 'section' && (!b.text?.text || b.text.text.length > 3000)) return 'invalid_blocks';
    }
    return null;
  }
  if (service === 'discord') {
    if (query.get('wait') !== 'true') return 'expected wait=true';
    if (!m.content && !m.embeds?.length) return 'Cannot send an empty message';
    let total = 0;
    for (const e of m.embeds ?? []) {
      if ((e.title ?? '').length > 256 || (e.fields ?? []).length > 25) return 'Invalid Form Body';
      total += (e.title ?? '').length + (e.description ?? '').length;
      for (const f of e.fields ?? []) {
        if (!f.name || !f.value || f.name.length > 256 || f.value.length > 1024) return 'Invalid Form Body';
        total += f.name.length + f.value.length;
      }
    }
    return total > 6000 ? 'Invalid Form Body' : null;
  }
  if (service === 'teams') {
    const a = m.attachments?.[0];
    return m.type === 'message' && a?.contentType === 'application/vnd.microsoft.card.adaptive' && a.content?.type === 'AdaptiveCard' ? null : 'Bad Request';
  }
  if (!m.text && !m.cardsV2) return 'Invalid JSON payload';
  return null;
}

export async function fakeChats() {
  const received: Record<Service, any[]> = { slack: [], discord: [], teams: [], gchat: [] };
  const failures: Record<Service, number[]> = { slack: [], discord: [], teams: [], gchat: [] };
  const gchatIds = new Set<string>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const service = url.pathname.split('/')[1] as Service;
      const send = (status: number, body: unknown = '', headers: Record<string, string> = {}) => {
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers });
        res.end(text);
      };
      const failure = failures[service]?.shift();
      if (failure === 429) {
        return service === 'discord'
          ? send(429, { message: 'You are being rate limited.', retry_after: 0.05, global: false }, { 'retry-after': '1' })
          : send(429, 'rate_limited', { 'retry-after': '1' });
      }
      if (failure) return send(failure, service === 'slack' ? 'rollup_error' : 'Service Unavailable');
      let m: any;
      try {
        m = JSON.parse(raw);
      } catch {
        m = null;
      }
      const why = problem(service, m, url.searchParams);
      if (why) {
        if (service === 'discord') return send(400, { code: 50035, message: why });
        if (service === 'gchat') return send(400, { error: { code: 400, message: why, status: 'INVALID_ARGUMENT' } });
        return send(400, why);
      }
      if (service === 'gchat') {
        // spaces.messages.create's client-assigned `messageId`: `client-`, lower-case letters, digits and
        // hyphens, at most 63 characters, unique in the space (a repeat is 409 ALREADY_EXISTS).
        const messageId = url.searchParams.get('messageId');
        if (messageId !== null && !/^client-[a-z0-9-]{1,56}$/.test(messageId)) {
          return send(400, { error: { code: 400, message: 'Invalid message id', status: 'INVALID_ARGUMENT' } });
        }
        if (messageId !== null && gchatIds.has(messageId)) {
          return send(409, { error: { code: 409, message: `Message spaces/AAA/messages/${messageId} already exists.`, status: 'ALREADY_EXISTS' } });
        }
        if (messageId !== null) gchatIds.add(messageId);
      }
      received[service].push(m);
      if (service === 'slack') return send(200, 'ok');
      if (service === 'discord') return send(200, { id: String(received.discord.length), channel_id: '1', embeds: m.embeds });
      if (service === 'teams') return send(202);
      return send(200, { name: `spaces/AAA/messages/${received.gchat.length}`, text: m.text });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    /** The next answers of `service` are these failures (503, 429...), then it works again. */
    fail: (service: Service, statuses: number[]) => failures[service].push(...statuses),
    url: (service: Service) => `${base}/${service}/hooks/T000/B000/secret-token`,
    close: () => new Promise((r) => server.close(r)),
  };
}
