import type { Answer, Question } from '../domain/types';
import { fillRecalls, formatRecallValue } from '../logic/recall';

/** Text and HTML of one mail; HTML is built only from escaped values. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** One answered question as the respondent saw it: its title and the answer in words (Yes/No, labels, file names). */
export interface AnswerLine {
  title: string;
  value: string;
  /** A signed link that opens an uploaded file (file answers only). */
  href?: string;
}

/** The colours and texts of a form's branding that a mail takes (the form's `theme_color`, logo and footer). */
export interface MailBranding {
  color: string;
  logoUrl: string | null;
  footer: string | null;
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Only http(s) URLs become links or images in a mail; anything else (javascript:, data:) is dropped. */
const safeUrl = (u: unknown): string | null => (typeof u === 'string' && /^https?:\/\//i.test(u) ? u : null);

/** A `#rrggbb` colour or the default: a form's colour goes into a style attribute, so nothing else may. */
const safeColor = (c: unknown) => (typeof c === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : '#6366f1');

export function brandingOf(form: { theme_color?: string | null; options: Record<string, unknown> }): MailBranding {
  const footer = typeof form.options.branding_footer_text === 'string' && form.options.branding_footer_text.trim() ? form.options.branding_footer_text.trim() : null;
  return { color: safeColor(form.theme_color), logoUrl: safeUrl(form.options.branding_logo_url), footer };
}

/**
 * The answered questions in the form's order, as the respondent saw them (formatRecallValue: a choice is its
 * label, yes/no in words, a date in words, a file by its name with its signed link). Unanswered ones are left out;
 * a title's recalls are filled from the same answers.
 */
export function answerLines(questions: readonly Question[], answers: readonly Answer[], recall: (text: string) => string): AnswerLine[] {
  const byId = new Map(answers.map((a) => [a.question_id, a.value]));
  const lines: AnswerLine[] = [];
  for (const q of questions) {
    const value = byId.get(q.id);
    const text = formatRecallValue(value);
    if (!text) continue;
    const file = value && typeof value === 'object' && !Array.isArray(value) ? safeUrl((value as { url?: unknown }).url) : null;
    lines.push({ title: recall(String(q.title ?? '')) || q.id, value: text, ...(file ? { href: file } : {}) });
  }
  return lines;
}

/** Fills `{answer.<id>}`, `{hidden.<name>}` recalls of a text from a response (its fallback when unanswered). */
export function recallFiller(answers: readonly Answer[], hidden: Record<string, unknown> | undefined) {
  const byId = new Map(answers.map((a) => [a.question_id, a.value]));
  return (text: string) =>
    fillRecalls(text, (r) => {
      const v = r.kind === 'answer' ? byId.get(r.name) : r.kind === 'hidden' ? hidden?.[r.name] : undefined;
      const s = formatRecallValue(v);
      return s || null;
    });
}

/** The mail's parts: an optional intro paragraph, the answers, links, and a footer line. */
export interface MailParts {
  subject: string;
  heading: string;
  intro?: string;
  lines: AnswerLine[];
  links: Array<{ label: string; href: string }>;
  footer: string[];
  branding: MailBranding;
}

export function renderMail(p: MailParts): RenderedMail {
  const text = [
    p.heading,
    '',
    ...(p.intro ? [p.intro, ''] : []),
    ...p.lines.flatMap((l) => [`${l.title}`, `  ${l.value.replace(/\n/g, '\n  ')}${l.href ? ` <${l.href}>` : ''}`, '']),
    ...p.links.map((l) => `${l.label}: ${l.href}`),
    ...(p.footer.length ? ['', '-- ', ...p.footer] : []),
    '',
  ].join('\n');
  const b = p.branding;
  const rows = p.lines
    .map((l) => {
      const value = escapeHtml(l.value).replace(/\n/g, '<br>');
      const shown = l.href ? `<a href="${escapeHtml(l.href)}">${value}</a>` : value;
      return `<tr><th align="left" style="padding:8px 0 2px;font-weight:600">${escapeHtml(l.title)}</th></tr><tr><td style="padding:0 0 8px">${shown}</td></tr>`;
    })
    .join('');
  const html = [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:16px;font-family:system-ui,sans-serif;color:#111;background:#fff">',
    `<div style="max-width:600px;margin:0 auto;border-top:4px solid ${b.color};padding-top:12px">`,
    b.logoUrl ? `<img src="${escapeHtml(b.logoUrl)}" alt="" style="max-height:48px">` : '',
    `<h1 style="font-size:20px">${escapeHtml(p.heading)}</h1>`,
    p.intro ? `<p>${escapeHtml(p.intro).replace(/\n/g, '<br>')}</p>` : '',
    `<table role="presentation" style="width:100%;border-collapse:collapse">${rows}</table>`,
    ...p.links.map((l) => `<p><a href="${escapeHtml(l.href)}" style="color:${b.color}">${escapeHtml(l.label)}</a></p>`),
    p.footer.length ? `<hr><p style="font-size:12px;color:#555">${p.footer.map(escapeHtml).join('<br>')}</p>` : '',
    '</div></body></html>',
  ].join('');
  return { subject: p.subject, text, html };
}
