import 'reflect-metadata';
import { container as rootContainer, Lifecycle, type DependencyContainer } from 'tsyringe';
import type { Clock } from './ports/clock';
import type { IdGenerator } from './ports/id-generator';
import type { Payments } from './ports/payments';
import type { Plans } from './ports/plans';
import type { Storage } from './ports/storage';
import { TOKENS } from './tokens';
import { FormloomEvents } from './events';
import { localPayments, randomIds, storedPlans, systemClock } from './defaults';
import { AccountService } from './services/account-service';
import { FormListService } from './services/form-list-service';
import { FormService } from './services/form-service';
import { PublishingService } from './services/publishing-service';
import { ThemeService } from './services/theme-service';
import { OutboxWorker } from './services/outbox-worker';
import { WebhookDeliveryHandler } from './services/webhook-delivery-handler';
import { DEFAULT_UPLOAD_TYPES, UploadService, UploadsCleanupHandler } from './services/upload-service';
import type { BlobStore } from './ports/blob-store';
import type { Mailer } from './ports/mailer';
import { AuditService } from './services/audit-service';
import { InvitationService } from './services/invitation-service';
import { MailHandler } from './services/mail-handler';
import { TeamService } from './services/team-service';
import { ResponseService } from './services/response-service';
import { SubmissionService } from './services/submission-service';
import { WebhookDispatcher } from './services/webhook-dispatcher';
import { WebhookSettingsService } from './services/webhook-settings-service';
import type { FormloomConfig } from './config';
import type { WebhookTransport } from './ports/webhook-transport';
import { randomBytes } from 'node:crypto';

export interface FormloomOptions {
  storage: Storage;
  clock?: Clock;
  ids?: IdGenerator;
  plans?: Plans;
  payments?: Payments;
  /** Sends webhooks; required for the outbox worker to deliver them (see @formloom/express's fetch transport). */
  webhookTransport?: WebhookTransport;
  /** Stores uploads; required for the upload endpoints (see @formloom/express's file blob store). */
  blobStore?: BlobStore;
  /** Sends mails queued in the outbox (see @formloom/mailer-smtp). */
  mailer?: Mailer;
  config?: Partial<FormloomConfig>;
  /** Extra registrations (adapters of later ports) by token. */
  register?: (container: DependencyContainer) => void;
}

/** One wired Formloom instance: its own child container, services and event bus. */
export interface Formloom {
  readonly container: DependencyContainer;
  readonly storage: Storage;
  readonly config: FormloomConfig;
  readonly events: FormloomEvents;
  readonly accounts: AccountService;
  readonly forms: FormService;
  readonly formList: FormListService;
  readonly publishing: PublishingService;
  readonly themes: ThemeService;
  readonly submissions: SubmissionService;
  readonly responses: ResponseService;
  readonly webhooks: WebhookSettingsService;
  readonly uploads: UploadService;
  readonly teams: TeamService;
  readonly invitations: InvitationService;
  readonly audit: AuditService;
  /** The durable outbox worker (webhooks, mails, clean-ups): nothing is sent until `worker.start()`. */
  readonly worker: OutboxWorker;
}

const SERVICES = [
  AccountService,
  FormService,
  FormListService,
  PublishingService,
  ThemeService,
  SubmissionService,
  ResponseService,
  WebhookDispatcher,
  WebhookSettingsService,
  WebhookDeliveryHandler,
  UploadService,
  UploadsCleanupHandler,
  AuditService,
  TeamService,
  InvitationService,
  MailHandler,
  OutboxWorker,
] as const;

const noMailer: Mailer = {
  send: async () => {
    throw new Error('No mailer is configured');
  },
};

const noBlobStore: BlobStore = {
  put: async () => {
    throw new Error('No blob store is configured');
  },
  get: async () => null,
  deletePrefix: async () => 0,
};

const noTransport: WebhookTransport = {
  post: async () => {
    throw new Error('No webhook transport is configured');
  },
};

/** Wires an instance in a child container, so that instances (and tests) never share state. */
export function createFormloom(options: FormloomOptions): Formloom {
  const c = rootContainer.createChildContainer();
  const { storage } = options;
  c.register(TOKENS.Storage, { useValue: storage });
  c.register(TOKENS.Clock, { useValue: options.clock ?? systemClock() });
  c.register(TOKENS.IdGenerator, { useValue: options.ids ?? randomIds() });
  c.register(TOKENS.Plans, { useValue: options.plans ?? storedPlans(storage) });
  c.register(TOKENS.Payments, { useValue: options.payments ?? localPayments(storage) });
  c.register(TOKENS.Events, { useValue: new FormloomEvents() });
  c.register(TOKENS.WebhookTransport, { useValue: options.webhookTransport ?? noTransport });
  const config: FormloomConfig = {
    publicUrl: 'http://localhost:3000',
    // Without a configured key, secrets stay readable only for this process's life.
    secretKey: randomBytes(32).toString('hex'),
    webhookTimeoutMs: 10_000,
    uploadMaxBytes: 10 * 1024 * 1024,
    uploadMaxBytesCeiling: 100 * 1024 * 1024,
    uploadTypes: DEFAULT_UPLOAD_TYPES,
    uploadQuotaBytes: 1024 * 1024 * 1024,
    uploadUnattachedMs: 24 * 60 * 60 * 1000,
    outboxRetentionMs: 7 * 24 * 60 * 60 * 1000,
    ...options.config,
  };
  c.register(TOKENS.Config, { useValue: config });
  for (const S of SERVICES) {
    const ctor = S as unknown as new (...args: any[]) => object;
    c.register(ctor, { useClass: ctor }, { lifecycle: Lifecycle.ContainerScoped });
  }
  c.register(TOKENS.BlobStore, { useValue: options.blobStore ?? noBlobStore });
  c.register(TOKENS.Mailer, { useValue: options.mailer ?? noMailer });
  c.register(TOKENS.OutboxHandler, { useFactory: (x) => x.resolve(MailHandler) });
  c.register(TOKENS.OutboxHandler, { useFactory: (x) => x.resolve(WebhookDeliveryHandler) });
  c.register(TOKENS.OutboxHandler, { useFactory: (x) => x.resolve(UploadsCleanupHandler) });
  options.register?.(c);
  return {
    container: c,
    storage,
    config,
    events: c.resolve<FormloomEvents>(TOKENS.Events),
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
  };
}
