/**
 * Incremental updates (PDF 32000-1, 7.5.6) appended after the seal, which they must leave untouched: the DSS
 * of PAdES B-LT and the document timestamp of B-LTA. Reads only what pdfkit and this module write (classic
 * cross-reference tables, uncompressed object dictionaries); not a general PDF writer.
 */

import { createHash } from 'node:crypto';

export interface Trailer {
  size: number;
  root: string;
  info: string | null;
  id: string | null;
  startxref: number;
}

export function readTrailer(pdf: Buffer): Trailer {
  const text = pdf.toString('latin1');
  const tail = text.slice(Math.max(0, text.length - 2048));
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  const trailerAt = text.lastIndexOf('trailer');
  if (!startxref || trailerAt < 0) throw new Error('the PDF has no trailer');
  const dictionary = text.slice(trailerAt, text.lastIndexOf('startxref'));
  const size = /\/Size\s+(\d+)/.exec(dictionary);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(dictionary);
  if (!size || !root) throw new Error('the PDF trailer has no /Size or /Root');
  return {
    size: Number(size[1]),
    root: root[1],
    info: /\/Info\s+(\d+\s+\d+\s+R)/.exec(dictionary)?.[1] ?? null,
    id: /\/ID\s*(\[[^\]]*\])/.exec(dictionary)?.[1] ?? null,
    startxref: Number(startxref[1]),
  };
}

/** The dictionary text of the last definition of object `number` (generation 0), without `obj`/`endobj`. */
export function objectText(pdf: Buffer, number: number): string {
  const text = pdf.toString('latin1');
  const pattern = new RegExp(`(?:^|[\\r\\n])${number}\\s+0\\s+obj\\b([\\s\\S]*?)endobj`, 'g');
  let found: string | null = null;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) found = match[1];
  if (found === null) throw new Error(`object ${number} not found`);
  return found.trim();
}

/** Adds `/Key value` just inside the outer `<< ... >>` of a dictionary's text, replacing an earlier `/Key`. */
export function setKey(dictionary: string, key: string, value: string): string {
  const end = dictionary.lastIndexOf('>>');
  if (!dictionary.startsWith('<<') || end < 0) throw new Error('not a dictionary');
  const without = dictionary.replace(new RegExp(`/${key}\\s+\\d+\\s+\\d+\\s+R`), '');
  const close = without.lastIndexOf('>>');
  return `${without.slice(0, close)}/${key} ${value}\n>>`;
}

export interface NewObject {
  number: number;
  /** Everything between `N 0 obj` and `endobj`. */
  body: Buffer | string;
}

/** Appends one revision with these objects and a cross-reference section pointing back to the last one. */
export function appendRevision(pdf: Buffer, objects: NewObject[], size: number): Buffer {
  const trailer = readTrailer(pdf);
  const parts: Buffer[] = [pdf];
  let offset = pdf.length;
  if (pdf[pdf.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const offsets = new Map<number, number>();
  for (const object of [...objects].sort((a, b) => a.number - b.number)) {
    const chunk = Buffer.concat([
      Buffer.from(`${object.number} 0 obj\n`, 'latin1'),
      typeof object.body === 'string' ? Buffer.from(object.body, 'latin1') : object.body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.set(object.number, offset);
    parts.push(chunk);
    offset += chunk.length;
  }
  const xref = ['xref', '0 1', '0000000000 65535 f '];
  for (const [number, at] of offsets) xref.push(`${number} 1`, `${String(at).padStart(10, '0')} 00000 n `);
  const keys = [`/Size ${Math.max(size, trailer.size)}`, `/Root ${trailer.root}`];
  if (trailer.info) keys.push(`/Info ${trailer.info}`);
  if (trailer.id) keys.push(`/ID ${trailer.id}`);
  keys.push(`/Prev ${trailer.startxref}`);
  parts.push(Buffer.from(`${xref.join('\n')}\ntrailer\n<<\n${keys.join('\n')}\n>>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

export function streamObject(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
}

function refNumber(ref: string): number {
  return Number(ref.split(/\s+/)[0]);
}

/**
 * PAdES B-LT: a Document Security Store in a new revision, with every certificate a validator needs (the
 * signer's chain and the timestamp authority's) and the CRLs and OCSP responses at hand. With `signature` (the
 * seal's whole `/Contents` value), a `/VRI` entry keyed by its SHA-1 names the same data for that signature.
 */
export function appendDss(pdf: Buffer, material: { certificates: Buffer[]; crls: Buffer[]; ocsps: Buffer[] }, signature?: Buffer): Buffer {
  const trailer = readTrailer(pdf);
  let next = trailer.size;
  const objects: NewObject[] = [];
  const refsOf = (items: Buffer[]) =>
    unique(items).map((data) => {
      const number = next++;
      objects.push({ number, body: streamObject(data) });
      return `${number} 0 R`;
    });
  const certs = refsOf(material.certificates);
  const crls = refsOf(material.crls);
  const ocsps = refsOf(material.ocsps);
  const dssNumber = next++;
  const entries = [`/Type /DSS`, `/Certs [${certs.join(' ')}]`];
  if (crls.length) entries.push(`/CRLs [${crls.join(' ')}]`);
  if (ocsps.length) entries.push(`/OCSPs [${ocsps.join(' ')}]`);
  if (signature) {
    const vriNumber = next++;
    const vri = [`/Type /VRI`, `/Cert [${certs.join(' ')}]`];
    if (crls.length) vri.push(`/CRL [${crls.join(' ')}]`);
    if (ocsps.length) vri.push(`/OCSP [${ocsps.join(' ')}]`);
    objects.push({ number: vriNumber, body: `<<\n${vri.join('\n')}\n>>` });
    entries.push(`/VRI << /${createHash('sha1').update(signature).digest('hex').toUpperCase()} ${vriNumber} 0 R >>`);
  }
  objects.push({ number: dssNumber, body: `<<\n${entries.join('\n')}\n>>` });
  const rootNumber = refNumber(trailer.root);
  objects.push({ number: rootNumber, body: setKey(objectText(pdf, rootNumber), 'DSS', `${dssNumber} 0 R`) });
  return appendRevision(pdf, objects, next);
}

function unique(items: Buffer[]): Buffer[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * PAdES B-LTA: a new revision with an invisible `/DocTimeStamp` field whose `/Contents` is left empty for
 * `fillSignature` (an RFC 3161 token over the byte range). The revision holds only what a DocMDP P=1
 * certification allows after it (ISO 32000-2, 12.8.2.2; pyHanko's difference analysis classes it as an LTA
 * update): the signature dictionary, a signature field that is its own widget with a zero-size `/Rect`, no
 * `/AP` (an appearance is form filling, which P=1 forbids), in no page's `/Annots`, and the AcroForm with only
 * that field added to `/Fields`.
 */
export function appendDocumentTimestampPlaceholder(pdf: Buffer, contentsLength: number, placeholder: string): Buffer {
  const trailer = readTrailer(pdf);
  const rootNumber = refNumber(trailer.root);
  const catalog = objectText(pdf, rootNumber);
  const formRef = /\/AcroForm\s+(\d+)\s+0\s+R/.exec(catalog);
  if (!formRef) throw new Error('the PDF has no AcroForm to add the document timestamp to');
  const formNumber = Number(formRef[1]);
  const form = objectText(pdf, formNumber);
  let next = trailer.size;
  const sigNumber = next++;
  const fieldNumber = next++;
  const sig = `<<\n/Type /DocTimeStamp\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.RFC3161\n/ByteRange [0 /${placeholder} /${placeholder} /${placeholder}]\n/Contents <${'0'.repeat(contentsLength * 2)}>\n>>`;
  // Hidden and without an appearance: a viewer draws nothing for a zero-size rectangle, and generating one
  // later would be a modification of the certified document.
  const field = `<<\n/Type /Annot\n/Subtype /Widget\n/FT /Sig\n/F 132\n/Rect [0 0 0 0]\n/T (DocumentTimestamp)\n/V ${sigNumber} 0 R\n>>`;
  const fields = /\/Fields\s*\[([^\]]*)\]/.exec(form);
  if (!fields) throw new Error('the AcroForm has no /Fields');
  const newForm = form.replace(fields[0], `/Fields [${fields[1].trim()} ${fieldNumber} 0 R]`);
  return appendRevision(
    pdf,
    [
      { number: sigNumber, body: sig },
      { number: fieldNumber, body: field },
      { number: formNumber, body: newForm },
    ],
    next,
  );
}
