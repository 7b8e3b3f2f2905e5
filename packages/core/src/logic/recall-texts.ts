import { parseRecalls } from './recall.js';

/**
 * Where a form's texts may recall answers, hidden fields and variables (docs/decisions.md "Recall"). A text on
 * a question may recall only questions before it; the welcome screen comes before every question, the
 * thank-you screen, quiz endings and the redirect URL after all. Pure: the public view (also compiled for the
 * builder's preview) reads which variables are recalled, the publish checks read the rest.
 */

/** What of a question holds texts. */
export interface TextQuestion {
  id: string;
  title: string;
  description?: string | null;
  properties?: Record<string, unknown>;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.includes('{');
export const choicesOf = (q: TextQuestion): Array<{ label?: unknown }> => (Array.isArray(q.properties?.choices) ? (q.properties.choices as Array<{ label?: unknown }>) : []);

/**
 * The texts of a step the server runs that recall earlier answers (docs/logic.md): an email step's recipient,
 * subject and body, a data node's parameters, a Fuse question's hidden fields; as `[where, text]`.
 */
export function stepTexts(q: TextQuestion): Array<[string, string]> {
  const p = q.properties ?? {};
  const out: Array<[string, string]> = [];
  for (const f of ['recipient', 'subject', 'body']) if (str(p[f])) out.push([f, p[f] as string]);
  if (p.params && typeof p.params === 'object') for (const [k, v] of Object.entries(p.params as Record<string, unknown>)) if (str(v)) out.push([`parameter ${k}`, v]);
  // A Fuse question's hidden fields for the Fuse form (docs/logic.md "Fuse").
  if (p.hidden_fields && typeof p.hidden_fields === 'object' && !Array.isArray(p.hidden_fields)) {
    for (const [k, v] of Object.entries(p.hidden_fields as Record<string, unknown>)) if (str(v)) out.push([`hidden field ${k}`, v]);
  }
  return out;
}

/** A text that may hold recalls: where it is (for messages) and which questions may be recalled in it. */
export interface RecallText {
  text: string;
  /** e.g. "Question 3's title", "The welcome title". */
  place: string;
  /** The question the text belongs to, if any. */
  question_id: string | null;
  /** Questions at positions below this may be recalled (0 on the welcome screen, all after the last one). */
  before: number;
}

/** Form fields holding texts, with their position: `true` after every question, `false` before them. */
export const RECALL_FORM_FIELDS: ReadonlyArray<[string, string, boolean]> = [
  ['welcome_title', 'The welcome title', false],
  ['welcome_description', 'The welcome text', false],
  ['welcome_button_text', "The welcome screen's button", false],
  ['thank_you_title', 'The thank-you title', true],
  ['thank_you_description', 'The thank-you text', true],
  ['redirect_url', 'The redirect URL', true],
];

/** Every text of the form that holds a brace, with where it is (the server-run steps' texts unless `withSteps` is false). */
export function recallTexts(options: Record<string, unknown>, questions: readonly TextQuestion[], withSteps = true): RecallText[] {
  const out: RecallText[] = [];
  const all = questions.length;
  for (const [field, place, after] of RECALL_FORM_FIELDS) {
    if (str(options[field])) out.push({ text: options[field], place, question_id: null, before: after ? all : 0 });
  }
  const endings = (options.quiz_settings as { endings?: unknown } | null | undefined)?.endings;
  if (Array.isArray(endings)) {
    for (const e of endings as Array<Record<string, unknown>>) {
      for (const f of ['title', 'description']) if (str(e?.[f])) out.push({ text: e[f] as string, place: `A quiz ending's ${f}`, question_id: null, before: all });
    }
  }
  questions.forEach((q, i) => {
    const at = `Question ${i + 1}'s`;
    if (str(q.title)) out.push({ text: q.title, place: `${at} title`, question_id: q.id, before: i });
    if (str(q.description)) out.push({ text: q.description, place: `${at} description`, question_id: q.id, before: i });
    choicesOf(q).forEach((c, n) => str(c?.label) && out.push({ text: c.label, place: `${at} choice ${n + 1}`, question_id: q.id, before: i }));
    if (withSteps) for (const [name, text] of stepTexts(q)) out.push({ text, place: `${at} ${name}`, question_id: q.id, before: i });
  });
  return out;
}

/** The names recalled with `{var.*}` in any text, for the public view (variables are private otherwise). */
export function recalledVariables(options: Record<string, unknown>, questions: readonly TextQuestion[]): string[] {
  // The server fills the steps' texts (docs/logic.md): their variables need not be public.
  const names = recallTexts(options, questions, false).flatMap((t) => parseRecalls(t.text).filter((r) => r.kind === 'var').map((r) => r.name));
  return [...new Set(names)];
}

