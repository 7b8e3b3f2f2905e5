import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Mails about responses on the Integrations tab (docs/notifications.md): the signed-in person's own choice for
 * the form's new responses, and the respondent receipt; shown on a plan without webhooks too.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

for (const width of [1280, 390]) {
  test(`at ${width} px an owner chooses their mails about new responses and turns the respondent receipt on`, async (t) => {
    t.timeout(200_000);
    const owner = await app.user('free');
    const created = await app.api('POST', '/forms', {
      key: owner.key,
      body: { title: 'Orders', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'email', title: 'Email' }] },
    });
    t.is(created.status, 201);
    const f = created.body;
    const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width });
    try {
      await page.goto(`${app.url}/forms/${f.id}/integrations`);
      await page.getByRole('heading', { name: 'Email me about new responses' }).waitFor();
      t.true(await page.getByRole('radio', { name: 'No mails' }).isChecked(), 'off until chosen');
      t.deepEqual(await axeViolations(page), [], 'axe, nothing chosen');

      await page.getByRole('radio', { name: 'One digest a day' }).check();
      await page.getByRole('status').filter({ hasText: 'daily digest' }).waitFor();
      t.is((await app.api('GET', `/forms/${f.id}/notifications`, { key: owner.key })).body.new_responses, 'daily');
      await page.getByRole('radio', { name: 'A mail for each response' }).check();
      await page.getByRole('status').filter({ hasText: 'a mail for each new response' }).waitFor();
      t.is((await app.api('GET', `/forms/${f.id}/notifications`, { key: owner.key })).body.new_responses, 'instant');

      await page.getByRole('checkbox', { name: 'Send respondents a copy of their answers' }).check();
      await page.getByLabel('Reply-to address').fill('orders@shop.example');
      await page.getByLabel('Subject').fill('Thanks for your order');
      await page.getByRole('button', { name: 'Update receipt' }).click();
      await page.getByRole('status').filter({ hasText: 'Respondents will get a copy' }).waitFor();
      t.like((await app.api('GET', `/forms/${f.id}/receipt`, { key: owner.key })).body, { enabled: true, reply_to: 'orders@shop.example', subject: 'Thanks for your order' });

      // A reload shows what was saved.
      await page.reload();
      await page.getByRole('heading', { name: 'Respondent receipt' }).waitFor();
      t.true(await page.getByRole('radio', { name: 'A mail for each response' }).isChecked());
      t.true(await page.getByRole('checkbox', { name: 'Send respondents a copy of their answers' }).isChecked());
      t.is(await page.getByLabel('Reply-to address').inputValue(), 'orders@shop.example');
      t.deepEqual(await axeViolations(page), [], 'axe, everything set');
      const overflow = await page.evaluate(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      t.true((overflow as number) <= 0, 'nothing scrolls sideways');
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('a team member chooses their own mails, apart from the owner', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Acme' } })).body;
  const member = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: member.email, role: 'editor' } });
  t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: member.key })).status, 200);
  const f = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Team orders', team_id: team.id, questions: [{ type: 'email', title: 'Email' }] } })).body;
  const { page, errors, close } = await openPage(browser, { cookie: member.cookie });
  try {
    await page.goto(`${app.url}/forms/${f.id}/integrations`);
    await page.getByRole('radio', { name: 'A mail for each response' }).check();
    await page.getByRole('status').filter({ hasText: 'a mail for each new response' }).waitFor();
    t.is((await app.api('GET', `/forms/${f.id}/notifications`, { key: member.key })).body.new_responses, 'instant');
    t.is((await app.api('GET', `/forms/${f.id}/notifications`, { key: owner.key })).body.new_responses, 'off', "the owner's own choice is untouched");
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
