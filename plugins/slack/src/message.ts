import type { IntegrationDelivery } from '@formloom/core';

/*
 * One response as a chat message, before any service's format: a title, the chosen answers in words (files
 * as links), and a link to the response in the workspace (docs/integrations.md, "Slack, Discord, Teams,
 * Google Chat").
 */

export interface ChatLine {
  label: string;
  text: string;
  /** A signed link that opens an uploaded file (file answers). */
  url?: string;
}

export interface ChatMessage {
  title: string;
  formTitle: string;
  lines: ChatLine[];
  /** "See the response", absent for a test (its answers are an example). */
  link: string | null;
  submittedAt: string;
}

/** Cuts `s` to at most `max` characters, marking the cut with an ellipsis. */
export const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);

export function chatMessage(d: IntegrationDelivery, options: { title?: string }): ChatMessage {
  const test = d.event === 'integration.test';
  const custom = options.title?.trim();
  const title = (custom ? custom.replaceAll('{form}', d.form.title) : `New response to ${d.form.title}`) + (test ? ' (test)' : '');
  const lines = d.answers.filter((a) => a.text !== '').map((a) => ({ label: a.name, text: a.text, ...(a.file_url ? { url: a.file_url } : {}) }));
  return { title, formTitle: d.form.title, lines, link: test ? null : d.payload.response_url, submittedAt: d.payload.submitted_at };
}
