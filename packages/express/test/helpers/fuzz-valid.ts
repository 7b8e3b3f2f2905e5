import type { ExecutionContext } from 'ava';
import { Rng } from './fuzz-gen';
import { known, type Target } from './fuzz-targets';
import { FUZZ_VOICE, type World } from './fuzz-world';
import type { TestApp } from './app';

/** As the hostile run's: a request without an answer after this long counts as a hang (generous: valid requests do real work). */
const HANG_MS = 10_000;

/**
 * The other half of the fuzz run: requests that the served OpenAPI document says are VALID, generated from
 * its schemas alone (path parameters and references to records aside, which come from the fuzz world), and
 * the rule that the server accepts them. A 400 (or 413, 415) answer to such a request means the document
 * promises more than the server takes: the schema must say what the server refuses.
 */

type Schema = Record<string, any>;

/**
 * Refusals no JSON Schema can express: a value that must fit or name another record, or the state of one.
 * Each is matched by operation (or any) and the 400's `field` or `reason`, and says why. Anything else
 * refused as malformed is drift between the document and the server.
 */
const SEMANTIC_400: Array<{ op?: string; field?: RegExp; reason?: string; why: string }> = [
  { op: 'POST /public/forms/{slug}/responses', field: /^answers\./, why: 'an answer value must fit its question (type, choices, bounds)' },
  { op: 'POST /public/forms/{slug}/responses', field: /^answers$/, why: "a completed response answers the form's required questions" },
  { op: 'PATCH /public/forms/{slug}/responses/{responseId}', field: /^answers\./, why: 'an answer value must fit its question' },
  { op: 'POST /forms/{id}/responses/bulk-delete', field: /^response_ids$/, why: 'the ids must be responses of this form' },
  { field: /^filter$/, why: "a filter by answer is JSON naming the form's questions, with operators and values that fit each (core's answer-filter.ts)" },
  { op: 'POST /signing/verify', field: /^pdf_base64$/, why: 'the bytes must be a PDF' },
  { op: 'POST /s/{shortCode}/sign', field: /^signature$/, why: 'a drawn signature must decode to a PNG within the size limits' },
  { op: 'POST /s/{shortCode}/sign', reason: 'invalid_email_code', why: 'the code must be the one mailed to the signer' },
  { op: 'POST /s/{shortCode}/sign', reason: 'email_code_required', why: 'an email-verification session needs the mailed code' },
  { reason: 'respondent_required', why: 'a respondent search names email or visitor_id (either may be absent, not both): no JSON Schema of query parameters says so' },
  { op: 'GET /respondents/responses', reason: 'invalid_email', why: 'email must be an address by the one validator of docs/decisions.md "Email addresses"' },
  { op: 'POST /respondents/erase', reason: 'invalid_email', why: 'as above' },
  { op: 'GET /admin/respondents/responses', reason: 'invalid_email', why: 'as above' },
  { op: 'POST /admin/respondents/erase', reason: 'invalid_email', why: 'as above' },
  { op: 'POST /forms/{id}/integrations', reason: 'unknown_type', why: 'type must name an integration this server offers (GET /integrations/types lists them)' },
  { reason: 'auto_translate_needs_language', why: 'auto_translate needs a default language (docs/languages.md): a rule across two fields' },
  { reason: 'translator_not_configured', why: 'auto_translate needs a translator configured on the server (docs/languages.md)' },
  { reason: 'languages_need_default_language', why: 'languages are translations of the default language: a rule across two fields (docs/languages.md)' },
  { reason: 'language_is_default', why: 'languages lists the languages besides the default one: a rule across two fields' },
  { reason: 'translation_language_not_offered', why: "translations name only the form's languages: a rule across two fields" },
  { reason: 'language_not_offered', why: "a response's language must be one the form offers (docs/languages.md)" },
  { op: 'POST /public/forms/{slug}/bookings/holds', field: /^timezone$/, why: 'timezone must name a zone of the IANA database, which no pattern lists' },
  { reason: 'no_seats_left', why: "the team owner's plan has no seat left" },
  { op: 'POST /s/{shortCode}/send-code', field: /^email$/, why: 'a signer with no address on file must give one to be mailed the code' },
  { op: 'PUT /forms/{id}/receipt', reason: 'no_email_question', why: 'a receipt goes to the answer of an email question, which the form must have' },
  { op: 'PUT /forms/{id}/receipt', reason: 'not_an_email_question', why: "question_id must name one of this form's email questions" },
  { reason: 'unknown_slot', why: 'the slot must exist in the contract' },
  { reason: 'email_verification_off', why: 'the session must use email verification' },
  { reason: 'speaker_without_voice', why: 'every speaker of a script needs a voice (cast, a line voice or auto_cast)' },
  { reason: 'no_voice_for_language', why: 'auto_cast needs a voice that speaks the language' },
  { reason: 'voice_not_found', why: 'a voice id must be in the catalogue' },
];

/** Names whose values must be real records of the world, or of a shape the document states in words. */
function namedValue(name: string, r: Rng): string | undefined {
  if (name in known) return known[name];
  if (name === 'voice') return FUZZ_VOICE;
  if (name === 'response_ids') return undefined;
  if (/(^|_)emails?(\[\d+\])?$/.test(name)) return `valid${r.int(1_000_000)}@example.com`;
  // A jump's target and a condition's question: the end of the form and a hidden field always exist.
  if (name === 'to') return 'end';
  if (name === 'field') return 'hidden:v';
  return undefined;
}

/** A value the schema accepts (JSON Schema 2020-12 as the document writes it), `$ref`s resolved in `doc`. */
export function validOf(r: Rng, schema: Schema | undefined, doc: any, world: World, name = '', depth = 0): unknown {
  if (!schema || depth > 12) return null;
  if (typeof schema.$ref === 'string') return validOf(r, doc.components.schemas[schema.$ref.split('/').pop()!], doc, world, name, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return r.pick(schema.enum);
  const alts: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (alts?.length && !schema.type) {
    const real = alts.filter((a) => a.type !== 'null');
    return validOf(r, r.pick(real.length ? real : alts), doc, world, name, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [k, v] of Object.entries<Schema>(schema.properties ?? {})) {
        // Read-only fields a client may echo back are documented as anything: leave them out.
        if (!Object.keys(v).length) continue;
        if (required.has(k) || r.chance(0.5)) out[k] = validOf(r, v, doc, world, k, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      // One item at most beyond the minimum: lists often refuse repeats (ids, names, slots).
      const n = Math.min(Math.max(min, r.int(2)), schema.maxItems ?? 3);
      const items = Array.from({ length: n }, (_, i) => validOf(r, schema.items, doc, world, `${name}[${i}]`, depth + 1));
      // `contains` (a script needs one spoken line): draw until an item has the required keys.
      const wanted: string[] = schema.contains?.required ?? [];
      for (let tries = 0; wanted.length && !items.some((x) => wanted.every((k) => x && typeof x === 'object' && k in x)) && tries < 50; tries++) {
        items[0] = validOf(r, schema.items, doc, world, `${name}[0]`, depth + 1);
      }
      return schema.uniqueItems || n > 1 ? [...new Map(items.map((x) => [JSON.stringify(x), x])).values()] : items;
    }
    case 'string': {
      const real = namedValue(name, r);
      if (real !== undefined) return real;
      const formats = [schema.format, ...(schema.anyOf ?? []).map((a: Schema) => a.format)].filter(Boolean);
      // Now: a start time may lie at most 30 days back, a closing time in the past would close the form.
      if (formats.includes('date-time')) return new Date(Date.now() + 60_000).toISOString();
      if (formats.includes('date')) return '2026-01-01';
      if (formats.includes('email')) return `valid${r.int(1_000_000)}@example.com`;
      if (formats.includes('uri')) return 'https://example.com/a.png';
      // `\S` (not blank) holds for the plain value below.
      if (typeof schema.pattern === 'string' && schema.pattern !== '\\S') return fromPattern(schema.pattern);
      const len = Math.max(1, schema.minLength ?? 0);
      return 'v'.repeat(Math.min(len, schema.maxLength ?? len));
    }
    case 'integer':
    case 'number': {
      const lo = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : 1;
      const hi = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? Math.ceil(schema.exclusiveMaximum) - 1 : lo + 10;
      const v = lo + r.int(Math.max(1, Math.floor(hi - lo) + 1));
      return type === 'integer' ? Math.ceil(Math.min(v, hi)) : Math.min(v, hi);
    }
    case 'boolean':
      return r.chance(0.5);
    case 'null':
      return null;
    default:
      return 'v';
  }
}

/** The smallest PNG (one pixel), as a drawn signature. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A string for the few patterns the document uses (colours, sizes, fonts, language tags, hidden field names). */
function fromPattern(pattern: string): string {
  if (pattern.includes('#(?:[0-9a-fA-F]')) return '#123456';
  if (pattern.includes('px|rem')) return '24px';
  if (pattern.includes('\\p{L}')) return 'Arial';
  if (pattern.startsWith('^[a-z]{2')) return 'en';
  if (pattern.startsWith('^[A-Za-z_]')) return 'field_a';
  if (pattern.startsWith('^bytes=')) return 'bytes=0-0';
  if (pattern.startsWith('^data:image\\/png;base64,')) return `data:image/png;base64,${PNG_1X1}`;
  if (pattern.startsWith('^[a-z0-9]+(?:-[a-z0-9]+)*$')) return 'fuzz-address';
  if (pattern.startsWith('^\\/(?!\\/)')) return '/voice/credits';
  if (pattern.startsWith('^https?:\\/\\/')) return 'https://hooks.example.com/fuzz';
  throw new Error(`fuzz-valid: no value for pattern ${pattern}: teach fromPattern`);
}

/** Operations whose valid requests would destroy the fixture the rest of the run needs, or that need state first. */
const SKIP = new Set([
  // Replacing every question of the fixture form or its team would strand the world's ids.
  'PUT /forms/{id}',
  // A new address would strand the world's slug, which the public routes are sent to.
  'PUT /forms/{id}/slug',
  // Plugin echo routes of the fuzz plugin carry no body.
]);

export interface ValidRun {
  sent: number;
  succeeded: number;
  failures: string[];
  bySchema: Map<string, number>;
}

/**
 * Sends `perTarget` schema-valid bodies to every operation with a JSON request body (with the world's real
 * path parameters and the route's own key) and collects the ones refused as malformed.
 */
export async function sendValidRequests(t: ExecutionContext, app: TestApp, doc: any, targets: Target[], world: World, seed: number, perTarget = Number(process.env.FUZZ_VALID ?? 3)): Promise<ValidRun> {
  const r = new Rng(seed ^ 0x5eed);
  const run: ValidRun = { sent: 0, succeeded: 0, failures: [], bySchema: new Map() };
  for (const target of targets) {
    const op = `${target.method} ${target.key}`;
    if (!target.schema || target.page || SKIP.has(op)) continue;
    // One after the other: concurrent writes of one record are another test's subject (races answer 404
    // or 409 there); here only what the schema promises is at stake.
    for (let i = 0; i < perTarget; i++) {
      await (async () => {
        const body = validOf(r, target.schema!, doc, world);
        let path = target.path;
        for (const m of target.path.matchAll(/:([A-Za-z]+)/g)) {
          const values = world.params[m[1]!] ?? [];
          path = path.replace(`:${m[1]}`, encodeURIComponent(values.length ? r.pick(values) : 'none'));
        }
        const key = target.scope === 'voice' ? world.voiceKey : world.formsKey;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (target.auth) headers.authorization = `Bearer ${key}`;
        if (target.path.includes('/responses/:responseId')) headers['x-resume-token'] = world.resumeToken;
        if (target.path.includes('/s/:shortCode')) headers['x-access-token'] = world.accessToken;
        let status = 0;
        let text = '';
        try {
          const res = await fetch(`${app.url}${path}`, { method: target.method, headers, body: JSON.stringify(body), signal: AbortSignal.timeout(HANG_MS * 6) });
          status = res.status;
          text = await res.text();
        } catch (e) {
          run.failures.push(`${op}: no answer to a valid request (${e instanceof Error ? e.message : String(e)}) <- ${JSON.stringify(body).slice(0, 300)}`);
          return;
        }
        run.sent++;
        const ok = status >= 200 && status < 300;
        run.bySchema.set(op, (run.bySchema.get(op) ?? 0) + (ok ? 1 : 0));
        if (ok) {
          run.succeeded++;
          return;
        }
        let field = '';
        let reason = '';
        try {
          const error = JSON.parse(text)?.error;
          field = String(error?.field ?? '');
          reason = String(error?.reason ?? '');
        } catch {
          /* not JSON: reported below */
        }
        const semantic = SEMANTIC_400.some((s) => (!s.op || s.op === op) && ((s.field && s.field.test(field)) || (s.reason && s.reason === reason)));
        const malformed = status === 400 || status === 413 || status === 415 || status >= 500;
        if (malformed && !(status === 400 && semantic)) {
          run.failures.push(`${op} answered ${status} to a request its schema accepts: ${text.slice(0, 300)} <- ${JSON.stringify(body).slice(0, 400)}`);
        }
      })();
    }
  }
  t.log(`valid requests: ${run.succeeded} of ${run.sent} accepted; the rest refused for state (409), plan (403), credits (402) or records (404), never as malformed`);
  return run;
}
