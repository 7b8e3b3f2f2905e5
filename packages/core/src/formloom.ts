import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { container as rootContainer, Lifecycle } from 'tsyringe';
import { DEFAULT_VOICE_CONFIG, type FormloomConfig } from './config';
import { checkPasswordHashCost } from './password-hash';
import { SecretBox } from './crypto-box';
import { FormloomEvents } from './events';
import { systemClock } from './clock';
import { randomIds } from './ids';
import { TOKENS } from './tokens';
import type { Formloom, InstanceRoute } from './instance';
import type { Storage } from './ports/storage';
import type { OutboxHandler } from './ports/outbox-handler';
import type { SpeechEngine } from './ports/speech-engine';
import type { FormloomPlugin, PluginContext, PluginLogger, PortAdapters } from './plugins/plugin';
import { attachListeners, attachTransactionalListeners, checkPlugins, chooseAdapters, collectSpeechEngines, consoleLogger, PluginConfigError, pluginLogger } from './plugins/plugin-host';
import { BUILT_IN_AREAS } from './areas';
import { localPayments, storedPlans } from './accounts/plans';
import { noCalendars } from './ports/calendar';
import { noTelephony } from './ports/telephony';
import { noTranslator } from './ports/translator';
import { AccountService } from './accounts/account-service';
import { ReadCaches } from './cache/read-caches';
import { GroupCommit } from './responses/group-commit';
import { OutboxBirths } from './outbox/outbox-items';
import { FormService } from './forms/form-service';
import { FormListService } from './forms/form-list-service';
import { PublishingService } from './forms/publishing-service';
import { ThemeService } from './forms/theme-service';
import { SubmissionService } from './responses/submission-service';
import { ResponseService } from './responses/response-service';
import { DEFAULT_UPLOAD_TYPES, UploadService } from './responses/upload-service';
import { DEFAULT_FILE_LINK_TTL_MS } from './responses/file-links';
import { WebhookSettingsService } from './webhooks/webhook-settings-service';
import { TeamService } from './teams/team-service';
import { InvitationService } from './teams/invitation-service';
import { AuditService } from './teams/audit-service';
import { OutboxWorker, newOutboxItem } from './outbox/outbox-worker';
import { checkRouteSchemas, routeWarnings } from './plugins/route-check';
import { IntegrationRegistry } from './integrations/integration-registry';

export interface FormloomOptions extends Partial<PortAdapters> {
  storage: Storage;
  /** Plugins after the built-in areas: adapters, routes, outbox handlers, event listeners (docs/plugins.md). */
  plugins?: readonly FormloomPlugin[];
  /** Speech engines besides the plugins' (docs/plugins.md); each `id` once. */
  speechEngines?: readonly SpeechEngine[];
  /** Where plugins and the instance report (default: the console). */
  logger?: PluginLogger;
  config?: Partial<Omit<FormloomConfig, 'voice'>> & { voice?: Partial<FormloomConfig['voice']> };
  /**
   * Checks every JSON answer of every route against its documented `success.schema` (and the status and
   * content type against the documented ones) and answers 500, logged, when it differs: for tests and
   * development, so a plugin that drifts from its own document fails loudly (docs/plugins.md).
   */
  strictResponses?: boolean;
}

/** Ports the instance runs without, until used: a clear error at the first call, not at start-up. */
const missing = (what: string, option: string) => async () => {
  throw new Error(`No ${what} is configured (the ${option} option of createFormloom, or a plugin's adapter)`);
};
const fallbackAdapters = (storage: Storage): PortAdapters => ({
  clock: systemClock(),
  ids: randomIds(),
  plans: storedPlans(storage),
  payments: localPayments(storage),
  calendars: noCalendars(),
  telephony: noTelephony(),
  translator: noTranslator(),
  mailer: { send: missing('mailer', 'mailer') },
  blobStore: { put: missing('blob store', 'blobStore'), get: async () => null, deletePrefix: async () => 0 },
  webhookTransport: { post: missing('webhook transport', 'webhookTransport') },
  signedDocuments: {
    renderSigned: missing('signed-document renderer', 'signedDocuments'),
    renderVoided: missing('signed-document renderer', 'signedDocuments'),
    seal: missing('signed-document renderer', 'signedDocuments'),
    verify: missing('signed-document renderer', 'signedDocuments'),
    // No renderer: every signature is refused up front rather than failing at the seal.
    checkSignature: () => 'Signing is not available: no signed-document renderer is configured',
  },
  audio: {
    outputSpec: () => {
      throw new Error('No audio encoding is configured (the audio option of createFormloom, or a plugin\'s adapter)');
    },
    encode: () => ({ [Symbol.asyncIterator]: () => ({ next: missing('audio encoding', 'audio') }) }),
    encodeToBuffer: missing('audio encoding', 'audio'),
  },
});

function instanceConfig(given: FormloomOptions['config']): FormloomConfig {
  checkPasswordHashCost(given?.passwordHashCost);
  return {
    publicUrl: 'http://localhost:3000',
    apiPath: '/api/v1',
    // Without a configured key, secrets stay readable only for this process's life.
    secretKey: randomBytes(32).toString('hex'),
    webhookTimeoutMs: 10_000,
    uploadMaxBytes: 10 * 1024 * 1024,
    uploadMaxBytesCeiling: 100 * 1024 * 1024,
    uploadTypes: DEFAULT_UPLOAD_TYPES,
    uploadQuotaBytes: 1024 * 1024 * 1024,
    uploadUnattachedMs: 24 * 60 * 60 * 1000,
    fileLinkTtlMs: DEFAULT_FILE_LINK_TTL_MS,
    outboxRetentionMs: 7 * 24 * 60 * 60 * 1000,
    ...given,
    voice: { ...DEFAULT_VOICE_CONFIG, ...given?.voice },
  };
}

/**
 * Wires an instance from the built-in areas and the host's plugins in a child container, so that
 * instances (and tests) never share state. Throws PluginConfigError for a plugin list that cannot work.
 */
export function createFormloom(options: FormloomOptions): Formloom {
  const { storage, plugins: extra = [], config: given, logger = consoleLogger, speechEngines = [], strictResponses = false, ...hostAdapters } = options;
  const plugins = [...BUILT_IN_AREAS, ...extra];
  checkPlugins(plugins, BUILT_IN_AREAS.length);
  const config = instanceConfig(given);
  const build = { storage, config };
  const ports = {
    storage,
    ...fallbackAdapters(storage),
    ...chooseAdapters(hostAdapters, plugins, build),
    speechEngines: collectSpeechEngines(speechEngines, plugins, build),
  };
  const events = new FormloomEvents();

  const c = rootContainer.createChildContainer();
  c.register(TOKENS.Storage, { useValue: storage });
  c.register(TOKENS.Clock, { useValue: ports.clock });
  c.register(TOKENS.IdGenerator, { useValue: ports.ids });
  c.register(TOKENS.Plans, { useValue: ports.plans });
  c.register(TOKENS.Payments, { useValue: ports.payments });
  c.register(TOKENS.Mailer, { useValue: ports.mailer });
  c.register(TOKENS.Calendars, { useValue: ports.calendars });
  c.register(TOKENS.Telephony, { useValue: ports.telephony });
  c.register(TOKENS.Translator, { useValue: ports.translator });
  c.register(TOKENS.BlobStore, { useValue: ports.blobStore });
  c.register(TOKENS.WebhookTransport, { useValue: ports.webhookTransport });
  c.register(TOKENS.SignedDocuments, { useValue: ports.signedDocuments });
  c.register(TOKENS.Audio, { useValue: ports.audio });
  c.register(TOKENS.SpeechEngines, { useValue: ports.speechEngines });
  c.register(TOKENS.Events, { useValue: events });
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.SecretBox, { useValue: new SecretBox(config.secretKey) });
  c.register(TOKENS.Logger, { useValue: logger });
  c.register(ReadCaches, { useClass: ReadCaches }, { lifecycle: Lifecycle.ContainerScoped });
  c.register(GroupCommit, { useClass: GroupCommit }, { lifecycle: Lifecycle.ContainerScoped });
  c.register(OutboxBirths, { useClass: OutboxBirths }, { lifecycle: Lifecycle.ContainerScoped });
  const integrations = new IntegrationRegistry(() => ports.webhookTransport, config);
  c.register(IntegrationRegistry, { useValue: integrations });
  for (const plugin of plugins) {
    for (const S of plugin.services ?? []) c.register(S, { useClass: S }, { lifecycle: Lifecycle.ContainerScoped });
  }

  let instance: Formloom | undefined;
  const service = <T>(cls: new (...args: any[]) => T): T => {
    if (!c.isRegistered(cls, true)) throw new Error(`${cls.name} is not a service of this instance`);
    return c.resolve(cls);
  };
  const contextOf = (plugin: FormloomPlugin): PluginContext => ({
    name: plugin.name,
    options: plugin.options,
    ports,
    events,
    config,
    logger: pluginLogger(logger, plugin.name),
    service,
    async enqueue(kind, payload, tx) {
      await (tx ?? storage).outbox.enqueue(newOutboxItem(ports.ids, ports.clock.now().toISOString(), kind, payload));
      if (!tx) events.emit('outbox.enqueued', { kind });
    },
    get formloom() {
      if (!instance) throw new Error('The Formloom instance is not ready yet: use ctx.formloom in handlers, not while building the plugin');
      return instance;
    },
  });

  const handlers = new Map<string, OutboxHandler>();
  const routes: InstanceRoute[] = [];
  for (const plugin of plugins) {
    const ctx = contextOf(plugin);
    for (const h of plugin.outboxHandlers?.(ctx) ?? []) {
      if (handlers.has(h.kind)) throw new PluginConfigError(`Two outbox handlers for the kind "${h.kind}" (the second from plugin "${plugin.name}")`);
      handlers.set(h.kind, h);
      c.register(TOKENS.OutboxHandler, { useValue: h });
    }
    const own = plugin.routes?.(ctx) ?? [];
    for (const route of own) {
      checkRouteSchemas(plugin.name, route);
      routes.push({ plugin: plugin.name, route });
    }
    // The built-in areas' routes are held to their schemas by Formloom's own tests.
    if (!BUILT_IN_AREAS.includes(plugin)) for (const [message, details] of routeWarnings(own, strictResponses)) ctx.logger.warn(message, details);
    attachListeners(events, plugin, ctx);
    attachTransactionalListeners(events, plugin, ctx);
    integrations.add(plugin.name, plugin.integrations, ctx);
  }

  instance = {
    strictResponses,
    storage,
    config,
    events,
    clock: ports.clock,
    speechEngines: ports.speechEngines,
    accounts: c.resolve(AccountService),
    forms: c.resolve(FormService),
    formList: c.resolve(FormListService),
    publishing: c.resolve(PublishingService),
    themes: c.resolve(ThemeService),
    submissions: c.resolve(SubmissionService),
    responses: c.resolve(ResponseService),
    webhooks: c.resolve(WebhookSettingsService),
    uploads: c.resolve(UploadService),
    teams: c.resolve(TeamService),
    invitations: c.resolve(InvitationService),
    audit: c.resolve(AuditService),
    worker: c.resolve(OutboxWorker),
    plugins: plugins.map(({ name, version }) => ({ name, version })),
    routes,
    service,
  };
  return instance;
}
