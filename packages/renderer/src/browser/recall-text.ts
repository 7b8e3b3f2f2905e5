import { fillRecalls, formatRecallValue } from '../../../core/src/logic/recall.js';
import type { Translate } from './i18n/index.js';
import type { PublicQuestion } from './types.js';

/*
 * Recall on the respondent's page (docs/respondents.md "Recall"): `{answer.<id>}`, `{hidden.<name>}` and
 * `{var.<name>}` in the form's texts show what the respondent answered so far, the hidden field from the link
 * or the variable, formatted in the page's language, else the token's fallback. The result is always put on
 * the page as text (dom.ts makes text nodes), so an answer can never become markup.
 */

export interface RecallState {
  answers: Record<string, unknown>;
  hidden: Record<string, string>;
  variables: Record<string, unknown>;
}

/** Fills a text's recalls; `encode` applies to inserted values (encodeURIComponent in a redirect URL). */
export type Fill = (text: string | null | undefined, encode?: (s: string) => string) => string;

/** A filler reading the state as it is at each call. */
export function recaller(state: () => RecallState, t: Translate, locale?: string): Fill {
  const format = { locale: locale || undefined, yes: t('yes'), no: t('no') };
  const value = (kind: string, name: string, nested: boolean): string => {
    const s = state();
    const v = kind === 'answer' ? s.answers[name] : kind === 'hidden' ? s.hidden[name] : s.variables[name];
    const text = formatRecallValue(v, format);
    // A choice answer is its label as written, which may recall in turn: filled once more, never deeper.
    return nested ? fillRecalls(text, (r) => value(r.kind, r.name, false)) : text;
  };
  return (text, encode) => (text ? fillRecalls(text, (r) => value(r.kind, r.name, true), encode) : '');
}

/** The same filler for a page without answers (the preview of the end screen): fallbacks only. */
export const fallbacksOnly: Fill = (text, encode) => (text ? fillRecalls(text, () => null, encode) : '');

/**
 * A question as the respondent sees it: title, description and choice labels filled. Answers stay in the labels
 * as written (the server checks them against those), so the controls' values are mapped both ways.
 */
export function recalledQuestion(q: PublicQuestion, fill: Fill): { q: PublicQuestion; shown(v: unknown): unknown; stored(v: unknown): unknown } {
  const choices = Array.isArray(q.properties.choices) ? (q.properties.choices as Array<{ label: string }>) : null;
  const toShown = new Map<string, string>();
  const toStored = new Map<string, string>();
  const filled = choices?.map((c) => {
    const label = fill(c.label);
    toShown.set(c.label, label);
    if (!toStored.has(label)) toStored.set(label, c.label);
    return { ...c, label };
  });
  const map = (m: Map<string, string>) => (v: unknown): unknown => (typeof v === 'string' ? (m.get(v) ?? v) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? (m.get(x) ?? x) : x)) : v);
  return {
    q: { ...q, title: fill(q.title), description: q.description ? fill(q.description) : q.description, properties: filled ? { ...q.properties, choices: filled } : q.properties },
    shown: map(toShown),
    stored: map(toStored),
  };
}
