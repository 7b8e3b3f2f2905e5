import test from '../helpers/bounded-test';
import type { SharedDb } from '../helpers/shared-apps';

/** Texts a reader sees as nothing. */
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00a0', '\u3000', ' \u200b\u00a0\u3000 ', '\u3164', '\u2800'];

/** [field, value that must be refused]: each could leave its declaration or the page's `<style>`. */
const BAD_STYLE: Array<[string, unknown]> = [
  ['font_family', 'x;}h1{display:none}'],
  ['font_family', 'Arial</style><script>alert(1)</script>'],
  ['font_family', '"Open Sans'],
  ['font_family_button', 'a{'],
  ['font_family_answer', 'url(https://x.example)'],
  ['theme_color', 'red'],
  ['background_color', '#12345'],
  ['text_color', '#fff;}'],
  ['question_font_size', '24px;color:red'],
  ['question_font_size', 'big'],
  ['top_logo_size', '10px}'],
  ['top_logo_alignment', 'middle'],
  ['branding_logo_url', 'javascript:alert(1)'],
  ['top_logo_url', 'data:text/html,<b>'],
  ['top_logo_url', '/relative.png'],
  ['custom_css', 'h1{color:red}</style><script>alert(1)</script>'],
  ['custom_css', 'h1{}</STYLE >'],
  ['custom_css', '<!-- h1{}'],
  ['top_logo_css', 'x --> y'],
  ['watermark_css', 'a</style'],
];

const GOOD_STYLE = {
  font_family: '"Open Sans", Arial, sans-serif',
  font_family_option: "'Noto Sans JP', system-ui",
  font_family_indicator: 'Zoë Grotesk-2',
  theme_color: '#abc',
  background_color: '#aabbccdd',
  text_color: '#112233',
  question_font_size: '1.5rem',
  top_logo_size: '120%',
  top_logo_alignment: 'center',
  branding_logo_url: 'https://cdn.example/logo.png',
  top_logo_url: 'http://cdn.example/top.png',
  custom_css: 'h2 { color: #f00 } .x > .y { content: "a<b" }',
  top_logo_css: 'margin: 0 auto;',
  watermark_css: 'opacity: .5',
};

/** forms.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('a title of only invisible or white-space characters is blank, for forms, questions and choices', async (t, app) => {
    const u = await app.user();
    const form = await app.api('POST', '/forms', { key: u.key, body: { title: 'Visible' } });
    for (const blank of INVISIBLE) {
      const label = JSON.stringify(blank);
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/forms', { title: blank }, 'title'],
        ['PUT', `/forms/${form.body.id}`, { title: blank }, 'title'],
        ['POST', '/forms', { title: 'x', questions: [{ type: 'short_text', title: blank }] }, 'questions.0.title'],
        ['PUT', `/forms/${form.body.id}`, { questions: [{ type: 'dropdown', title: 'q', properties: { choices: [{ label: blank }] } }] }, 'questions.0.properties.choices.0.label'],
        ['POST', '/forms', { title: 'x', questions: [{ type: 'question_group', title: 'g', properties: { questions: [{ type: 'short_text', title: blank }] } }] }, 'questions.0.properties.questions.0.title'],
        ['POST', '/teams', { name: blank }, 'name'],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await app.api(method, path, { key: u.key, body });
        t.is(res.status, 400, `${method} ${path} ${field} ${label}`);
        t.is(res.body.error.field, field, `${label}: ${res.body.error.message}`);
        t.is(res.body.error.message, `${field}: must not be blank`);
      }
    }
    const after = await app.api('GET', `/forms/${form.body.id}`, { key: u.key });
    t.is(after.body.title, 'Visible');
    t.deepEqual(after.body.questions, []);
    const visible = await app.api('POST', '/forms', { key: u.key, body: { title: '\u200bHello\u00a0', questions: [{ type: 'short_text', title: '日本' }] } });
    t.is(visible.status, 201, 'text with something visible is a title');
    t.is(visible.body.title, '\u200bHello');
  });

  it('style fields are checked by pattern on create, update and PUT theme, with a 400 naming the field', async (t, app) => {
    const u = await app.user();
    const form = await app.api('POST', '/forms', { key: u.key, body: { title: 'Styled' } });
    for (const [field, value] of BAD_STYLE) {
      const label = `${field}=${JSON.stringify(value)}`;
      const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'x', [field]: value } });
      t.is(created.status, 400, `create ${label}`);
      t.is(created.body.error.field, field, `create ${label}: ${created.body.error.message}`);
      const updated = await app.api('PUT', `/forms/${form.body.id}`, { key: u.key, body: { [field]: value } });
      t.is(updated.status, 400, `update ${label}`);
      t.is(updated.body.error.field, field, label);
      const theme = await app.api('PUT', `/forms/${form.body.id}/theme`, { key: u.key, body: { [field]: value } });
      t.is(theme.status, 400, `theme ${label}`);
      t.is(theme.body.error.field, field, label);
    }
    const unchanged = await app.api('GET', `/forms/${form.body.id}/theme`, { key: u.key });
    t.is(unchanged.body.font_family, null);
    t.is(unchanged.body.custom_css, null);
    const branding = await app.api('POST', '/teams', { key: u.key, body: { name: 'Brand' } });
    const teamFont = await app.api('PUT', `/teams/${branding.body.id}/branding`, { key: u.key, body: { font_family: 'x;}h1{display:none}' } });
    t.is(teamFont.status, 400);
    t.is(teamFont.body.error.field, 'font_family');
  });

  it('valid style values are kept, and the public page writes them into its style unescaped but contained, custom_css left to the element', async (t, app) => {
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Styled', published: true, ...GOOD_STYLE, questions: [{ type: 'short_text', title: 'Q' }] } });
    t.is(created.status, 201, JSON.stringify(created.body));
    t.like(created.body, GOOD_STYLE);
    const theme = await app.api('PUT', `/forms/${created.body.id}/theme`, { key: u.key, body: { ...GOOD_STYLE, top_logo_alignment: 'right' } });
    t.is(theme.status, 200, JSON.stringify(theme.body));
    const page = await fetch(`${app.url}/f/${created.body.slug}`);
    const html = await page.text();
    t.is(page.status, 200);
    t.true(html.includes(`font-family:${GOOD_STYLE.font_family};`), html);
    t.regex(html, /<style nonce="[^"]+">/);
    // custom_css is applied inside the element's shadow root (renderer-page.test.ts), not to the page.
    t.false(html.includes(GOOD_STYLE.custom_css), html);
    // One opening and one closing tag per style element: nothing closed one early.
    t.is(html.match(/<style/gi)?.length, 1);
    t.is(html.match(/<\/style/gi)?.length, 1);
  });
});
