/** The outbox kind that places a booking's confirmation call (docs/booking.md, "Confirmation calls"). */
export const BOOKING_CALL_JOB = 'booking.call';

/**
 * The public URLs of a booking's call, under the API's absolute base: the prompt's audio (an unguessable token)
 * and the provider's keypad and status callbacks (signed by the provider, checked against this exact URL).
 */
export function callPaths(base: string, bookingId: string) {
  const b = `${base}/public/booking-calls`;
  return {
    audio: (token: string) => `${b}/audio/${encodeURIComponent(token)}`,
    keypad: `${b}/${encodeURIComponent(bookingId)}/keypad`,
    status: `${b}/${encodeURIComponent(bookingId)}/status`,
  };
}
