import { pngDataUrl } from './png';
import type { SignedDocumentInput, SignedDocumentSigner, VoidedDocumentInput } from '@formloom/core';

/** A contract long enough for three pages, with headings, emphasis and both kinds of list. */
export function contractMarkdown(sections = 6): string {
  const parts = ['# Residential Lease Agreement', '', 'This agreement is made between the **Landlord** and the *Tenant*.', ''];
  for (let i = 1; i <= sections; i++) {
    parts.push(`## Section ${i}: Obligations part ${i}`, '');
    parts.push(
      `The parties agree to clause ${i}. `.repeat(18).trim() +
        ' Nothing in this section limits *any* statutory right, and **all notices** must be given in writing.',
      '',
    );
    parts.push(`1. First duty of section ${i}`, `2. Second duty of section ${i}`, '   - nested detail alpha', '   - nested detail beta', `3. Third duty of section ${i}`, '');
    parts.push(`- Bullet clause ${i}A`, `- Bullet clause ${i}B with ***bold italic*** words`, '');
  }
  parts.push('---', '', '> Signed in good faith.', '');
  return parts.join('\n');
}

export function signer(overrides: Partial<SignedDocumentSigner> & Pick<SignedDocumentSigner, 'slot_number'>): SignedDocumentSigner {
  return {
    slot_label: `Party ${overrides.slot_number}`,
    first_name: null,
    last_name: null,
    email: null,
    status: 'pending',
    verification_methods: ['link'],
    ...overrides,
  };
}

export const TENANT = signer({
  slot_number: 1,
  slot_label: 'Tenant',
  first_name: 'Alice',
  last_name: 'Marchetti',
  email: 'alice@example.com',
  status: 'signed',
  signature: { type: 'typed', value: 'Alice Marchetti' },
  verification_methods: ['link', 'password', 'email_code'],
  viewed: { at: '2026-03-01T09:00:00.000Z', ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0' },
  signed: { at: '2026-03-01T09:04:12.000Z', ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/135.0' },
});

export const LANDLORD = signer({
  slot_number: 2,
  slot_label: 'Landlord',
  first_name: 'Bruno',
  last_name: 'Okafor',
  email: 'bruno@example.com',
  status: 'signed',
  signature: { type: 'drawn', value: pngDataUrl(300, 90) },
  viewed: { at: '2026-03-02T10:00:00.000Z', ip_address: '198.51.100.23', user_agent: 'Mozilla/5.0 (Macintosh) Safari/17.4' },
  signed: { at: '2026-03-02T10:01:30.000Z', ip_address: '198.51.100.23', user_agent: 'Mozilla/5.0 (Macintosh) Safari/17.4' },
});

export function signedInput(overrides: Partial<SignedDocumentInput> = {}): SignedDocumentInput {
  return {
    session_id: 'ses_test123',
    form_id: 'frm_lease',
    question_id: 'q_contract1',
    question_title: 'Lease agreement',
    contract: contractMarkdown(),
    signers: [TENANT, LANDLORD],
    audit_head_hash: 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a',
    generated_at: '2026-03-02T10:01:31.000Z',
    ...overrides,
  };
}

export function voidedInput(overrides: Partial<VoidedDocumentInput> = {}): VoidedDocumentInput {
  return {
    ...signedInput({ signers: [TENANT, { ...LANDLORD, status: 'pending', signature: null, signed: null }] }),
    voided_at: '2026-03-02T12:00:00.000Z',
    void_reason: 'Terms changed before the landlord signed',
    ...overrides,
  };
}
