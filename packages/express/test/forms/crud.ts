import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

const LIST_FIELDS = [
  'background_color', 'created_at', 'description', 'id', 'published', 'response_count', 'slug', 'team', 'theme_color', 'title', 'updated_at',
];

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('create applies every default and keeps question order', async (t, app) => {
    const u = await app.user();
    const res = await app.api('POST', '/forms', {
      key: u.key,
      body: {
        title: 'Survey',
        questions: [
          { type: 'short_text', title: 'Name', required: true },
          { type: 'multiple_choice', title: 'Colour', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }] } },
          { type: 'rating', title: 'Score' },
        ],
      },
    });
    t.is(res.status, 201);
    const f = res.body;
    t.regex(f.id, /^frm_/);
    t.is(typeof f.slug, 'string');
    t.is(f.title, 'Survey');
    t.is(f.description, null);
    t.is(f.published, false);
    t.is(f.theme_color, '#6366f1');
    t.is(f.background_color, '#0a0a0a');
    t.is(f.show_progress_bar, true);
    t.is(f.hide_branding, false);
    t.is(f.welcome_button_text, 'Start');
    t.is(f.thank_you_title, 'Thank you!');
    t.is(f.mode, 'standard');
    t.is(f.limit_one_response, false);
    t.is(f.incremental_submission, false);
    t.is(f.auto_translate, false);
    t.is(f.text_color, null);
    t.is(f.font_family, null);
    t.is(f.webhook_url, null);
    t.is(f.has_unpublished_changes, false);
    t.is(f.published_version_id, null);
    t.is(f.response_count, 0);
    t.is(f.team_id, null);
    t.false('show_question_nav' in f);
    t.deepEqual(f.questions.map((q: any) => [q.title, q.order]), [['Name', 0], ['Colour', 1], ['Score', 2]]);
    t.deepEqual(f.questions[0].properties, {});
    t.deepEqual(f.questions[0].logic_jumps, []);
    t.deepEqual(f.questions[0].validations, {});
    t.is(f.questions[0].required, true);
    t.is(f.questions[1].required, false);
    t.is(f.questions[1].properties.allow_multiple, false);
    t.deepEqual(f.questions[2].properties, { steps: 5, shape: 'star' });
    t.regex(f.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const got = await app.api('GET', `/forms/${f.id}`, { key: u.key });
    t.is(got.status, 200);
    t.deepEqual(got.body, f);
  });

  it('create stores every writable field', async (t, app) => {
    const u = await app.user('pro');
    const body = {
      title: 'Styled',
      description: 'About',
      text_color: '#111111',
      button_color: '#abc',
      font_family: 'Inter',
      question_font_size: '24px',
      custom_css: '.x{}',
      show_progress_bar: false,
      branding_logo_url: 'https://example.com/logo.png',
      hide_branding: true,
      // true needs a translator on the server (forms/auto-translate.ts); its default language is stored here.
      auto_translate: false,
      language: 'en',
      top_logo_alignment: 'center',
      welcome_title: 'Hi',
      thank_you_description: 'Bye',
      mode: 'knowledge_quiz',
      quiz_settings: { endings: [] },
      variables: { score: 0 },
      start_logic_jumps: [],
      webhook_url: 'https://hooks.example.com/x',
      limit_one_response: true,
      incremental_submission: true,
    };
    const res = await app.api('POST', '/forms', { key: u.key, body });
    t.is(res.status, 201);
    for (const [k, v] of Object.entries(body)) t.deepEqual(res.body[k], v, k);
  });

  it('auto_translate is stored false on the free plan', async (t, app) => {
    const u = await app.user('free');
    const res = await app.api('POST', '/forms', { key: u.key, body: { title: 'T', auto_translate: true } });
    t.is(res.status, 201);
    t.is(res.body.auto_translate, false);
  });

  it('list carries exactly the documented fields, filters and paginates', async (t, app) => {
    const u = await app.user();
    for (const title of ['Alpha survey', 'Beta SURVEY', 'Gamma poll']) {
      t.is((await app.api('POST', '/forms', { key: u.key, body: { title } })).status, 201);
    }
    const pub = await app.api('POST', '/forms', { key: u.key, body: { title: 'Delta survey', published: true } });
    t.is(pub.body.published, true);
    const all = await app.api('GET', '/forms', { key: u.key });
    t.is(all.status, 200);
    t.is(all.body.total, 4);
    t.is(all.body.page, 1);
    t.is(all.body.per_page, 50);
    t.deepEqual(Object.keys(all.body.forms[0]).sort(), LIST_FIELDS);
    t.is(all.body.forms[0].team, null);
    const search = await app.api('GET', '/forms?search=survey', { key: u.key });
    t.deepEqual(search.body.forms.map((f: any) => f.title).sort(), ['Alpha survey', 'Beta SURVEY', 'Delta survey']);
    const published = await app.api('GET', '/forms?published=true', { key: u.key });
    t.deepEqual(published.body.forms.map((f: any) => f.title), ['Delta survey']);
    const drafts = await app.api('GET', '/forms?published=false', { key: u.key });
    t.is(drafts.body.total, 3);
    const page2 = await app.api('GET', '/forms?per_page=3&page=2', { key: u.key });
    t.is(page2.body.forms.length, 1);
    t.is(page2.body.total, 4);
    t.is(page2.body.per_page, 3);
    const other = await app.user();
    t.is((await app.api('GET', '/forms', { key: other.key })).body.total, 0);
  });

  it('pagination clamps of section 8', async (t, app) => {
    const u = await app.user();
    const cases: Array<[string, number, number]> = [
      ['per_page=500', 1, 100],
      ['per_page=0', 1, 1],
      ['per_page=-3', 1, 1],
      ['per_page=abc', 1, 50],
      ['page=abc', 1, 50],
      ['page=0', 1, 50],
      ['page=-2', 1, 50],
      ['page=3&per_page=7', 3, 7],
    ];
    for (const [q, page, perPage] of cases) {
      const res = await app.api('GET', `/forms?${q}`, { key: u.key });
      t.is(res.status, 200, q);
      t.is(res.body.page, page, q);
      t.is(res.body.per_page, perPage, q);
    }
    t.is((await app.api('GET', '/forms?published=maybe', { key: u.key })).status, 400);
  });

  it('update changes only what is sent and synchronises questions (rule 1)', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Q', questions: [{ type: 'short_text', title: 'A' }, { type: 'email', title: 'B' }, { type: 'yes_no', title: 'C' }] },
    });
    const [a, b, c] = created.body.questions;
    const res = await app.api('PUT', `/forms/${created.body.id}`, {
      key: u.key,
      body: {
        description: 'New',
        questions: [
          { id: c.id, type: 'yes_no', title: 'C renamed' },
          { id: a.id, type: 'short_text', title: 'A' },
          { type: 'number', title: 'D' },
          { id: 'q_unknown', type: 'long_text', title: 'E' },
        ],
      },
    });
    t.is(res.status, 200);
    t.is(res.body.title, 'Q');
    t.is(res.body.description, 'New');
    const qs = res.body.questions;
    t.deepEqual(qs.map((q: any) => [q.title, q.order]), [['C renamed', 0], ['A', 1], ['D', 2], ['E', 3]]);
    t.is(qs[0].id, c.id);
    t.is(qs[1].id, a.id);
    t.not(qs[3].id, 'q_unknown');
    t.false(qs.some((q: any) => q.id === b.id));
    const rows = await app.raw(`SELECT COUNT(*) AS n FROM questions WHERE form_id = '${created.body.id}'`);
    t.is(Number(rows[0].n), 4);
  });

  it('update accepts a form read back, ignoring read-only fields', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Round trip', questions: [{ type: 'short_text', title: 'A' }] } });
    const readBack = { ...created.body, title: 'Round trip 2' };
    const res = await app.api('PUT', `/forms/${created.body.id}`, { key: u.key, body: readBack });
    t.is(res.status, 200, JSON.stringify(res.body));
    t.is(res.body.title, 'Round trip 2');
    t.is(res.body.questions[0].id, created.body.questions[0].id);
    const moved = await app.api('PUT', `/forms/${created.body.id}`, { key: u.key, body: { team_id: 'team_other' } });
    t.is(moved.status, 400);
    t.is(moved.body.error.field, 'team_id');
  });

  it('delete removes the form and its questions', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Gone', published: true, questions: [{ type: 'short_text', title: 'A' }] } });
    const id = created.body.id;
    const res = await app.api('DELETE', `/forms/${id}`, { key: u.key });
    t.is(res.status, 200);
    t.deepEqual(res.body, { success: true });
    t.is((await app.api('GET', `/forms/${id}`, { key: u.key })).status, 404);
    t.is((await app.api('DELETE', `/forms/${id}`, { key: u.key })).status, 404);
    t.is((await app.api('GET', `/public/forms/${created.body.slug}`)).status, 404);
    t.is((await app.api('DELETE', `/forms/${id}?delete_signed_contracts=perhaps`, { key: u.key })).status, 400);
  });

  it('duplicate makes a draft copy with new question ids', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Orig', published: true, text_color: '#123456', questions: [{ type: 'short_text', title: 'A' }, { type: 'email', title: 'B' }] },
    });
    const res = await app.api('POST', `/forms/${created.body.id}/duplicate`, { key: u.key });
    t.is(res.status, 201);
    t.is(res.body.title, 'Copy of Orig');
    t.is(res.body.published, false);
    t.is(res.body.published_version_id, null);
    t.is(res.body.text_color, '#123456');
    t.not(res.body.id, created.body.id);
    t.not(res.body.slug, created.body.slug);
    t.deepEqual(res.body.questions.map((q: any) => q.title), ['A', 'B']);
    t.not(res.body.questions[0].id, created.body.questions[0].id);
    t.deepEqual((await app.api('GET', `/forms/${res.body.id}/versions`, { key: u.key })).body, { versions: [] });
  });
});
