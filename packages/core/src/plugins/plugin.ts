import type { FormloomEventMap, TransactionalEventName } from '../events';
import type { Formloom } from '../instance';
import type { OutboxHandler } from '../ports/outbox-handler';
import type { SpeechEngine } from '../ports/speech-engine';
import type { Storage } from '../ports/storage';
import type { PluginRoute } from './routes';
import type { KeyScope } from '../domain/types';
import type { IntegrationType } from '../integrations/integration-types';
import type { AdapterContext, AdapterSource, PluginContext, PortName, ServiceClass } from './plugin-context';

export * from './plugin-context';

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
