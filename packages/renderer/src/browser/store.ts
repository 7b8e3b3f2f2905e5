/**
 * What the element keeps in the respondent's browser (docs/respondents.md): a visitor id (for
 * `limit_one_response`), the partial response to resume (`incremental_submission`) and whether this
 * browser completed the form. Storage may be off (private modes, sandboxed frames): then nothing is kept.
 */
const KEY = 'formloom:';

function read<T>(k: string): T | null {
  try {
    const v = localStorage.getItem(KEY + k);
    return v ? (JSON.parse(v) as T) : null;
  } catch {
    return null;
  }
}

function write(k: string, v: unknown): void {
  try {
    if (v === null) localStorage.removeItem(KEY + k);
    else localStorage.setItem(KEY + k, JSON.stringify(v));
  } catch {
    // storage unavailable: the form still works, it only cannot resume
  }
}

export function visitorId(): string {
  let id = read<string>('visitor');
  if (!id) {
    id = `v_${crypto.getRandomValues(new Uint32Array(4)).reduce((s, n) => s + n.toString(36), '')}`;
    write('visitor', id);
  }
  return id;
}

export interface Resume {
  id: string;
  token: string;
  /** The session seed the choice order was drawn from, so a resumed response shows the same order. */
  seed?: string;
  /** Hidden fields and variables a data node set (docs/logic.md), for the recalls and jumps after it. */
  hidden?: Record<string, string>;
  vars?: Record<string, unknown>;
  answers: Record<string, unknown>;
  index: number;
  history: number[];
}

export const resume = {
  get: (slug: string) => read<Resume>(`resume:${slug}`),
  set: (slug: string, r: Resume | null) => write(`resume:${slug}`, r),
};

/**
 * The respondent's session seed for this form (`randomize`): kept in `sessionStorage`, so it lasts while the
 * tab does (reloads included) and a new session draws a new order; without storage, the page's own.
 */
export function sessionSeed(slug: string, fresh: () => string): string {
  const key = `${KEY}seed:${slug}`;
  try {
    const kept = sessionStorage.getItem(key);
    if (kept) return kept;
    const seed = fresh();
    sessionStorage.setItem(key, seed);
    return seed;
  } catch {
    return fresh();
  }
}

export const completed = {
  get: (slug: string) => read<boolean>(`done:${slug}`) === true,
  set: (slug: string) => write(`done:${slug}`, true),
};
