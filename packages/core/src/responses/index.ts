import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { ResponseService } from './response-service';
import { SubmissionService } from './submission-service';
import { UploadService, UploadsCleanupHandler } from './upload-service';
import { FileLinks } from './file-links';
import { FunnelService } from './funnel-service';
import { RespondentDataService } from './respondent-data';
import { ResponseRetentionHandler } from './response-retention';
import { BlobFoldersHandler } from './erase-responses';

export * from './response-presenter';
export * from './response-schemas';
export * from './answer-validation';
export * from './quiz';
export * from './codecs/csv';
export * from './codecs/csv-page';
export * from './codecs/csv-lines';
export * from './codecs/export-table';
export * from './codecs/export-words';
export * from './submission-service';
export * from './response-service';
export * from './upload-service';
export * from './file-links';
export * from './output-schemas';
export * from './question-summaries';
export * from './answer-filter';
export * from './filter-ops';
export * from './funnel-service';
export * from './respondent-data';
export * from './response-retention';
export * from './erase-responses';

/** Respondents' submissions and uploads, owners' responses, exports and analytics. */
export const responsesArea = definePlugin({
  name: 'responses',
  version: CORE_VERSION,
  services: [SubmissionService, ResponseService, FunnelService, FileLinks, UploadService, UploadsCleanupHandler, RespondentDataService, ResponseRetentionHandler, BlobFoldersHandler],
  outboxHandlers: (ctx) => [ctx.service(UploadsCleanupHandler), ctx.service(ResponseRetentionHandler), ctx.service(BlobFoldersHandler)],
});
