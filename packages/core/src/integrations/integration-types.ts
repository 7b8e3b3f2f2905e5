import type { PluginContext } from '../plugins/plugin-context';
import type { IntegrationDeliveryEvent } from '../ports/storage/integrations';

/*
 * What a plugin writes to add an integration (docs/integrations.md, "Writing an integration"): a type with
 * a title, the fields of its settings form, and `deliver`. Formloom does the rest: storage (secrets sealed),
 * the API and the workspace's Integrations tab, field mapping, the outbox with retries, the delivery log,
 * "Send test", and the private-address guard of every request sent through `ctx.http`.
 */

/** One field of an integration's settings form, rendered by the workspace for any plugin. */
export interface IntegrationField {
  /** The key in `config` (lower case, digits, `_`). */
  key: string;
  /** The label in plain words ("Webhook URL"). */
  label: string;
  /** `text` (one line), `textarea`, `url` (http or https), `select` (one of `options`), `checkbox` (true/false). */
  type: 'text' | 'textarea' | 'url' | 'select' | 'checkbox';
  /**
   * Write-only: stored sealed with the instance's secret key, never answered by the API (it says only that
   * the value is set), and kept when an update leaves it out or empty.
   */
  secret?: boolean;
  required?: boolean;
  /** A sentence under the field, in plain words: where to find the value, what it does. */
  help?: string;
  placeholder?: string;
  /** The choices of a `select`. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** The value a new integration starts with. */
  default?: string | boolean;
  /** At most this many characters (default 2000; 20000 for a `textarea`). */
  maxLength?: number;
}

/** A setting's value: text for every type but `checkbox`. */
export type IntegrationConfig = Record<string, string | boolean>;

/** One answer as an integration receives it: under its mapped name, raw and in words. */
export interface IntegrationAnswer {
  question_id: string;
  /** The name the owner chose (default: the question's title), unique within a delivery. */
  name: string;
  /** The question's title. */
  title: string;
  /** The question type (`short_text`, `multiple_choice`, `file_upload`...). */
  type: string;
  /** The answer as stored (a file answer's `url` is a signed link); null when unanswered. */
  value: unknown;
  /** The answer as the respondent saw it ("Yes", a choice's label, a file's name); '' when unanswered. */
  text: string;
  /** A signed link that opens an uploaded file without a key for 7 days (file answers only). */
  file_url?: string;
}

/**
 * The standard JSON shape of a delivery: what REST Hooks receivers get, what `sample` answers, and a ready
 * payload for any plugin that sends JSON as it is.
 */
export interface IntegrationPayload {
  event: IntegrationDeliveryEvent;
  delivery_id: string;
  form_id: string;
  form_title: string;
  response_id: string;
  submitted_at: string;
  completed_at: string | null;
  /** The mapped answers in words, by name: `{"Your name": "Ada", "City": "Berlin"}`. */
  answers: Record<string, string>;
  /** The mapped answers in full, in order. */
  fields: IntegrationAnswer[];
  /** The response's hidden fields, when it has some. */
  hidden?: Record<string, unknown>;
  /** The response in the owner's workspace (needs signing in). */
  response_url: string;
  /** True for "Send test" (made-up answers when the form has no response yet). */
  test?: boolean;
}

/** What `deliver` gets: one response (or a test) for one configured integration. */
export interface IntegrationDelivery {
  /** The delivery's id: the same on every retry, so a receiver that can de-duplicate may. */
  id: string;
  event: IntegrationDeliveryEvent;
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * True when an earlier attempt was started and its outcome never recorded: the instance was stopped
   * (kill -9, a crash, a lost machine) between sending and storing, so the service may already have this
   * delivery. Make the retry create nothing twice with the service's own means: a key it honours (the
   * delivery id), or a look-up before creating (docs/plugins.md, "Deliveries that may have been sent").
   * Also true, with nothing sent, for a delivery that was queued in memory when the instance stopped.
   */
  maybeDelivered: boolean;
  integration: { id: string; type: string; name: string; form_id: string };
  /** The settings that are not secret. */
  config: IntegrationConfig;
  /** The secret settings, opened for this delivery only: never log them. */
  secrets: Record<string, string>;
  form: { id: string; title: string };
  /** The mapped answers in order (the owner's choice of questions and names). */
  answers: IntegrationAnswer[];
  /** The same delivery in the standard JSON shape. */
  payload: IntegrationPayload;
}

/** A request sent through `ctx.http`. */
export interface OutgoingRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Default: the instance's webhook time-out (10 s). */
  timeoutMs?: number;
}

/** The receiver's answer: its status (a redirect is not followed), headers (lower-case names) and body as text. */
export interface OutgoingAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text, at most 1 MiB (the rest is read and dropped). */
  body: string;
}

/**
 * Outgoing HTTP for integrations, through the instance's webhook transport: private, loopback and
 * metadata addresses are refused (unless the operator allowed them, FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1),
 * checked on the address connected to; redirects are not followed. A refused destination rejects with a
 * `DestinationRefusedError` and the delivery fails at once; a network error or time-out rejects and is retried.
 */
export interface IntegrationHttp {
  request(req: OutgoingRequest): Promise<OutgoingAnswer>;
  /** POSTs `value` as JSON (`Content-Type: application/json`). */
  postJson(url: string, value: unknown, headers?: Record<string, string>): Promise<OutgoingAnswer>;
  /** A `fetch` with the same guard, for SDKs that take one (`new Client({ fetch: ctx.http.fetch })`). */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

/** The plugin's context plus `http`, the guarded outgoing HTTP. */
export interface IntegrationContext<O = unknown> extends PluginContext<O> {
  readonly http: IntegrationHttp;
}

/**
 * What one attempt came to. By default a 2xx is delivered; no status (the plugin sent nothing), 408, 429
 * and 5xx are retried on the outbox's schedule; anything else is final. A thrown error is retried, unless it
 * is a refused destination.
 */
export interface IntegrationResult {
  /** The receiver's HTTP status; null when there was none. */
  status: number | null;
  /** What the receiver answered (the log keeps its first 500 characters). */
  body?: string | null;
  /** Overrides whether this counts as delivered. */
  ok?: boolean;
  /** Overrides whether a failure is tried again. */
  retry?: boolean;
  /**
   * The receiver asked to wait this long (`Retry-After` of a 429 or 503): the next attempt comes no sooner,
   * nor sooner than the schedule says.
   */
  retryAfterMs?: number;
  /** Why it failed, in words, for the log (default: `HTTP <status>`). */
  error?: string;
  /**
   * This attempt may have made a second record after all (a `deduplicates` plugin that could not look:
   * the owner's table has no response id column): the log says so, as for a plugin that never checks.
   */
  mayRepeat?: boolean;
  /**
   * The receiver asked to hear no more (REST Hooks: 410 Gone): the integration is deleted, with its log.
   * Its other pending deliveries then fail.
   */
  remove?: boolean;
}

/** An integration a plugin provides: `integrations: [ { type: 'slack', ... } ]` in the plugin. */
export interface IntegrationType<O = any> {
  /** Unique in an instance, lower case (`slack`, `google-sheets`); stored on every integration of this type. */
  type: string;
  /** The service's name as owners know it ("Slack"). */
  title: string;
  /** One or two sentences in plain words: what it does with each response. */
  description: string;
  /** The settings form. */
  fields: readonly IntegrationField[];
  /** Whether owners choose the questions sent and their names (default true). */
  mapping?: boolean;
  /**
   * Whether owners add it from the Integrations tab (default true). False for integrations made through the
   * API by another service (REST Hooks subscriptions): the tab lists them, with their log, pause and delete.
   */
  addable?: boolean;
  /**
   * Checks a whole configuration beyond each field's own rules, when it is saved: a problem is a 400 naming
   * `field`. `secrets` are the values being saved (or kept).
   */
  check?(config: IntegrationConfig, secrets: Record<string, string>): { field: string; message: string } | null;
  /**
   * Where deliveries go, for the outbox's per-destination limit (at most 4 at once): e.g. the host of a
   * webhook URL. Default: the integration itself.
   */
  destination?(config: IntegrationConfig, secrets: Record<string, string>): string | null;
  /**
   * True when `deliver` never creates a second record or message for one delivery, even when
   * `maybeDelivered` (it sends a key the service honours, or looks before creating). Otherwise a delivery
   * sent again after a restart is shown in the log as one that may appear twice.
   */
  deduplicates?: boolean;
  /** Sends one delivery. Throw on a network error; answer what the receiver said otherwise. */
  deliver(delivery: IntegrationDelivery, ctx: IntegrationContext<O>): Promise<IntegrationResult>;
}

/** Declares an integration type with the plugin's option type (an identity function). */
export const defineIntegration = <O>(type: IntegrationType<O>): IntegrationType<O> => type;
