import test from 'ava';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFormloom, SignerService, SigningSealHandler, SigningSessionService } from '@formloom/core';
import { createPdfDocumentRenderer, loadOrCreateSigningP12 } from '@formloom/pdf';
import { openMigratedStorage, runCli } from '../../src';
import { scratchDatabase } from '../databases';

/** A session completed and sealed by an instance on this database and data dir; its PDF written to a file. */
async function sealedPdf(url: string, dataDir: string) {
  const storage = await openMigratedStorage(url);
  try {
    const cert = await loadOrCreateSigningP12({ dataDir });
    const formloom = createFormloom({ storage, signedDocuments: createPdfDocumentRenderer({ p12: cert.p12, password: cert.password }) });
    const user = await formloom.accounts.createUser({ email: `cli-${Date.now()}@example.com`, plan: 'pro' });
    const principal = { user_id: user.id, key_id: null, scope: 'forms' as const };
    const form = (await formloom.forms.create(principal, { title: 'NDA', questions: [{ type: 'contract', title: 'NDA', properties: { document: 'Keep it secret.' } }] })) as { id: string };
    const session = await formloom.service(SigningSessionService).create(principal, form.id, {});
    await formloom.service(SignerService).sign(session.signer_links[0].short_code, { signature: { type: 'typed', value: 'Ann' } }, { ip: null, user_agent: null });
    await formloom.service(SigningSealHandler).seal(session.id, 'complete');
    const [doc] = await storage.signing.listDocuments(session.id);
    return { session, pdf: (await storage.signing.findDocument(session.id, doc.id))!.pdf };
  } finally {
    await storage.close();
  }
}

test('signing verify: valid for a PDF this instance sealed, invalid once a byte changes, usage error without a file', async (t) => {
  const db = await scratchDatabase('sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'formloom-cli-verify-'));
  t.teardown(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { FORMLOOM_DATABASE_URL: db.url, FORMLOOM_DATA_DIR: dir };
  const { session, pdf } = await sealedPdf(db.url, dir);
  writeFileSync(join(dir, 'ok.pdf'), pdf);
  const ok = await runCli(['signing', 'verify', join(dir, 'ok.pdf')], env);
  t.is(ok.code, 0, ok.stderr + ok.stdout);
  t.like(JSON.parse(ok.stdout), { valid: true, sealed_by_this_instance: true, known_document: true, audit_chain_intact: true, session_id: session.id });
  // Like every command, it names the database it opened on stderr (docs/cli.md).
  t.is(ok.stderr, `formloom: database ${db.url}\n`);

  const bad = Buffer.from(pdf);
  bad[20] ^= 1; // inside the signed byte range (the range starts at byte 0)
  writeFileSync(join(dir, 'bad.pdf'), bad);
  const tampered = await runCli(['signing', 'verify', join(dir, 'bad.pdf')], env);
  t.is(tampered.code, 1);
  t.false(JSON.parse(tampered.stdout).valid);

  t.is((await runCli(['signing', 'verify'], env)).code, 2);
  const missing = await runCli(['signing', 'verify', join(dir, 'nope.pdf')], env);
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^formloom: cannot read/);

  // Another data dir has no certificate: an error, and none is made there.
  const empty = mkdtempSync(join(tmpdir(), 'formloom-cli-empty-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const noCert = await runCli(['signing', 'verify', join(dir, 'ok.pdf')], { ...env, FORMLOOM_DATA_DIR: empty });
  t.is(noCert.code, 1);
  t.regex(noCert.stderr, /^formloom: no sealing certificate at .*signing\.p12/);
  t.false(existsSync(join(empty, 'signing.p12')));
});
