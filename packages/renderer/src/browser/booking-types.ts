// The booking question's exchanges with the server (docs/booking.md, "On the page"): what the page asks and
// what it is answered. Apart from questions/booking.ts so that types.ts (the controls' context) can name them
// without the two importing each other.

/** What the slot picker asks for: a duration's open times between two instants (UTC). */
export interface SlotQuery {
  duration: number;
  from: string;
  to: string;
}

/** The open times answered, with the durations offered and the calendar's zone. */
export interface OpenSlots {
  duration: number;
  durations: number[];
  timezone: string;
  slots: Array<{ start: string; end: string }>;
}

/** A held time: its `{id, start, end, timezone}` is the booking question's answer until `held_until`. */
export interface SlotHold {
  id: string;
  start: string;
  end: string;
  timezone: string;
  held_until: string;
}

/** What the page asks the server for (the element's PublicApi, bound to the form). */
export interface BookingApi {
  slots(questionId: string, query: SlotQuery): Promise<OpenSlots>;
  hold(questionId: string, body: { start: string; duration: number; timezone: string }): Promise<SlotHold>;
}
