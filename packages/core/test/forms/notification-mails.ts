import test from 'ava';
import { FormloomEvents, answerLines, brandingOf, recallFiller, renderMail, type Question, type Storage } from '../../src/index';

/* The pure parts of the mails about responses (docs/notifications.md); the mails themselves are tested over HTTP with a real SMTP server. */

const q = (id: string, type: string, title: string) => ({ id, type, title, properties: {} }) as unknown as Question;

test('answers read as the respondent saw them, recalls filled, unanswered questions left out', (t) => {
  const questions = [q('q1', 'short_text', 'Name'), q('q2', 'yes_no', 'Hi {answer.q1|there}?'), q('q3', 'multiple_choice', 'Dishes'), q('q4', 'date', 'When'), q('q5', 'short_text', 'Skipped')];
  const answers = [
    { question_id: 'q1', value: 'Ada' },
    { question_id: 'q2', value: false },
    { question_id: 'q3', value: ['Soup', 'Salad'] },
    { question_id: 'q4', value: '2026-11-21' },
  ];
  const lines = answerLines(questions, answers, recallFiller(answers, undefined));
  t.deepEqual(lines.map((l) => [l.title, l.value]), [
    ['Name', 'Ada'],
    ['Hi Ada?', 'No'],
    ['Dishes', 'Soup and Salad'],
    ['When', 'November 21, 2026'],
  ]);
});

test('HTML escapes every value; a colour or logo that is not one is dropped', (t) => {
  const branding = brandingOf({ theme_color: 'red;background:url(x)', options: { branding_logo_url: 'javascript:alert(1)', branding_footer_text: '<i>Acme</i>' } });
  t.deepEqual(branding, { color: '#6366f1', logoUrl: null, footer: '<i>Acme</i>' });
  const mail = renderMail({
    subject: 's',
    heading: '<h1>',
    intro: 'a "quote" & \'apostrophe\'',
    lines: [{ title: '<b>Q</b>', value: '<script>x</script>', href: 'https://f.example/a?b=1&c="2"' }],
    links: [{ label: 'See', href: 'https://x.example/?a=1&b=2' }],
    footer: [branding.footer!],
    branding,
  });
  t.false(/<script>|<b>Q|<i>Acme|<h1>&/.test(mail.html));
  t.true(mail.html.includes('&lt;script&gt;x&lt;/script&gt;'));
  t.true(mail.html.includes('a &quot;quote&quot; &amp; &#39;apostrophe&#39;'));
  t.true(mail.html.includes('href="https://f.example/a?b=1&amp;c=&quot;2&quot;"'));
  t.true(mail.text.includes('<script>x</script>'), 'plain text as typed');
});

test('an in-transaction listener that answers false queued nothing: the worker is not woken', async (t) => {
  const events = new FormloomEvents();
  const tx = {} as Storage;
  const payload = { form_id: 'f', response_id: 'r' };
  t.false(await events.runWithinTransaction(tx, 'response.submitted', payload), 'no listener');
  events.withinTransaction('response.submitted', async () => false);
  t.false(await events.runWithinTransaction(tx, 'response.submitted', payload), 'only a listener that queued nothing');
  events.withinTransaction('response.submitted', async () => undefined);
  t.true(await events.runWithinTransaction(tx, 'response.submitted', payload), "a plugin's listener (no answer) counts as queued");
});
