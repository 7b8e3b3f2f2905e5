import type { Principal } from '../domain/types';
import type { PluginContext } from '../plugins/plugin';
import type { PluginRoute, RouteAnswer, RouteRequest } from '../plugins/routes';
import { VoicePreviews } from './previews';

/** How long a client may keep a preview: its words and voice do not change between releases. */
const PREVIEW_MAX_AGE_S = 24 * 60 * 60;

/**
 * `GET /voice/voices/:id/preview`: a stock voice's free preview (docs/voice.md, "Previews"). Like the voice
 * list it takes a voice key and carries the `Service-*` headers with 0 charged; it is not a generation, so
 * it counts against no generation limit (only the router's per-key request rate, as every read does).
 */
export function voicePreviewRoute(
  ctx: PluginContext,
  withAccountHeaders: (req: RouteRequest, build: (principal: Principal) => Promise<RouteAnswer>) => Promise<RouteAnswer>,
): PluginRoute {
  return {
    method: 'get',
    path: '/voice/voices/:id/preview',
    operationId: 'getVoicePreview',
    scope: 'voice',
    summary: "A voice's preview: a short sentence in its language (free, cached)",
    tags: ['Voice'],
    success: {
      status: 200,
      description: 'The preview as MP3 (24 kHz); the same bytes for every caller until the service is upgraded',
      media: ['audio/mpeg'],
      headers: { 'Cache-Control': `private, max-age=${PREVIEW_MAX_AGE_S}` },
    },
    errors: [401, 403, 404, 500, 503],
    handler: (req) =>
      withAccountHeaders(req, async () => {
        const preview = await ctx.service(VoicePreviews).preview(req.params.id!);
        return {
          contentType: preview.contentType,
          stream: [preview.bytes],
          headers: { 'Content-Length': String(preview.bytes.byteLength), 'Cache-Control': `private, max-age=${PREVIEW_MAX_AGE_S}` },
        };
      }),
  };
}
