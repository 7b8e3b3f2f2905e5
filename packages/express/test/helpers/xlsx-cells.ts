import ExcelJS from 'exceljs';
import type { TestApp } from './app';

/** GET an API path as bytes (an export), with its status and headers. */
export async function download(app: TestApp, path: string, key?: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The cells of the workbook's one sheet, row by row (empty cells as null), and each cell's number format. */
export async function sheetCells(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  const formats: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: unknown[] = [];
    const fmts: string[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const v = row.getCell(c).value;
      cells.push(v === undefined ? null : v);
      fmts.push(row.getCell(c).numFmt ?? '');
    }
    rows.push(cells);
    formats.push(fmts);
  });
  return { names: wb.worksheets.map((s) => s.name), rows, formats };
}
