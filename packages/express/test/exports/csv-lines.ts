import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * The CSV export's stored lines (docs/responses-and-webhooks.md, "How the CSV export is fast"): a line
 * written with each response is sent as it is while the export's columns are those it was written for, and
 * the response is formatted from its answers otherwise. Both must give the same cells.
 */

const ANSWERS = ['Zoë said "hi", then left', '=1+2', 'line\r\nbreak', '😀', '-7', ' spaced ', '', '\u001e\u001f'];

/** exports.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('CSV export: a response reads the same from its stored line as from its answers, after edits and completions', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Lines',
        published: true,
        incremental_submission: true,
        hidden_fields: ['utm_source', 'ref'],
        questions: [
          { type: 'short_text', title: 'Text' },
          { type: 'multiple_choice', title: 'Many', properties: { choices: [{ label: 'Red' }, { label: 'Blue, dark' }], allow_multiple: true, allow_other: true } },
          { type: 'contact_info', title: 'Contact', properties: { fields: ['first_name', 'company'] } },
          { type: 'number', title: 'Count' },
          { type: 'yes_no', title: 'Agree' },
        ],
      },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [text, many, contact, count, agree] = form.questions;
    const submit = (body: Record<string, unknown>) => app.api('POST', `/public/forms/${form.slug}/responses`, { body });
    for (const [i, s] of ANSWERS.entries()) {
      const sent = await submit({
        answers: [
          ...(s ? [{ question_id: text.id, value: s }] : []),
          { question_id: many.id, value: i % 2 ? ['Blue, dark', s || 'other'] : ['Red'] },
          { question_id: contact.id, value: { first_name: s || 'Ada', company: i % 3 ? null : 'ACME "Ltd"' } },
          { question_id: count.id, value: i % 4 ? i * 1.5 : -i },
          { question_id: agree.id, value: i % 2 === 0 },
        ],
        ...(i % 3 === 1 ? { hidden: { utm_source: s || 'x', ref: '@ref' } } : {}),
      });
      t.is(sent.status, 201, JSON.stringify(sent.body));
    }
    // A partial response, then its completion: the line follows the answers.
    const partial = await submit({ answers: [{ question_id: text.id, value: 'first, half' }], completed: false });
    t.is(partial.status, 201, JSON.stringify(partial.body));
    const done = await app.api('PATCH', `/public/forms/${form.slug}/responses/${partial.body.id}`, {
      body: { answers: [{ question_id: count.id, value: 3 }], completed: true },
      headers: { 'x-resume-token': partial.body.resume_token },
    });
    t.is(done.status, 200, JSON.stringify(done.body));

    const exportCsv = async () => {
      const res = await app.api('GET', `/forms/${form.id}/responses/export`, { key: u.key });
      t.is(res.status, 200);
      return res.text as string;
    };
    const stored = await exportCsv();
    const [header, ...rows] = stored.split(/\r\n(?=rsp_|$)/);
    t.is(header, 'responseId,submittedAt,completedAt,Text,Many,Contact - First name,Contact - Company,Count,Agree,utm_source,ref');
    t.is(rows.pop(), '', 'the export ends with CRLF');
    t.is(rows.length, ANSWERS.length + 1);
    t.true(stored.includes(`${partial.body.id},`) && stored.includes('first, half'), 'the completed response with both answers');
    t.true(rows.some((r) => r.includes(`,'=1+2,"Blue, dark, =1+2",'=1+2,`)), 'a formula is defused');

    // A new last question: other columns, so every response is formatted from its answers, one empty cell more.
    type Q = { id: string; type: string; title: string; required: boolean; properties: unknown };
    const item = (q: Q) => ({ id: q.id, type: q.type, title: q.title, required: q.required, properties: q.properties });
    const withNew = [...form.questions.map(item), { type: 'short_text', title: 'New' }];
    const put = await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { questions: withNew } });
    t.is(put.status, 200, JSON.stringify(put.body));
    const formatted = await exportCsv();
    const [header2, ...rows2] = formatted.split(/\r\n(?=rsp_|$)/);
    t.is(header2, 'responseId,submittedAt,completedAt,Text,Many,Contact - First name,Contact - Company,Count,Agree,New,utm_source,ref');
    rows2.pop();
    const dropNew = (r: string) => r.replace(/,(,[^,]*,[^,]*)$/, '$1');
    t.deepEqual(rows2.map(dropNew), rows, 'the same cells formatted from the answers');

    // A renamed question changes the header only: the stored lines serve again once the columns are back.
    const renamed = form.questions.map((q: Q, i: number) => ({ ...item(q), ...(i === 0 ? { title: 'Renamed' } : {}) }));
    t.is((await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { questions: renamed } })).status, 200);
    const back = await exportCsv();
    t.is(back, stored.replace('completedAt,Text,', 'completedAt,Renamed,'));
  });
});
