import type { FormloomConfig } from '../config';
import type { Logger } from '../logger';
import type { Formloom } from '../instance';
import type { AudioEncoding } from '../ports/audio-encoding';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Mailer } from '../ports/mailer';
import type { Payments } from '../ports/payments';
import type { Calendars } from '../ports/calendar';
import type { Telephony } from '../ports/telephony';
import type { Translator } from '../ports/translator';
import type { Plans } from '../ports/plans';
import type { SignedDocumentRenderer } from '../ports/signed-documents';
import type { SpeechEngine } from '../ports/speech-engine';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { FormloomEvents } from '../events';

// What plugins are given (docs/plugins.md): the ports, the adapter factories' context and a plugin's context.
// Apart from plugin.ts so that the integration types (a plugin's contribution that plugin.ts names) can use
// the context without an import cycle.

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

/** A class the instance builds with its own injector (the built-in services; see docs/plugins.md). */
export type ServiceClass<T = object> = new (...args: any[]) => T;
