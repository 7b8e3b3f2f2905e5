/**
 * The incremental updates of a sealed PDF, read from the raw bytes the way a validator's difference analysis
 * does (pyHanko's `sign/diff_analysis`): each revision's objects, and for each object redefined in a later
 * revision its earlier text. Written here, apart from `src/pades/revisions.ts`, so the seal is checked by a
 * second reading rather than by the code that wrote it. Handles classic xref tables and uncompressed objects,
 * which is all the renderer writes.
 */

export interface Revision {
  /** Offset just after this revision's `%%EOF`. */
  end: number;
  /** Object number -> the text between `N 0 obj` and `endobj`. */
  objects: Map<number, string>;
}

export function revisions(pdf: Buffer): Revision[] {
  const text = pdf.toString('latin1');
  const found: Revision[] = [];
  let start = 0;
  for (const eof of text.matchAll(/%%EOF[\r\n]*/g)) {
    const end = eof.index! + eof[0].length;
    const objects = new Map<number, string>();
    for (const m of text.slice(start, end).matchAll(/(?:^|[\r\n])(\d+)\s+0\s+obj\b([\s\S]*?)endobj/g)) objects.set(Number(m[1]), m[2].trim());
    found.push({ end, objects });
    start = end;
  }
  return found;
}

/** The text of object `number` as of revision `index` (its latest definition at or before it). */
export function objectAt(all: Revision[], index: number, number: number): string | undefined {
  for (let i = index; i >= 0; i--) {
    const body = all[i].objects.get(number);
    if (body !== undefined) return body;
  }
  return undefined;
}

export type PdfValue = number | boolean | null | string | { ref: number } | { hex: string } | { text: string } | PdfValue[] | PdfDict;
export interface PdfDict {
  [key: string]: PdfValue;
}

/**
 * Parses the object text (a dictionary, maybe followed by a stream) into values: names keep their slash
 * (`'/Sig'`), references are `{ ref }`, strings `{ text }` or `{ hex }`.
 */
export function parseObject(body: string): PdfValue {
  let i = 0;
  const ws = () => {
    while (i < body.length && /[\s%]/.test(body[i]!)) {
      if (body[i] === '%') while (i < body.length && body[i] !== '\n') i++;
      else i++;
    }
  };
  const value = (): PdfValue => {
    ws();
    if (body.startsWith('<<', i)) {
      i += 2;
      const dict: PdfDict = {};
      for (ws(); !body.startsWith('>>', i); ws()) {
        const key = value();
        if (typeof key !== 'string' || !key.startsWith('/')) throw new Error(`bad key at ${i}`);
        dict[key.slice(1)] = value();
      }
      i += 2;
      return dict;
    }
    if (body[i] === '[') {
      i++;
      const array: PdfValue[] = [];
      for (ws(); body[i] !== ']'; ws()) array.push(value());
      i++;
      return array;
    }
    if (body[i] === '<') {
      const end = body.indexOf('>', i);
      const hex = body.slice(i + 1, end);
      i = end + 1;
      return { hex };
    }
    if (body[i] === '(') {
      let depth = 0;
      let text = '';
      for (; i < body.length; i++) {
        const c = body[i]!;
        if (c === '\\') { text += body[++i]; continue; }
        if (c === '(' && depth++ === 0) continue;
        if (c === ')' && --depth === 0) { i++; break; }
        text += c;
      }
      return { text };
    }
    const token = /\/[^\s/<>[\]()]*|[^\s/<>[\]()]+/y;
    token.lastIndex = i;
    const word = token.exec(body)![0];
    i = token.lastIndex;
    if (word.startsWith('/')) return word;
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    const reference = /^\s+(\d+)\s+R\b/.exec(body.slice(i));
    if (/^\d+$/.test(word) && reference) {
      i += reference[0].length;
      return { ref: Number(word) };
    }
    return Number(word);
  };
  return value();
}

export const dict = (body: string | undefined): PdfDict => parseObject(body ?? '<<>>') as PdfDict;
export const refOf = (value: PdfValue | undefined): number | undefined => {
  const ref = value && typeof value === 'object' && !Array.isArray(value) ? (value as { ref?: unknown }).ref : undefined;
  return typeof ref === 'number' ? ref : undefined;
};
