import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MailMessage, Mailer, SignedDocumentRenderer } from '@formloom/core';
import { checkSignature, createPdfDocumentRenderer, loadOrCreateSigningP12 } from '@formloom/pdf';
import { startWorkspaceApp, type DbKind, type WorkspaceTestApp } from './app';
import { waitFor } from '@formloom/core/testing';

/*
 * The workspace test app with what signing needs (docs/signing.md): `@formloom/pdf`'s renderer with a sealing
 * certificate made for the file, a mailer at the boundary that keeps what it was asked to send, and the
 * outbox worker running, so a last signature is sealed into PDFs as in the self-hosted app.
 */

export interface SigningTestApp extends WorkspaceTestApp {
  mails: MailMessage[];
  /** A form with one contract question of two slots (Tenant, Landlord), owned by `key`'s user. */
  contractForm(key: string, extra?: { team_id?: string }): Promise<any>;
  /** Signs slot `code`'s link the way the signer's page does (typed signature, e-sign consent). */
  sign(code: string, name: string): Promise<{ status: number; body: any }>;
  /** Waits (polling) until the outbox has sent as many mails matching `match` as `count`. */
  mailed(match: (m: MailMessage) => boolean, count?: number): Promise<MailMessage[]>;
  /** Waits (polling, no fixed delay) until the session's sealed documents are stored. */
  sealed(sessionId: string, key: string): Promise<any[]>;
}

export const CONTRACT = '# Lease\n\nThe **tenant** pays the rent on the first day of each month.';

export async function startSigningApp(kind: DbKind = 'sqlite'): Promise<SigningTestApp> {
  const certificate = await loadOrCreateSigningP12({ dataDir: mkdtempSync(join(tmpdir(), 'formloom-p12-')) });
  const renderer: SignedDocumentRenderer = createPdfDocumentRenderer({ p12: certificate.p12, password: certificate.password });
  const mails: MailMessage[] = [];
  const mailer: Mailer = { send: async (m) => (mails.push(m), { id: `m${mails.length}` }) };
  const app = await startWorkspaceApp(kind, { signedDocuments: { ...renderer, checkSignature }, mailer });
  app.formloom.worker.start({ pollMs: 50 });
  return {
    ...app,
    mails,
    async contractForm(key, extra = {}) {
      const res = await app.api('POST', '/forms', {
        key,
        body: {
          title: 'Flat lease',
          ...extra,
          questions: [
            { type: 'short_text', title: 'Your name' },
            { type: 'contract', title: 'Lease agreement', properties: { document: CONTRACT, signer_slots: [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }] } },
          ],
        },
      });
      if (res.status !== 201) throw new Error(`contract form: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async sign(code, name) {
      await app.api('GET', `/s/${code}/document`);
      return app.api('POST', `/s/${code}/sign`, { body: { signature: { type: 'typed', value: name }, esign_consent: true } });
    },
    async mailed(match, count = 1) {
      return waitFor(
        () => {
          const found = mails.filter(match);
          return found.length >= count && found;
        },
        { timeoutMs: 120_000, intervalMs: 50, what: 'the mail' },
      );
    },
    async sealed(sessionId, key) {
      return waitFor(
        async () => {
          const docs = (await app.api('GET', `/signing-sessions/${sessionId}/documents`, { key })).body.documents;
          return docs?.length ? docs : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 50, what: 'the sealed documents' },
      );
    },
  };
}
