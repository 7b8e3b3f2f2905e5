import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { ExecutionContext } from 'ava';
import { startTestApp, type DbKind, type TestApp } from './app';
import { deepBody, fuzzBody, Rng, type FuzzBody } from './fuzz-gen';
import { fuzzHeaders, fuzzMultipart, fuzzParam, fuzzQuery, junkPdf } from './fuzz-http';
import { sampleOf, targetsOf, type Target } from './fuzz-targets';
import { fuzzAppOptions, makeWorld, type World } from './fuzz-world';
import { filesUnder, rawRequest } from './raw-http';
import { sendValidRequests } from './fuzz-valid';

/**
 * The fuzz run: every operation of the served OpenAPI document and every public page, in turn, with
 * seeded hostile input; every answer checked; every table's contents compared around batches of refused requests.
 */

/**
 * Hostile requests in one run: a short budget in `npm test` (each of the ~90 operations and pages reached
 * five times, in different ways), the full one in `npm run test:deep` (FORMLOOM_TEST_DEEP=1), where the
 * fuzzers take about two minutes each; FUZZ_REQUESTS sets any other.
 */
export const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? (process.env.FORMLOOM_TEST_DEEP ? 2400 : 440));

/** A request without an answer after this long counts as a hang. */
export const HANG_MS = 60_000;
const BATCH = 40;
const PARALLEL = 4;

interface Planned {
  label: string;
  target: Target;
  method: string;
  /** Path and query. */
  path: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Sent with a Content-Length larger than the body, then the connection is cut. */
  cut?: boolean;
  /** Nearly valid (real ids, own key, one hostile leaf): likely to get past the schemas, and to write. */
  deep?: boolean;
}

/**
 * A real value for a path parameter of `target`, so that some requests get past the look-ups; `fixture`
 * when it is one of the world's own (which a request valid in every way must not change).
 */
function realParam(r: Rng, world: World, target: Target, name: string): { value: string; fixture: boolean } | undefined {
  const fixed = (value: string | undefined) => (value === undefined ? undefined : { value, fixture: true });
  if (target.path.startsWith('/api/v1/voice/generations') && name === 'id') return fixed(world.generationId);
  if (target.path.includes('/public/uploads/') && name === 'token') return fixed(world.params.uploadToken![0]);
  if (target.path.startsWith('/api/v1/fuzzplug')) return { value: r.word(), fixture: false };
  if (target.path === '/formloom/assets/:name') return { value: r.pick(['formloom.css', 'formloom-form.js']), fixture: false };
  const created = (world.created as Record<string, string[] | undefined>)[name];
  if (created?.length && r.chance(0.5)) return { value: r.pick(created), fixture: false };
  const values = world.params[name];
  return values ? fixed(r.pick(values)) : undefined;
}

/** Templates by `METHOD /path` (Express style without the mount), else a sample of the documented schema. */
function templateOf(r: Rng, world: World, target: Target): (() => unknown) | null {
  const key = `${target.method} ${target.path.replace('/api/v1', '')}`;
  if (key === 'POST /voice') return world.templates[r.pick(['POST /voice', 'POST /voice#estimate', 'POST /voice#script'])]!;
  if (world.templates[key]) return world.templates[key]!;
  const schema = target.schema;
  if (schema) return () => sampleOf(new Rng(r.int(1e9)), schema);
  return null;
}

function bodyOf(r: Rng, world: World, target: Target, mutating: boolean, deep: boolean): { body?: FuzzBody | { text: Buffer; contentType: string; label: string } } {
  const template = templateOf(r, world, target);
  if (deep && template) return { body: deepBody(r, template) };
  if (target.accepts.includes('application/pdf') && r.chance(0.5)) {
    const pdf = junkPdf(r, world.sealedPdf);
    return { body: { text: pdf.body, contentType: r.chance(0.9) ? 'application/pdf' : 'application/octet-stream', label: pdf.label } };
  }
  if (template) return { body: fuzzBody(r, template) };
  // No documented body: sometimes one anyway (a DELETE or GET with JSON, or junk).
  if (mutating ? r.chance(0.3) : r.chance(0.05)) return { body: fuzzBody(r, () => ({ title: 'T', items: [1] })) };
  return {};
}

export function plan(r: Rng, world: World, targets: Target[], i: number): Planned {
  const target = targets[i % targets.length]!;
  const mutating = target.method !== 'GET';
  const hasBody = !!templateOf(new Rng(0), world, target) || target.accepts.length > 0;
  const deep = hasBody && mutating && r.chance(0.3);
  const keyKinds = target.auth ? (['own', 'own', 'own', 'other', 'none', 'garbage'] as const) : (['none', 'none', 'own', 'garbage'] as const);
  let keyKind: 'own' | 'other' | 'none' | 'garbage' = deep ? (target.auth ? 'own' : 'none') : r.pick(keyKinds);
  // The first round over the targets sends each keyed operation a garbage key (and each public one made-up ids), so
  // that every operation is refused at least once whatever the budget (the short budget gives each only a few requests).
  const firstRound = !deep && i < targets.length;
  if (firstRound && target.auth) keyKind = 'garbage';
  const names = [...target.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  // Without parameters, a body or a valid key, a mutating request would only ever be accepted: no key then.
  if (mutating && target.auth && keyKind === 'own' && !names.length && !hasBody) keyKind = 'none';
  const labels: string[] = [target.method, target.path, `key:${keyKind}`];
  // A public operation's first request names records that do not exist (refused with a 404).
  const picks = names.map((n) => ({ n, real: r.chance(deep ? 0.95 : 0.55) && !(firstRound && !target.auth) ? realParam(r, world, target, n) : undefined }));
  // A nearly valid replacement of the fixture form would drop the questions the other requests rely on.
  if (deep && target.method === 'PUT' && target.key === '/forms/{id}' && picks[0]?.real?.fixture) picks[0].real = world.created.id.length ? { value: r.pick(world.created.id), fixture: false } : undefined;
  // A mutating request that is valid in every other way must not carry only the fixture's real ids, or it
  // would change the fixture: then one parameter is fuzzed.
  if (mutating && keyKind === 'own' && !hasBody && picks.length && picks.every((p) => p.real?.fixture)) picks[r.int(picks.length)]!.real = undefined;
  let path = target.path;
  for (const { n, real } of picks) path = path.replace(`:${n}`, real ? real.value : fuzzParam(r, n));
  // A public read without path parameters has nothing made-up to name: its first request carries a query
  // value over any declared limit instead, so that it too is refused whatever the seed.
  if (firstRound && !target.auth && !names.length && !mutating && target.query.length) path += `?${r.pick(target.query)}=${'x'.repeat(5000)}`;
  else if (r.chance(deep ? 0.1 : 0.5)) path += fuzzQuery(r, target.query);
  const headers: Array<[string, string]> = [];
  const own = target.scope === 'voice' ? world.voiceKey : world.formsKey;
  const other = target.scope === 'voice' ? world.formsKey : world.voiceKey;
  if (keyKind === 'own') headers.push(['Authorization', `Bearer ${own}`]);
  if (keyKind === 'other') headers.push(['Authorization', `Bearer ${other}`]);
  if (keyKind === 'garbage') {
    headers.push(['Authorization', r.pick(['Bearer x', 'Basic Zm9vOmJhcg==', `Bearer fl_${'a'.repeat(24)}_${'b'.repeat(64)}`, 'Bearer', 'Bearer ' + 'k'.repeat(5000), 'bearer  Ωmega', `Bearer ${own}x`])]);
  }
  if (target.path.includes('/s/:shortCode') && r.chance(0.5)) headers.push(['X-Access-Token', world.accessToken]);
  if (target.path.includes('/responses/:responseId') && r.chance(0.7)) headers.push(['X-Resume-Token', world.resumeToken]);
  if (r.chance(deep ? 0.1 : 0.35)) {
    const extra = fuzzHeaders(r, target.path);
    headers.push(...extra);
    labels.push(`headers ${extra.map(([k, v]) => `${k}=${JSON.stringify(v.slice(0, 24))}`).join(',')}`);
  }
  const planned: Planned = { label: '', target, method: target.method, path, headers, deep };
  if (deep) labels.push('deep');
  if (target.key.endsWith('/uploads') && r.chance(0.7)) {
    const mp = fuzzMultipart(r);
    planned.body = Buffer.from(mp.body);
    headers.push(['Content-Type', mp.boundary ? `multipart/form-data; boundary=${mp.boundary}` : 'multipart/form-data']);
    labels.push(`multipart ${mp.label}`);
  } else if (mutating || r.chance(0.05)) {
    const { body } = bodyOf(r, world, target, mutating, deep);
    if (body) {
      planned.body = Buffer.isBuffer(body.text) ? body.text : Buffer.from(body.text);
      const type = body.contentType ?? 'application/json';
      if (type !== '') headers.push(['Content-Type', type]);
      if ('contentEncoding' in body && body.contentEncoding) headers.push(['Content-Encoding', body.contentEncoding]);
      labels.push(`body ${body.label}`);
      planned.cut = !deep && r.chance(0.02);
    }
  }
  planned.label = `${labels.join(' ')} -> ${path.slice(0, 160)}`;
  return planned;
}

export async function send(baseUrl: string, p: Planned): Promise<{ status: number; text: string; headers: Record<string, string>; timedOut: boolean }> {
  const lines = [`${p.method} ${p.path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...p.headers.map(([k, v]) => `${k}: ${v}`)];
  if (p.body) lines.push(`Content-Length: ${p.body.length + (p.cut ? 10 : 0)}`);
  const res = await rawRequest(baseUrl, lines.join('\n'), p.body ?? '', { timeoutMs: HANG_MS, destroyAfterSend: p.cut });
  return { status: res.status, text: res.body, headers: res.headers, timedOut: res.timedOut };
}

/**
 * What every table holds (its row count and a digest of its rows' contents, in any order) and the blob
 * store's files (names and sizes): a refused request that inserted, deleted or updated anything changes it.
 */
export async function snapshot(app: TestApp): Promise<Record<string, string>> {
  // The analytics indexer counts accepted submissions in the background (docs/responses-and-webhooks.md, "How a
  // submission is counted"): it is drained first, so its later batches are not taken for a refused request's writes.
  await app.indexed?.();
  const tables = await app.raw(
    app.kind === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
  );
  const state: Record<string, string> = {};
  // Refused requests count against rate limits by design (a flood of bad requests is still a flood), and
  // counters far below their limit are written in batches a moment later: not data the request wrote.
  for (const { name } of tables) if (name !== 'rate_limits') state[name] = await tableDigest(app, name);
  state['(blob files)'] = filesUnder(app.blobDir)
    .map((f) => `${f}:${statSync(f).size}`)
    .sort()
    .join('|');
  return state;
}

/** `<rows> rows, <digest>`: the digest is of the sorted digests of each row's full text. */
async function tableDigest(app: TestApp, table: string): Promise<string> {
  if (app.kind === 'postgres') {
    // Computed by the server: the rows themselves never travel.
    const [row] = await app.raw(`SELECT COUNT(*) AS n, md5(COALESCE(string_agg(md5(t::text), '' ORDER BY md5(t::text)), '')) AS d FROM "${table}" t`);
    return `${row.n} rows, ${row.d}`;
  }
  const rows = await app.raw(`SELECT * FROM "${table}"`);
  const digests = rows.map((r: Record<string, unknown>) => createHash('md5').update(JSON.stringify(Object.entries(r), (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v))).digest('hex')).sort();
  return `${rows.length} rows, ${createHash('md5').update(digests.join('')).digest('hex')}`;
}

/** What must hold for every answer; the problem found, or none. */
export function check(p: Planned, res: { status: number; text: string; timedOut: boolean }): string | null {
  if (res.timedOut) return `no answer within ${HANG_MS} ms`;
  if (p.cut) return null;
  if (res.status === 0) return 'connection closed without an answer';
  // Node's HTTP parser refuses a head over its size limit before any router runs: the host's answer, not ours.
  if (res.status === 431 && !res.text) return null;
  const api = p.path.startsWith('/api/v1/');
  let body: any;
  if (res.status >= 400 && api) {
    try {
      body = JSON.parse(res.text);
    } catch {
      return `${res.status} without a JSON body: ${res.text.slice(0, 200)}`;
    }
  }
  if (res.status >= 500) {
    // The one documented 5xx a client may see: the speech engine still starting (voice), with its code.
    const warming = res.status === 503 && p.target.scope === 'voice' && body?.error?.code === 'WARMING_UP';
    return warming ? null : `${res.status}: ${res.text.slice(0, 200)}`;
  }
  if (res.status >= 400 && api) {
    const e = body?.error;
    if (p.target.plain.has(res.status) && typeof e === 'string' && e.length > 0) return null;
    if (typeof e?.code !== 'string' || typeof e?.message !== 'string' || e?.status !== res.status) {
      return `${res.status} not in the structured shape: ${res.text.slice(0, 200)}`;
    }
  }
  return null;
}

/** GETs that record something when they succeed: a view of the contract; audio in another format, kept once made. */
const WRITING_GETS = [/^\/api\/v1\/s\/[^/?]+\/document(\?|$)/, /^\/api\/v1\/voice\/generations\/[^/?]+\/audio/];
const CREATES_FORM = /^\/api\/v1\/forms(\/[^/?]+\/duplicate)?(\?|$)/;
/** Refusals that are counted by design: a wrong signing-link password counts towards the link's lock-out. */
const COUNTED_REFUSALS: Array<[RegExp, number]> = [[/^\/api\/v1\/s\/[^/?]+\/verify-password(\?|$)/, 401]];

export interface FuzzOptions {
  seed: number;
  requests: number;
}

export async function runFuzz(t: ExecutionContext, kind: DbKind, { seed, requests }: FuzzOptions) {
  const app = await startTestApp(kind, fuzzAppOptions());
  t.teardown(() => app.close());
  const world = await makeWorld(app);
  const doc = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
  const targets = targetsOf(doc);
  const r = new Rng(seed);
  t.log(`fuzz seed ${seed} on ${kind} (replay with FUZZ_SEED=${seed}); ${targets.length} targets`);
  // First what the document calls valid, which the server must accept (fuzz-valid.ts); then the hostile run.
  const valid = await sendValidRequests(t, app, doc, targets, world, seed);
  const failures: string[] = [];
  const refused = new Set<string>();
  const undocumented = new Map<string, number>();
  const statuses: Record<number, number> = {};
  let compared = 0;
  let groups = 0;
  const accepted_ = new Set<string>();
  const acceptedDeep = new Set<string>();
  let last: Record<string, string> | null = null;
  // One group: every table's contents before, the requests a few at a time, the contents after unless one was accepted.
  const sendGroup = async (group: Array<{ p: Planned; i: number }>, where: string) => {
    const before = last ?? (await snapshot(app));
    let wrote = false;
    const made: Array<{ i: number; id: string; slug: string }> = [];
    for (let j = 0; j < group.length; j += PARALLEL) {
      await Promise.all(
        group.slice(j, j + PARALLEL).map(async ({ p, i }) => {
          const res = await send(app.url, p);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const problem = check(p, res);
          if (problem) failures.push(`#${i} ${p.label}: ${problem}`);
          const op = `${p.method} ${p.target.key}`;
          if (res.status >= 400 && res.status < 500) {
            refused.add(op);
            // 431 comes from Node's HTTP parser (request head too large), before any Formloom code.
            if (!p.target.page && res.status !== 431 && !p.target.documented.has(res.status)) undocumented.set(`${op} ${res.status}`, (undocumented.get(`${op} ${res.status}`) ?? 0) + 1);
          }
          // An accepted change (a mutated body can still be valid) is allowed; its group is not compared.
          const accepted = res.status > 0 && res.status < 400;
          if (accepted) (p.deep ? acceptedDeep : accepted_).add(op);
          if (res.status === 201 && p.method === 'POST' && CREATES_FORM.test(p.path)) {
            const form = JSON.parse(res.text) as { id: string; slug: string };
            made.push({ i, id: form.id, slug: form.slug });
          }
          if (accepted && !p.cut && (p.method !== 'GET' || WRITING_GETS.some((re) => re.test(p.path)))) wrote = true;
          if (COUNTED_REFUSALS.some(([re, status]) => res.status === status && re.test(p.path))) wrote = true;
        }),
      );
    }
    groups++;
    last = null;
    // In request order, so that the seed alone decides which form a later request picks.
    for (const m of made.sort((a, b) => a.i - b.i)) {
      if (world.created.id.length >= 30) break;
      world.created.id.push(m.id);
      world.created.slug.push(m.slug);
    }
    if (wrote) return;
    compared++;
    const after = await snapshot(app);
    last = after;
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      const diff = Object.keys(after).filter((k) => after[k] !== before[k]).map((k) => `${k}: ${before[k]} -> ${after[k]}`);
      failures.push(`${where}: refused requests changed the data: ${diff.join('; ')} (${group.map(({ p, i }) => `#${i} ${p.label.slice(0, 200)}`).join(" | ")})`);
    }
  };
  for (let start = 0; start < requests; start += BATCH) {
    // Planned in order (so the seed fixes every request); the hostile ones sent together, the nearly valid
    // ones (more often accepted) in small groups, so that most groups can still be compared.
    const planned = Array.from({ length: Math.min(BATCH, requests - start) }, (_, j) => ({ p: plan(r, world, targets, start + j), i: start + j }));
    const hostile = planned.filter((x) => !x.p.deep);
    for (let j = 0; j < hostile.length; j += 3 * PARALLEL) await sendGroup(hostile.slice(j, j + 3 * PARALLEL), `hostile group of batch #${start}`);
    const deep = planned.filter((x) => x.p.deep);
    for (let j = 0; j < deep.length; j += PARALLEL) await sendGroup(deep.slice(j, j + PARALLEL), `nearly valid group of batch #${start}`);
  }
  t.log(`answers by status ${JSON.stringify(statuses)}; tables compared for ${compared} of ${groups} groups`);
  t.log(`operations that accepted a hostile request: ${accepted_.size}; a nearly valid one: ${acceptedDeep.size}; forms created by the run: ${world.created.id.length}`);
  if (process.env.FUZZ_VERBOSE) t.log(`nearly valid accepted by: ${[...acceptedDeep].join('; ')}`);
  // Clients generated from the OpenAPI document must know every status an operation can answer.
  t.deepEqual([...undocumented.keys()], [], '4xx statuses not in the operation\'s documented responses');
  t.deepEqual(failures.slice(0, 30), [], `seed ${seed}: ${failures.length} failures`);
  t.deepEqual(valid.failures.slice(0, 30), [], `seed ${seed}: ${valid.failures.length} schema-valid requests refused as malformed`);
  t.true(compared >= groups * 0.5, `tables compared for ${compared} of ${groups} groups`);
  // Every operation and page was refused at least once, but the document itself (nothing to refuse) and /embed.js.
  t.deepEqual(targets.map((x) => `${x.method} ${x.key}`).filter((x) => !refused.has(x)), ['GET /openapi.json', 'GET /embed.js'].filter((x) => targets.some((y) => `${y.method} ${y.key}` === x)));
  // Still alive and well.
  t.is((await app.api('GET', '/forms', { key: world.formsKey })).status, 200);
  t.is((await app.api('GET', '/voice/voices', { key: world.voiceKey })).status, 200);
  // The run may itself have unpublished or deleted the form (a valid request among the hostile ones).
  t.true([200, 404].includes((await fetch(`${app.url}/f/${world.slug}`)).status));
  t.is((await fetch(`${app.url}/embed.js`)).status, 200);
}
