import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

const bad = [
  ['missing title', {}, 'title'],
  ['blank title', { title: '   ' }, 'title'],
  ['title of wrong type', { title: 42 }, 'title'],
  ['unknown field', { title: 'x', colour: '#fff' }, 'colour'],
  ['invalid colour', { title: 'x', theme_color: 'blue' }, 'theme_color'],
  ['invalid mode', { title: 'x', mode: 'exam' }, 'mode'],
  ['invalid webhook url', { title: 'x', webhook_url: 'not a url' }, 'webhook_url'],
  ['non-http webhook url', { title: 'x', webhook_url: 'ftp://example.com' }, 'webhook_url'],
  ['bad alignment', { title: 'x', top_logo_alignment: 'middle' }, 'top_logo_alignment'],
  ['bad font size', { title: 'x', question_font_size: 'big' }, 'question_font_size'],
  ['published not boolean', { title: 'x', published: 'yes' }, 'published'],
  ['questions not array', { title: 'x', questions: {} }, 'questions'],
  ['unknown question type', { title: 'x', questions: [{ type: 'hologram', title: 'q' }] }, 'questions.0.type'],
  ['question without title', { title: 'x', questions: [{ type: 'short_text' }] }, 'questions.0.title'],
  ['choices missing', { title: 'x', questions: [{ type: 'multiple_choice', title: 'q' }] }, 'questions.0.properties.choices'],
  ['empty choices', { title: 'x', questions: [{ type: 'multiple_choice', title: 'q', properties: { choices: [] } }] }, 'questions.0.properties.choices'],
  ['blank choice label', { title: 'x', questions: [{ type: 'dropdown', title: 'q', properties: { choices: [{ label: '' }] } }] }, 'questions.0.properties.choices.0.label'],
  ['rating steps too many', { title: 'x', questions: [{ type: 'rating', title: 'q', properties: { steps: 50 } }] }, 'questions.0.properties.steps'],
  ['rating shape unknown', { title: 'x', questions: [{ type: 'rating', title: 'q', properties: { shape: 'cube' } }] }, 'questions.0.properties.shape'],
  ['unknown property', { title: 'x', questions: [{ type: 'short_text', title: 'q', properties: { colour: 1 } }] }, 'questions.0.properties.colour'],
  ['unknown question field', { title: 'x', questions: [{ type: 'short_text', title: 'q', hint: 'h' }] }, 'questions.0.hint'],
  ['logic_jumps not array', { title: 'x', questions: [{ type: 'short_text', title: 'q', logic_jumps: {} }] }, 'questions.0.logic_jumps'],
  ['duplicate question ids', { title: 'x', questions: [{ id: 'a', type: 'short_text', title: 'q' }, { id: 'a', type: 'short_text', title: 'r' }] }, 'questions.1.id'],
] as const;

/** logic.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('bad create bodies get a 400 naming the field and write nothing', async (t, app) => {
    const u = await app.user();
    for (const [name, body, field] of bad) {
      const res = await app.api('POST', '/forms', { key: u.key, body });
      t.is(res.status, 400, name);
      t.is(res.body.error.code, 'BAD_REQUEST', name);
      t.is(res.body.error.status, 400, name);
      t.is(res.body.error.field, field, `${name}: ${res.body.error.message}`);
      t.true(res.body.error.message.includes(field), `${name}: ${res.body.error.message}`);
    }
    const rows = await app.raw(`SELECT COUNT(*) AS n FROM forms WHERE owner_id = '${u.id}'`);
    t.is(Number(rows[0].n), 0);
  });

  it('malformed JSON and non-object bodies are 400', async (t, app) => {
    const u = await app.user();
    const broken = await app.api('POST', '/forms', { key: u.key, body: '{"title": ' });
    t.is(broken.status, 400);
    t.is(broken.body.error.code, 'BAD_REQUEST');
    for (const body of ['[1,2]', '"str"', 'null']) {
      const res = await app.api('POST', '/forms', { key: u.key, body });
      t.is(res.status, 400, body);
    }
    const noType = await app.api('POST', '/forms', { key: u.key, body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.is(noType.status, 400);
  });

  it('a rejected update writes nothing, not even valid fields beside the bad one', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Keep', questions: [{ type: 'short_text', title: 'A' }] } });
    const res = await app.api('PUT', `/forms/${created.body.id}`, {
      key: u.key,
      body: { title: 'Changed', questions: [{ type: 'rating', title: 'R', properties: { steps: 1 } }] },
    });
    t.is(res.status, 400);
    const after = await app.api('GET', `/forms/${created.body.id}`, { key: u.key });
    t.deepEqual(after.body, created.body);
  });

  it('every question type is accepted with valid properties', async (t, app) => {
    const u = await app.user('pro');
    const questions = [
      { type: 'short_text', title: 'a' },
      { type: 'long_text', title: 'a', properties: { max_length: 500 } },
      { type: 'multiple_choice', title: 'a', properties: { choices: [{ label: 'x' }], allow_multiple: true } },
      { type: 'rating', title: 'a', properties: { steps: 10, shape: 'heart' } },
      { type: 'opinion_scale', title: 'a', properties: { min: 1, max: 5 } },
      { type: 'number', title: 'a', properties: { min: 0, max: 9 } },
      { type: 'email', title: 'a' },
      { type: 'date', title: 'a' },
      { type: 'yes_no', title: 'a' },
      { type: 'file_upload', title: 'a', properties: { max_size_mb: 5 } },
      { type: 'dropdown', title: 'a', properties: { choices: [{ label: 'x' }, { label: 'y' }] } },
      { type: 'question_group', title: 'a', properties: { questions: [{ type: 'short_text', title: 'first' }] } },
      { type: 'multi_question_page', title: 'a', properties: { questions: [{ type: 'email', title: 'mail' }] } },
      { type: 'contact_info', title: 'a' },
      { type: 'address', title: 'a', properties: { fields: ['city', 'country'] } },
    ];
    const res = await app.api('POST', '/forms', { key: u.key, body: { title: 'All types', questions } });
    t.is(res.status, 201, JSON.stringify(res.body));
    t.is(res.body.questions.length, questions.length);
    t.regex(res.body.questions[11].properties.questions[0].id, /^sq_/);
    t.deepEqual(res.body.questions[13].properties.fields, ['first_name', 'last_name', 'email', 'phone', 'company']);
  });

  it('NUL characters and absurd pages are a 400 or an empty page, never a 500', async (t, app) => {
    const u = await app.user();
    const nulTitle = await app.api('POST', '/forms', { key: u.key, body: { title: 'a\u0000b' } });
    t.is(nulTitle.status, 400);
    t.is(nulTitle.body.error.field, 'title');
    t.is((await app.api('GET', '/forms/%00', { key: u.key })).status, 400);
    t.is((await app.api('GET', '/forms?search=%00', { key: u.key })).status, 400);
    const far = await app.api('GET', '/forms?page=100000000000000000000&per_page=100', { key: u.key });
    t.is(far.status, 200);
    t.deepEqual(far.body.forms, []);
    t.is((await app.api('GET', '/forms?search=a&search=b', { key: u.key })).status, 400);
    t.is((await app.api('GET', `/forms/${'x'.repeat(5000)}`, { key: u.key })).status, 404);
  });
});
