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
  // Read once: exceljs's `columnCount` walks every row at each read, and a loop that read it per cell made
  // reading the 1,501-row export quadratic (most of the exports file's CPU).
  const columns = sheet.columnCount;
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: unknown[] = [];
    const fmts: string[] = [];
    for (let c = 1; c <= columns; c++) {
      const cell = row.getCell(c);
      cells.push(cell.value === undefined ? null : cell.value);
      fmts.push(cell.numFmt ?? '');
    }
    rows.push(cells);
    formats.push(fmts);
  });
  return { names: wb.worksheets.map((s) => s.name), rows, formats };
}
