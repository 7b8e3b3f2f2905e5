/*
 * A response as the properties of a Notion page (docs/integrations.md, "Notion"): each mapped answer goes to
 * the database property of the same name, written in the shape that property's type takes (a number as a
 * number, a choice as a select option, yes/no as a checkbox, a file as an external file link...). Answers
 * without a property of their name, and properties Notion computes itself (formulas, rollups, people), are
 * left out and listed, so the delivery log can say which.
 */

/** One mapped answer, as the integration framework hands it over (`IntegrationAnswer`). */
export interface PageAnswer {
  name: string;
  type: string;
  value: unknown;
  /** The answer in words; '' when unanswered. */
  text: string;
  /** A signed link to an uploaded file. */
  file_url?: string;
}

export interface PageInput {
  form_title: string;
  response_id: string;
  submitted_at: string;
  answers: readonly PageAnswer[];
}

/** A property of the database as Notion describes it (`data_sources.retrieve`): its type is what matters here. */
export interface PropertySchema {
  id?: string;
  type: string;
}

export type PropertyValues = Record<string, Record<string, unknown>>;

export interface PageProperties {
  properties: PropertyValues;
  /** Answers that have no writable property of their name. */
  skipped: string[];
}

/** Notion's limits: 2,000 characters a text object, 100 objects in a rich text, 100 characters an option. */
const TEXT_CHUNK = 2000;
const MAX_CHUNKS = 100;
const MAX_OPTION = 100;

/** Properties written alongside the answers when the database has them and no answer bears their name. */
export const RESPONSE_ID_PROPERTY = 'Response ID';
export const SUBMITTED_AT_PROPERTY = 'Submitted at';

export function richText(text: string) {
  const chunks: Array<{ type: 'text'; text: { content: string } }> = [];
  for (let i = 0; i < text.length && chunks.length < MAX_CHUNKS; i += TEXT_CHUNK) chunks.push({ type: 'text', text: { content: text.slice(i, i + TEXT_CHUNK) } });
  return chunks;
}

/** A select option's name: Notion refuses commas in one, and more than 100 characters. */
const optionName = (s: string) => s.replace(/,/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_OPTION);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

const numberOf = (a: PageAnswer): number | null => {
  if (typeof a.value === 'number' && Number.isFinite(a.value)) return a.value;
  const n = typeof a.value === 'string' && a.value.trim() !== '' ? Number(a.value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** The value of one answer for a property of `type`; null when the answer cannot go there. */
export function propertyValue(type: string, a: PageAnswer): Record<string, unknown> | null {
  const text = a.type === 'file_upload' && a.file_url ? a.file_url : a.text;
  switch (type) {
    case 'title':
      return { title: richText(text) };
    case 'rich_text':
      return { rich_text: richText(text) };
    case 'number': {
      const n = numberOf(a);
      return n === null ? null : { number: n };
    }
    case 'select':
    case 'status':
      return optionName(a.text) ? { [type]: { name: optionName(a.text) } } : null;
    case 'multi_select': {
      const items = Array.isArray(a.value) ? a.value.map((v) => optionName(String(v))) : [optionName(a.text)];
      const names = [...new Set(items.filter(Boolean))];
      return names.length ? { multi_select: names.map((name) => ({ name })) } : null;
    }
    case 'date':
      return typeof a.value === 'string' && ISO_DATE.test(a.value.trim()) ? { date: { start: a.value.trim() } } : null;
    case 'checkbox':
      return typeof a.value === 'boolean' ? { checkbox: a.value } : null;
    case 'email':
    case 'phone_number':
    case 'url':
      return { [type]: text.slice(0, 2000) };
    case 'files':
      return a.file_url ? { files: [{ name: (a.text || 'file').slice(0, 100), type: 'external', external: { url: a.file_url } }] } : null;
    default:
      // formula, rollup, people, relation, created_time, unique_id...: computed or made of ids.
      return null;
  }
}

/** The property of `name` in `schema`: the same name, else the same name in another case. */
export function propertyNamed(schema: Record<string, PropertySchema>, name: string): string | null {
  if (schema[name]) return name;
  const lower = name.toLowerCase();
  return Object.keys(schema).find((k) => k.toLowerCase() === lower) ?? null;
}

/** The page's properties for `input` in a database of `schema`. Every page gets a title. */
export function pageProperties(schema: Record<string, PropertySchema>, input: PageInput): PageProperties {
  const properties: PropertyValues = {};
  const skipped: string[] = [];
  for (const a of input.answers) {
    if (!a.text && a.value === null) continue;
    const prop = propertyNamed(schema, a.name);
    const value = prop && !properties[prop] ? propertyValue(schema[prop]!.type, a) : null;
    if (prop && value) properties[prop] = value;
    else skipped.push(a.name);
  }
  const titleProp = Object.keys(schema).find((k) => schema[k]!.type === 'title');
  if (titleProp && !properties[titleProp]) {
    const when = input.submitted_at.slice(0, 16).replace('T', ' ');
    properties[titleProp] = { title: richText(`${input.form_title} – ${when} UTC`) };
  }
  const idProp = propertyNamed(schema, RESPONSE_ID_PROPERTY);
  if (idProp && !properties[idProp] && schema[idProp]!.type === 'rich_text') properties[idProp] = { rich_text: richText(input.response_id) };
  const atProp = propertyNamed(schema, SUBMITTED_AT_PROPERTY);
  if (atProp && !properties[atProp] && schema[atProp]!.type === 'date') properties[atProp] = { date: { start: input.submitted_at } };
  return { properties, skipped };
}

/**
 * A database's id from its address (`https://www.notion.so/team/Leads-<32 hex>?v=...`) or the id itself
 * (with or without dashes), as a dashed UUID; null when there is none.
 */
export function databaseIdOf(input: string): string | null {
  const s = input.trim();
  const path = /^https?:\/\//i.test(s) ? (() => { try { return new URL(s).pathname; } catch { return ''; } })() : s;
  const m = /([0-9a-f]{32})\/?$/i.exec(path.replace(/-/g, '')) ?? /^([0-9a-f]{32})$/i.exec(s.replace(/-/g, ''));
  if (!m) return null;
  const h = m[1]!.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
