import type { FormloomConfig } from '../config';
import type { Logger } from '../logger';
import type { FormloomEventMap, FormloomEvents, TransactionalEventName } from '../events';
import type { Formloom } from '../instance';
import type { AudioEncoding } from '../ports/audio-encoding';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Mailer } from '../ports/mailer';
import type { OutboxHandler } from '../ports/outbox-handler';
import type { Payments } from '../ports/payments';
import type { Calendars } from '../ports/calendar';
import type { Telephony } from '../ports/telephony';
import type { Translator } from '../ports/translator';
import type { Plans } from '../ports/plans';
import type { SignedDocumentRenderer } from '../ports/signed-documents';
import type { SpeechEngine } from '../ports/speech-engine';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { PluginRoute } from './routes';
import type { KeyScope } from '../domain/types';
import type { IntegrationType } from '../integrations/integration-types';

/** The ports a plugin may provide an adapter for (at most one plugin, or the host's options, per port). */
export interface PortAdapters {
  mailer: Mailer;
  blobStore: BlobStore;
  payments: Payments;
  plans: Plans;
  webhookTransport: WebhookTransport;
  clock: Clock;
  ids: IdGenerator;
  /** Renders, seals and verifies signed-contract PDFs (`@formloom/pdf`). */
  signedDocuments: SignedDocumentRenderer;
  /** PCM to mp3 / wav / ogg_opus / mulaw_8k / pcm_24k for the voice API (`@formloom/audio`). */
  audio: AudioEncoding;
  /** Owners' calendars for booking questions (`@formloom/calendar-caldav`). */
  calendars: Calendars;
  /** Calls that play audio and read the keypad (booking confirmation calls; `@formloom/telephony-twilio`). */
  telephony: Telephony;
  /** Translates forms' texts for `auto_translate` (`@formloom/translator-deepl`, `@formloom/translator-libretranslate`). */
  translator: Translator;
}
export type PortName = keyof PortAdapters;
export const PORT_NAMES: readonly PortName[] = ['mailer', 'blobStore', 'payments', 'plans', 'webhookTransport', 'clock', 'ids', 'signedDocuments', 'audio', 'calendars', 'telephony', 'translator'];

/** Every port of an instance, as plugins see them. */
export interface Ports extends PortAdapters {
  storage: Storage;
  /** Every speech engine of the instance (the host's and the plugins'), each with its own `id`. */
  speechEngines: readonly SpeechEngine[];
}

/** Where a plugin reports; each line is tagged with the plugin's name. */
export type PluginLogger = Logger;

/** What an adapter factory receives: storage, the instance settings and the plugin's own options. */
export interface AdapterContext<O> {
  storage: Storage;
  config: FormloomConfig;
  options: O;
}

/** An adapter, or a factory that builds it once the instance's storage and settings are known. */
export type AdapterSource<K extends PortName, O> = PortAdapters[K] | ((ctx: AdapterContext<O>) => PortAdapters[K]);

/**
 * What a plugin's handlers, listeners and routes receive: the ports, the event bus, a logger, the
 * plugin's own options, and a way to queue durable work. Nothing of another plugin is reachable.
 */
export interface PluginContext<O = unknown> {
  /** The plugin's name. */
  readonly name: string;
  readonly options: O;
  readonly ports: Ports;
  readonly events: FormloomEvents;
  readonly config: FormloomConfig;
  readonly logger: PluginLogger;
  /**
   * Queues an outbox item of `kind` (a kind one of this instance's plugins handles) and wakes the
   * worker. Pass `tx` to queue it inside a transaction, so it exists only if that transaction commits.
   */
  enqueue(kind: string, payload: Record<string, unknown>, tx?: Storage): Promise<void>;
  /** A service of the instance by class (e.g. `ctx.service(FormService)`); built once per instance. */
  service<T>(cls: ServiceClass<T>): T;
  /** The running instance (its public services); readable once `createFormloom` has returned. */
  readonly formloom: Formloom;
}

/** A listener per domain event, with the plugin's context; a rejected promise is logged, never thrown. */
export type EventListeners<O> = {
  [E in keyof FormloomEventMap]?: (payload: FormloomEventMap[E][0], ctx: PluginContext<O>) => void | Promise<void>;
};

/**
 * Listeners that run inside the transaction recording the event (before it commits), with its storage
 * `tx`: for work that must not be lost, queue it there with `ctx.enqueue(kind, payload, tx)`. A listener
 * that throws fails the change itself.
 */
export type TransactionalListeners<O> = {
  [E in TransactionalEventName]?: (payload: FormloomEventMap[E][0], tx: Storage, ctx: PluginContext<O>) => Promise<void | boolean>;
};

/** A class the instance builds with its own injector (the built-in services; see docs/plugins.md). */
export type ServiceClass<T = object> = new (...args: any[]) => T;

/**
 * A Formloom plugin: a plain value with a name and a version, and what it contributes. The built-in
 * capabilities (forms, responses, webhooks, teams, accounts, outbox) are plugins of this same interface.
 * See docs/plugins.md.
 */
export interface FormloomPlugin<O = any> {
  /** Unique within an instance (two plugins with one name are refused); lower-case, e.g. `notify`. */
  name: string;
  version: string;
  /** The plugin's own options, handed back in every context. */
  options?: O;
  /** Adapters for ports; an instance refuses two adapters for one port. */
  adapters?: { [K in PortName]?: AdapterSource<K, O> };
  /** Services the instance builds and exposes through `ctx.formloom` (built-in areas). */
  services?: readonly ServiceClass[];
  /** Speech engines (several may run side by side, each under its own `id`), built once per instance. */
  speechEngines?: (ctx: AdapterContext<O>) => SpeechEngine[];
  /** Outbox handlers, one per item kind, built once per instance. */
  outboxHandlers?: (ctx: PluginContext<O>) => OutboxHandler[];
  /** HTTP endpoints, served and documented like the built-in ones. */
  routes?: (ctx: PluginContext<O>) => PluginRoute<Formloom>[];
  /** Listeners for domain events (`response.submitted`, `form.published`, ...), after the change committed. */
  on?: EventListeners<O>;
  /** Listeners inside the transaction of the event (`response.submitted`): see TransactionalListeners. */
  inTransaction?: TransactionalListeners<O>;
  /**
   * Integrations owners configure per form (docs/integrations.md): each type's settings form and `deliver`;
   * Formloom stores, routes, queues, retries and logs them. Each `type` once per instance.
   */
  integrations?: readonly IntegrationType<O>[];
}

/** Declares a plugin with its option type inferred (an identity function: a plugin stays a plain value). */
export const definePlugin = <O>(plugin: FormloomPlugin<O>): FormloomPlugin<O> => plugin;

/**
 * Declares one plugin route with its handler's `req.body`, `req.query` and `req.principal` typed from what
 * the route declares: the output types of its `body` and `query` schemas, and a principal that is `null`
 * exactly on public routes (docs/plugins.md, "Typed routes"). An identity function, like `definePlugin`.
 */
export function defineRoute<B = unknown, Q = Record<string, unknown>, S extends KeyScope | 'public' = KeyScope | 'public', F = Formloom>(
  route: PluginRoute<F, B, Q, S>,
): PluginRoute<F> {
  return route as unknown as PluginRoute<F>;
}
