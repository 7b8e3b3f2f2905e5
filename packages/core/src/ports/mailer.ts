/** One email message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Overrides the instance's default sender. */
  from?: string;
  /**
   * The sender's display name over the instance's own sender address (an email step's sender name,
   * docs/logic.md); ignored when `from` is given.
   */
  fromName?: string;
  /** Where replies go (the `Reply-To` header), e.g. a form owner's address on a respondent's receipt. */
  replyTo?: string;
  /**
   * An iCalendar invitation (RFC 5546 `METHOD:REQUEST` or `CANCEL`), sent as the message's text/calendar part so
   * mail clients offer to add it (booking questions, docs/booking.md).
   */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** Sends email (invitations, signing requests, codes). */
export interface Mailer {
  /**
   * Sends the message. Resolves once the transport accepted it (an SMTP server answered 250, or the file
   * was written); rejects on any failure, so that a durable caller can retry later.
   */
  send(message: MailMessage): Promise<{ id: string }>;
}
