import test from 'ava';
import { BUILT_IN_ROUTES } from '../src';
import { startTestApp, type DbKind, type TestApp } from './helpers/app';
import { Rng, fuzzBody, fuzzMultipart, fuzzParam, fuzzQuery } from './helpers/fuzz-gen';
import { filesUnder, multipartHead, rawRequest } from './helpers/raw-http';

/** Fixed, so a failure replays; `FUZZ_SEED=<n>` explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUESTS = 1500;
/** SQLite by default (one kind is enough for the budget); `FUZZ_DB=postgres` runs the same against PostgreSQL. */
const DB: DbKind = process.env.FUZZ_DB === 'postgres' ? 'postgres' : 'sqlite';
/** A request without an answer after this long counts as a hang. */
const HANG_MS = 10_000;
const BATCH = 40;
const PARALLEL = 4;

interface Target {
  method: string;
  path: string;
  /** Which body template fits the route, or none for routes without a body. */
  template: 'form' | 'response' | 'team' | 'webhooks' | null;
  upload?: boolean;
}

const TEMPLATE_BY_PATH: Array<[RegExp, Target['template']]> = [
  [/^\/forms(\/:id)?$/, 'form'],
  [/responses/, 'response'],
  [/^\/teams|invitations/, 'team'],
  [/webhooks|bulk-delete/, 'webhooks'],
];

/** Every route of the router's table, the OpenAPI document, and the public page. */
const TARGETS: Target[] = [
  ...BUILT_IN_ROUTES.map((r) => ({
    method: r.method.toUpperCase(),
    path: `/api/v1${r.path}`,
    template: r.body ? (TEMPLATE_BY_PATH.find(([re]) => re.test(r.path))?.[1] ?? 'form') : null,
    upload: r.path.endsWith('/uploads'),
  })),
  { method: 'GET', path: '/api/v1/openapi.json', template: null },
  { method: 'GET', path: '/f/:slug', template: null },
];

interface World {
  key: string;
  /** The real value of each path parameter, so that some requests get past the look-ups. */
  params: Record<string, string>;
}

async function makeWorld(app: TestApp): Promise<World> {
  const owner = await app.user('enterprise');
  const invitee = await app.user('pro');
  const must = async (p: Promise<{ status: number; body: any; text: string }>, status: number) => {
    const r = await p;
    if (r.status !== status) throw new Error(`setup: ${r.status} ${r.text}`);
    return r.body;
  };
  const key = owner.key;
  const team = await must(app.api('POST', '/teams', { key, body: { name: 'Fuzz team' } }), 201);
  const inv = await must(app.api('POST', `/teams/${team.id}/invitations`, { key, body: { email: invitee.email, role: 'viewer' } }), 201);
  const questions = [
    { type: 'short_text', title: 'Name', required: true },
    { type: 'file_upload', title: 'File' },
  ];
  const form = await must(app.api('POST', '/forms', { key, body: { title: 'Fuzz', team_id: team.id, published: true, incremental_submission: true, questions } }), 201);
  const rsp = await must(app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: 'x' }] } }), 201);
  const members = (await must(app.api('GET', `/teams/${team.id}/members`, { key }), 200)).members;
  const fd = new FormData();
  fd.append('file', new Blob(['hi'], { type: 'text/plain' }), 'a.txt');
  const up = (await (await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[1].id}`, { method: 'POST', body: fd })).json()) as { url: string };
  const [, formId, token, name] = /\/public\/uploads\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(up.url)!;
  // A GET that creates on first use: done now, so that the fuzz batch's reads write nothing.
  await must(app.api('GET', '/webhooks/secret', { key }), 200);
  return {
    key,
    params: {
      id: form.id, slug: form.slug, teamId: team.id, memberId: members[0].id, invId: inv.id, token: inv.token,
      responseId: rsp.id, deliveryId: 'dlv_none', formId: formId!, uploadToken: token!, name: name!,
    },
  };
}

interface Planned {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  multipart?: { body: string; boundary: string };
  /** Sent with a Content-Length larger than the body, then the connection is cut. */
  cut?: boolean;
}

function plan(r: Rng, app: TestApp, world: World, i: number): Planned {
  const target = TARGETS[i % TARGETS.length]!;
  const mutating = target.method !== 'GET';
  const keyKind = r.pick(['valid', 'valid', 'none', 'garbage'] as const);
  const names = [...target.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  // A mutating request that is valid in every other way must not carry the real ids, or it would change
  // the fixture: then at least one parameter is fuzzed (or the key is not valid).
  let fuzzAll = names.length > 0 && mutating && keyKind === 'valid' && !target.template;
  const effectiveKey = mutating && keyKind === 'valid' && !names.length && !target.template ? 'none' : keyKind;
  const labels: string[] = [target.method, target.path, `key:${effectiveKey}`];
  let path = target.path;
  for (const n of names) {
    const real = world.params[n === 'token' && target.path.includes('/public/uploads/') ? 'uploadToken' : n];
    const fuzz = fuzzAll || r.chance(0.5) || real === undefined;
    const value = fuzz ? fuzzParam(r, n) : real!;
    if (fuzz) fuzzAll = false;
    path = path.replace(`:${n}`, value);
  }
  const query = r.chance(0.5) ? fuzzQuery(r) : '';
  const headers: Record<string, string> = {};
  if (effectiveKey === 'valid') headers.authorization = `Bearer ${world.key}`;
  if (effectiveKey === 'garbage') headers.authorization = r.pick(['Bearer x', 'Basic Zm9vOmJhcg==', 'Bearer fl_' + 'a'.repeat(24) + '_' + 'b'.repeat(64), 'Bearer']);
  const planned: Planned = { label: '', method: target.method, url: `${app.url}${path}${query}`, headers };
  if (target.upload && r.chance(0.7)) {
    const mp = fuzzMultipart(r);
    planned.multipart = mp;
    labels.push(`multipart ${mp.label}`);
  } else if (mutating) {
    const body = fuzzBody(r, target.template);
    planned.body = body.text;
    headers['content-type'] = body.contentType ?? 'application/json';
    if (body.contentType === '') delete headers['content-type'];
    if (body.contentEncoding) headers['content-encoding'] = body.contentEncoding;
    labels.push(`body ${body.label}`);
    planned.cut = r.chance(0.02);
  }
  planned.label = `${labels.join(' ')} -> ${planned.url.slice(app.url.length, app.url.length + 160)}`;
  return planned;
}

async function send(p: Planned): Promise<{ status: number; text: string; timedOut: boolean }> {
  const { pathname, search } = new URL(p.url);
  if (p.multipart || p.cut) {
    const body = p.multipart?.body ?? p.body ?? '';
    const auth = p.headers.authorization ? `\nAuthorization: ${p.headers.authorization}` : '';
    const head = p.multipart
      ? multipartHead(`${pathname}${search}`, body, p.multipart.boundary, auth)
      : `${p.method} ${pathname}${search} HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: ${Buffer.byteLength(body) + 10}${auth}`;
    const res = await rawRequest(p.url, head, body, { timeoutMs: HANG_MS, destroyAfterSend: p.cut });
    return { status: res.status, text: res.body, timedOut: res.timedOut };
  }
  try {
    const res = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: AbortSignal.timeout(HANG_MS) });
    return { status: res.status, text: await res.text(), timedOut: false };
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') return { status: 0, text: '', timedOut: true };
    throw e;
  }
}

/** Rows in every table, and files in the blob store. */
async function snapshot(app: TestApp): Promise<Record<string, number>> {
  const tables = await app.raw(
    DB === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await app.raw(`SELECT COUNT(*) AS n FROM "${name}"`))[0].n);
  counts['(blob files)'] = filesUnder(app.blobDir).length;
  return counts;
}

/** What must hold for every answer; the problems found, or none. */
function check(p: Planned, res: { status: number; text: string; timedOut: boolean }): string | null {
  if (res.timedOut) return `no answer within ${HANG_MS} ms`;
  if (p.cut) return null;
  if (res.status === 0) return 'connection closed without an answer';
  if (res.status >= 500) return `${res.status}: ${res.text.slice(0, 200)}`;
  if (res.status >= 400 && new URL(p.url).pathname.startsWith('/api/v1/')) {
    let body: any;
    try {
      body = JSON.parse(res.text);
    } catch {
      return `${res.status} without a JSON body: ${res.text.slice(0, 200)}`;
    }
    const e = body?.error;
    if (typeof e?.code !== 'string' || typeof e?.message !== 'string' || e?.status !== res.status) {
      return `${res.status} not in the structured shape: ${res.text.slice(0, 200)}`;
    }
  }
  return null;
}

test('fuzz: malformed bodies, paths, queries and uploads against every route get a 4xx, never a 5xx, a hang or a write', async (t) => {
  t.timeout(180_000);
  // Limits off: the fuzz batch is one client sending 1,500 requests; the limits have their own tests.
  const app = await startTestApp(DB, { rateLimits: false });
  t.teardown(() => app.close());
  const world = await makeWorld(app);
  const r = new Rng(SEED);
  t.log(`fuzz seed ${SEED} on ${DB} (replay with FUZZ_SEED=${SEED})`);
  const failures: string[] = [];
  const covered = new Set<string>();
  const statuses: Record<number, number> = {};
  let compared = 0;
  let batches = 0;
  for (let start = 0; start < REQUESTS; start += BATCH) {
    const before = await snapshot(app);
    let wrote = false;
    // Planned in order (so the seed fixes every request), sent a few at a time.
    const planned = Array.from({ length: Math.min(BATCH, REQUESTS - start) }, (_, j) => plan(r, app, world, start + j));
    for (let j = 0; j < planned.length; j += PARALLEL) {
      await Promise.all(
        planned.slice(j, j + PARALLEL).map(async (p, k) => {
          const i = start + j + k;
          const res = await send(p);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const problem = check(p, res);
          if (problem) failures.push(`#${i} ${p.label}: ${problem}`);
          if (res.status >= 400 && res.status < 500) covered.add(`${p.method} ${TARGETS[i % TARGETS.length]!.path}`);
          // An accepted change (a mutated body can still be valid) is allowed; its batch is not compared.
          if (p.method !== 'GET' && !p.cut && res.status < 400) wrote = true;
        }),
      );
    }
    batches++;
    if (wrote) continue;
    compared++;
    const after = await snapshot(app);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      failures.push(`batch from #${start}: rejected requests changed the data: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    }
  }
  t.log(`answers by status ${JSON.stringify(statuses)}; row counts compared for ${compared} of ${batches} batches`);
  t.deepEqual(failures.slice(0, 30), [], `seed ${SEED}: ${failures.length} failures`);
  t.true(compared >= batches * 0.7, `row counts compared for ${compared} of ${batches} batches`);
  // The OpenAPI document has nothing to refuse; every other route was refused at least once.
  t.deepEqual(TARGETS.map((x) => `${x.method} ${x.path}`).filter((x) => !covered.has(x)), ['GET /api/v1/openapi.json']);
  // Still alive and well.
  t.is((await app.api('GET', '/forms', { key: world.key })).status, 200);
  t.is((await fetch(`${app.url}/f/${world.params.slug}`)).status, 200);
});
