import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { startVoiceApp, type VoiceTestApp } from '../helpers/voice-app';
import { axeViolations, openPage, tabTo } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * The Voice screens (docs/workspace.md, "Voice"; docs/voice.md): an owner picks a voice by language and gender,
 * hears its preview, sees the exact cost, makes a clip and a script with a cast, plays, downloads, retakes,
 * searches and deletes in the library, and reads the ledger. Error paths: an unconfirmed address (the API's
 * 403) offers no Generate, a balance spent in another tab meets the API's 402, a clip deleted in another tab
 * says so. Generation is real (Flite). VOICE_SHOTS=<dir> keeps screenshots.
 */

let app: VoiceTestApp;
let browser: Browser;
test.before(async () => {
  app = await startVoiceApp('sqlite');
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await app?.close();
});

async function shot(page: Page, name: string) {
  const dir = process.env.VOICE_SHOTS;
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: size.height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** The accessible label of the focused element, through shadow roots. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    let a: any = (globalThis as any).document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a?.getAttribute('aria-label') ?? '';
  });

const voiceSelect = (page: Page) => page.getByRole('combobox', { name: /^(Main voice|Voice)$/ });
const generateButton = (page: Page) => page.getByRole('button', { name: 'Generate', exact: true });

/** Waits until the studio has its voices and the first one is chosen. */
async function studioReady(page: Page) {
  await page.waitForFunction(() => {
    const studio = (globalThis as any).document.querySelector('formloom-workspace')?.shadowRoot?.querySelector('fl-voice')?.shadowRoot?.querySelector('fl-voice-studio');
    return !!studio && studio.voices.length > 0 && !!studio.req.voice;
  });
}

test('an owner makes a clip and a script, plays, downloads, retakes, searches, deletes and reads the ledger', async (t) => {
  t.timeout(300_000);
  const owner = await app.user({ credits: 200 });
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/`);
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Voice', exact: true }).click();
    await page.waitForURL(`${app.url}/voice`);
    await studioReady(page);
    await page.getByText('Balance: 200 credits').waitFor();
    await page.getByText('the price shows here before anything is made').waitFor();

    // Voices filtered by language and gender; the preview is the API's own.
    t.is(await page.getByRole('combobox', { name: 'Language' }).inputValue(), 'English');
    await page.getByRole('combobox', { name: 'Gender' }).selectOption('female');
    await page.waitForFunction(() => {
      const studio = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-voice').shadowRoot.querySelector('fl-voice-studio');
      return studio.voices.length > 0 && studio.voices.every((v: any) => v.gender === 'female');
    });
    const options = await voiceSelect(page).locator('option').allTextContents();
    t.true(options.some((o) => /SLT/.test(o)), options.join());
    t.false(options.some((o) => /RMS/.test(o)));
    const preview = page.waitForResponse((r) => /\/voice\/voices\/nv_[^/]+\/preview$/.test(new URL(r.url()).pathname));
    await page.getByRole('button', { name: 'Preview voice' }).click();
    const previewRes = await preview;
    t.is(previewRes.status(), 200);
    t.is(previewRes.headers()['content-type'], 'audio/mpeg');
    await page.getByRole('combobox', { name: 'Gender' }).selectOption('');
    await page.waitForFunction(() => {
      const studio = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-voice').shadowRoot.querySelector('fl-voice-studio');
      return studio.voices.some((v: any) => v.gender === 'male');
    });

    // The exact cost, before anything is made: 22 characters x 0.4 = 8.8, rounded up.
    await page.getByRole('textbox', { name: 'Text' }).fill('Hello from the studio.');
    await page.getByText('Costs 9 credits (22 spoken characters').waitFor();
    await page.getByText('Balance: 200 credits.').waitFor();
    t.is((await app.api('GET', '/voice/credits', { key: owner.key })).body.data.balance, 200, 'an estimate is free');
    await shot(page, 'voice-studio');
    t.deepEqual(await axeViolations(page), []);
    await generateButton(page).click();
    const result = page.locator('#result');
    await page.getByRole('heading', { level: 2, name: 'Hello from the studio.' }).waitFor();
    await page.getByText('Balance: 191 credits').first().waitFor();
    const src = await result.locator('audio').getAttribute('src');
    t.regex(src ?? '', /^\/api\/v1\/voice\/generations\/gen_[^/]+\/audio\?format=mp3$/);
    const played = await page.evaluate(async (u) => {
      const r = await fetch(u!);
      return { status: r.status, type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
    }, src);
    t.like(played, { status: 200, type: 'audio/mpeg' });
    t.true(played.size > 1000);
    // And the player plays it: the browser decodes the clip and its time advances, without a media error
    // (muted, as a page may start muted media without a gesture).
    const player = result.locator('audio');
    await player.evaluate((el: any) => {
      el.muted = true;
      return el.play();
    });
    const playing = await waitFor(
      async () => {
        const state = await player.evaluate((el: any) => ({ time: el.currentTime as number, duration: el.duration as number, error: (el.error?.code as number | undefined) ?? null }));
        return (state.error !== null || state.time > 0.3) && state;
      },
      { what: 'the clip playing in the page' },
    );
    t.is(playing.error, null);
    t.true(playing.duration > 0.5, JSON.stringify(playing));
    await player.evaluate((el: any) => el.pause());
    const hrefs = await result.getByRole('list', { name: /^Download / }).getByRole('link').evaluateAll((as) => as.map((a) => (a as any).getAttribute('href')));
    t.deepEqual(hrefs.map((h: string) => new URL(h, 'http://x').searchParams.get('format')), ['mp3', 'wav', 'ogg_opus', 'mulaw_8k', 'pcm_24k']);
    const download = page.waitForEvent('download');
    await result.getByRole('link', { name: 'WAV (download)' }).click();
    t.regex((await download).suggestedFilename(), /\.wav$/);
    const library = await app.api('GET', '/voice/generations', { key: owner.key });
    t.is(library.body.data.length, 1);
    t.like(library.body.data[0], { title: 'Hello from the studio.', characters: 22, credits: { charged: 9 } });
    await shot(page, 'voice-result');

    // A retake, quoted first: a session's free retakes may be at most a quarter of the characters it was
    // billed this month (docs/voice.md, "Retakes"), so this one is a new clip at the words' price.
    await result.getByRole('button', { name: /^Retake / }).click();
    await page.getByRole('dialog').getByText('This retake is a new clip and costs 9 credits. Balance: 191 credits.').waitFor();
    await shot(page, 'voice-retake');
    await page.getByRole('dialog').getByRole('button', { name: 'Retake for 9 credits' }).click();
    await result.getByRole('status').filter({ hasText: 'Retake ready: a new clip.' }).waitFor();
    await page.getByText('Balance: 182 credits').first().waitFor();
    const retakes = (await app.api('GET', '/voice/generations', { key: owner.key })).body.data;
    t.is(retakes.length, 2);
    t.is(retakes[0].retake_of, library.body.data[0].id);

    // A script: two speakers, a pause, a cast.
    await page.getByRole('radio', { name: /^Script/ }).check();
    await page.getByRole('textbox', { name: 'Speaker 1' }).fill('Anna');
    await page.getByRole('textbox', { name: 'Line 1' }).fill('Hi there.');
    await page.getByRole('button', { name: 'Add pause' }).click();
    await page.getByRole('button', { name: 'Add line' }).click();
    await page.getByRole('textbox', { name: 'Speaker 3' }).fill('Ben');
    await page.getByRole('textbox', { name: 'Line 3' }).fill('Hello, Anna.');
    const rms = await voiceSelect(page).locator('option', { hasText: 'RMS' }).getAttribute('value');
    await page.getByRole('combobox', { name: 'Voice for Anna' }).selectOption(rms!);
    await page.getByRole('textbox', { name: 'Title in the library' }).fill('Dialogue');
    // 9 + 12 spoken characters: 8.4, rounded up.
    await page
      .getByText('Costs 9 credits (21 spoken characters')
      .waitFor()
      .catch(async (e: Error) => {
        // Say what the page showed instead: a wrong count, an error, or a price still being worked out.
        throw new Error(`${e.message}\nThe page's price and status lines: ${JSON.stringify(await page.locator('p.cost, [role=alert]').allTextContents())}`);
      });
    await shot(page, 'voice-script');
    t.deepEqual(await axeViolations(page), []);
    await generateButton(page).click();
    await page.getByRole('heading', { level: 2, name: 'Dialogue' }).waitFor();
    const scripts = (await app.api('GET', '/voice/generations?search=dialogue', { key: owner.key })).body.data;
    t.is(scripts.length, 1);
    t.deepEqual(scripts[0].lines.map((l: any) => [l.speaker, l.voice?.id ?? null, l.text]), [
      ['Anna', rms, 'Hi there.'],
      [null, null, null],
      ['Ben', scripts[0].voice.id, 'Hello, Anna.'],
    ]);
    t.not(scripts[0].voice.id, rms, 'Ben speaks in the main voice');
    t.is(scripts[0].lines[1].end_ms - scripts[0].lines[1].start_ms, 1000);

    // The library: search, then delete.
    await page.getByRole('navigation', { name: 'Voice' }).getByRole('link', { name: 'Library' }).click();
    await page.waitForURL(`${app.url}/voice/library`);
    await page.getByText('(3 clips)').waitFor();
    await page.getByRole('searchbox', { name: 'Search clips' }).fill('studio');
    await page.getByText('(2 clips)').waitFor();
    t.is(await page.getByRole('article', { name: 'Hello from the studio.' }).count(), 2);
    t.is(await page.getByRole('article', { name: 'Dialogue' }).count(), 0);
    await shot(page, 'voice-library');
    t.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'Delete Hello from the studio.' }).last().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete clip' }).click();
    await page.getByRole('status').filter({ hasText: 'Clip deleted.' }).waitFor();
    await page.getByText('(1 clip)').waitFor();
    t.is((await app.api('GET', `/voice/generations/${library.body.data[0].id}`, { key: owner.key })).status, 404, 'the oldest, last in the list, is gone');
    t.is((await app.api('GET', `/voice/generations/${retakes[0].id}`, { key: owner.key })).status, 200);

    // The ledger: a purchase and three charges.
    await page.getByRole('navigation', { name: 'Voice' }).getByRole('link', { name: 'Credits' }).click();
    await page.locator('fl-voice-credits').getByText('173 credits', { exact: true }).waitFor();
    const rows = page.getByRole('list', { name: 'Ledger entries' }).getByRole('listitem');
    t.deepEqual(await rows.evaluateAll((lis) => lis.map((li: any) => `${li.querySelector('strong').textContent} ${li.querySelector('.amount').textContent}`)), [
      'Charge for a clip −9 credits',
      'Charge for a clip −9 credits',
      'Charge for a clip −9 credits',
      'Purchase +200 credits',
    ]);
    await rows.first().getByText(scripts[0].id).waitFor();
    await shot(page, 'voice-credits');
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an unconfirmed address is not offered Generate; a balance spent elsewhere meets the 402; a clip deleted elsewhere says so', async (t) => {
  t.timeout(240_000);
  const unconfirmed = await app.user({ credits: 50, verified: false });
  const u = await openPage(browser, { cookie: unconfirmed.cookie });
  try {
    await u.page.goto(`${app.url}/voice`);
    await u.page.getByRole('alert').filter({ hasText: 'Voice needs a confirmed email address' }).waitFor();
    t.is(await generateButton(u.page).count(), 0);
    // What the screen does not offer, the API refuses.
    const voices = await app.api('GET', '/voice/voices?language=en', { key: unconfirmed.key });
    const refused = await app.api('POST', '/voice', { key: unconfirmed.key, body: { mode: 'speak', voice: voices.body.data[0].id, text: 'Hi.' } });
    t.is(refused.status, 403);
    t.is(refused.body.error.reason, 'voice_not_enabled');
    await shot(u.page, 'voice-not-enabled');
    t.deepEqual(await axeViolations(u.page), []);
    t.deepEqual(u.errors, []);
  } finally {
    await u.close();
  }

  const owner = await app.user({ credits: 12 });
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/voice`);
    await studioReady(page);
    await page.getByRole('textbox', { name: 'Text' }).fill('Hello from the studio.');
    await page.getByText('Costs 9 credits').waitFor();
    // In another tab, 8 credits go: the quote on screen is now stale, and the API refuses.
    const voice = (await app.api('GET', '/voice/voices?language=en', { key: owner.key })).body.data[0].id;
    const other = await app.api('POST', '/voice', { key: owner.key, body: { mode: 'speak', voice, text: 'Elsewhere, twelve.', title: 'Elsewhere, twelve.' } });
    t.is(other.status, 200);
    t.is(other.body.data.credits.remaining, 4);
    await generateButton(page).click();
    await page.getByRole('alert').filter({ hasText: 'This request costs 9 credits; the balance is 4' }).waitFor();
    t.is((await app.api('GET', '/voice/credits', { key: owner.key })).body.data.balance, 4, 'nothing charged');
    // Changing the request asks for the price again: now the screen says it is short and offers no generation.
    await page.getByRole('textbox', { name: 'Text' }).fill('Hello from the studio!');
    await page.getByText('Not enough credits').waitFor();
    t.true(await generateButton(page).isDisabled());
    await shot(page, 'voice-short');
    t.deepEqual(await axeViolations(page), []);

    // A clip open in the library, deleted in another tab.
    await page.goto(`${app.url}/voice/library`);
    const clip = page.getByRole('article', { name: 'Elsewhere, twelve.' });
    await clip.waitFor();
    t.is((await app.api('DELETE', `/voice/generations/${other.body.data.id}`, { key: owner.key })).status, 200);
    await page.getByRole('button', { name: 'Retake Elsewhere, twelve.' }).click();
    await page.getByRole('status').filter({ hasText: 'This clip no longer exists' }).waitFor();
    t.is(await clip.count(), 0);
    await page.getByText('No clips yet.').waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('keyboard only at 390 px: make a clip, find and delete it, read the ledger', async (t) => {
  t.timeout(240_000);
  const owner = await app.user({ credits: 100 });
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  const noSideScroll = async (what: string) => t.is(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), 390, `${what}: nothing scrolls sideways`);
  try {
    await page.goto(`${app.url}/voice`);
    await studioReady(page);
    await noSideScroll('studio');
    t.deepEqual(await axeViolations(page), []);
    await tabTo(page, (el) => el.tag === 'textarea');
    await page.keyboard.type('Typed without a mouse.');
    await page.getByText('Costs 9 credits').waitFor();
    await tabTo(page, (el) => el.text === 'Generate');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Typed without a mouse.' }).waitFor();
    await noSideScroll('result');

    await tabTo(page, (el) => el.text === 'Library', { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/voice/library`);
    await page.getByText('(1 clip)').waitFor();
    await noSideScroll('library');
    t.deepEqual(await axeViolations(page), []);
    await tabTo(page, (el) => el.label === 'Search clips');
    await page.keyboard.type('mouse');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.label === 'Delete Typed without a mouse.');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    t.is(await page.getByRole('article', { name: 'Typed without a mouse.' }).count(), 1, 'Escape keeps the clip');
    t.is(await focusedLabel(page), 'Delete Typed without a mouse.', 'the focus is back on Delete');
    await page.keyboard.press('Enter');
    await tabTo(page, (el) => el.text === 'Delete clip');
    await page.keyboard.press('Enter');
    await page.getByText('No clip matches “mouse”.').waitFor();

    await tabTo(page, (el) => el.text === 'Credits', { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Ledger entries' }).waitFor();
    await noSideScroll('credits');
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
