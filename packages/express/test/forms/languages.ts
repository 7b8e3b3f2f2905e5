import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * Multi-language forms (docs/languages.md): languages and translations are stored, checked and versioned;
 * missing translations are a publish warning; the public view carries the page's translations only; a response
 * records its language (filterable) and stores choices in the default language.
 */
const questions = [
  { id: 'q_name', type: 'short_text', title: 'Your name', properties: { placeholder: 'Jane' } },
  { id: 'q_color', type: 'multiple_choice', title: 'Favourite colour', properties: { choices: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }] } },
  { id: 'q_mail', type: 'email_step', title: 'Mail', properties: { recipient: 'a@example.com', sender_name: 'Shop', subject: 'Hello', body: 'Thanks' } },
];

async function create(app: TestApp, key: string, body: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/forms', { key, body: { title: 'Survey', questions: questions.slice(0, 2), ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('languages and translations are checked, published with a warning for what is missing, public where shown', async (t, app) => {
    const u = await app.user();
    for (const [body, field] of [
      [{ languages: ['de'] }, 'languages'],
      [{ language: 'en', languages: ['en', 'de'] }, 'languages'],
      [{ language: 'en', languages: ['de', 'de'] }, 'languages'],
      [{ language: 'en', languages: ['Deutsch'] }, 'languages.0'],
      [{ language: 'en', languages: ['de'], translations: { fr: { title: 'Enquête' } } }, 'translations'],
      [{ language: 'en', languages: ['de'], translations: { de: { 'no spaces here': 'x' } } }, 'translations.de.no spaces here'],
    ] as const) {
      const bad = await app.api('POST', '/forms', { key: u.key, body: { title: 'Bad', ...body } });
      t.is(bad.status, 400, JSON.stringify(body));
      t.is(bad.body.error.field, field, JSON.stringify(bad.body));
    }
    const form = await create(app, u.key, {
      language: 'en',
      languages: ['de', 'ar'],
      thank_you_title: 'Thanks a lot',
      translations: {
        de: { title: 'Umfrage', 'questions.q_name.title': 'Ihr Name', 'questions.q_color.choices.red': 'Rot' },
        ar: { title: 'استطلاع' },
      },
    });
    t.deepEqual(form.languages, ['de', 'ar']);
    const pub = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key });
    t.is(pub.status, 200, JSON.stringify(pub.body));
    t.is(pub.body.warnings.length, 1);
    t.is(pub.body.warnings[0].reason, 'translations_missing');
    // Translations name questions by their stored ids (a client's ids are replaced at creation, paths follow).
    const [name, color] = form.questions.map((q: { id: string }) => q.id);
    t.is(form.translations.de[`questions.${name}.title`], 'Ihr Name');
    t.deepEqual(pub.body.warnings[0].missing.de, ['thank_you_title', `questions.${name}.placeholder`, `questions.${color}.title`, `questions.${color}.choices.blue`]);
    t.true(pub.body.warnings[0].missing.ar.includes(`questions.${color}.choices.red`));
    t.is(pub.body.version.snapshot.translations.de.title, 'Umfrage');

    const view = await app.api('GET', `/public/forms/${form.slug}`);
    t.deepEqual(view.body.snapshot.languages, ['de', 'ar']);
    t.is(view.body.snapshot.translations.de[`questions.${color}.choices.red`], 'Rot');

    // Complete translations: no warning.
    const full = {
      de: {
        title: 'Umfrage', thank_you_title: 'Vielen Dank', [`questions.${name}.title`]: 'Ihr Name', [`questions.${name}.placeholder`]: 'Erika',
        [`questions.${color}.title`]: 'Lieblingsfarbe', [`questions.${color}.choices.red`]: 'Rot', [`questions.${color}.choices.blue`]: 'Blau',
      },
    };
    const put = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { languages: ['de'], translations: full } });
    t.is(put.status, 200, JSON.stringify(put.body));
    const again = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key });
    t.is(again.body.warnings, undefined);
  });

  it("a quiz's endings and a data node's texts are translated, warned about and public", async (t, app) => {
    const u = await app.user('pro');
    const form = await create(app, u.key, {
      language: 'en',
      languages: ['de'],
      mode: 'knowledge_quiz',
      quiz_settings: { endings: [{ id: 'high', title: 'Well done', description: 'You know colours', min_score: 1 }, { id: 'low', title: 'Try again', min_score: 0, max_score: 0 }] },
      questions: [
        { id: 'q_email', type: 'email', title: 'Email' },
        { id: 'q_look', type: 'data', title: 'Looking you up', description: 'One moment', properties: { source: 'https://example.com/customers', params: { email: '{answer.q_email}' } } },
      ],
      translations: { de: { title: 'Umfrage', 'endings.high.title': 'Gut gemacht' } },
    });
    const [email, look] = form.questions.map((q: { id: string }) => q.id);
    const pub = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key });
    t.is(pub.status, 200, JSON.stringify(pub.body));
    t.deepEqual(pub.body.warnings[0].missing.de, ['endings.high.description', 'endings.low.title', `questions.${email}.title`, `questions.${look}.title`, `questions.${look}.description`]);
    const de = { title: 'Umfrage', 'endings.high.title': 'Gut gemacht', 'endings.high.description': 'Sie kennen Farben', 'endings.low.title': 'Noch einmal', [`questions.${email}.title`]: 'E-Mail', [`questions.${look}.title`]: 'Wir suchen Sie', [`questions.${look}.description`]: 'Einen Moment' };
    const put = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { translations: { de } } });
    t.is(put.status, 200, JSON.stringify(put.body));
    const again = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key });
    t.is(again.body.warnings, undefined, JSON.stringify(again.body.warnings));
    const view = await app.api('GET', `/public/forms/${form.slug}`);
    t.like(view.body.snapshot.translations.de, { 'endings.low.title': 'Noch einmal', [`questions.${look}.title`]: 'Wir suchen Sie' });
    t.deepEqual(view.body.snapshot.quiz_settings.endings.map((e: { id: string }) => e.id), ['high', 'low']);
  });

  it('a response records its language, filterable, with choices stored in the default language', async (t, app) => {
    const u = await app.user();
    const form = await create(app, u.key, { language: 'en', languages: ['de', 'ar'], published: true });
    const answers = [{ question_id: form.questions[1].id, value: 'Red' }];
    const de = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, language: 'de' } });
    t.is(de.status, 201, JSON.stringify(de.body));
    t.is(de.body.language, 'de');
    t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, language: 'ar' } })).status, 201);
    const plain = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
    t.is(plain.body.language, 'en');
    const fr = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, language: 'fr' } });
    t.is(fr.status, 400);
    t.is(fr.body.error.field, 'language');
    const list = await app.api('GET', `/forms/${form.id}/responses?language=de`, { key: u.key });
    t.is(list.status, 200, JSON.stringify(list.body));
    t.deepEqual(list.body.responses.map((r: { language: string }) => r.language), ['de']);
    t.is(list.body.responses[0].answers[0].value, 'Red');
    t.is((await app.api('GET', `/forms/${form.id}/responses?language=Deutsch`, { key: u.key })).status, 400);
    // Analytics narrow to the language too (counted from the responses, not the day rollups).
    const analytics = await app.api('GET', `/forms/${form.id}/analytics?language=ar`, { key: u.key });
    t.is(analytics.status, 200, JSON.stringify(analytics.body));
    t.is(analytics.body.total_responses, 1);
    const summaries = await app.api('GET', `/forms/${form.id}/analytics/questions?language=de`, { key: u.key });
    t.is(summaries.status, 200, JSON.stringify(summaries.body));
  });

  it("an owner's edit of a machine translation loses its mark and is kept", async (t, app) => {
    const u = await app.user('pro');
    const form = await create(app, u.key, { language: 'en', languages: ['de'], translations: { de: { title: 'Umfrage' } }, machine_translations: { de: ['title'] } });
    t.deepEqual(form.machine_translations, { de: ['title'] });
    const same = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { description: 'x' } });
    t.deepEqual(same.body.machine_translations, { de: ['title'] });
    const edited = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { translations: { de: { title: 'Unsere Umfrage' } } } });
    t.is(edited.body.translations.de.title, 'Unsere Umfrage');
    t.is(edited.body.machine_translations, null);
    // No translator on this server: turning auto_translate on is refused, nothing written.
    const refused = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { auto_translate: true, title: 'Changed' } });
    t.is(refused.status, 400);
    t.is(refused.body.error.reason, 'translator_not_configured');
    t.is((await app.api('GET', `/forms/${form.id}`, { key: u.key })).body.title, 'Survey');
  });
});
