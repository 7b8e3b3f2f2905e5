import type { SecretBox } from '../crypto-box';
import type { Question } from '../domain/types';

/*
 * A data node's secret header value (docs/logic.md "Data nodes"): written in clear by the owner, stored sealed
 * with the instance's secret box, never returned. The API shows `secret_header_set` instead; saving a
 * question without a value keeps the stored one, `null` removes it.
 */

const SEALED = 'sealed:';

/** Seals new secret header values of `questions`, keeping the sealed value of an unchanged question. */
export function sealDataSecrets(questions: Question[], before: readonly Question[], box: SecretBox): Question[] {
  const old = new Map(before.map((q) => [q.id, q.properties]));
  return questions.map((q) => {
    if (q.type !== 'data') return q;
    const { secret_header_set: _shown, ...p } = q.properties as Record<string, unknown>;
    const value = p.secret_header_value;
    if (typeof value === 'string' && value !== '' && !value.startsWith(SEALED)) p.secret_header_value = SEALED + box.seal(value);
    else if (value === undefined && typeof old.get(q.id)?.secret_header_value === 'string') p.secret_header_value = old.get(q.id)!.secret_header_value;
    else if (value === '' || value === null || (typeof value === 'string' && value.startsWith(SEALED))) delete p.secret_header_value;
    if (!p.secret_header_name) delete p.secret_header_value;
    return { ...q, properties: p };
  });
}

/** The properties the API shows: the sealed value replaced by whether one is stored. */
export function shownDataProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const { secret_header_value, ...rest } = properties;
  return { ...rest, secret_header_set: typeof secret_header_value === 'string' };
}

/** The secret header to send, opened; null when none is stored. */
export function openDataSecret(properties: Record<string, unknown>, box: SecretBox): [string, string] | null {
  const name = properties.secret_header_name;
  const value = properties.secret_header_value;
  if (typeof name !== 'string' || !name || typeof value !== 'string' || !value.startsWith(SEALED)) return null;
  return [name, box.open(value.slice(SEALED.length))];
}
