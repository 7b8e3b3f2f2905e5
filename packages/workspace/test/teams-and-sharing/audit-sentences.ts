import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The team's audit log reads as sentences (issue 36, "plain words"): who did what, by name, with the invited
 * address and the role; no action codes and no JSON, at 390 and 1440 px. Screenshots go to $FORMLOOM_SHOTS.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

/** The audit entries' texts as shown. */
const sentences = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-team').shadowRoot.querySelector('fl-team-audit').shadowRoot;
    return [...root.querySelectorAll('ul[aria-label="Audit events"] li')].map((li: any) => li.textContent.replace(/\s+/g, ' ').trim());
  });

for (const width of [390, 1440]) {
  test(`the audit log shows sentences, never codes or JSON (${width} px)`, async (t) => {
    t.timeout(180_000);
    const owner = await app.user('enterprise');
    const teamId = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Plain words' } })).body.id;
    await app.api('PUT', `/teams/${teamId}`, { key: owner.key, body: { name: 'Plain team' } });
    const member = await app.user();
    const inv = await app.api('POST', `/teams/${teamId}/invitations`, { key: owner.key, body: { email: member.email, role: 'viewer' } });
    t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: member.key })).status, 200);
    const memberId = (await app.api('GET', `/teams/${teamId}/members`, { key: owner.key })).body.members.find((m: any) => m.user_id === member.id).id;
    t.is((await app.api('PUT', `/teams/${teamId}/members/${memberId}`, { key: owner.key, body: { role: 'editor' } })).status, 200);
    await app.api('POST', `/teams/${teamId}/invitations`, { key: owner.key, body: { email: 'bob@example.com', role: 'editor' } });
    const form = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Feedback', team_id: teamId } });
    t.is(form.status, 201);

    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/teams/${encodeURIComponent(teamId)}`);
      const list = page.getByRole('list', { name: 'Audit events' });
      await list.getByText('Ada Owner invited bob@example.com as editor.').waitFor();
      const all = await sentences(page);
      for (const expected of [
        'Ada Owner created the team “Plain words”.',
        'Ada Owner renamed the team from “Plain words” to “Plain team”.',
        `Ada Owner invited ${member.email} as viewer.`,
        'Ada Owner joined the team as viewer.',
        'Ada Owner made Ada Owner editor (was viewer).',
        'Ada Owner invited bob@example.com as editor.',
        'Ada Owner created the form “Feedback”.',
      ]) {
        t.true(all.some((s) => s.startsWith(expected)), `${expected} in ${JSON.stringify(all)}`);
      }
      for (const s of all) {
        t.false(/\b[a-z]+\.[a-z_]+\b|[{}"]|_id\b/.test(s.replace(/\S+@example\.com/g, '')), `no code or JSON: ${s}`);
      }
      // The filter offers actions by name too.
      const options = await page.getByRole('combobox', { name: 'Action' }).locator('option').allTextContents();
      t.true(options.includes('Person invited') && options.includes('Role changed'));
      t.false(options.some((o) => /\./.test(o)));
      t.deepEqual(await axeViolations(page), []);
      t.true((await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)) <= width);
      await shot(page, `workspace-team-audit-${width}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
