/** The time source, so tests can control it. */
export interface Clock {
  /** The current time. */
  now(): Date;
}
