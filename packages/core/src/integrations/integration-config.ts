import type { SecretBox } from '../crypto-box';
import { badRequest } from '../errors';
import type { Question } from '../domain/types';
import type { IntegrationFieldMapping, IntegrationRecord } from '../ports/storage/integrations';
import type { IntegrationConfig, IntegrationField, IntegrationType } from './integration-types';

/*
 * Settings of an integration checked against the fields its plugin describes (docs/integrations.md): plain
 * values kept as given, secret ones sealed together with the instance's SecretBox and never answered.
 */

const maxOf = (f: IntegrationField) => f.maxLength ?? (f.type === 'textarea' ? 20000 : 2000);

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/** One value checked against its field: 400 naming `config.<key>` otherwise. */
function checkValue(f: IntegrationField, v: unknown): string | boolean {
  const field = `config.${f.key}`;
  if (f.type === 'checkbox') {
    if (typeof v !== 'boolean') throw badRequest(`${field}: expected true or false`, { field });
    return v;
  }
  if (typeof v !== 'string') throw badRequest(`${field}: expected text`, { field });
  const s = v.trim();
  if (s.length > maxOf(f)) throw badRequest(`${field}: at most ${maxOf(f)} characters`, { field });
  if (s && f.type === 'url' && !isHttpUrl(s)) throw badRequest(`${field}: expected an http or https URL`, { field, reason: 'invalid_url' });
  if (s && f.type === 'select' && !f.options!.some((o) => o.value === s)) {
    throw badRequest(`${field}: expected one of ${f.options!.map((o) => o.value).join(', ')}`, { field });
  }
  return s;
}

export interface CheckedConfig {
  config: IntegrationConfig;
  secrets: Record<string, string>;
}

/**
 * The settings after applying `input` to `before` (nothing on create): unknown keys are a 400; a secret left
 * out or empty keeps its value; a plain value left out keeps its value; required fields must end up set.
 */
export function applyConfig(def: IntegrationType, input: Record<string, unknown> | undefined, before: CheckedConfig | null): CheckedConfig {
  const fields = new Map(def.fields.map((f) => [f.key, f]));
  const unknown = Object.keys(input ?? {}).filter((k) => !fields.has(k));
  if (unknown.length) throw badRequest(`Unknown setting${unknown.length > 1 ? 's' : ''} of ${def.title}: ${unknown.map((k) => `config.${k}`).join(', ')}`, { field: `config.${unknown[0]}` });
  const config: IntegrationConfig = { ...(before?.config ?? {}) };
  const secrets: Record<string, string> = { ...(before?.secrets ?? {}) };
  for (const f of def.fields) {
    if (!before && f.default !== undefined && !f.secret) config[f.key] = f.default;
    if (!input || !(f.key in input) || input[f.key] === null) continue;
    const v = checkValue(f, input[f.key]);
    if (f.secret) {
      if (v !== '') secrets[f.key] = String(v);
    } else config[f.key] = v;
  }
  for (const f of def.fields) {
    const v = f.secret ? secrets[f.key] : config[f.key];
    if (f.required && (v === undefined || v === '')) throw badRequest(`config.${f.key}: ${f.label} is required`, { field: `config.${f.key}`, reason: 'required' });
  }
  const problem = def.check?.(config, secrets);
  if (problem) throw badRequest(`config.${problem.field}: ${problem.message}`, { field: `config.${problem.field}` });
  return { config, secrets };
}

export const sealSecrets = (box: SecretBox, secrets: Record<string, string>): string | null =>
  Object.keys(secrets).length ? box.seal(JSON.stringify(secrets)) : null;

export const openSecrets = (box: SecretBox, sealed: string | null): Record<string, string> =>
  sealed ? (JSON.parse(box.open(sealed)) as Record<string, string>) : {};

/** The settings as stored, secrets opened (for an update or a delivery; never answered). */
export const storedConfig = (box: SecretBox, r: IntegrationRecord): CheckedConfig => ({ config: r.config, secrets: openSecrets(box, r.secrets) });

/** The keys of the secret settings that have a value (what the API says of secrets). */
export const secretKeysOf = (box: SecretBox, r: IntegrationRecord): string[] => {
  try {
    return Object.keys(openSecrets(box, r.secrets)).sort();
  } catch {
    return [];
  }
};

/**
 * A field mapping checked against the form's current questions: each question once, names trimmed and not
 * empty (default: the title); null keeps "every question".
 */
export function checkMapping(input: Array<{ question_id: string; name?: string | null }> | null | undefined, questions: readonly Question[]): IntegrationFieldMapping[] | null {
  if (input == null) return null;
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  return input.map((m, i) => {
    const q = byId.get(m.question_id);
    if (!q) throw badRequest(`fields.${i}.question_id: no question ${m.question_id} in this form`, { field: `fields.${i}.question_id`, reason: 'unknown_question' });
    if (seen.has(m.question_id)) throw badRequest(`fields.${i}.question_id: ${m.question_id} is mapped twice`, { field: `fields.${i}.question_id` });
    seen.add(m.question_id);
    const name = (m.name ?? '').trim() || String(q.title ?? '').trim() || q.id;
    return { question_id: q.id, name };
  });
}
