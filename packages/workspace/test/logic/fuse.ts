import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import { type WorkspaceTestApp, serverHas as serverHasOn } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The Fuse in the workspace (docs/logic.md "Fuse"): the builder's editor picks the Fuse form, pins one of its
 * versions and fills its hidden fields with recalled answers (saved as the API's properties); in Results, a
 * response names the form and response it continued in (a form the reader may not open: "another form") and links
 * to it, which opens in the other form's results.
 * FORMLOOM_SHOTS=<dir> saves the editor and the response's screen at 390 and 1440 px.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

const serverHas = (id: string, key: string, check: (form: any) => boolean) => serverHasOn(app, id, key, check);

test('the editor picks the Fuse form, pins a version and carries a recalled answer; Results link the two responses', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const target = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Choose a plan', published: true, hidden_fields: ['name', 'src'], questions: [{ type: 'short_text', title: 'Which plan?' }] } })).body;
  const origin = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Sign up', questions: [{ type: 'short_text', title: 'Your name' }, { type: 'fuse', title: 'On to the plan' }] } })).body;
  const [nameQ, fuseQ] = origin.questions;
  for (const width of [390, 1440]) {
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${origin.id}`);
      await page.getByRole('button', { name: /On to the plan/ }).first().click();
      if (width === 390) {
        await page.getByLabel('Continue in form').selectOption(target.id);
        await page.getByLabel('Version respondents continue in').selectOption(target.version.id);
        const name = page.getByLabel('name', { exact: true });
        await name.focus();
        await page.keyboard.type('@Your');
        await page.getByRole('listbox', { name: 'What to recall' }).waitFor();
        await page.keyboard.press('Enter');
        await page.getByLabel('src', { exact: true }).fill('sign-up');
        await page.getByLabel('src', { exact: true }).blur();
        const saved = await serverHas(origin.id, owner.key, (f) => f.questions[1].properties.hidden_fields?.src === 'sign-up');
        t.deepEqual(saved.questions[1].properties, { fuse_form_id: target.id, session_id: target.version.id, hidden_fields: { name: `{answer.${nameQ.id}}`, src: 'sign-up' } });
      } else {
        await page.getByLabel('name', { exact: true }).waitFor();
      }
      t.deepEqual(await axeViolations(page), []);
      await shot(page, `workspace-fuse-editor-${width}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  }

  // A respondent passes the Fuse (through the public API), then the owner reads the two responses.
  t.is((await app.api('POST', `/forms/${origin.id}/publish`, { key: owner.key })).status, 200);
  const started = await app.api('POST', `/public/forms/${origin.slug}/responses`, { body: { completed: false, answers: [{ question_id: nameQ.id, value: 'Ada' }] } });
  const step = await app.api('POST', `/public/forms/${origin.slug}/responses/${started.body.id}/steps/${fuseQ.id}`, { headers: { 'x-resume-token': started.body.resume_token } });
  t.is(step.body.status, 'continued', JSON.stringify(step.body));
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${origin.id}/results?view=responses&response=${started.body.id}`);
    await page.getByText('Continued in “Choose a plan”').waitFor();
    await shot(page, 'workspace-fuse-response');
    if (process.env.FORMLOOM_SHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'workspace-fuse-response-390');
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    t.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Open that response' }).click();
    await page.getByText('Started in “Sign up”').waitFor();
    t.is(new URL(page.url()).pathname, `/forms/${target.id}/results`);
    await page.getByText(step.body.next.response_id).first().waitFor();
    await page.getByText('sign-up').first().waitFor();
    // A form the reader may not open (here: deleted since) is "another form".
    t.is((await app.api('DELETE', `/forms/${target.id}`, { key: owner.key })).status, 200);
    await page.goto(`${app.url}/forms/${origin.id}/results?view=responses&response=${started.body.id}`);
    await page.getByText('Continued in another form').waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
