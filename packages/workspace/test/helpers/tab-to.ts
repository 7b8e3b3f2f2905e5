import type { CDPSession, Page } from 'playwright-core';

/** What `tabTo`'s check sees of the focused element (through shadow roots). */
export interface Focused {
  tag: string;
  text: string;
  label: string;
  role: string;
  value: string;
}

/*
 * Tab presses in batches. Pressing Tab and then asking the page what has the focus was two round trips per
 * press (test process, browser server, Chromium); the keyboard-only builder test made 1,500 of them, 20 s
 * alone and 155 s in a full run, where each round trip waits for three busy processes to be scheduled. Now
 * the check runs in the page, at each key the page receives: the presses are sent in batches (one round
 * trip for the batch, one to read the outcome), and once the check holds the page swallows the rest of the
 * batch before any of its own handlers sees them. The page thus gets exactly the key events of pressing
 * Tab one at a time and stopping at the first match, as `page.keyboard.press` sends them.
 */

const TAB = { windowsVirtualKeyCode: 9, code: 'Tab', key: 'Tab', location: 0, isKeypad: false };
const SHIFT = { windowsVirtualKeyCode: 16, code: 'ShiftLeft', key: 'Shift', location: 1, isKeypad: false };
const SHIFT_MASK = 8;
const down = (key: typeof TAB, modifiers: number) => ({ type: 'rawKeyDown', modifiers, commands: [], text: '', unmodifiedText: '', autoRepeat: false, ...key });
const up = (key: typeof TAB, modifiers: number) => ({ type: 'keyUp', modifiers, ...key });
const ARROWS = {
  ArrowDown: { windowsVirtualKeyCode: 40, code: 'ArrowDown', key: 'ArrowDown', location: 0, isKeypad: false },
  ArrowUp: { windowsVirtualKeyCode: 38, code: 'ArrowUp', key: 'ArrowUp', location: 0, isKeypad: false },
};
/** The events of `page.keyboard.press('Tab')`, or of `press('Shift+Tab')`. */
const PRESS = [down(TAB, 0), up(TAB, 0)];
const PRESS_BACK = [down(SHIFT, SHIFT_MASK), down(TAB, SHIFT_MASK), up(TAB, SHIFT_MASK), up(SHIFT, 0)];
/** Batches grow: most searches end within a few presses, some take a hundred. */
const BATCHES = [1, 2, 4, 8, 16];

const sessions = new WeakMap<Page, Promise<CDPSession>>();
function session(page: Page): Promise<CDPSession> {
  let s = sessions.get(page);
  if (!s) sessions.set(page, (s = page.context().newCDPSession(page)));
  return s;
}

/**
 * In the page: counts the Tab presses let through (at most `max`), checks the focused element at each key
 * that follows one and when asked (`read`), and from the first match on swallows every key of the batch.
 */
function arm(check: (el: Focused, arg: unknown) => boolean, arg: unknown, max: number) {
  const g = globalThis as any;
  const describe = (): Focused => {
    let a: any = g.document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return {
      tag: a?.tagName.toLowerCase() ?? '',
      text: (a?.textContent ?? '').trim().replace(/\s+/g, ' '),
      label: a?.getAttribute('aria-label') ?? a?.labels?.[0]?.textContent?.trim().replace(/\s+/g, ' ') ?? '',
      role: a?.getAttribute('role') ?? '',
      value: a?.value ?? '',
    };
  };
  const s = { pressed: 0, checked: 0, matched: false, error: '' };
  const checkNow = () => {
    if (s.matched || s.checked === s.pressed) return;
    s.checked = s.pressed;
    try {
      s.matched = !!check(describe(), arg);
    } catch (e) {
      s.error = String(e);
      s.matched = true; // Stops the presses; `read` reports the error.
    }
  };
  const swallowed = new Set<string>();
  const swallow = (e: any) => {
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  const onDown = (e: any) => {
    checkNow();
    if (s.matched || s.pressed >= max) {
      swallowed.add(e.code);
      return swallow(e);
    }
    if (e.key === 'Tab') s.pressed += 1;
  };
  const onUp = (e: any) => {
    if (swallowed.delete(e.code)) swallow(e);
  };
  g.addEventListener('keydown', onDown, true);
  g.addEventListener('keyup', onUp, true);
  g.__flTabTo = {
    read(): { pressed: number; matched: boolean; error: string } {
      checkNow();
      return { ...s };
    },
    disarm() {
      g.removeEventListener('keydown', onDown, true);
      g.removeEventListener('keyup', onUp, true);
      delete g.__flTabTo;
    },
  };
}

/**
 * Presses Tab (or Shift+Tab) until `check` holds for the focused element; throws after `max` presses.
 * `check` runs in the page: it may use its arguments only (`arg` carries a value from the test).
 */
export async function tabTo<A = undefined>(page: Page, check: (el: Focused, arg: A) => boolean, opts: { back?: boolean; max?: number; arg?: A } = {}): Promise<void> {
  const max = opts.max ?? 120;
  const cdp = await session(page);
  await page.evaluate(`(${arm.toString()})(${check.toString()}, ${JSON.stringify(opts.arg ?? null)}, ${max})`);
  try {
    for (let sent = 0, b = 0; ; b = Math.min(b + 1, BATCHES.length - 1)) {
      const n = Math.min(BATCHES[b]!, max - sent);
      // Sent together, answered in order: Chromium queues key events and delivers them one after the other.
      const events = Array.from({ length: n }, () => (opts.back ? PRESS_BACK : PRESS)).flat();
      await Promise.all(events.map((e) => cdp.send('Input.dispatchKeyEvent', e as any)));
      sent += n;
      const s = await page.evaluate(() => (globalThis as any).__flTabTo.read() as { pressed: number; matched: boolean; error: string });
      if (s.error) throw new Error(`tabTo: the check failed in the page: ${s.error}`);
      if (s.matched) return;
      if (s.pressed >= max) throw new Error('tabTo: the element was never focused');
    }
  } finally {
    await page.evaluate(() => (globalThis as any).__flTabTo?.disarm()).catch(() => undefined);
  }
}

/**
 * `page.keyboard.press(key)` `times` times, the events sent together (one round trip instead of one per press):
 * moving through a long list with the arrows, as a person holding nothing but the keyboard does.
 */
export async function pressTimes(page: Page, key: keyof typeof ARROWS, times: number): Promise<void> {
  if (times <= 0) return;
  const cdp = await session(page);
  const events = Array.from({ length: times }, () => [down(ARROWS[key], 0), up(ARROWS[key], 0)]).flat();
  // Sent together, answered in order: Chromium queues key events and delivers them one after the other.
  await Promise.all(events.map((e) => cdp.send('Input.dispatchKeyEvent', e as any)));
}
