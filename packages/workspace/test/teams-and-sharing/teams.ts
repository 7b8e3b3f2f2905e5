import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, tabTo } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The Teams screens (docs/workspace.md, "Teams"; docs/teams.md): an owner creates a team, invites, changes a
 * role, cancels an invitation, reads the audit log, renames and deletes; a viewer sees no edit controls; a
 * demoted admin meets the API's 403; a team deleted elsewhere says so. TEAM_SHOTS=<dir> keeps screenshots.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

async function shot(page: Page, name: string) {
  const dir = process.env.TEAM_SHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: size.height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
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

test('an owner creates a team, invites, changes a role, cancels, reads the log, renames and deletes', async (t) => {
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
    await events.filter({ hasText: /renamed the team from/ }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).selectOption('invitation.cancelled');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction(() => {
      const root = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-team').shadowRoot.querySelector('fl-team-audit').shadowRoot;
      const items = [...root.querySelectorAll('li .sentence')].map((s: any) => s.textContent);
      return items.length === 1 && items[0] === 'Ada Owner cancelled the invitation of grace@example.com.';
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

test('a viewer at phone width sees no edit controls; a free plan shows the upgrade message', async (t) => {
  t.timeout(180_000);
  const owner = await app.user('free');
  const created = await app.api('POST', '/teams', { key: owner.key, body: { name: 'Field notes' } });
  const teamId = created.body.id as string;
  const viewer = await join(teamId, owner.key, 'viewer');
  await app.api('POST', `/teams/${teamId}/invitations`, { key: owner.key, body: { email: 'sam@example.com', role: 'editor' } });
  const v = await openPage(browser, { width: 390, cookie: viewer.cookie });
  try {
    await v.page.goto(`${app.url}/teams`);
    await v.page.getByRole('link', { name: 'Field notes' }).click();
    await team(v.page).getByRole('heading', { level: 1, name: 'Field notes' }).waitFor();
    await v.page.getByText('sam@example.com').waitFor();
    await v.page.getByText('of 3 seats used').waitFor();
    for (const name of ['Rename', 'Send invitation', 'Save branding', 'Delete team…', 'Cancel']) {
      t.is(await v.page.getByRole('button', { name, exact: true }).count(), 0, `a viewer has no ${name} button`);
    }
    t.is(await v.page.getByRole('combobox').count(), 0, 'no role menus for a viewer');
    t.is(await v.page.getByRole('heading', { name: 'Audit log' }).count(), 0);
    await v.page.getByText('Only the owner and admins change roles').waitFor();
    t.is(await v.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), 390, 'nothing scrolls sideways');
    await shot(v.page, 'team-viewer');
    t.deepEqual(await axeViolations(v.page), []);
    t.deepEqual(v.errors, []);
  } finally {
    await v.close();
  }
  const o = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await o.page.goto(`${app.url}/teams/${teamId}`);
    await o.page.getByText('Audit logs need the Enterprise plan').waitFor();
    await o.page.getByText('upgrade to the Enterprise plan').waitFor();
    await shot(o.page, 'team-free-owner');
    t.deepEqual(await axeViolations(o.page), []);
    // The fourth seat: 2 members and 1 pending invitation leave one; then the API's message shows.
    await o.page.getByLabel('Email address').fill('lin@example.com');
    await o.page.getByRole('button', { name: 'Send invitation' }).click();
    await o.page.getByText('3 of 3 seats used').waitFor();
    await o.page.getByText('All seats are taken').waitFor();
    await o.page.getByLabel('Email address').fill('kim@example.com');
    await o.page.getByRole('button', { name: 'Send invitation' }).click();
    await o.page.getByRole('alert').filter({ hasText: 'No seat left' }).waitFor();
    t.deepEqual(o.errors, []);
  } finally {
    await o.close();
  }
});

test('a demoted admin meets the 403; a team deleted in another tab says so', async (t) => {
  t.timeout(180_000);
  const owner = await app.user('pro');
  const teamId = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Ops' } })).body.id as string;
  const admin = await join(teamId, owner.key, 'admin');
  const { page, errors, close } = await openPage(browser, { cookie: admin.cookie });
  try {
    await page.goto(`${app.url}/teams/${teamId}`);
    await page.getByRole('button', { name: 'Rename' }).waitFor();
    t.is(await page.getByRole('button', { name: 'Delete team…' }).count(), 0, 'only the owner deletes');
    // In another tab, the owner makes them a viewer: the open screen's next write is refused with the API's reason.
    const members = (await app.api('GET', `/teams/${teamId}/members`, { key: owner.key })).body.members;
    const mine = members.find((m: any) => m.user_id === admin.id);
    t.is((await app.api('PUT', `/teams/${teamId}/members/${mine.id}`, { key: owner.key, body: { role: 'viewer' } })).status, 200);
    await page.getByLabel('Name', { exact: true }).fill('Operations');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your team role (viewer) does not allow this' }).waitFor();
    t.is((await app.api('GET', `/teams/${teamId}`, { key: owner.key })).body.name, 'Ops');
    await page.reload();
    await team(page).getByRole('heading', { level: 1, name: 'Ops' }).waitFor();
    t.is(await page.getByRole('button', { name: 'Rename' }).count(), 0, 'after a reload the viewer sees no rename');

    // Another team, open as an admin, is deleted by its owner in another tab: the next write says it is gone.
    const other = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Ops two' } })).body.id as string;
    await join(other, owner.key, 'editor');
    const mine2 = (await app.api('GET', `/teams/${other}/members`, { key: owner.key })).body.members.find((m: any) => m.role === 'editor');
    const inv = await app.api('POST', `/teams/${other}/invitations`, { key: owner.key, body: { email: admin.email, role: 'admin' } });
    t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: admin.key })).status, 200);
    await page.goto(`${app.url}/teams/${other}`);
    await page.getByRole('combobox', { name: /^Role of / }).first().waitFor();
    t.is((await app.api('DELETE', `/teams/${other}`, { key: owner.key })).status, 200);
    t.truthy(mine2);
    await page.getByLabel('Email address').fill('late@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('heading', { name: 'This team is no longer available' }).waitFor();
    await shot(page, 'team-gone');
    t.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Back to your teams' }).click();
    await page.waitForURL(`${app.url}/teams`);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('keyboard only: create a team and send an invitation', async (t) => {
  t.timeout(180_000);
  const owner = await app.user('pro');
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/teams`);
    await page.getByText('You are not in a team yet').waitFor();
    await tabTo(page, (el) => el.label === 'Team name');
    await page.keyboard.type('Keyboard club');
    await page.keyboard.press('Enter');
    await team(page).getByRole('heading', { level: 1, name: 'Keyboard club' }).waitFor();
    await tabTo(page, (el) => el.label === 'Email address');
    await page.keyboard.type('ken@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Invitation sent to ken@example.com.' }).waitFor();
    await tabTo(page, (el) => el.label === 'Cancel the invitation to ken@example.com');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    t.is(await page.getByText('ken@example.com', { exact: true }).count(), 1, 'Escape keeps the invitation');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
