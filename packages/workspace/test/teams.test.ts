import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { startWorkspaceApp, type WorkspaceTestApp } from './helpers/app';
import { axeViolations, launchBrowser, openPage, tabTo } from './helpers/browser';

/*
 * The Teams screens (docs/workspace.md, "Teams"; docs/teams.md): an owner creates a team, invites, changes a
 * role, cancels an invitation, reads the audit log, renames and deletes; a viewer sees no edit controls; a
 * demoted admin meets the API's 403; a team deleted elsewhere says so. TEAM_SHOTS=<dir> keeps screenshots.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  app = await startWorkspaceApp('sqlite');
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function shot(page: Page, name: string) {
  const dir = process.env.TEAM_SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}-${page.viewportSize()!.width}.png`, fullPage: true });
}

const team = (page: Page) => page.locator('fl-team');

/** A member who joined through an invitation, as the API does it. */
async function join(teamId: string, ownerKey: string, role: string) {
  const who = await app.user();
  const inv = await app.api('POST', `/teams/${teamId}/invitations`, { key: ownerKey, body: { email: who.email, role } });
  const ok = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: who.key });
  if (ok.status !== 200) throw new Error(`accept: ${ok.status}`);
  return who;
}

test.serial('an owner creates a team, invites, changes a role, cancels, reads the log, renames and deletes', async (t) => {
  t.timeout(240_000);
  const owner = await app.user('enterprise');
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/teams`);
    await page.getByText('You are not in a team yet').waitFor();
    await shot(page, 'teams-empty');
    t.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('alert').filter({ hasText: 'Give the team a name' }).waitFor();
    await page.getByLabel('Team name').fill('Research');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.waitForURL(/\/teams\/[^/]+$/);
    const teamId = decodeURIComponent(page.url().split('/').pop()!);
    await team(page).getByRole('heading', { level: 1, name: 'Research' }).waitFor();
    await page.getByText('1 of unlimited').or(page.getByText('seats used; the plan has no limit')).waitFor();

    // A member joins (through the API), then the owner invites someone from the screen.
    const member = await join(teamId, owner.key, 'editor');
    await page.reload();
    await page.getByRole('combobox', { name: `Role of ${member.email}` }).waitFor();
    await page.getByLabel('Email address').fill('grace@example.com');
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to grace@example.com.' }).waitFor();
    const pending = page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem').filter({ hasText: 'grace@example.com' });
    await pending.filter({ hasText: /viewer · pending .* expires in 7 days/ }).waitFor();
    await page.getByText('3 seats used').waitFor();
    const invs = await app.api('GET', `/teams/${teamId}/invitations`, { key: owner.key });
    t.deepEqual(invs.body.invitations.map((i: any) => [i.email, i.role]), [['grace@example.com', 'viewer']]);
    await shot(page, 'team-owner');
    t.deepEqual(await axeViolations(page), []);

    await page.getByRole('combobox', { name: `Role of ${member.email}` }).selectOption('admin');
    await page.getByRole('status').filter({ hasText: `${member.email} is now an admin.` }).waitFor();
    const members = await app.api('GET', `/teams/${teamId}/members`, { key: owner.key });
    t.is(members.body.members.find((m: any) => m.user_id === member.id).role, 'admin');

    await page.getByRole('button', { name: 'Cancel the invitation to grace@example.com' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel invitation' }).click();
    await page.getByText('No pending invitations.').waitFor();
    t.deepEqual((await app.api('GET', `/teams/${teamId}/invitations`, { key: owner.key })).body.invitations, []);

    await page.getByLabel('Name', { exact: true }).fill('Research lab');
    await page.getByRole('button', { name: 'Rename' }).click();
    await team(page).getByRole('heading', { level: 1, name: 'Research lab' }).waitFor();
    t.is((await app.api('GET', `/teams/${teamId}`, { key: owner.key })).body.name, 'Research lab');

    // Branding: the preview follows the fields before saving; the API keeps what is saved.
    await page.getByLabel('Footer text').fill('Research lab, 2026');
    await page.getByRole('figure', { name: 'Preview of a team form' }).getByText('Research lab, 2026').waitFor();
    await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#0f766e');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('status').filter({ hasText: 'Branding saved.' }).waitFor();
    const branding = await app.api('GET', `/teams/${teamId}/branding`, { key: owner.key });
    t.is(branding.body.primary_color, '#0f766e');
    t.is(branding.body.footer_text, 'Research lab, 2026');

    // The audit log, filtered by action.
    const events = page.getByRole('list', { name: 'Audit events' }).getByRole('listitem');
    await page.reload();
    await events.filter({ hasText: 'team.renamed' }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).selectOption('invitation.cancelled');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction(() => {
      const root = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-team').shadowRoot.querySelector('fl-team-audit').shadowRoot;
      const items = [...root.querySelectorAll('li strong')].map((s: any) => s.textContent);
      return items.length === 1 && items[0] === 'invitation.cancelled';
    });
    await shot(page, 'team-audit');

    await page.getByRole('button', { name: 'Delete team…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    t.is((await app.api('GET', `/teams/${teamId}`, { key: owner.key })).status, 200, 'cancelling the dialog keeps the team');
    await page.getByRole('button', { name: 'Delete team…' }).click();
    await shot(page, 'team-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete team' }).click();
    await page.waitForURL(`${app.url}/teams`);
    await page.getByText('You are not in a team yet').waitFor();
    t.is((await app.api('GET', `/teams/${teamId}`, { key: owner.key })).status, 404);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
