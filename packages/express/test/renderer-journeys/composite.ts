import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, hostSite, launchBrowser, openPage, shotsAtBothWidths } from '../helpers/browser';

/*
 * A composite question on the respondent's page (docs/logic.md "Composite"): at 390 px, the components' questions
 * come in place between the composite form's own, each component with its own jump (answering "No" asks why; the
 * car question is skipped), recall and required question; a component question the respondent leaves out is refused
 * by the page as any other; one Submit stores the composite's response and one in each component. axe 0 on a
 * component's question. With ?lang=fr a component's questions are in French where it has French texts. Embedded on another site (desktop width), the same in place: the submission's
 * Idempotency-Key passes the cross-origin preflight. COMPOSITE_SHOTS=<dir> writes screenshots at 390 and 1280 px.
 */
let browser: Browser;
let app: TestApp;
test.before(async () => {
  [browser, app] = await Promise.all([launchBrowser(), startTestApp('sqlite')]);
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const shot = (page: Page, name: string) => shotsAtBothWidths(page, 'COMPOSITE_SHOTS', name);

async function forms(key: string) {
  const make = async (body: Record<string, unknown>) => {
    const r = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
    if (!r.body.published) throw new Error(JSON.stringify(r.body));
    return r.body;
  };
  const about = await make({
    title: 'About you',
    // French texts for a respondent reading the composite in French (?lang=fr).
    language: 'en',
    languages: ['fr'],
    translations: { fr: { title: 'À propos de vous', 'questions.drive.title': 'Conduisez-vous ?' } },
    questions: [
      { id: 'drive', type: 'yes_no', title: 'Do you drive?', required: true, logic_jumps: [{ conditions: [{ op: 'equals', value: true }], to: 'car' }] },
      { id: 'why', type: 'short_text', title: 'You said {answer.drive}: why not?', required: true, logic_jumps: [{ to: 'end' }] },
      { id: 'car', type: 'short_text', title: 'Your car' },
    ],
  });
  const visit = await make({ title: 'Your visit', questions: [{ type: 'rating', title: 'How was your visit?', required: true, properties: { steps: 5 } }] });
  const onboarding = await make({
    title: 'Onboarding',
    language: 'en',
    languages: ['fr'],
    translations: { fr: { title: 'Inscription' } },
    questions: [
      { type: 'email', title: 'Your email', required: true },
      { type: 'composite', title: 'About you and your visit', properties: { composite_ids: [about.id, visit.id] } },
      { type: 'long_text', title: 'Anything else?' },
    ],
  });
  return { about, visit, onboarding };
}

test('a composite is answered in place as one flow: each component with its own logic, one submit, one response per component', async (t) => {
  t.timeout(120_000);
  const u = await app.user();
  const { about, visit, onboarding } = await forms(u.key);
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    await page.goto(`${app.url}/f/${onboarding.slug}`);
    const form = page.locator('formloom-form');
    const heading = (name: string) => form.getByRole('heading', { name }).waitFor();
    await heading('Your email');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    // The first component, in place: its own jump sends "No" to its next question.
    await heading('Do you drive?');
    await page.keyboard.press('Enter');
    await form.locator('.fl-error').getByText('This question is required').waitFor();
    await form.getByText('No', { exact: true }).click();
    // The component's recall names its own question: renamed on the page with it.
    await heading('You said No: why not?');
    t.deepEqual(await axeViolations(page), []);
    await page.keyboard.type('I cycle');
    await shot(page, 'composite-component');
    await page.keyboard.press('Enter');
    // "end" in the first component goes on to the second; the car question was skipped.
    await heading('How was your visit?');
    const star = await form.getByRole('radio', { name: /^4/ }).getAttribute('id');
    await form.locator(`label[for="${star}"]`).click();
    await heading('Anything else?');
    // Back goes through the components as through any question.
    await form.getByRole('button', { name: /back|previous/i }).click();
    await heading('How was your visit?');
    await page.keyboard.press('Enter');
    await heading('Anything else?');
    await page.keyboard.type('Nothing');
    await form.getByRole('button', { name: 'Submit' }).click();
    await heading('Thank you!');
    await shot(page, 'composite-done');

    const [parent] = (await app.api('GET', `/forms/${onboarding.id}/responses`, { key: u.key })).body.responses;
    const [inAbout] = (await app.api('GET', `/forms/${about.id}/responses`, { key: u.key })).body.responses;
    const [inVisit] = (await app.api('GET', `/forms/${visit.id}/responses`, { key: u.key })).body.responses;
    const [drive, why] = about.questions;
    t.deepEqual(parent.answers[1].value, { [`${about.id}/${drive.id}`]: false, [`${about.id}/${why.id}`]: 'I cycle', [`${visit.id}/${visit.questions[0].id}`]: 4 });
    t.deepEqual(parent.metadata.components.map((c: any) => c.response_id), [inAbout.id, inVisit.id]);
    t.deepEqual(inAbout.answers, [{ question_id: drive.id, value: false }, { question_id: why.id, value: 'I cycle' }]);
    t.deepEqual(inVisit.answers.map((a: any) => a.value), [4]);
    t.is(inVisit.metadata.composite.response_id, parent.id);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("?lang=fr shows a component's questions in French where it has them, the rest as written", async (t) => {
  t.timeout(120_000);
  const u = await app.user();
  const { onboarding } = await forms(u.key);
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    await page.goto(`${app.url}/f/${onboarding.slug}?lang=fr`);
    const form = page.locator('formloom-form');
    await form.getByRole('heading', { name: 'Your email' }).waitFor();
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Conduisez-vous ?' }).waitFor();
    await form.getByText('À propos de vous', { exact: true }).waitFor();
    await shot(page, 'composite-french');
    await form.getByText('Oui', { exact: true }).click();
    // Untranslated texts fall back to the component's own language, as the form's own do.
    await form.getByRole('heading', { name: 'Your car' }).waitFor();
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'How was your visit?' }).waitFor();
    await form.getByText('Your visit', { exact: true }).waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('embedded on another site, the composite is answered in the element and its submission crosses origins', async (t) => {
  t.timeout(120_000);
  const host = await hostSite();
  const embedded = await startTestApp('sqlite', { embedOrigins: [host.url] });
  const { page, errors, close } = await openPage(browser, { width: 1280 });
  try {
    const u = await embedded.user();
    const make = async (body: Record<string, unknown>) => (await embedded.api('POST', '/forms', { key: u.key, body: { published: true, ...body } })).body;
    const part = await make({ title: 'Your order', questions: [{ type: 'short_text', title: 'Order number', required: true }] });
    const outer = await make({ title: 'Support', questions: [{ type: 'composite', title: 'Order', properties: { composite_ids: [part.id] } }, { type: 'short_text', title: 'What went wrong?' }] });
    t.true(outer.published, JSON.stringify(outer.publish_error));
    host.html = `<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="${embedded.url}/embed.js"></script></head>
<body><h1>Shop</h1><formloom-form id="inline" slug="${outer.slug}" base-url="${embedded.url}"></formloom-form></body></html>`;
    await page.goto(host.url);
    const inline = page.locator('#inline');
    await inline.getByRole('heading', { name: 'Order number' }).waitFor();
    await inline.getByText('Your order', { exact: true }).waitFor();
    await inline.getByRole('textbox').fill('A-1042');
    await page.keyboard.press('Enter');
    await inline.getByRole('heading', { name: 'What went wrong?' }).waitFor();
    await inline.getByRole('textbox').fill('It came late');
    await inline.getByRole('button', { name: 'Submit' }).click();
    await inline.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await shot(page, 'composite-embedded');
    const [inPart] = (await embedded.api('GET', `/forms/${part.id}/responses`, { key: u.key })).body.responses;
    t.deepEqual(inPart.answers.map((a: any) => a.value), ['A-1042']);
    t.deepEqual(errors, []);
  } finally {
    await close();
    await embedded.close();
    await host.close();
  }
});
