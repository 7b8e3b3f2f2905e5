import { inflateSync } from 'node:zlib';

/**
 * Unwraps a WOFF 1.0 font into the plain TrueType/OpenType (sfnt) it carries (W3C WOFF, section 5). fontkit
 * reads WOFF itself, but re-inflates whole tables with a pure-JS inflater every time pdfkit subsets a glyph;
 * unwrapping once with node:zlib makes rendering several times faster. Other input is returned unchanged.
 */
export function woffToSfnt(font: Buffer): Buffer {
  if (font.length < 44 || font.toString('latin1', 0, 4) !== 'wOFF') return font;
  const flavor = font.readUInt32BE(4);
  const numTables = font.readUInt16BE(12);
  const tables: Array<{ tag: Buffer; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const offset = font.readUInt32BE(entry + 4);
    const compressedLength = font.readUInt32BE(entry + 8);
    const length = font.readUInt32BE(entry + 12);
    const stored = font.subarray(offset, offset + compressedLength);
    const data = compressedLength < length ? inflateSync(stored) : stored;
    if (data.length !== length) throw new Error('corrupt WOFF table');
    tables.push({ tag: font.subarray(entry, entry + 4), checksum: font.readUInt32BE(entry + 16), data });
  }
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    table.tag.copy(header, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}
