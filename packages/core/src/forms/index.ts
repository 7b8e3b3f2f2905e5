import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { FormListService } from './form-list-service';
import { FormService } from './form-service';
import { FormSlugService } from './form-slug';
import { FormMoveService } from './form-move';
import { PublishingService } from './publishing-service';
import { ThemeService } from './theme-service';
import { LogoService } from './logo-service';
import { VersionRestoreService } from './version-restore';

export * from './presenters';
export * from './form-schemas';
export * from './question-types';
export * from './publish-policy';
export * from './public-view';
export * from './changelog';
export * from './form-access';
export * from './form-service';
export * from './form-slug';
export * from './form-move';
export * from './form-list-service';
export * from './publishing-service';
export * from './theme-service';
export * from './logo-service';
export * from './logo-content';
export * from './version-restore';
export * from './output-schemas';

/** Forms, their questions and themes, publishing and versions. */
export const formsArea = definePlugin({
  name: 'forms',
  version: CORE_VERSION,
  services: [FormService, FormSlugService, FormMoveService, FormListService, PublishingService, ThemeService, LogoService, VersionRestoreService],
});
