import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import { createFileBlobStore } from '@formloom/express';
import type { Browser } from 'playwright-core';
import { downloadedBytes } from '@formloom/test-browser';
import { startWorkspaceApp, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * Uploaded files are private (docs/security.md "Uploaded files"): the results screen still shows a file
 * answer's image and downloads it, because the browser sends the person's sign-in with the file's URL; the URL
 * alone opens nothing.
 */

let app: WorkspaceTestApp;
let browser: Browser;
const blobDir = mkdtempSync(join(tmpdir(), 'formloom-results-files-'));
test.before(async () => {
  app = await startWorkspaceApp('sqlite', { blobStore: createFileBlobStore(blobDir) });
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await app?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test("a file answer's image shows and its download works with the person's sign-in; the URL alone opens nothing", async (t) => {
  t.timeout(300_000);
  const owner = await app.user('pro');
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Photos', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'file_upload', title: 'Photo' }] },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const form = created.body;
  const fd = new FormData();
  fd.append('file', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  const up = await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[1].id}`, { method: 'POST', body: fd });
  t.is(up.status, 201);
  const file = (await up.json()) as { url: string; name: string };
  const answers = [{ question_id: form.questions[0].id, value: 'Ada' }, { question_id: form.questions[1].id, value: file }];
  t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } })).status, 201);
  t.is((await fetch(file.url)).status, 401, 'the URL alone opens nothing');

  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}/results`);
    await page.getByRole('button', { name: /^Responses/ }).click();
    await page.getByRole('row', { name: /Ada/ }).getByRole('button').first().click();
    const detail = page.getByRole('complementary');
    const image = detail.getByRole('img', { name: 'Uploaded image photo.png' });
    await image.waitFor();
    await image.evaluate((img: any) => (img.complete ? undefined : new Promise((r) => img.addEventListener('load', r, { once: true }))));
    t.is(await image.evaluate((img: any) => img.naturalWidth), 1, 'the image loaded with the sign-in cookie');
    const [download] = await Promise.all([page.waitForEvent('download'), detail.getByRole('link', { name: 'Download photo.png' }).click()]);
    t.true((await downloadedBytes(download)).equals(PNG), 'the downloaded bytes are the upload');
    t.deepEqual(await axeViolations(page), [], 'axe with the file answer in the detail');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  // Another person's sign-in gets nothing either.
  const stranger = await app.user();
  const other = await openPage(browser, { cookie: stranger.cookie });
  try {
    const res = await other.page.request.get(file.url);
    t.is(res.status(), 404);
  } finally {
    await other.close();
  }
});
