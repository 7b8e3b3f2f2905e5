import test from '../helpers/bounded-test';
import type { Principal } from '@formloom/core';
import { forEachDb, type ApiResponse, type TestApp } from '../helpers/app';
import { raceParentDelete } from '../helpers/races';
import { lazyRenderer } from '../helpers/signing';

/*
 * Every operation on a form's children (its settings, versions, responses, uploads, webhooks, signing
 * sessions and their signers), racing `DELETE /forms/:id`: its success or 404, never a 500.
 */

/**
 * A published form with a response, a partial response and a signing session. The form is made and published
 * through the services its routes call (2 of each round's 8 requests were that set-up); the rest, and the race,
 * over HTTP.
 */
async function formWithChildren(app: TestApp) {
  const user = await app.user('pro');
  const as: Principal = { user_id: user.id, key_id: null, scope: 'forms' };
  const form = (await app.formloom.forms.create(as, {
    title: 'Race',
    incremental_submission: true,
    questions: [
      { type: 'short_text', title: 'Name' },
      { type: 'file_upload', title: 'CV' },
      { type: 'contract', title: 'Lease', properties: { document: 'Pay.', signer_slots: [{ slot_number: 1, label: 'Tenant' }] } },
    ],
  })) as { id: string; slug: string; questions: { id: string }[] };
  await app.formloom.publishing.publish(as, form.id);
  const answer = { question_id: form.questions[0].id, value: 'Ann' };
  const full = (await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [answer] } })).body;
  const partial = (await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [answer], completed: false } })).body;
  const session = (
    await app.api('POST', `/forms/${form.id}/signing-sessions`, {
      key: user.key,
      body: { require_email_verification: true, signers: [{ slot_number: 1, email: `s-${form.id}@example.com` }] },
    })
  ).body;
  return { key: user.key, form, full, partial, session, code: session.signer_links[0].short_code as string };
}

function upload(app: TestApp, slug: string, questionId: string): Promise<ApiResponse> {
  const fd = new FormData();
  fd.append('file', new Blob(['%PDF-1.4 tiny'], { type: 'application/pdf' }), 'cv.pdf');
  return fetch(`${app.url}/api/v1/public/forms/${slug}/uploads?question_id=${questionId}`, { method: 'POST', body: fd }).then(async (r) => {
    const text = await r.text();
    return { status: r.status, text, body: undefined, headers: r.headers };
  });
}

type Ctx = Awaited<ReturnType<typeof formWithChildren>>;
const typed = { signature: { type: 'typed', value: 'Ann' } };

forEachDb(
  test,
  (it) => {
    raceParentDelete<Ctx>(it, {
      parent: 'form',
      rounds: 4,
      setup: (app) => formWithChildren(app),
      remove: (app, c) => app.api('DELETE', `/forms/${c.form.id}`, { key: c.key }),
      children: [
        ['update', (app, c) => app.api('PUT', `/forms/${c.form.id}`, { key: c.key, body: { title: 'Renamed' } })],
        ['theme', (app, c) => app.api('PUT', `/forms/${c.form.id}/theme`, { key: c.key, body: { font_family: 'Inter' } })],
        ['webhook', (app, c) => app.api('PUT', `/forms/${c.form.id}/webhooks`, { key: c.key, body: { url: 'https://hooks.example.com/x' } })],
        ['duplicate', (app, c) => app.api('POST', `/forms/${c.form.id}/duplicate`, { key: c.key })],
        // Two publishes at once: one may be told another is under way.
        ['publish', (app, c) => app.api('POST', `/forms/${c.form.id}/publish`, { key: c.key }), [200, 404, 409]],
        ['unpublish', (app, c) => app.api('DELETE', `/forms/${c.form.id}/publish`, { key: c.key })],
        ['delete response', (app, c) => app.api('DELETE', `/forms/${c.form.id}/responses/${c.full.id}`, { key: c.key })],
        // The second of two bulk deletes at once finds its id gone: the documented 400.
        [
          'bulk delete',
          (app, c) => app.api('POST', `/forms/${c.form.id}/responses/bulk-delete`, { key: c.key, body: { response_ids: [c.full.id] } }),
          [200, 400, 404],
        ],
        [
          'submit',
          (app, c) => app.api('POST', `/public/forms/${c.form.slug}/responses`, { body: { answers: [{ question_id: c.form.questions[0].id, value: 'Bo' }] } }),
        ],
        // The second of two completions at once: 409 response_completed.
        [
          'resume',
          (app, c) =>
            app.api('PATCH', `/public/forms/${c.form.slug}/responses/${c.partial.id}`, {
              headers: { 'x-resume-token': c.partial.resume_token },
              body: { completed: true },
            }),
          [200, 404, 409],
        ],
        // Saved without completing: its success, or 404 once the form is gone (never the completed 409).
        [
          'save progress',
          (app, c) =>
            app.api('PATCH', `/public/forms/${c.form.slug}/responses/${c.partial.id}`, {
              headers: { 'x-resume-token': c.partial.resume_token },
              body: { answers: [{ question_id: c.form.questions[0].id, value: 'Cy' }], completed: false },
            }),
        ],
        ['upload', (app, c) => upload(app, c.form.slug, c.form.questions[1].id)],
        ['new session', (app, c) => app.api('POST', `/forms/${c.form.id}/signing-sessions`, { key: c.key, body: {} })],
      ],
    });

    // A signing session goes with its form (sessions have no delete of their own).
    raceParentDelete<Ctx>(it, {
      parent: "signing session's form",
      rounds: 4,
      setup: (app) => formWithChildren(app),
      remove: (app, c) => app.api('DELETE', `/forms/${c.form.id}`, { key: c.key }),
      children: [
        ['void', (app, c) => app.api('POST', `/signing-sessions/${c.session.id}/void`, { key: c.key, body: { reason: 'Changed terms' } }), [200, 404, 409]],
        ['resend', (app, c) => app.api('POST', `/signing-sessions/${c.session.id}/resend/1`, { key: c.key }), [200, 404, 409]],
        ['context', (app, c) => app.api('GET', `/s/${c.code}`)],
        ['document', (app, c) => app.api('GET', `/s/${c.code}/document`)],
        ['send-code', (app, c) => app.api('POST', `/s/${c.code}/send-code`, { body: {} }), [200, 404]],
        ['sign', (app, c) => app.api('POST', `/s/${c.code}/sign`, { body: { ...typed, email_code: '000000' } }), [200, 400, 404, 409]],
        ['decline', (app, c) => app.api('POST', `/s/${c.code}/decline`, { body: { reason: 'No' } }), [200, 404, 409]],
      ],
    });
  },
  // Resume tokens and uploads of a deleted form count as failed authentications: no limit in the way here.
  { signedDocuments: lazyRenderer(), rateLimits: false }
);
