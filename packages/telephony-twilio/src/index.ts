// The Twilio adapter of the telephony port (docs/booking.md, "Confirmation calls").
export {};
