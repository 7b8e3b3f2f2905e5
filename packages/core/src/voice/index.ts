import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { VoiceBilling } from './billing';
import { VoiceCatalog } from './catalog';
import { voiceRoutes } from './routes';
import { VoiceService } from './voice-service';
import { VoiceStreamService } from './stream-service';
import { VoiceScriptService } from './script/script-service';
import { VoiceGenerationFlow } from './generation-flow';
import { VoiceRetakes } from './retakes';
import { VoiceRetentionHandler } from './retention';
import { VoicePreviews } from './previews';

export * from './catalog';
export * from './voice-quality';
export { previewText } from './preview-text';
export { VoicePreviews, previewKey, type VoicePreview } from './previews';
export * from './pricing';
export * from './billing';
export * from './presenters';
export * from './schemas';
export * from './voice-service';
export * from './stream-service';
export * from './script/script-service';
export { parseScriptText, convertToScript, type ScriptItem } from './script/script-text';
export { assignVoices, autoCast, castingOrder, parseCast, speakerKey, type CastCandidate } from './script/script-cast';
export * from './output-schemas';
export * from './generation-flow';
export * from './retakes';
export * from './retention';
export * from './reuse';

/** Speech generation: voices, estimates, generations and the library (docs/voice.md). */
export const voiceArea = definePlugin({
  name: 'voice',
  version: CORE_VERSION,
  services: [VoiceCatalog, VoiceBilling, VoiceService, VoiceStreamService, VoiceScriptService, VoiceRetakes, VoiceGenerationFlow, VoiceRetentionHandler, VoicePreviews],
  outboxHandlers: (ctx) => [ctx.service(VoiceRetentionHandler)],
  routes: (ctx) => voiceRoutes(ctx),
});
