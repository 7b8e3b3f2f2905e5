import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Recall over HTTP (docs/decisions.md "Recall"): `{answer.<question id>}` in a form's texts follows the ids the
 * service gives new questions, survives reordering by id, and publishing refuses a recall the respondent
 * cannot have answered yet (a later or deleted question, an undeclared hidden field or variable).
 */
/** logic.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('publish refuses a recall of a later question (409 on publish, publish_error on create) and of a deleted one', async (t, app) => {
    const u = await app.user();
    const bad = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Early', published: true, questions: [{ id: 'greet', type: 'short_text', title: 'Hi {answer.name|there}' }, { id: 'name', type: 'short_text', title: 'Name?' }] },
    });
    t.is(bad.status, 201);
    t.is(bad.body.published, false);
    t.is(bad.body.publish_error.reason, 'recall_later_question');
    const [greet, name] = bad.body.questions;
    t.is(greet.title, `Hi {answer.${name.id}|there}`, "the client's id became the service's in the text");
    t.deepEqual(bad.body.publish_error.question_ids, [greet.id]);
    t.regex(bad.body.publish_error.message, /Question 1's title recalls question 2 \("Name\?"\), which comes later/);

    const blocked = await app.api('POST', `/forms/${bad.body.id}/publish`, { key: u.key });
    t.is(blocked.status, 409);
    t.like(blocked.body.error, { code: 'CONFLICT', reason: 'recall_later_question', question_ids: [greet.id], upgrade_required: false });

    // Reordered by id: the recall keeps naming the same question, now an earlier one.
    const reordered = await app.api('PUT', `/forms/${bad.body.id}`, { key: u.key, body: { questions: [name, greet] } });
    t.is(reordered.status, 200);
    t.is(reordered.body.questions[1].title, `Hi {answer.${name.id}|there}`);
    t.is((await app.api('POST', `/forms/${bad.body.id}/publish`, { key: u.key })).status, 200);

    t.is((await app.api('PUT', `/forms/${bad.body.id}`, { key: u.key, body: { questions: [greet] } })).status, 200, 'a draft may hold it');
    const deleted = await app.api('POST', `/forms/${bad.body.id}/publish`, { key: u.key });
    t.is(deleted.status, 409);
    t.like(deleted.body.error, { reason: 'recall_deleted_question', question_ids: [greet.id] });
    const live = await app.api('GET', `/public/forms/${bad.body.slug}`);
    t.deepEqual(live.body.snapshot.questions.map((q: { title: string }) => q.title), ['Name?', `Hi {answer.${name.id}|there}`], 'respondents keep the version that was checked');
  });

  it('hidden fields, variables and the screens: checked at publish; the copy of a form recalls its own questions', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Screens',
        welcome_title: 'Welcome {hidden.who|friend}',
        thank_you_title: 'Thanks {answer.n}, score {var.score}',
        redirect_url: 'https://example.com/next?name={answer.n}',
        questions: [{ id: 'n', type: 'short_text', title: 'Name' }],
      },
    });
    t.is(created.status, 201);
    const id = created.body.id;
    const n = created.body.questions[0].id;
    t.is(created.body.thank_you_title, `Thanks {answer.${n}}, score {var.score}`);
    t.is(created.body.redirect_url, `https://example.com/next?name={answer.${n}}`);
    const hidden = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
    t.like(hidden.body.error, { reason: 'recall_unknown_hidden_field', question_ids: [] });
    t.regex(hidden.body.error.message, /welcome title recalls the hidden field who/);
    await app.api('PUT', `/forms/${id}`, { key: u.key, body: { hidden_fields: ['who'] } });
    t.like((await app.api('POST', `/forms/${id}/publish`, { key: u.key })).body.error, { reason: 'recall_unknown_variable' });
    await app.api('PUT', `/forms/${id}`, { key: u.key, body: { variables: { score: 7, secret: 'kept' } } });
    const ok = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
    t.is(ok.status, 200);
    const pub = await app.api('GET', `/public/forms/${created.body.slug}`);
    t.deepEqual(pub.body.snapshot.variables, { score: 7 }, 'a recalled variable is public, the others are not');

    const copy = await app.api('POST', `/forms/${id}/duplicate`, { key: u.key });
    t.is(copy.status, 201);
    const m = copy.body.questions[0].id;
    t.not(m, n);
    t.is(copy.body.thank_you_title, `Thanks {answer.${m}}, score {var.score}`);
    t.is((await app.api('POST', `/forms/${copy.body.id}/publish`, { key: u.key })).status, 200);
  });
});
