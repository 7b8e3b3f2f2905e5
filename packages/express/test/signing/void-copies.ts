import test from '../helpers/bounded-test';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { CONTRACT, eventually, lazyRenderer, memoryMailer } from '../helpers/signing';

/* Issue 34 (18): in a voided session, a signer's link lists and downloads the VOIDED copies only if that signer
   had signed (what they signed, marked void), and a contract nobody signed is not sealed at void at all. */

for (const kind of DB_KINDS) {
  test.serial(`[${kind}] a voided session: the copies a link lists are exactly those it downloads; a contract nobody signed is not sealed`, async (t) => {
    const app = await startTestApp(kind, { mailer: memoryMailer(), signedDocuments: lazyRenderer() });
    t.teardown(() => app.close());
    app.formloom.worker.start({ pollMs: 50 });
    const user = await app.user('pro');
    const form = (await app.api('POST', '/forms', {
      key: user.key,
      body: {
        title: 'Lease',
        questions: [
          { type: 'contract', title: 'Lease agreement', properties: { document: CONTRACT, signer_slots: [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Landlord' }] } },
          { type: 'contract', title: 'Landlord annex', properties: { document: '# Annex\n\nThe landlord repairs.', signer_slots: [{ slot_number: 2, label: 'Landlord' }] } },
        ],
      },
    })).body;
    const [lease, annex] = form.questions;
    const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} })).body;
    const [tenant, landlord] = session.signer_links.map((l: { short_code: string }) => l.short_code);
    t.is((await app.api('POST', `/s/${tenant}/sign`, { body: { signature: { type: 'typed', value: 'Tina Tenant' }, first_name: 'Tina', last_name: 'Tenant' } })).status, 200);
    t.is((await app.api('POST', `/signing-sessions/${session.id}/void`, { key: user.key, body: { reason: 'Wrong flat' } })).status, 200);
    await eventually(async () => {
      const rows = await app.raw(`SELECT status FROM outbox WHERE kind = 'signing_seal'`);
      return rows.length > 0 && rows.every((r: { status: string }) => r.status === 'delivered');
    });

    // Sealed at void: the lease (the tenant signed it), not the annex (its only signer never signed).
    const documents = (await app.api('GET', `/signing-sessions/${session.id}/documents`, { key: user.key })).body.documents as Array<{ id: string; question_id: string }>;
    t.deepEqual(documents.map((d) => d.question_id), [lease.id]);
    t.false(documents.some((d) => d.question_id === annex.id));
    const leaseDoc = documents[0]!.id;

    // The tenant signed: the context lists the voided lease, and the link downloads it.
    const tenantContext = (await app.api('GET', `/s/${tenant}`)).body;
    t.is(tenantContext.status, 'voided');
    t.deepEqual(tenantContext.documents.map((d: { id: string }) => d.id), [leaseDoc]);
    const download = await fetch(`${app.url}/api/v1/s/${tenant}/signed-documents/${leaseDoc}`);
    t.is(download.status, 200);
    t.is(download.headers.get('content-type'), 'application/pdf');

    // The landlord never signed: nothing listed, and the lease they never signed is not theirs to download.
    const landlordContext = (await app.api('GET', `/s/${landlord}`)).body;
    t.deepEqual(landlordContext.documents, []);
    const refused = await app.api('GET', `/s/${landlord}/signed-documents/${leaseDoc}`);
    t.is(refused.status, 404);
    t.truthy(refused.body.error, 'the documented error shape');
  });
}
