import type { Clock } from './ports/clock';

/** The system clock, the default `Clock` port. */
export const systemClock = (): Clock => ({ now: () => new Date() });
