import test from '../helpers/bounded-test';
import { TranslatorError, definePlugin, type MailMessage, type Translator } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { forEachDb } from '../helpers/app';

/*
 * auto_translate (docs/languages.md): at publish, missing translations are filled through the translator port
 * and marked as machine-made; owners' texts and their edits of machine translations are kept; paid plans only;
 * a default language needed; a failing language is a publish warning. The port's adapters are tested against
 * local servers in their own packages: here an in-process translator stands at the port.
 */
let calls = 0;
const translator: Translator = {
  id: 'test',
  async translate(texts, _from, to) {
    calls++;
    if (to === 'ar') throw new TranslatorError('quota exceeded', 456);
    return texts.map((x) => `[${to}] ${x}`);
  },
};
const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => (sent.push(m), { id: String(sent.length) }) };
const plugin = definePlugin({ name: 'test-translator', version: '1.0.0', adapters: { translator } });

forEachDb(
  test,
  (it) => {
    it('fills missing translations at publish, marked, keeping the owner’s texts and edits', async (t, app) => {
      const u = await app.user('pro');
      const created = await app.api('POST', '/forms', {
        key: u.key,
        body: {
          title: 'Survey',
          language: 'en',
          languages: ['de'],
          auto_translate: true,
          questions: [{ type: 'short_text', title: 'Your name' }],
          translations: { de: { title: 'Unsere Umfrage' } },
        },
      });
      t.is(created.status, 201, JSON.stringify(created.body));
      t.true(created.body.auto_translate);
      const id = created.body.id;
      const q = created.body.questions[0].id;
      const pub = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
      t.is(pub.status, 200, JSON.stringify(pub.body));
      t.is(pub.body.warnings, undefined);
      t.deepEqual(pub.body.translations.de, { title: 'Unsere Umfrage', [`questions.${q}.title`]: '[de] Your name' });
      t.deepEqual(pub.body.machine_translations, { de: [`questions.${q}.title`] });
      t.is(pub.body.version.snapshot.translations.de[`questions.${q}.title`], '[de] Your name');

      // The owner corrects the machine's text: it loses its mark and survives the next publish.
      const edited = await app.api('PUT', `/forms/${id}`, {
        key: u.key,
        body: { translations: { de: { title: 'Unsere Umfrage', [`questions.${q}.title`]: 'Wie heißen Sie?' } }, description: 'About you' },
      });
      t.is(edited.body.machine_translations, null);
      const again = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
      t.is(again.body.translations.de[`questions.${q}.title`], 'Wie heißen Sie?');
      t.is(again.body.translations.de.description, '[de] About you');
      t.deepEqual(again.body.machine_translations, { de: ['description'] });

      // A language the translator fails for: published, with a warning naming what is missing.
      await app.api('PUT', `/forms/${id}`, { key: u.key, body: { languages: ['de', 'ar'] } });
      const failed = await app.api('POST', `/forms/${id}/publish`, { key: u.key });
      t.is(failed.status, 200);
      t.deepEqual(failed.body.warnings.map((w: { reason: string }) => w.reason), ['auto_translate_failed', 'translations_missing']);
      t.true(failed.body.warnings[0].message.includes('quota exceeded'));
      // Publishing by saving (POST with published, PUT with published) fills too.
      const born = await app.api('POST', '/forms', { key: u.key, body: { title: 'Poll', language: 'en', languages: ['de'], auto_translate: true, published: true } });
      t.is(born.status, 201, JSON.stringify(born.body));
      t.is(born.body.version.snapshot.translations.de.title, '[de] Poll');
      const draft = await app.api('POST', '/forms', { key: u.key, body: { title: 'Quiz', language: 'en', languages: ['de'], auto_translate: true } });
      const put = await app.api('PUT', `/forms/${draft.body.id}`, { key: u.key, body: { description: 'Short', published: true } });
      t.is(put.status, 200, JSON.stringify(put.body));
      t.deepEqual(put.body.translations.de, { title: '[de] Quiz', description: '[de] Short' });
      t.deepEqual(put.body.machine_translations, { de: ['title', 'description'] });
    });

    it('paid plans only, and a default language needed', async (t, app) => {
      const free = await app.user('free');
      const stored = await app.api('POST', '/forms', { key: free.key, body: { title: 'F', language: 'en', languages: ['de'], auto_translate: true } });
      t.is(stored.status, 201);
      t.false(stored.body.auto_translate);
      const pro = await app.user('pro');
      const bad = await app.api('POST', '/forms', { key: pro.key, body: { title: 'F', auto_translate: true } });
      t.is(bad.status, 400);
      t.is(bad.body.error.field, 'auto_translate');
      t.is(bad.body.error.reason, 'auto_translate_needs_language');
      t.true(calls > 0);
    });

    it("an email step mails in the respondent's language", async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const u = await app.user('pro');
      const to = `lang-${app.kind}@example.com`;
      const created = await app.api('POST', '/forms', {
        key: u.key,
        body: {
          title: 'Order',
          published: true,
          language: 'en',
          languages: ['de'],
          questions: [
            { id: 'q_mail', type: 'email_step', title: 'Mail', properties: { recipient: to, sender_name: 'Shop', subject: 'Your order', body: 'Thanks' } },
            { id: 'q_name', type: 'short_text', title: 'Name' },
          ],
          translations: { de: { 'questions.q_mail.subject': 'Ihre Bestellung', 'questions.q_mail.body': 'Danke' } },
        },
      });
      t.true(created.body.published, JSON.stringify(created.body.publish_error ?? created.body));
      const mailQ = created.body.questions[0].id;
      const partial = await app.api('POST', `/public/forms/${created.body.slug}/responses`, { body: { completed: false, answers: [], language: 'de' } });
      t.is(partial.status, 201, JSON.stringify(partial.body));
      const ran = await app.api('POST', `/public/forms/${created.body.slug}/responses/${partial.body.id}/steps/${mailQ}`, { headers: { 'x-resume-token': partial.body.resume_token } });
      t.is(ran.status, 200, JSON.stringify(ran.body));
      await waitFor(() => sent.some((m) => m.to === to), { timeoutMs: 30_000 });
      const mail = sent.find((m) => m.to === to)!;
      t.is(mail.subject, 'Ihre Bestellung');
      t.regex(mail.text, /Danke/);
    });
  },
  { plugins: [plugin], mailer },
);
