import { FormloomInitial1732000000000 } from './1732000000000-initial';
import { FormloomResponsesWebhooks1733000000000 } from './1733000000000-responses-webhooks';
import { FormloomTeamAdministration1734000000000 } from './1734000000000-team-administration';
import { FormloomFormListIndexes1735000000000 } from './1735000000000-form-list-indexes';
import { FormloomUploadsOutboxRetention1736000000000 } from './1736000000000-uploads-outbox-retention';
import { FormloomRateLimits1736500000000 } from './1736500000000-rate-limits';
import { FormloomInstanceSettings1737000000000 } from './1737000000000-instance-settings';
import { FormloomSigning1737020000000 } from './1737020000000-signing';
import { FormloomVoice1737040000000 } from './1737040000000-voice';
import { FormloomResponseDays1737100000000 } from './1737100000000-response-days';
import { FormloomVoiceRetention1738300000100 } from './1738300000100-voice-retention';
import { FormloomBlobs1738400000000 } from './1738400000000-blobs';
import { FormloomFormListOrder1738500000100 } from './1738500000100-form-list-order';
import { FormloomSignIn1739000000000 } from './1739000000000-sign-in';
import { FormloomCacheRevision1739500000000 } from './1739500000000-cache-revision';
import { FormloomQuestionValues1739800000000 } from './1739800000000-question-values';
import { FormloomWebhookExcerpts1740000000000 } from './1740000000000-webhook-excerpts';
import { FormloomCacheRevisionTargets1740200000000 } from './1740200000000-cache-revision-targets';
import { FormloomResponseCsvLines1740400000000 } from './1740400000000-response-csv-lines';
import { FormloomCacheRevisionFormInserts1740600000000 } from './1740600000000-cache-revision-form-inserts';
import { FormloomResponseLinesIndex1740800000000 } from './1740800000000-response-lines-index';
import { FormloomApiKeyMakers1741000000000 } from './1741000000000-api-key-makers';
import { FormloomIntegrations1741650000000 } from './1741650000000-integrations';
import { FormloomPayments1741200000000 } from './1741200000000-payments';
import { FormloomResponseAnswers1741400000000 } from './1741400000000-response-answers';
import { FormloomBookings1741800000000 } from './1741800000000-bookings';
import { FormloomBookingCalls1742000000000 } from './1742000000000-booking-calls';
import { FormloomResponseLanguage1742100000000 } from './1742100000000-response-language';
import { FormloomAnswerPairs1742300000000 } from './1742300000000-answer-pairs';
import { FormloomCacheRevisionIntegrations1742400000000 } from './1742400000000-cache-revision-integrations';
import { FormloomIdempotencyExpiry1742500000000 } from './1742500000000-idempotency-expiry';
import { FormloomResponseFuseLinks1742600000000 } from './1742600000000-response-fuse-links';
import { FormloomResponseIndexQueue1742700000000 } from './1742700000000-response-index-queue';

/** Formloom's migrations in order, for a host that builds its own DataSource (add them to `migrations`). */
export const formloomMigrations = [
  FormloomInitial1732000000000,
  FormloomResponsesWebhooks1733000000000,
  FormloomTeamAdministration1734000000000,
  FormloomFormListIndexes1735000000000,
  FormloomUploadsOutboxRetention1736000000000,
  FormloomRateLimits1736500000000,
  FormloomInstanceSettings1737000000000,
  FormloomSigning1737020000000,
  FormloomVoice1737040000000,
  FormloomResponseDays1737100000000,
  FormloomVoiceRetention1738300000100,
  FormloomBlobs1738400000000,
  FormloomFormListOrder1738500000100,
  FormloomSignIn1739000000000,
  FormloomCacheRevision1739500000000,
  FormloomQuestionValues1739800000000,
  FormloomWebhookExcerpts1740000000000,
  FormloomCacheRevisionTargets1740200000000,
  FormloomResponseCsvLines1740400000000,
  FormloomCacheRevisionFormInserts1740600000000,
  FormloomResponseLinesIndex1740800000000,
  FormloomApiKeyMakers1741000000000,
  FormloomPayments1741200000000,
  FormloomResponseAnswers1741400000000,
  FormloomIntegrations1741650000000,
  FormloomBookings1741800000000,
  FormloomBookingCalls1742000000000,
  FormloomResponseLanguage1742100000000,
  FormloomAnswerPairs1742300000000,
  FormloomCacheRevisionIntegrations1742400000000,
  FormloomIdempotencyExpiry1742500000000,
  FormloomResponseFuseLinks1742600000000,
  FormloomResponseIndexQueue1742700000000,
];
