import test from '../helpers/bounded-test';
import { download, sheetCells } from '../helpers/xlsx-cells';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * The XLSX and JSON exports in each respondent's language (issue 37; docs/responses-and-webhooks.md, "Export
 * formats"): a response given in French shows its yes/no and choices as the French page showed them, from the
 * version it answered; the raw values and the CSV stay as stored (choices in the default language).
 */

type Answer = { question_id: string; label: unknown; value: unknown };

async function multilingualForm(app: TestApp, extra: Record<string, unknown> = {}) {
  const u = await app.user();
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Languages',
      published: true,
      language: 'en',
      languages: ['fr', 'sv'],
      questions: [
        { id: 'q_yes', type: 'yes_no', title: 'Coming?' },
        { id: 'q_col', type: 'multiple_choice', title: 'Colours', properties: { choices: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }], allow_multiple: true, allow_other: true } },
        { id: 'q_city', type: 'dropdown', title: 'City', properties: { choices: [{ label: 'Berlin' }, { label: 'London' }] } },
        { id: 'q_age', type: 'number', title: 'Age' },
      ],
      translations: {
        fr: { 'questions.q_col.choices.red': 'Rouge', 'questions.q_col.choices.blue': 'Bleu', 'questions.q_city.choices.1': 'Londres' },
        sv: { 'questions.q_col.choices.red': 'Röd' },
      },
      ...extra,
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body as { id: string; slug: string; questions: Array<{ id: string }> };
  const [yes, col, city, age] = form.questions.map((q) => q.id) as [string, string, string, string];
  const send = async (language: string | undefined, answers: Record<string, unknown>) => {
    const r = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { ...(language ? { language } : {}), answers: Object.entries(answers).map(([question_id, value]) => ({ question_id, value })) },
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body.id as string;
  };
  return { u, form, q: { yes, col, city, age }, send };
}

const jsonExport = async (app: TestApp, formId: string, key: string) => {
  const res = await app.api('GET', `/forms/${formId}/responses/export?format=json`, { key });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return new Map((res.body as Array<{ id: string; answers: Answer[] }>).map((r) => [r.id, r.answers.map((a) => [a.label, a.value])]));
};

/** exports.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('xlsx and json: each response in the language it was given in (yes/no words, translated choices, untranslated ones as written), raw values and the CSV as stored', async (t, app) => {
    const { u, form, q, send } = await multilingualForm(app);
    const answers = { [q.yes]: true, [q.col]: ['Red', 'Blue', 'a goat'], [q.city]: 'London', [q.age]: 7 };
    const en = await send(undefined, answers);
    const fr = await send('fr', answers);
    const frNo = await send('fr', { [q.yes]: false, [q.col]: ['Blue'], [q.city]: 'Berlin' });
    // Swedish is not among the page's 12 languages: its yes/no are the form's language's; one choice translated.
    const sv = await send('sv', answers);

    const json = await jsonExport(app, form.id, u.key);
    t.deepEqual(json.get(en), [['Yes', true], ['Red, Blue, a goat', ['Red', 'Blue', 'a goat']], ['London', 'London'], [7, 7]]);
    t.deepEqual(json.get(fr), [['Oui', true], ['Rouge, Bleu, a goat', ['Red', 'Blue', 'a goat']], ['Londres', 'London'], [7, 7]]);
    t.deepEqual(json.get(frNo), [['Non', false], ['Bleu', ['Blue']], ['Berlin', 'Berlin']], 'Berlin has no French text: as the owner wrote it');
    t.deepEqual(json.get(sv), [['Yes', true], ['Röd, Blue, a goat', ['Red', 'Blue', 'a goat']], ['London', 'London'], [7, 7]]);

    const xlsx = await download(app, `/forms/${form.id}/responses/export?format=xlsx`, u.key);
    t.is(xlsx.status, 200);
    const { rows } = await sheetCells(xlsx.bytes);
    t.deepEqual(rows[0]!.slice(3), ['Coming?', 'Colours', 'City', 'Age', 'Coming? (raw)', 'Colours (raw)']);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r.slice(3)]));
    t.deepEqual(byId.get(en), ['Yes', 'Red, Blue, a goat', 'London', 7, true, '["Red","Blue","a goat"]']);
    t.deepEqual(byId.get(fr), ['Oui', 'Rouge, Bleu, a goat', 'Londres', 7, true, '["Red","Blue","a goat"]']);
    t.deepEqual(byId.get(frNo)!.slice(0, 5), ['Non', 'Bleu', 'Berlin', null, false]);
    t.deepEqual(byId.get(sv)!.slice(0, 3), ['Yes', 'Röd, Blue, a goat', 'London']);

    // The CSV keeps its documented bytes: answers as stored, whatever the language.
    const csv = (await download(app, `/forms/${form.id}/responses/export`, u.key)).bytes.toString('utf8');
    const frLine = csv.split('\r\n').find((l) => l.startsWith(fr))!;
    t.regex(frLine, /,true,"Red, Blue, a goat",London,7/);
    t.notRegex(csv, /Oui|Rouge|Londres/);
  });

  it("xlsx and json: the owner's page words in the respondent's language, else as written; each response as the version it answered showed it", async (t, app) => {
    const { u, form, q, send } = await multilingualForm(app, { strings: { yes: 'Yep', no: 'Nope' } });
    const put = async (fr: Record<string, string>) => {
      const res = await app.api('PUT', `/forms/${form.id}`, {
        key: u.key,
        body: { translations: { fr } },
      });
      t.is(res.status, 200, JSON.stringify(res.body));
      const published = await app.api('POST', `/forms/${form.id}/publish`, { key: u.key, body: {} });
      t.is(published.status, 200, JSON.stringify(published.body));
    };
    // The paths name the stored question ids (the client's ids were replaced at creation).
    await put({ [`strings.yes`]: 'Ouais', [`questions.${q.col}.choices.red`]: 'Rouge' });
    const v1 = await send('fr', { [q.yes]: true, [q.col]: ['Red'] });
    const v1no = await send('fr', { [q.yes]: false });
    await put({ [`strings.yes`]: 'Carrément', [`questions.${q.col}.choices.red`]: 'Rouge vif' });
    const v2 = await send('fr', { [q.yes]: true, [q.col]: ['Red'] });
    const en = await send('en', { [q.yes]: true, [q.col]: ['Red'] });

    const json = await jsonExport(app, form.id, u.key);
    t.deepEqual(json.get(v1), [['Ouais', true], ['Rouge', ['Red']]], 'the version answered: its words');
    t.deepEqual(json.get(v1no), [['Nope', false]], "strings.no has no French text: the owner's word");
    t.deepEqual(json.get(v2), [['Carrément', true], ['Rouge vif', ['Red']]], 'the next version: its words');
    t.deepEqual(json.get(en), [['Yep', true], ['Red', ['Red']]]);
    const { rows } = await sheetCells((await download(app, `/forms/${form.id}/responses/export?format=xlsx`, u.key)).bytes);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r.slice(3, 5)]));
    t.deepEqual([byId.get(v1), byId.get(v2), byId.get(en)], [['Ouais', 'Rouge'], ['Carrément', 'Rouge vif'], ['Yep', 'Red']]);
  });
});
