import { X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { crlDistributionUrls } from '@formloom/pdf';
import { startTestTsa } from '@formloom/pdf/testing';
import { createSealFromEnv } from '../../src/signing-seal';

/* The seal's environment (docs/configuration.md): the instance CA's organisation, the TSA and the PAdES level. */

const dataDir = (t: { teardown(fn: () => void): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-seal-env-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

test('a wrong level, or a level that needs a TSA without one, stops start-up with a clear message', async (t) => {
  const dir = dataDir(t);
  await t.throwsAsync(createSealFromEnv({ FORMLOOM_SIGNING_PADES_LEVEL: 'B-X' }, dir, null), { message: 'FORMLOOM_SIGNING_PADES_LEVEL must be one of B-B, B-T, B-LT, B-LTA' });
  await t.throwsAsync(createSealFromEnv({ FORMLOOM_SIGNING_PADES_LEVEL: 'b-lt' }, dir, null), { message: 'FORMLOOM_SIGNING_PADES_LEVEL=B-LT needs FORMLOOM_SIGNING_TSA_URL' });
  await t.throwsAsync(createSealFromEnv({ FORMLOOM_SIGNING_TSA_URL: 'ftp://tsa.example' }, dir, null), { message: 'FORMLOOM_SIGNING_TSA_URL must be an http(s) URL' });
});

test('the instance CA is named after the public URL\'s host; a TSA makes the level B-LTA, or the level asked', async (t) => {
  const tsa = await startTestTsa();
  t.teardown(() => tsa.close());
  const dir = dataDir(t);
  const seal = await createSealFromEnv({ FORMLOOM_SIGNING_TSA_URL: tsa.url }, dir, 'https://forms.example.org:8443/app');
  t.is(seal.level, 'B-LTA');
  t.regex(new X509Certificate(seal.trustAnchorPem).subject, /O=forms\.example\.org$|O=forms\.example\.org\n/);
  // The sealing certificate names the CRL the instance serves under its public URL (docs/signing.md).
  const leaf = execFileSync('openssl', ['pkcs12', '-in', join(dir, 'signing.p12'), '-nokeys', '-clcerts', '-passin', 'pass:'], { encoding: 'utf8' });
  t.deepEqual(crlDistributionUrls(new X509Certificate(leaf).raw), ['https://forms.example.org:8443/app/api/v1/signing/ca.crl']);
  const crl = await seal.caCrl();
  t.truthy(crl);
  t.is(crl!.length, readFileSync(readdirSync(dir).map((f) => join(dir, f)).find((f) => f.endsWith('.crl'))!).length);
  const bt = await createSealFromEnv({ FORMLOOM_SIGNING_TSA_URL: tsa.url, FORMLOOM_SIGNING_PADES_LEVEL: 'B-T', FORMLOOM_SIGNING_ORG: 'ignored once made' }, dir, null);
  t.is(bt.level, 'B-T');
  t.is(bt.trustFingerprint, seal.trustFingerprint, 'the CA is made once and kept');
  const other = await createSealFromEnv({ FORMLOOM_SIGNING_ORG: 'Acme Contracts' }, dataDir(t), 'https://forms.example.org');
  t.is(other.level, 'B-B');
  t.regex(new X509Certificate(other.trustAnchorPem).subject, /O=Acme Contracts/);
});
