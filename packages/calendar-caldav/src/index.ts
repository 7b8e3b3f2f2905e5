// The CalDAV adapter of the calendar port (docs/booking.md).
export {};
