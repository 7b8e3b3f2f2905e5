import test from '../helpers/bounded-test';
import { isEmailAddress } from '@formloom/core';
import { forEachDb } from '../helpers/app';
import { contractForm, lazyRenderer } from '../helpers/signing';

/*
 * One email rule everywhere, the one `format: email` declares (docs/decisions.md "Email addresses"): every
 * field that takes an address refuses what a mail server would, and accepts the unusual but valid.
 */
const label63 = 'a'.repeat(63);
const BAD = [
  'someone@example-.com', // label ends with a hyphen
  'someone@-example.com', // label starts with a hyphen
  `${'l'.repeat(65)}@example.com`, // local part over 64
  `someone@${'d'.repeat(64)}.com`, // label over 63
  `${'l'.repeat(64)}@${[label63, label63, label63, 'b'.repeat(57)].join('.')}.com`, // over 254 in all
  'some..one@example.com',
  '.someone@example.com',
  'someone@example',
  'someone@example..com',
  'some one@example.com',
  'someone@[192.0.2.1]',
  'someone@192.0.2.1',
  '"quoted"@example.com',
];
const GOOD = [`${'l'.repeat(64)}@${label63}.example.com`, "o'brien+tag@mail.example.co.uk", 'a!#$%&*/=?^_`{|}~-@x-y.example', 'x@a.io'];

test('isEmailAddress: the RFC 5321 lengths and host-name labels', (t) => {
  for (const e of BAD) t.false(isEmailAddress(e), e);
  for (const e of GOOD) t.true(isEmailAddress(e), e);
});

forEachDb(
  test,
  (it) => {
    it('invitations, members, signers, notify_emails, send-code and user creation refuse the same addresses', async (t, app) => {
      const owner = await app.user('pro');
      const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Mail' } })).body;
      const { user, form } = await contractForm(app);
      const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { require_email_verification: true } })).body;
      const code = session.signer_links[0].short_code;
      for (const email of BAD) {
        const refusals = [
          await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email, role: 'editor' } }),
          await app.api('POST', `/teams/${team.id}/members`, { key: owner.key, body: { email, role: 'viewer' } }),
          await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: [{ slot_number: 1, email }] } }),
          await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { notify_emails: [email] } }),
          await app.api('POST', `/s/${code}/send-code`, { body: { email } }),
        ];
        for (const r of refusals) {
          t.is(r.status, 400, `${email}: ${r.text}`);
          t.is(r.body.error.code, 'BAD_REQUEST');
        }
        await t.throwsAsync(app.formloom.accounts.createUser({ email }), { message: /email/ }, email);
      }
      const invites = await app.api('GET', `/teams/${team.id}/invitations`, { key: owner.key });
      t.is(invites.body.invitations.length, 0, 'nothing was written');
      for (const [i, email] of GOOD.entries()) {
        t.is((await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email, role: 'viewer' } })).status, 201, email);
        const s = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: { signers: [{ slot_number: 1, email }], notify_emails: [email] } });
        t.is(s.status, 201, `${email}: ${s.text}`);
        if (i === 0) t.is((await app.api('POST', `/s/${code}/send-code`, { body: { email } })).status, 200);
      }
    });
  },
  { signedDocuments: lazyRenderer() },
);
