import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * "Move or copy…" on the forms list (issue 36, Teams): an owner moves a personal form into a team and the
 * team's audit log says so; a team viewer is offered Copy (into their own forms) but not Move. Screenshots
 * go to $FORMLOOM_SHOTS.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

for (const width of [390, 1440]) {
  test(`move a form into a team; a viewer may only copy (${width} px)`, async (t) => {
    t.timeout(180_000);
    const owner = await app.user('enterprise');
    const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Marketing' } })).body;
    const viewer = await app.user();
    const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: viewer.email, role: 'viewer' } });
    t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: viewer.key })).status, 200);
    const form = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Launch survey' } })).body;

    const o = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await o.page.goto(`${app.url}/`);
      await o.page.getByRole('button', { name: 'Move or copy Launch survey' }).click();
      const dialog = o.page.getByRole('dialog', { name: 'Move or copy “Launch survey”' });
      await dialog.getByRole('combobox', { name: 'To' }).selectOption({ label: 'Marketing' });
      t.deepEqual(await axeViolations(o.page), []);
      if (process.env.FORMLOOM_SHOTS) await o.page.screenshot({ path: `${process.env.FORMLOOM_SHOTS}/workspace-move-form-${width}.png` });
      await dialog.getByRole('button', { name: 'Move' }).click();
      await o.page.getByText('Moved "Launch survey" to Marketing.').waitFor({ state: 'attached' });
      await o.page.getByRole('listitem').filter({ hasText: 'Launch survey' }).getByText('Marketing').waitFor();
      t.is((await app.api('GET', `/forms/${form.id}`, { key: owner.key })).body.team_id, team.id);
      const log = (await app.api('GET', `/teams/${team.id}/audit-logs`, { key: owner.key })).body.events;
      t.true(log.some((e: any) => e.action === 'form.moved_in' && e.details.form_id === form.id));
      t.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }

    const v = await openPage(browser, { width, cookie: viewer.cookie });
    try {
      await v.page.goto(`${app.url}/`);
      await v.page.getByRole('button', { name: 'Move or copy Launch survey' }).click();
      const dialog = v.page.getByRole('dialog', { name: 'Move or copy “Launch survey”' });
      t.deepEqual((await dialog.getByRole('combobox', { name: 'To' }).locator('option').allTextContents()).map((s) => s.trim()), ['My forms']);
      t.is(await dialog.getByRole('button', { name: 'Move' }).count(), 0, 'a viewer cannot take the form out of the team');
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await v.page.getByText('Copied "Launch survey" to My forms.').waitFor({ state: 'attached' });
      const mine = (await app.api('GET', '/forms', { key: viewer.key })).body.forms.filter((f: any) => f.title === 'Launch survey' && !f.team);
      t.is(mine.length, 1);
      t.deepEqual(v.errors, []);
    } finally {
      await v.close();
    }
  });
}
