import { PassThrough, type Readable } from 'node:stream';
import type { ExportColumn, ExportRow } from '@formloom/core';

/*
 * The XLSX export (docs/responses-and-webhooks.md, "Export formats"), written with exceljs's streaming
 * WorkbookWriter page by page: a page of rows is committed (zipped out) before the next is read, so memory
 * stays at one page whatever the form's size. exceljs is loaded on the first XLSX export only (its code is
 * some megabytes the server need not hold at rest; examples/self-hosted/test/lazy-modules.test.ts).
 */

const exceljs = () => import('exceljs');

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Columns whose raw value differs from the label the respondent saw get a raw column after the others. */
const HAS_RAW = new Set(['yes_no', 'multiple_choice']);

/** The raw columns' indexes into a row, and the headers of every column. */
export function xlsxHeaders(columns: readonly ExportColumn[]) {
  const raw = columns.flatMap((c, i) => (c.kind === 'answer' && HAS_RAW.has(c.type ?? '') ? [i] : []));
  return { raw, headers: [...columns.map((c) => c.title), ...raw.map((i) => `${columns[i]!.title} (raw)`)] };
}

/** A cell's value: dates as dates, numbers as numbers, the rest as text; a list as JSON text. */
function cellOf(column: ExportColumn | undefined, v: unknown, index: number): unknown {
  if (v === null || v === undefined) return null;
  if ((index === 1 || index === 2) && typeof v === 'string') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? v : d;
  }
  if (column?.type === 'date' && typeof v === 'string') {
    const m = DAY.exec(v);
    if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  }
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * The workbook's bytes as a stream: one sheet "Responses", a header row, then a row per response (labels as
 * seen, then the raw values of yes/no and choice questions). A stream destroyed by the reader (the client
 * went away) stops the reading of pages.
 */
export async function xlsxStream(columns: readonly ExportColumn[], pages: AsyncIterable<ExportRow[]>): Promise<Readable> {
  const { default: ExcelJS } = await exceljs();
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Responses');
  const { raw, headers } = xlsxHeaders(columns);
  sheet.columns = headers.map((header, i) => ({
    header,
    key: String(i),
    width: Math.min(40, Math.max(12, header.length + 2)),
    ...(i === 1 || i === 2
      ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } }
      : columns[i]?.type === 'date'
        ? { style: { numFmt: 'yyyy-mm-dd' } }
        : columns[i]?.digits !== undefined
          ? { style: { numFmt: columns[i]!.digits ? `0.${'0'.repeat(columns[i]!.digits!)}` : '0' } }
          : {}),
  }));
  const write = async () => {
    for await (const rows of pages) {
      if (out.destroyed) return;
      for (const row of rows) {
        const cells = row.labels.map((v, i) => cellOf(columns[i], v, i));
        for (const i of raw) cells.push(cellOf(undefined, row.values[i], -1));
        sheet.addRow(cells).commit();
      }
      // Back-pressure: the next page is read once the socket took this one.
      if (out.writableNeedDrain) await new Promise<void>((resolve) => {
        out.once('drain', resolve);
        out.once('close', resolve);
      });
    }
    if (out.destroyed) return;
    sheet.commit();
    await workbook.commit();
  };
  write().catch((err: Error) => out.destroy(err));
  return out;
}
