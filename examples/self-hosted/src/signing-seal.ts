import { hostname } from 'node:os';
import { createPdfDocumentRenderer, createTimestampClient, loadOrCreateSigningP12, PADES_LEVELS, type PadesLevel } from '@formloom/pdf';

/**
 * The seal of signed PDFs from the environment (docs/signing.md, "The seal"): the operator's P12 or the
 * instance CA made once in the data dir (`O = FORMLOOM_SIGNING_ORG`, default the public URL's host), and the
 * PAdES level: B-LTA when `FORMLOOM_SIGNING_TSA_URL` names a timestamp authority, B-B without one, or
 * `FORMLOOM_SIGNING_PADES_LEVEL`.
 */
export async function createSealFromEnv(env: NodeJS.ProcessEnv, dataDir: string, publicUrl: string | null) {
  const organization = env.FORMLOOM_SIGNING_ORG?.trim() || (publicUrl ? new URL(publicUrl).hostname : hostname());
  const tsaUrl = env.FORMLOOM_SIGNING_TSA_URL?.trim();
  const level = env.FORMLOOM_SIGNING_PADES_LEVEL?.trim().toUpperCase();
  if (level && !(PADES_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`FORMLOOM_SIGNING_PADES_LEVEL must be one of ${PADES_LEVELS.join(', ')}`);
  }
  if (level && level !== 'B-B' && !tsaUrl) throw new Error(`FORMLOOM_SIGNING_PADES_LEVEL=${level} needs FORMLOOM_SIGNING_TSA_URL`);
  if (tsaUrl && !/^https?:\/\//.test(tsaUrl)) throw new Error('FORMLOOM_SIGNING_TSA_URL must be an http(s) URL');
  const certificate = await loadOrCreateSigningP12({ dataDir, p12Path: env.FORMLOOM_SIGNING_P12, password: env.FORMLOOM_SIGNING_P12_PASSWORD, organization });
  return createPdfDocumentRenderer({
    p12: certificate.p12,
    password: certificate.password,
    level: level as PadesLevel | undefined,
    timestamps: tsaUrl ? createTimestampClient({ url: tsaUrl }) : undefined,
    crls: certificate.crls,
  });
}
