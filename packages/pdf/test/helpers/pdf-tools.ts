import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A temporary directory removed when the test ends. */
export async function tempDir(t: { teardown(fn: () => Promise<void>): void }, prefix = 'formloom-pdf-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes the PDF to a file so the poppler and qpdf tools can read it. */
export async function writePdf(dir: string, name: string, pdf: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, pdf);
  return path;
}

/** `pdfsig` output. It exits 0 even when the digest does not match, so callers read the text. */
export async function pdfsig(path: string): Promise<string> {
  const { stdout } = await run('pdfsig', [path]);
  return stdout;
}

/** `qpdf --check`: resolves with its output when clean, rejects (exit 2 or 3) on errors or warnings. */
export async function qpdfCheck(path: string): Promise<string> {
  const { stdout } = await run('qpdf', ['--check', path]);
  return stdout;
}

/** Text of one page (1-based) or of the whole document. `raw` keeps content-stream order. */
export async function pdftotext(path: string, options: { page?: number; raw?: boolean } = {}): Promise<string> {
  const args = options.page ? ['-f', String(options.page), '-l', String(options.page)] : [];
  if (options.raw) args.push('-raw');
  const { stdout } = await run('pdftotext', [...args, '-enc', 'UTF-8', path, '-'], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Number of pages, from `pdfinfo`. */
export async function pageCount(path: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [path]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** An operator-style P12 made with the OpenSSL command line (its defaults: AES-256, PBKDF2, SHA-256 MAC). */
export async function opensslP12(dir: string, commonName: string, password: string): Promise<string> {
  const key = join(dir, 'operator-key.pem');
  const cert = join(dir, 'operator-cert.pem');
  const p12 = join(dir, 'operator.p12');
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', `/CN=${commonName}`]);
  await run('openssl', ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', p12, '-passout', `pass:${password}`]);
  return p12;
}

/** A copy of `pdf` with one byte changed at `offset`. */
export function flipByte(pdf: Uint8Array, offset: number): Uint8Array {
  const copy = Uint8Array.from(pdf);
  copy[offset] ^= 0x01;
  return copy;
}
