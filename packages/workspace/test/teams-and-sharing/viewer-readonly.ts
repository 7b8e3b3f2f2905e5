import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Roles in the UI (issue 36): a team viewer sees every screen read-only, with no control the server would
 * refuse (no title field, no question editor, no Delete, Duplicate, Publish or Unpublish); settings, theme and
 * versions show an editor's screens with every control locked under a note; the page sends no write at all
 * while the viewer looks around. An editor of the team creates a form in it from
 * "New form"'s "Create in"; a viewer is not offered the team. Screenshots go to $FORMLOOM_SHOTS.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

async function member(teamId: string, ownerKey: string, role: string) {
  const who = await app.user();
  const inv = await app.api('POST', `/teams/${teamId}/invitations`, { key: ownerKey, body: { email: who.email, role } });
  const ok = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: who.key });
  if (ok.status !== 200) throw new Error(`accept: ${ok.status}`);
  return who;
}

/** The builder's own fields: text inputs, text areas and selects in its shadow tree and its children's. */
const builderFields = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: any) => {
      for (const el of root.querySelectorAll('*')) {
        if (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && !el.closest('fl-preview')) out.push(el.tagName);
        if (el.shadowRoot && el.tagName !== 'FL-PREVIEW') walk(el.shadowRoot);
      }
    };
    const b = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('formloom-builder');
    walk(b.shadowRoot);
    return out;
  });

/** Controls of the builder's panels that a person could still change (the preview aside): none for a viewer. */
const unlockedControls = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: any) => {
      for (const el of root.querySelectorAll('input, select, textarea, button')) {
        if (el.readOnly || el.disabled || el.hasAttribute('data-viewer-ok')) continue;
        out.push(`${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`);
      }
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot && !/^(FL-PREVIEW|FORMLOOM-FORM)$/.test(el.tagName)) walk(el.shadowRoot);
    };
    const b = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('formloom-builder');
    walk(b.shadowRoot.querySelector('.body'));
    return out;
  });

for (const width of [390, 1440]) {
  test(`a team viewer reads every screen with no control the server would refuse (${width} px)`, async (t) => {
    t.timeout(240_000);
    const owner = await app.user('enterprise');
    const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Acme' } })).body;
    const viewer = await member(team.id, owner.key, 'viewer');
    const created = await app.api('POST', '/forms', {
      key: owner.key,
      body: { title: 'Team survey', team_id: team.id, published: true, questions: [{ type: 'yes_no', title: 'Was it good?', required: true }, { type: 'long_text', title: 'Tell us more' }] },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: true }] } });
    const own = (await app.api('POST', '/forms', { key: viewer.key, body: { title: 'My own form' } })).body;

    const { page, errors, close } = await openPage(browser, { width, cookie: viewer.cookie });
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.method() !== 'HEAD' && r.url().includes('/api/v1/')) writes.push(`${r.method()} ${r.url()}`);
    });
    try {
      // The list: the team form has no Duplicate or Delete; the viewer's own form has both.
      await page.goto(`${app.url}/`);
      await page.getByRole('link', { name: 'Team survey' }).waitFor();
      await page.getByRole('button', { name: 'Delete My own form' }).waitFor();
      t.is(await page.getByRole('button', { name: 'Duplicate Team survey' }).count(), 0);
      t.is(await page.getByRole('button', { name: 'Delete Team survey' }).count(), 0);
      t.is(await page.getByRole('button', { name: 'Duplicate My own form' }).count(), 1);
      // "New form" offers no team the viewer may not create forms in.
      await page.getByRole('button', { name: 'New form' }).click();
      t.is(await page.getByRole('combobox', { name: 'Create in' }).count(), 0);
      t.deepEqual(await axeViolations(page), []);
      await shot(page, `workspace-viewer-forms-${width}`);

      // The builder: the questions to read and the preview; no field, no editing tab.
      await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}`);
      const list = page.getByRole('list', { name: 'Questions' });
      await list.getByText('Tell us more').waitFor();
      await page.getByText('You can read this form and its results as a viewer of Acme').waitFor();
      await page.getByText('View only').waitFor();
      const tabs = await page.getByRole('navigation', { name: 'Form sections' }).getByRole('link').allTextContents();
      t.deepEqual(tabs.map((s) => s.trim()).filter((s) => s !== 'Signing'), ['Questions', 'Settings', 'Theme', 'Versions', 'Share', 'Results', 'Integrations']);
      t.deepEqual(await builderFields(page), [], 'no field to edit');
      for (const name of [/Undo/, /Redo/, /^Publish/, /Unpublish/, /^Delete/, /Duplicate/, /Add question/]) {
        t.is(await page.getByRole('button', { name }).count(), 0, `no ${name} button`);
      }
      await list.getByRole('button', { name: /Tell us more/ }).click();
      // Nothing wider than the screen (a phone's layout viewport grows with the page, so the width is the test's).
      t.true((await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)) <= width);
      t.deepEqual(await axeViolations(page), []);
      await shot(page, `workspace-viewer-builder-${width}`);

      // Settings, theme and versions: an editor's screens with every control locked, under a note.
      for (const tab of ['settings', 'theme', 'versions']) {
        await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}/${tab}`);
        await page.getByText('You can view this form; ask an editor to change it.').waitFor();
        await page.getByRole('heading', { name: { settings: 'The form\'s address', theme: 'Colours', versions: 'Versions' }[tab] }).waitFor();
        if (tab === 'versions') await page.getByRole('button', { name: 'Restore version 1' }).waitFor();
        t.deepEqual(await unlockedControls(page), [], `${tab}: every control locked`);
        t.true((await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)) <= width);
        t.deepEqual(await axeViolations(page), [], tab);
        await shot(page, `workspace-viewer-${tab}-${width}`);
      }
      // Reading stays possible: a locked text field keeps its value when typed in; a version opens for comparison.
      await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}/settings`);
      const welcome = page.getByRole('textbox', { name: 'Title', exact: true }).first();
      await welcome.focus();
      await page.keyboard.type('Hello');
      t.is(await welcome.inputValue(), '');
      await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}/versions`);
      t.true(await page.getByRole('button', { name: 'Restore version 1' }).isDisabled());
      await page.getByRole('button', { name: 'View and compare version 1' }).click();
      await page.getByRole('heading', { name: 'The draft compared with it' }).waitFor();

      // Publish, typed into the address bar, shows the questions instead.
      await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}/publish`);
      await page.getByRole('list', { name: 'Questions' }).getByText('Was it good?').waitFor();
      t.is(await page.getByRole('button', { name: /Unpublish/ }).count(), 0);

      // Results stay readable.
      await page.goto(`${app.url}/forms/${encodeURIComponent(form.id)}/results`);
      await page.getByRole('heading', { name: 'Responses per day' }).waitFor();
      t.is(await page.getByRole('button', { name: /Delete/ }).count(), 0);

      t.deepEqual(writes, [], 'the viewer\'s screens sent no write');
      t.deepEqual(errors, []);
      t.truthy(own.id);
    } finally {
      await close();
    }
  });
}

test('an editor creates a form in the team from "New form"; the owner sees it there', async (t) => {
  t.timeout(180_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Studio' } })).body;
  const editor = await member(team.id, owner.key, 'editor');
  const { page, errors, close } = await openPage(browser, { cookie: editor.cookie });
  try {
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'New form' }).click();
    const where = page.getByRole('combobox', { name: 'Create in' });
    t.deepEqual((await where.locator('option').allTextContents()).map((s) => s.trim()), ['My forms', 'Studio']);
    await where.selectOption({ label: 'Studio' });
    await page.getByRole('region', { name: 'Start from' }).getByRole('button').first().click();
    await page.waitForURL(/\/forms\/[^/]+$/);
    const id = decodeURIComponent(page.url().split('/').pop()!);
    const read = await app.api('GET', `/forms/${id}`, { key: owner.key });
    t.is(read.status, 200);
    t.is(read.body.team_id, team.id);
    // An editor edits but does not publish: no Publish tab.
    await page.getByRole('navigation', { name: 'Form sections' }).getByRole('link', { name: 'Settings' }).waitFor();
    const tabs = await page.getByRole('navigation', { name: 'Form sections' }).getByRole('link').allTextContents();
    t.false(tabs.map((s) => s.trim()).includes('Publish'));
    t.true(tabs.map((s) => s.trim()).includes('Settings'));
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
