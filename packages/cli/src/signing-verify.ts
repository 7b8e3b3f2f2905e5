import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFormloom, SigningVerificationService } from '@formloom/core';
import { openMigratedStorage } from '@formloom/storage-typeorm';
import { readConfig, type Env } from './config';
import { describeDatabase } from './describe-database';
import { UsageError } from './usage-error';

/**
 * The PDF stack (pdfkit, node-forge, ...) is an optional peer of the CLI: only this command needs it, so a
 * host installs `@formloom/cli` for its admin commands without it (docs/cli.md).
 */
async function loadPdf(): Promise<typeof import('@formloom/pdf')> {
  try {
    return await import('@formloom/pdf');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' && (e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw new Error('formloom signing verify needs @formloom/pdf: npm install @formloom/pdf');
  }
}

export const SIGNING_VERIFY_USAGE = 'signing verify <file.pdf>';

/** Its entry in `formloom --help` (it takes a file, not flags, so it is not one of COMMANDS). */
export const SIGNING_VERIFY_HELP = {
  name: 'signing verify',
  usage: SIGNING_VERIFY_USAGE,
  summary: 'check that this instance sealed a signed PDF; prints the report, exits 0 only when valid',
  flags: {},
  notes: [
    'Checks the seal with the instance\'s certificate (FORMLOOM_SIGNING_P12, else signing.p12 in',
    'FORMLOOM_DATA_DIR), that the exact bytes are a stored document, and the session\'s audit chain.',
  ],
};

/**
 * `formloom signing verify <file.pdf>`: the same check as `POST /api/v1/signing/verify` (docs/signing.md),
 * with the instance's database and sealing certificate (`FORMLOOM_SIGNING_P12` or the data dir's). Prints
 * the report; exits 0 only when the document is valid.
 */
export async function signingVerify(
  args: string[],
  env: Env,
): Promise<{ valid: boolean; report: Record<string, unknown>; database: string }> {
  if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError(`usage: formloom ${SIGNING_VERIFY_USAGE}`);
  const pdf = await readFile(args[0]).catch((e: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${args[0]}: ${e.code ?? e.message}`);
  });
  const config = readConfig(env);
  const p12Path = env.FORMLOOM_SIGNING_P12?.trim() || undefined;
  // Verification reads the instance's certificate and never makes one (a new one has sealed nothing).
  const selfSigned = join(config.dataDir, 'signing.p12');
  if (!p12Path && !(await access(selfSigned).then(() => true, () => false))) {
    throw new Error(`no sealing certificate at ${selfSigned}: set FORMLOOM_DATA_DIR (or FORMLOOM_SIGNING_P12) to the instance's`);
  }
  const { createPdfDocumentRenderer, loadOrCreateSigningP12 } = await loadPdf();
  const certificate = await loadOrCreateSigningP12({ dataDir: config.dataDir, p12Path, password: env.FORMLOOM_SIGNING_P12_PASSWORD });
  const signedDocuments = createPdfDocumentRenderer({ p12: certificate.p12, password: certificate.password });
  const storage = await openMigratedStorage(config.databaseUrl);
  try {
    const formloom = createFormloom({ storage, signedDocuments });
    const report = await formloom.service(SigningVerificationService).verify(new Uint8Array(pdf));
    return { valid: report.valid, report, database: describeDatabase(config.databaseUrl) };
  } finally {
    await storage.close();
  }
}
