import type { Question } from '../domain/types';
import { isTimeZone, minutesOf, zonedToUtc } from './zoned-time';

/*
 * Which slots a booking question offers (docs/booking.md, "Slots"): the owner's hours in their time zone, every
 * `step` minutes, each as long as the duration the respondent chose, minus what is busy (the owner's calendar and
 * the bookings and holds already taken). Pure: the service gathers the busy times.
 */

/** A booking question's settings, as its properties name them (hours, timezone, durations). */
export interface BookingSettings {
  /** Opening hours per day of the week (0 = Sunday), `HH:MM` in `timezone`; several ranges per day allowed. */
  hours: Array<{ day: number; start: string; end: string }>;
  timezone: string;
  /** Minutes; the respondent picks one. */
  durations: number[];
}

export interface Interval {
  start: string;
  end: string;
}

/** The question's settings when it can take bookings (the readiness checks passed), else null. */
export function bookingSettingsOf(q: Pick<Question, 'type' | 'properties'>): BookingSettings | null {
  if (q.type !== 'booking') return null;
  const p = q.properties;
  const hours = Array.isArray(p.hours) ? (p.hours as BookingSettings['hours']).filter((h) => minutesOf(h.start) !== null && minutesOf(h.end) !== null) : [];
  const durations = Array.isArray(p.durations) ? (p.durations as number[]).filter((d) => Number.isInteger(d) && d > 0 && d <= 24 * 60) : [];
  if (!hours.length || !durations.length || !isTimeZone(p.timezone)) return null;
  return { hours, timezone: p.timezone, durations };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Slots start every this many minutes: the greatest common divisor of the durations, at least 5. */
export const slotStep = (durations: readonly number[]) => Math.max(5, durations.reduce(gcd));

export interface SlotQuery {
  settings: BookingSettings;
  /** Minutes; one of `settings.durations`. */
  duration: number;
  /** Slots that start in this range. */
  range: Interval;
  /** Nothing starts before this instant (now plus the notice). */
  earliest: number;
  /** Busy intervals, any order, possibly overlapping. */
  busy: readonly Interval[];
}

/** The open slots, sorted, each `duration` long. A daylight-saving change keeps the owner's wall-clock hours. */
export function openSlots(q: SlotQuery): Interval[] {
  const { settings, duration } = q;
  const step = slotStep(settings.durations);
  const lo = Math.max(Date.parse(q.range.start), q.earliest);
  const hi = Date.parse(q.range.end);
  const busy = q.busy.map((b) => [Date.parse(b.start), Date.parse(b.end)] as const).sort((a, b) => a[0] - b[0]);
  const out = new Map<number, Interval>();
  // Local dates from a day before the range (a zone ahead of UTC) to a day after it.
  for (let dayMs = Date.UTC(new Date(lo).getUTCFullYear(), new Date(lo).getUTCMonth(), new Date(lo).getUTCDate() - 1); dayMs <= hi + 86_400_000; dayMs += 86_400_000) {
    const date = new Date(dayMs);
    const [y, mo, d, dow] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCDay()];
    for (const h of settings.hours) {
      if (h.day !== dow) continue;
      const open = minutesOf(h.start)!;
      const close = minutesOf(h.end)!;
      for (let t = open; t + duration <= close; t += step) {
        const s = zonedToUtc(y, mo, d, Math.floor(t / 60), t % 60, settings.timezone);
        const e = s + duration * 60_000;
        if (s < lo || s >= hi || out.has(s)) continue;
        if (busy.some(([bs, be]) => bs < e && be > s)) continue;
        out.set(s, { start: new Date(s).toISOString(), end: new Date(e).toISOString() });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.start.localeCompare(b.start));
}
