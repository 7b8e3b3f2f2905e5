/*
 * Booking questions (docs/booking.md), one process for all its parts: each part in booking/ declares its tests when
 * it is imported and keeps its own apps and local services (Radicale, FakeTwilio, FakeStripe); they share the
 * process and its loaded modules (docs/testing.md, "What it costs").
 */
import './booking/bookings';
import './booking/calls';
import './booking/calls-instances';
import './booking/race';
import './booking/deposit-embed';
