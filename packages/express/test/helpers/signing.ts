import type { MailMessage, Mailer, SignedDocumentRenderer } from '@formloom/core';
import { checkSignature, createPdfDocumentRenderer, loadOrCreateSigningP12 } from '@formloom/pdf';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestApp } from './app';
import { waitFor } from '@formloom/core/testing';

/**
 * One sealing certificate for every test file of a run: making one (two RSA keys and a PKCS#12) took about
 * half a second of CPU in each of some twenty files. It lives in a folder named after the code that makes
 * certificates, so a change there makes a new one; `loadOrCreateSigningP12` lets exactly one of several
 * processes starting at once create it.
 */
let renderer: Promise<SignedDocumentRenderer> | undefined;
export function testRenderer(): Promise<SignedDocumentRenderer> {
  return (renderer ??= loadOrCreateSigningP12({ dataDir: sharedCertificateDir() }).then((c) =>
    createPdfDocumentRenderer({ p12: c.p12, password: c.password }),
  ));
}

function sharedCertificateDir(): string {
  const pdf = dirname(require.resolve('@formloom/pdf'));
  const hash = createHash('sha256');
  for (const file of ['instance-ca.js', 'signing-certificate.js']) hash.update(readFileSync(join(pdf, file)));
  return join(tmpdir(), 'formloom-test-templates', `signing-p12-${hash.digest('hex').slice(0, 16)}`);
}

/** The same renderer, usable before the certificate exists (test apps are configured synchronously). */
export function lazyRenderer(): SignedDocumentRenderer {
  return {
    renderSigned: async (i) => (await testRenderer()).renderSigned(i),
    renderVoided: async (i) => (await testRenderer()).renderVoided(i),
    seal: async (d) => (await testRenderer()).seal(d),
    verify: async (pdf) => (await testRenderer()).verify(pdf),
    checkSignature,
    unsupportedCharacters: async (text) => (await testRenderer()).unsupportedCharacters!(text),
  };
}

/** The placeholder of a raw query's `n`th parameter on either database. */
export const ph = (app: TestApp, n: number) => (app.kind === 'postgres' ? `$${n}` : '?');

/** A mailer at the boundary: keeps what it was asked to send. */
export function memoryMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (m) => (sent.push(m), { id: `m${sent.length}` }) };
}

export const CONTRACT = '# Lease\n\nThe **tenant** pays the rent.';

/** A form with one contract question of two slots (Tenant, Landlord), owned by a new user on `plan`. */
export async function contractForm(app: TestApp, plan: 'free' | 'pro' = 'pro', props: Record<string, unknown> = {}) {
  const user = await app.user(plan);
  const res = await app.api('POST', '/forms', {
    key: user.key,
    body: {
      title: 'Lease',
      questions: [
        { type: 'short_text', title: 'Name' },
        {
          type: 'contract',
          title: 'Lease agreement',
          properties: { document: CONTRACT, signer_slots: [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }], ...props },
        },
      ],
    },
  });
  if (res.status !== 201) throw new Error(`form: ${res.status} ${res.text}`);
  return { user, form: res.body, contract: res.body.questions[1] };
}

/** Waits (the shared `waitFor`, no fixed delay) until `check` gives a value, for up to `tries` twentieths of a second. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, tries = 2400): Promise<T> {
  return (await waitFor(check, { timeoutMs: tries * 50, intervalMs: 50 })) as T;
}
