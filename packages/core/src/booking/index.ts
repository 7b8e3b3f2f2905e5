import { z } from 'zod';
import type { Question } from '../domain/types';
import { definePlugin, defineRoute } from '../plugins/plugin';
import { SubmissionService } from '../responses/submission-service';
import { CORE_VERSION } from '../version';
import { BookingMails } from './booking-mails';
import { BookingManage, bookingOut, cancelSchema, manageQuerySchema, manageSlotsQuerySchema, rescheduledOut, rescheduleSchema } from './booking-manage';
import { BookingService, holdOut, holdSchema, slotQuerySchema, slotsOut } from './booking-service';
import { CalendarConnections, calendarConnectionBody, calendarConnectionSchema, calendarTestOut } from './calendar-connections';
import { BookingCalendarSync } from './calendar-sync';
import { ConfirmationCalls } from './confirmation-calls';
import { CallCallbacks } from './call-callbacks';
import { CallOutcomeWebhooks } from './call-webhooks';
import { BookingTrails, bookingsOut } from './booking-trails';
import { authorizeForm } from '../forms/form-access';
import { CALLS_COVERED_AT_PUBLISH, formCallCredits } from './call-credits';

export * from './zoned-time';
export * from './slots';
export * from './calendar-connections';
export * from './booking-service';
export * from './booking-manage';
export * from './booking-mails';
export * from './calendar-sync';
export * from './call-prompts';
export * from './call-paths';
export * from './confirmation-calls';
export * from './call-callbacks';
export * from './booking-trails';
export * from './call-credits';
export * from './call-webhooks';

const TAGS = ['Booking'];

const callQuoteOut = z.object({
  data: z.object({
    credits_per_call: z.number().int(),
    calls_covered_at_publish: z.number().int(),
    balance: z.number().int().describe("The form owner's voice credits"),
    enough: z.boolean(),
    configured: z.boolean().describe('Whether this server can place calls (Twilio configured)'),
  }),
});

/**
 * Booking questions (docs/booking.md): owners connect their calendar; respondents pick an open slot, hold it while
 * they finish, and it is booked with their response (the event written to the calendar through the outbox, the
 * invitation mailed to both); the mails' links cancel or move it.
 */
export const bookingArea = definePlugin({
  name: 'booking',
  version: CORE_VERSION,
  services: [CalendarConnections, BookingService, BookingManage, BookingMails, BookingCalendarSync, ConfirmationCalls, CallCallbacks, BookingTrails, CallOutcomeWebhooks],
  outboxHandlers: (ctx) => [ctx.service(BookingCalendarSync), ctx.service(ConfirmationCalls), ctx.service(CallOutcomeWebhooks)],
  inTransaction: {
    'response.submitted': async ({ form_id, response_id }, tx, ctx) => {
      const held = ctx.service(SubmissionService).committingIn(tx, response_id);
      const form = held?.form ?? (await tx.forms.findById(form_id));
      const response = held?.response ?? (await tx.responses.findById(form_id, response_id));
      if (!form || !response) return false;
      const questions = held?.questions ?? (((response.version_id ? await tx.versions.findById(response.version_id) : null)?.snapshot.questions as never[] | undefined) ?? []);
      if (!questions.some((q: { type: string }) => q.type === 'booking')) return false;
      const mails = ctx.service(BookingMails);
      const calls = ctx.service(ConfirmationCalls);
      return ctx.service(BookingService).confirmIn(tx, form, response.id, questions, response.answers, async (b, token) => {
        await mails.queue(tx, b, token, 'confirmed');
        const q = (questions as Question[]).find((x) => x.id === b.question_id);
        if (q) await calls.queue(tx, b, q, questions as Question[], response.answers);
      });
    },
  },
  routes: (ctx) => [
    defineRoute({
      method: 'get', path: '/calendar/connection', scope: 'forms', operationId: 'getCalendarConnection', tags: TAGS,
      summary: "The caller's calendar connection for booking questions (never the password), whether this server can connect calendars, and whether the caller's plan includes booking",
      success: { status: 200, description: '{data: {available, connected, booking_allowed, url, username, calendar_url, calendar_name, updated_at}}', schema: calendarConnectionBody }, errors: [401],
      handler: async (req) => ({ body: await ctx.service(CalendarConnections).status(req.principal) }),
    }),
    defineRoute({
      method: 'put', path: '/calendar/connection', scope: 'forms', operationId: 'connectCalendar', tags: TAGS,
      summary:
        "Connects the caller's CalDAV calendar (URL of the server, principal or calendar; user name; password, sealed at rest and never returned): tested first and stored only when it answers. 400 with reason calendar_unauthorized, calendar_unreachable, calendar_not_found or calendar_refused; 403 booking_requires_pro; 409 calendar_not_configured when the server has no calendar adapter",
      body: calendarConnectionSchema,
      success: { status: 200, description: 'The connection', schema: calendarConnectionBody }, errors: [400, 401, 403, 409],
      handler: async (req) => ({ body: await ctx.service(CalendarConnections).connect(req.principal, req.body) }),
    }),
    defineRoute({
      method: 'post', path: '/calendar/connection/test', scope: 'forms', operationId: 'testCalendarConnection', tags: TAGS,
      summary: 'Tests the stored connection ("Test connection"): signs in and finds the calendar. 400 with the reason as for PUT; 404 when none is connected',
      success: { status: 200, description: '{ok: true, calendar_url, calendar_name}', schema: calendarTestOut }, errors: [400, 401, 404, 409],
      handler: async (req) => ({ body: await ctx.service(CalendarConnections).test(req.principal) }),
    }),
    defineRoute({
      method: 'delete', path: '/calendar/connection', scope: 'forms', operationId: 'disconnectCalendar', tags: TAGS,
      summary: "Forgets the caller's calendar connection; booking questions of their forms are then not ready (booking_calendar_not_connected) at the next publish",
      success: { status: 200, description: '{success: true}', schema: z.object({ success: z.literal(true) }) }, errors: [401, 404],
      handler: async (req) => {
        await ctx.service(CalendarConnections).disconnect(req.principal);
        return { body: { success: true as const } };
      },
    }),
    defineRoute({
      method: 'get', path: '/public/forms/:slug/bookings/slots', scope: 'public', operationId: 'listBookingSlots', tags: TAGS,
      summary:
        "The open slots of a booking question of the published form: the owner's hours in their time zone minus the owner's calendar and the bookings taken, each `duration` minutes (default the first offered), starting in [from, to) (default the next 7 days; at most 35 days). Times are UTC; the page shows them in the respondent's zone. 409 calendar_unavailable while the owner's calendar cannot be read",
      query: slotQuerySchema,
      success: { status: 200, description: 'The slots', schema: slotsOut }, errors: [400, 404, 409],
      handler: async (req) => ({ body: await ctx.service(BookingService).slots(String(req.params.slug), req.query) }),
    }),
    defineRoute({
      method: 'post', path: '/public/forms/:slug/bookings/holds', scope: 'public', operationId: 'holdBookingSlot', tags: TAGS,
      summary:
        "Holds an open slot while the respondent finishes (a few minutes: held_until). Send {id, start, end, timezone} back as the booking question's answer; the slot is booked when the response is completed. 409 slot_unavailable when it was taken meanwhile or is not open",
      body: holdSchema,
      success: { status: 201, description: 'The held slot', schema: holdOut }, errors: [400, 404, 409],
      handler: async (req) => ({ status: 201, body: await ctx.service(BookingService).hold(String(req.params.slug), req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/public/bookings/:id', scope: 'public', operationId: 'getBooking', tags: TAGS,
      summary: "A booking as its mails' link shows it (token from the link); 404 for a wrong token",
      query: manageQuerySchema,
      success: { status: 200, description: 'The booking', schema: bookingOut }, errors: [400, 404],
      handler: async (req) => ({ body: await ctx.service(BookingManage).view(String(req.params.id), req.query) }),
    }),
    defineRoute({
      method: 'get', path: '/public/bookings/:id/slots', scope: 'public', operationId: 'listRescheduleSlots', tags: TAGS,
      summary: "The open slots a booking can move to (its own duration), as for the form's slots; token from the mails' link",
      query: manageSlotsQuerySchema,
      success: { status: 200, description: 'The slots', schema: slotsOut }, errors: [400, 404, 409],
      handler: async (req) => ({ body: await ctx.service(BookingManage).slots(String(req.params.id), req.query) }),
    }),
    defineRoute({
      method: 'post', path: '/public/bookings/:id/cancel', scope: 'public', operationId: 'cancelBooking', tags: TAGS,
      summary: "Cancels a booking (the mails' cancel link): the slot is free again, the event leaves the owner's calendar, both are mailed a cancellation. 409 booking_not_cancellable once cancelled or begun",
      body: cancelSchema,
      success: { status: 200, description: 'The cancelled booking', schema: bookingOut }, errors: [400, 404, 409],
      handler: async (req) => ({ body: await ctx.service(BookingManage).cancel(String(req.params.id), req.body) }),
    }),
    defineRoute({
      method: 'post', path: '/public/bookings/:id/reschedule', scope: 'public', operationId: 'rescheduleBooking', tags: TAGS,
      summary:
        "Moves a booking to another open slot (the mails' reschedule link): a new booking (new id and link token, mailed) replaces the old, the calendar event moves. 409 slot_unavailable or booking_not_reschedulable",
      body: rescheduleSchema,
      success: { status: 200, description: 'The new booking', schema: rescheduledOut }, errors: [400, 404, 409],
      handler: async (req) => ({ body: await ctx.service(BookingManage).reschedule(String(req.params.id), req.body) }),
    }),
    defineRoute({
      method: 'get', path: '/forms/:id/responses/:responseId/bookings', scope: 'forms', operationId: 'listResponseBookings', tags: TAGS,
      summary: "A response's bookings with their state, the confirmation call's outcome (confirmed, cancelled by keypad, no answer, failed) and each booking's audit trail",
      success: { status: 200, description: '{bookings}', schema: bookingsOut }, errors: [401, 403, 404],
      handler: async (req) => {
        await authorizeForm(ctx.ports.storage, req.principal, String(req.params.id), 'read');
        return { body: await ctx.service(BookingTrails).forResponse(String(req.params.id), String(req.params.responseId)) };
      },
    }),
    defineRoute({
      method: 'get', path: '/forms/:id/bookings/call-quote', scope: 'forms', operationId: 'quoteBookingCall', tags: TAGS,
      summary:
        "What one confirmation call of the form's booking questions costs in voice credits (its prompt, in the form's language), the owner's balance, whether it covers the calls publishing checks (one), and whether this server can place calls",
      success: { status: 200, description: '{data: {credits_per_call, calls_covered_at_publish, balance, enough, configured}}', schema: callQuoteOut }, errors: [401, 403, 404],
      handler: async (req) => {
        await authorizeForm(ctx.ports.storage, req.principal, String(req.params.id), 'read');
        const form = (await ctx.ports.storage.forms.findById(String(req.params.id)))!;
        const per = formCallCredits(form);
        const balance = await ctx.ports.storage.credits.balance(form.owner_id);
        const configured = ctx.service(ConfirmationCalls).configured;
        return { body: { data: { credits_per_call: per, calls_covered_at_publish: CALLS_COVERED_AT_PUBLISH, balance, enough: balance >= per * CALLS_COVERED_AT_PUBLISH, configured } } };
      },
    }),
    defineRoute({
      method: 'get', path: '/public/booking-calls/audio/:token', scope: 'public', operationId: 'getBookingCallAudio', tags: TAGS,
      summary:
        "The spoken prompt of a booking's confirmation call (WAV, 8 kHz), fetched by the telephony provider: the token is unguessable and works for 30 minutes from the call; 404 otherwise",
      success: { status: 200, description: 'The audio', media: ['audio/wav'] }, errors: [404],
      handler: async (req) => ctx.service(CallCallbacks).audio(String(req.params.token)),
    }),
    defineRoute({
      method: 'post', path: '/public/booking-calls/:id/keypad', scope: 'public', operationId: 'receiveBookingCallKeypad', tags: TAGS,
      summary:
        "The telephony provider's keypad callback (Twilio's Gather action) of a booking's confirmation call: 1 confirms, 2 cancels the booking as its cancel link does. Verified against X-Twilio-Signature over this exact URL (403 invalid_signature otherwise); a repeat changes nothing. Answers TwiML that hangs up",
      rawBody: true,
      accepts: { 'application/x-www-form-urlencoded': z.object({ CallSid: z.string(), Digits: z.string().optional() }).passthrough() },
      headers: [{ name: 'X-Twilio-Signature', description: "The provider's signature over the URL and the posted fields", required: true }],
      success: { status: 200, description: 'TwiML', media: ['text/xml'] }, errors: [403, 404, 409],
      handler: async (req) => ctx.service(CallCallbacks).keypad(String(req.params.id), req.rawBody, req.headers['x-twilio-signature']),
    }),
    defineRoute({
      method: 'post', path: '/public/booking-calls/:id/status', scope: 'public', operationId: 'receiveBookingCallStatus', tags: TAGS,
      summary:
        "The telephony provider's status callback of a booking's confirmation call: a final status without a decisive digit records the outcome (no answer, failed). Verified against X-Twilio-Signature (403 invalid_signature otherwise); a repeat changes nothing",
      rawBody: true,
      accepts: { 'application/x-www-form-urlencoded': z.object({ CallSid: z.string(), CallStatus: z.string() }).passthrough() },
      headers: [{ name: 'X-Twilio-Signature', description: "The provider's signature over the URL and the posted fields", required: true }],
      success: { status: 200, description: '{received: true}', schema: z.object({ received: z.literal(true) }) }, errors: [403, 404, 409],
      handler: async (req) => ctx.service(CallCallbacks).status(String(req.params.id), req.rawBody, req.headers['x-twilio-signature']),
    }),
  ],
});
