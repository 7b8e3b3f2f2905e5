import { hostname } from 'node:os';
import type * as PdfModule from '@formloom/pdf';

/** The PAdES levels of docs/signing.md (the same list as `@formloom/pdf`'s, which loads only at first use). */
const LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;

export interface SealSettings {
  dataDir: string;
  p12Path: string | undefined;
  password: string | undefined;
  organization: string;
  tsaUrl: string | undefined;
  level: (typeof LEVELS)[number] | undefined;
  /** `<public URL>/api/v1/signing/ca.crl`, named in a new instance CA's sealing certificate. */
  crlUrl: string | undefined;
}

/**
 * The seal of signed PDFs from the environment (docs/signing.md, "The seal"), checked at start: the
 * operator's P12 or the instance CA made once in the data dir (`O = FORMLOOM_SIGNING_ORG`, default the public
 * URL's host), and the PAdES level: B-LTA when `FORMLOOM_SIGNING_TSA_URL` names a timestamp authority, B-B
 * without one, or `FORMLOOM_SIGNING_PADES_LEVEL`.
 */
export function readSealSettings(env: NodeJS.ProcessEnv, dataDir: string, publicUrl: string | null): SealSettings {
  const organization = env.FORMLOOM_SIGNING_ORG?.trim() || (publicUrl ? new URL(publicUrl).hostname : hostname());
  const tsaUrl = env.FORMLOOM_SIGNING_TSA_URL?.trim() || undefined;
  const level = env.FORMLOOM_SIGNING_PADES_LEVEL?.trim().toUpperCase() || undefined;
  const [problem] = sealProblems(env);
  if (problem) throw new Error(problem);
  const crlUrl = publicUrl ? new URL('api/v1/signing/ca.crl', publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString() : undefined;
  return { dataDir, p12Path: env.FORMLOOM_SIGNING_P12, password: env.FORMLOOM_SIGNING_P12_PASSWORD, organization, tsaUrl, level: level as SealSettings['level'], crlUrl };
}

/** What is wrong with the seal's variables, one line each naming its variable (none: `[]`). */
export function sealProblems(env: NodeJS.ProcessEnv | Record<string, string | undefined>): string[] {
  const tsaUrl = env.FORMLOOM_SIGNING_TSA_URL?.trim() || undefined;
  const level = env.FORMLOOM_SIGNING_PADES_LEVEL?.trim().toUpperCase() || undefined;
  const problems: string[] = [];
  if (level && !(LEVELS as readonly string[]).includes(level)) problems.push(`FORMLOOM_SIGNING_PADES_LEVEL must be one of ${LEVELS.join(', ')}`);
  else if (level && level !== 'B-B' && !tsaUrl) problems.push(`FORMLOOM_SIGNING_PADES_LEVEL=${level} needs FORMLOOM_SIGNING_TSA_URL`);
  if (tsaUrl && !/^https?:\/\//.test(tsaUrl)) problems.push('FORMLOOM_SIGNING_TSA_URL must be an http(s) URL');
  return problems;
}

/** The renderer for those settings, with the certificate loaded (or made) now. */
export async function createSeal(pdf: typeof PdfModule, s: SealSettings) {
  const certificate = await pdf.loadOrCreateSigningP12({ dataDir: s.dataDir, p12Path: s.p12Path, password: s.password, organization: s.organization, crlUrl: s.crlUrl });
  if (certificate.replaced) {
    // Once per instance at most (docs/signing.md, "The sealing certificate"): the operator should know its trust anchor changed.
    process.emitWarning(`the instance CA in ${certificate.path} could not be read by OpenSSL 3 (made before 2026-12-07); a new one was made, the old file is kept as ${certificate.replaced}`, 'FormloomSigningWarning');
  }
  return pdf.createPdfDocumentRenderer({
    p12: certificate.p12,
    password: certificate.password,
    level: s.level,
    timestamps: s.tsaUrl ? pdf.createTimestampClient({ url: s.tsaUrl }) : undefined,
    crls: certificate.crls,
  });
}

/** Settings and renderer at once (tests, and hosts that want the seal ready at start). */
export async function createSealFromEnv(env: NodeJS.ProcessEnv, dataDir: string, publicUrl: string | null) {
  const settings = readSealSettings(env, dataDir, publicUrl);
  return createSeal(require('@formloom/pdf') as typeof PdfModule, settings);
}
