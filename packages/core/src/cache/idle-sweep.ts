/**
 * How long a kept value may go unused before it goes: between one and two periods (docs/decisions.md, "Caches
 * checked against a revision"). Long enough that a form read every few seconds is never read again for it; short
 * enough that what a burst of traffic filled goes back to the system soon after the traffic stops.
 */
export const IDLE_PERIOD_MS = 60_000;

/** A cache the sweep empties of what went unused: `sweep` drops what was last used before `tick`, and says how much is left. */
export interface Sweepable {
  sweep(tick: number): number;
}

/**
 * The clock of idle values, shared by an instance's caches: each use stamps a value with `tick`, and every
 * `periodMs` the sweep advances it and drops what was not used during the whole period before. The timer runs only
 * while something is kept (it is armed by a store and stops once the caches are empty), and never keeps the process
 * alive, so an instance nobody closes leaves nothing running for long.
 */
export class IdleSweep {
  /** The period in progress: what a use stamps. */
  tick = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly caches: Sweepable[] = [];

  constructor(private readonly periodMs = IDLE_PERIOD_MS) {}

  /** Adds a cache to those swept. */
  track(cache: Sweepable): void {
    this.caches.push(cache);
  }

  /** A value was stored: the sweep runs while any is kept. */
  stored(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.sweep(), this.periodMs);
    this.timer.unref?.();
  }

  /** Ends the period: drops what went unused through the one before, and arms again while anything is kept. */
  sweep(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.tick++;
    let left = 0;
    for (const cache of this.caches) left += cache.sweep(this.tick - 1);
    if (left > 0) this.stored();
  }
}
