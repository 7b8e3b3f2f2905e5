import { h, uid } from '../dom.js';
import type { BookingApi } from '../booking-types.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';

/*
 * The slot picker of a booking question (docs/booking.md, "On the page"): a week of open times at a time, in the
 * respondent's own time zone and the page's language (Intl), as native radio buttons (arrow keys move between
 * times, a screen reader hears each day's name), no library. Picking a time holds it on the server; the held slot
 * is the question's answer, booked when the response is completed.
 */

export interface HeldSlot {
  id: string;
  start: string;
  end: string;
  timezone: string;
}

const WEEK = 7 * 86_400_000;
const isHeld = (v: unknown): v is HeldSlot => !!v && typeof v === 'object' && typeof (v as HeldSlot).id === 'string' && typeof (v as HeldSlot).start === 'string';

/** The respondent's zone, as their browser knows it. */
export const respondentZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * Ends the scrolling day list inside a day's times, never across a day's heading (docs/booking.md, "On the
 * page"): a heading cut in half at the list's bottom edge reads as a broken page at 390 px. When the edge falls
 * between the gap above a heading and the middle of that day's first row of times, the list grows to the middle
 * of that row: the whole heading shows, and the half row says there is more below.
 */
function fitDays(days: HTMLElement) {
  days.style.maxHeight = '';
  const box = days.getBoundingClientRect();
  if (!box.height || days.scrollHeight <= days.clientHeight + 1) return;
  const top = (el: Element) => el.getBoundingClientRect().top - box.top + days.scrollTop;
  const edge = days.clientHeight;
  for (const day of days.querySelectorAll('.fl-booking-day')) {
    const time = day.querySelector('.fl-booking-time');
    if (!time) continue;
    const half = top(time) + time.getBoundingClientRect().height / 2;
    if (edge > top(day) - 16 && edge < half) {
      days.style.maxHeight = `${Math.ceil(half)}px`;
      return;
    }
  }
}

export function bookingControl(q: PublicQuestion, ctx: ControlContext & { booking: BookingApi; lang: string }): Control {
  const zone = respondentZone();
  const durations = Array.isArray(q.properties.durations) ? (q.properties.durations as number[]) : [];
  let duration = isHeld(ctx.value) ? Math.round((Date.parse(ctx.value.end) - Date.parse(ctx.value.start)) / 60_000) : (durations[0] ?? 30);
  let held: HeldSlot | null = isHeld(ctx.value) ? ctx.value : null;
  let weekStart = Date.now();
  let loading = 0;
  const name = uid('slot');
  const fmtDay = new Intl.DateTimeFormat(ctx.lang, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' });
  const fmtTime = new Intl.DateTimeFormat(ctx.lang, { timeZone: zone, hour: 'numeric', minute: '2-digit' });
  const fmtShort = new Intl.DateTimeFormat(ctx.lang, { timeZone: zone, day: 'numeric', month: 'short' });

  const status = h('p', { class: 'fl-booking-status', role: 'status', 'aria-live': 'polite' });
  const days = h('div', { class: 'fl-booking-days' });
  const range = h('span', { class: 'fl-booking-range' });
  const earlier = h('button', { type: 'button', class: 'fl-booking-move' }, `‹ ${ctx.t('booking_earlier')}`);
  const later = h('button', { type: 'button', class: 'fl-booking-move' }, `${ctx.t('booking_later')} ›`);
  earlier.addEventListener('click', () => void load(Math.max(Date.now(), weekStart - WEEK)));
  later.addEventListener('click', () => void load(weekStart + WEEK));

  const durationRow =
    durations.length > 1
      ? h('fieldset', { class: 'fl-booking-durations' }, h('legend', {}, ctx.t('booking_duration')), durations.map((d) => {
          const id = uid('dur');
          const input = h('input', { type: 'radio', id, name: `${name}-d`, value: d, checked: d === duration });
          input.addEventListener('change', () => {
            duration = d;
            void load(weekStart);
          });
          return h('span', { class: 'fl-booking-chip' }, input, h('label', { for: id }, ctx.t('booking_minutes', { n: d })));
        }))
      : null;

  const say = (text: string, problem = false) => {
    status.textContent = text;
    status.classList.toggle('fl-booking-problem', problem);
  };

  const heldText = (s: HeldSlot & { held_until?: string }) =>
    ctx.t('booking_held', { when: `${fmtDay.format(new Date(s.start))}, ${fmtTime.format(new Date(s.start))}` }) +
    (s.held_until ? ` ${ctx.t('booking_held_until', { time: fmtTime.format(new Date(s.held_until)) })}` : '');

  async function pick(start: string, input: HTMLInputElement) {
    say(ctx.t('booking_holding'));
    try {
      const got = await ctx.booking.hold(q.id, { start, duration, timezone: zone });
      held = { id: got.id, start: got.start, end: got.end, timezone: got.timezone };
      ctx.set(held);
      say(heldText(got));
    } catch (e) {
      input.checked = false;
      held = null;
      ctx.set(null);
      const reason = (e as { reason?: string }).reason;
      say(reason === 'slot_unavailable' ? ctx.t('booking_taken') : (e as Error).message, true);
      if (reason === 'slot_unavailable') void load(weekStart, true);
    }
  }

  async function load(from: number, keepStatus = false) {
    const mine = ++loading;
    weekStart = from;
    const to = from + WEEK;
    range.textContent = `${fmtShort.format(new Date(from))} – ${fmtShort.format(new Date(to - 1))}`;
    earlier.disabled = from <= Date.now() + 60_000;
    days.setAttribute('aria-busy', 'true');
    if (!keepStatus) say(ctx.t('booking_loading'));
    try {
      const r = await ctx.booking.slots(q.id, { duration, from: new Date(from).toISOString(), to: new Date(to).toISOString() });
      if (mine !== loading) return;
      const byDay = new Map<string, Array<{ start: string }>>();
      for (const s of r.slots) {
        const key = fmtDay.format(new Date(s.start));
        byDay.set(key, [...(byDay.get(key) ?? []), s]);
      }
      days.replaceChildren(
        ...[...byDay].map(([day, slots]) => {
          const legend = uid('day');
          return h('fieldset', { class: 'fl-booking-day', 'aria-labelledby': legend }, h('legend', { id: legend }, day), h('div', { class: 'fl-booking-times' }, slots.map((s) => {
            const id = uid('t');
            const input = h('input', { type: 'radio', id, name, value: s.start, class: 'fl-sr', checked: held?.start === s.start });
            input.addEventListener('change', () => void pick(s.start, input));
            input.addEventListener('keydown', (e) => {
              if (e.key === 'Enter' && held) {
                e.preventDefault();
                ctx.next();
              }
            });
            return h('span', { class: 'fl-booking-time' }, input, h('label', { for: id }, fmtTime.format(new Date(s.start))));
          })));
        }),
      );
      if (!byDay.size) days.replaceChildren(h('p', { class: 'fl-booking-note' }, ctx.t('booking_none')));
      fitDays(days);
      if (!keepStatus) say(held ? heldText(held) : '');
    } catch (e) {
      if (mine !== loading) return;
      days.replaceChildren();
      say((e as Error).message || ctx.t('booking_unavailable'), true);
    } finally {
      if (mine === loading) days.removeAttribute('aria-busy');
    }
  }

  const el = h(
    'div',
    { class: 'fl-booking', role: 'group', 'aria-labelledby': ctx.labelledBy, 'aria-describedby': ctx.describedBy },
    durationRow,
    h('div', { class: 'fl-booking-nav' }, earlier, range, later),
    days,
    status,
    h('p', { class: 'fl-booking-note' }, ctx.t('booking_zone', { zone })),
  );
  // The rows of times follow the width: fit again when it changes (a rotation, or the list shown after it was hidden).
  let width = -1;
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w !== width) (width = w), fitDays(days);
    }).observe(days);
  }
  void load(held ? Math.max(Date.now(), Date.parse(held.start) - 86_400_000) : Date.now());
  return {
    el,
    focus: () => ((el.querySelector('.fl-booking-time input:checked') ?? el.querySelector('.fl-booking-time input') ?? el.querySelector('input')) as HTMLInputElement | null)?.focus(),
  };
}
