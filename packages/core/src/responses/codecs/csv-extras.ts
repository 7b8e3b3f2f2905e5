import type { Storage } from '../../ports/storage';
import { csvField } from './csv';
import { type ExtraColumn, extraValues } from './export-extras';

/*
 * The CSV export's columns after the answers (export-extras.ts: payments, confirmation calls, Fuse links), appended to the
 * header and to each page's lines as read, so the stored lines stay as they are.
 */

/** The export's header with the extra columns added before its CRLF. */
export function headerWithExtras(header: string, columns: readonly ExtraColumn[]): string {
  return `${header.slice(0, -2)},${columns.map((c) => csvField(c.title)).join(',')}\r\n`;
}

/** Each CSV record of `text` (CRLF-terminated, quoted fields may hold CRLF), as [start, end-before-CRLF]. */
function records(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (!quoted && c === 13 && text.charCodeAt(i + 1) === 10) {
      out.push([start, i]);
      start = i + 2;
      i++;
    }
  }
  return out;
}

/** The page's lines with each response's extra cells appended (the response id is each line's first field). */
export async function linesWithExtras(storage: Storage, formId: string, text: string, columns: readonly ExtraColumn[]): Promise<string> {
  const recs = records(text);
  if (!recs.length) return text;
  const ids = recs.map(([s, e]) => {
    const line = text.slice(s, e);
    const comma = line.indexOf(',');
    return comma < 0 ? line : line.slice(0, comma);
  });
  const values = await extraValues(storage, formId, ids, columns, true);
  let out = '';
  recs.forEach(([s, e], i) => {
    out += `${text.slice(s, e)},${(values.get(ids[i]!) ?? columns.map(() => null)).map((v) => (v === null ? '' : csvField(String(v)))).join(',')}\r\n`;
  });
  return out;
}
