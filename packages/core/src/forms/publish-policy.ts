import type { FormRecord, PublishBlock, Question } from '../domain/types';
import type { PlanFeatures } from '../ports/plans';
import { recallBlock } from './recall-checks';
import { phoneQuestionOf } from '../booking/call-prompts';

export type { PublishBlock };


/** What the policy needs to know of another form a question points to. */
export interface LinkedForm {
  published: boolean;
  question_count: number;
  /** Whether it is the same account's (owner, or team): a Fuse form of another account is not found. Absent: yes. */
  same_account?: boolean;
  /** Whether `versionId` is one of its published versions (a Fuse question's pinned session). Absent: none is. */
  hasVersion?(versionId: string): Promise<boolean>;
}

export interface PublishContext {
  form: Pick<FormRecord, 'options'>;
  questions: Question[];
  /** Features of the form owner's plan (the team owner's for team forms). */
  features: PlanFeatures;
  /** Resolves a form referenced by a Fuse or composite question; `null` when it does not exist. */
  lookupForm(id: string): Promise<LinkedForm | null>;
  /**
   * Resolves a composite's component (forms/composite-components.ts): `null` when it does not exist for this form
   * (deleted, or another account's); `unsupported` when it holds kinds a component may not. Absent: `lookupForm`.
   */
  lookupComponent?(id: string): Promise<(LinkedForm & { unsupported?: boolean }) | null>;
  /** Whether the form owner has a calendar connected (docs/booking.md); absent: none. */
  calendarConnected?: boolean;
  /** Whether the instance can place calls (a telephony adapter and FORMLOOM_TWILIO_FROM: docs/booking.md); absent: no. */
  telephonyConfigured?: boolean;
  /** Whether the instance has a payment processor (docs/payments.md); absent: none. */
  paymentsConfigured?: boolean;
  /** Whether the plan holder's own account (Connect) can take payments; absent: it cannot. */
  connectAccountReady?: boolean;
}

const ids = (qs: Question[]) => qs.map((q) => q.id);
const prop = (q: Question, name: string) => q.properties[name];
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

function planChecks(ctx: PublishContext): PublishBlock | null {
  const { questions, features, form } = ctx;
  const byType = (t: string) => questions.filter((q) => q.type === t);
  const gated: Array<[boolean, Question[], string, string]> = [
    [features.contracts, byType('contract'), 'contract_requires_pro', 'E-signature contracts need the Pro plan or higher'],
    [features.booking, byType('booking'), 'booking_requires_pro', 'Booking questions need the Pro plan or higher'],
    [features.data_nodes, byType('data'), 'data_node_requires_pro', 'Data nodes need the Pro plan or higher'],
    [
      features.payment_connect,
      byType('payment').filter((q) => prop(q, 'provider') === 'connect'),
      'payment_connect_requires_pro',
      "Payments into the owner's own account need the Pro plan or higher; use the standard payment option",
    ],
  ];
  for (const [allowed, offending, reason, message] of gated) {
    if (!allowed && offending.length) return { reason, message, question_ids: ids(offending), upgrade_required: true };
  }
  if (!features.webhooks && !blank(form.options.webhook_url)) {
    return {
      reason: 'webhook_requires_pro',
      message: 'Form webhooks need the Pro plan or higher; clear webhook_url or upgrade',
      question_ids: [],
      upgrade_required: true,
    };
  }
  return null;
}

/** The owner's calendar connection is the server's to know: the `calendar_connected` property is not read. */
const bookingReadiness = (ctx: PublishContext) => (q: Question): string | null => {
  if (ctx.calendarConnected !== true) return 'booking_calendar_not_connected';
  if (blank(prop(q, 'hours'))) return 'booking_hours_missing';
  if (blank(prop(q, 'timezone'))) return 'booking_timezone_missing';
  if (blank(prop(q, 'durations'))) return 'booking_duration_missing';
  // The number is missing when the server has none to call from (telephony not configured: never a silent
  // skip) or the question names no contact-info question with a phone field to call.
  if (prop(q, 'confirmation_call') === true && (ctx.telephonyConfigured !== true || !phoneQuestionOf(q, ctx.questions))) {
    return 'booking_confirmation_number_missing';
  }
  return null;
};

function emailReadiness(q: Question): string | null {
  for (const f of ['recipient', 'sender_name', 'subject', 'body'] as const) {
    if (blank(prop(q, f))) return `email_node_missing_${f}`;
  }
  // Forms have no respondent login, so a respondent's address is never verified.
  if (String(prop(q, 'recipient')).includes('{respondent.email}')) return 'email_node_requires_login';
  return null;
}

/** A payment question: a processor configured, an amount (fixed or a variable), a currency, the owner's account for Connect. */
const paymentReadiness = (ctx: PublishContext) => (q: Question): string | null => {
  if (ctx.paymentsConfigured !== true) return 'payment_not_configured';
  if (blank(prop(q, 'amount')) && blank(prop(q, 'amount_variable'))) return 'payment_amount_missing';
  if (blank(prop(q, 'currency'))) return 'payment_currency_missing';
  if (prop(q, 'provider') === 'connect' && ctx.connectAccountReady !== true) return 'payment_account_not_connected';
  return null;
};

const READINESS_MESSAGES: Record<string, string> = {
  payment_not_configured: 'Payments are not configured on this server: a payment question cannot be published (docs/payments.md)',
  payment_amount_missing: 'A payment question has neither an amount nor a variable to take it from',
  payment_currency_missing: 'A payment question has no currency',
  payment_account_not_connected: "A payment question pays into your own account, which is not connected yet (finish Stripe's onboarding)",
  booking_calendar_not_connected: 'A booking question has no connected calendar',
  booking_hours_missing: 'A booking question has no available hours',
  booking_timezone_missing: 'A booking question has no timezone',
  booking_duration_missing: 'A booking question has no duration options',
  booking_confirmation_number_missing:
    'A booking question asks for a confirmation call but has no number: name a contact-info question with a phone field (confirmation_call_question), on a server with telephony configured (FORMLOOM_TWILIO_*, docs/booking.md)',
  email_node_missing_recipient: 'An email step has no recipient',
  email_node_missing_sender_name: 'An email step has no sender name',
  email_node_missing_subject: 'An email step has no subject',
  email_node_missing_body: 'An email step has no body',
  email_node_requires_login: 'An email step sends to {respondent.email}, which needs a form that requires login',
  fuse_form_missing: 'A Fuse question has no Fuse form',
  fuse_form_not_found: "A Fuse question's form does not exist",
  fuse_form_unpublished: "A Fuse question's form is not published",
  fuse_session_archived: "A Fuse question's pinned session (session_id) is not a version of its Fuse form any more",
};

/** docs/logic.md "Fuse": the Fuse form is the same account's and published; a pinned session is one of its versions. */
const fuseReadiness = (ctx: PublishContext) => async (q: Question): Promise<string | null> => {
  const target = prop(q, 'fuse_form_id');
  if (blank(target)) return 'fuse_form_missing';
  const linked = await ctx.lookupForm(String(target));
  if (!linked || linked.same_account === false) return 'fuse_form_not_found';
  if (!linked.published) return 'fuse_form_unpublished';
  const session = prop(q, 'session_id');
  if (!blank(session) && !(await linked.hasVersion?.(String(session)))) return 'fuse_session_archived';
  return null;
};

async function readinessChecks(ctx: PublishContext): Promise<PublishBlock | null> {
  const checks: Array<[string, (q: Question) => string | null | Promise<string | null>]> = [
    ['booking', bookingReadiness(ctx)],
    ['payment', paymentReadiness(ctx)],
    ['email_step', emailReadiness],
    ['fuse', fuseReadiness(ctx)],
  ];
  for (const [type, check] of checks) {
    for (const q of ctx.questions.filter((x) => x.type === type)) {
      const reason = await check(q);
      if (reason) {
        const failing: Question[] = [];
        for (const other of ctx.questions.filter((x) => x.type === type)) {
          if ((await check(other)) === reason) failing.push(other);
        }
        return { reason, message: READINESS_MESSAGES[reason]!, question_ids: ids(failing), upgrade_required: false };
      }
    }
  }
  return compositeChecks(ctx);
}

async function compositeChecks(ctx: PublishContext): Promise<PublishBlock | null> {
  const found: Record<string, { ids: Set<string>; questions: Set<string> }> = {};
  for (const q of ctx.questions.filter((x) => x.type === 'composite')) {
    const list = (prop(q, 'composite_ids') as string[] | undefined) ?? [];
    for (const id of list) {
      const linked = ctx.lookupComponent ? await ctx.lookupComponent(id) : await ctx.lookupForm(id);
      const reason = !linked
        ? 'composite_deleted'
        : !linked.published
          ? 'composite_unpublished'
          : linked.question_count === 0
            ? 'composite_empty'
            : 'unsupported' in linked && linked.unsupported
              ? 'composite_unsupported'
              : null;
      if (!reason) continue;
      const entry = (found[reason] ??= { ids: new Set(), questions: new Set() });
      entry.ids.add(id);
      entry.questions.add(q.id);
    }
  }
  for (const reason of ['composite_deleted', 'composite_unpublished', 'composite_empty', 'composite_unsupported']) {
    const entry = found[reason];
    if (!entry) continue;
    const what = reason.replace('composite_', '');
    return {
      reason,
      message:
        reason === 'composite_unsupported'
          ? 'A form used by the composite has questions a composite cannot hold (payment, booking, email step, data, Fuse, composite, contract, file upload)'
          : `A composite used by the form is ${what}`,
      question_ids: [...entry.questions],
      upgrade_required: false,
      composite_ids: [...entry.ids],
    };
  }
  return null;
}

/**
 * The plan, readiness and recall checks of docs/decisions.md ("Publishing", "Recall"); (a), who may publish, is
 * the access policy's.
 */
export async function checkPublishable(ctx: PublishContext): Promise<PublishBlock | null> {
  return planChecks(ctx) ?? (await readinessChecks(ctx)) ?? recallBlock(ctx.form.options, ctx.questions);
}
