import type { FormloomConfig } from './config';
import type { FormloomEvents } from './events';
import type { Storage } from './ports/storage';
import type { Clock } from './ports/clock';
import type { SpeechEngine } from './ports/speech-engine';
import type { PluginRoute } from './plugins/routes';
import type { AccountService } from './accounts/account-service';
import type { FormService } from './forms/form-service';
import type { FormListService } from './forms/form-list-service';
import type { PublishingService } from './forms/publishing-service';
import type { ThemeService } from './forms/theme-service';
import type { SubmissionService } from './responses/submission-service';
import type { ResponseService } from './responses/response-service';
import type { UploadService } from './responses/upload-service';
import type { WebhookSettingsService } from './webhooks/webhook-settings-service';
import type { TeamService } from './teams/team-service';
import type { InvitationService } from './teams/invitation-service';
import type { AuditService } from './teams/audit-service';
import type { OutboxWorker } from './outbox/outbox-worker';

/** A route of a plugin, with the plugin that contributed it. */
export interface InstanceRoute {
  plugin: string;
  route: PluginRoute<Formloom>;
}

/** One wired Formloom instance: its own services, event bus and plugins; nothing shared with another. */
export interface Formloom {
  /** `createFormloom({ strictResponses })`: answers are checked against their documented schemas. */
  readonly strictResponses: boolean;
  readonly storage: Storage;
  readonly config: FormloomConfig;
  readonly events: FormloomEvents;
  /** The instance's clock (the `clock` adapter, or the system clock), for adapters that count time. */
  readonly clock: Clock;
  /** The speech engines of the host and the plugins, for the voice capability. */
  readonly speechEngines: readonly SpeechEngine[];
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
  /** The plugins of this instance, built-in areas first, in the order given. */
  readonly plugins: ReadonlyArray<{ name: string; version: string }>;
  /** The HTTP routes the plugins contribute, for the web adapter to serve and document. */
  readonly routes: readonly InstanceRoute[];
  /** Any service of the instance by class, e.g. a later area's service without a field here. */
  service<T>(cls: new (...args: any[]) => T): T;
}
