/** Injection tokens: adapters register by these in the instance's child container. */
export const TOKENS = {
  Storage: Symbol.for('formloom.Storage'),
  Clock: Symbol.for('formloom.Clock'),
  IdGenerator: Symbol.for('formloom.IdGenerator'),
  Plans: Symbol.for('formloom.Plans'),
  Payments: Symbol.for('formloom.Payments'),
  Events: Symbol.for('formloom.Events'),
  Config: Symbol.for('formloom.Config'),
  SecretBox: Symbol.for('formloom.SecretBox'),
  /** The instance's logger (`createFormloom({ logger })`). */
  Logger: Symbol.for('formloom.Logger'),
  Mailer: Symbol.for('formloom.Mailer'),
  /** Owners' calendars (booking questions). */
  Calendars: Symbol.for('formloom.Calendars'),
  /** Calls for booking confirmations. */
  Telephony: Symbol.for('formloom.Telephony'),
  Translator: Symbol.for('formloom.Translator'),
  BlobStore: Symbol.for('formloom.BlobStore'),
  WebhookTransport: Symbol.for('formloom.WebhookTransport'),
  SignedDocuments: Symbol.for('formloom.SignedDocuments'),
  /** The audio-encoding port (voice API). */
  Audio: Symbol.for('formloom.Audio'),
  /** The instance's speech engines (one array). */
  SpeechEngines: Symbol.for('formloom.SpeechEngines'),
  /** Every registered `OutboxHandler` (multi-registration). */
  OutboxHandler: Symbol.for('formloom.OutboxHandler'),
} as const;
