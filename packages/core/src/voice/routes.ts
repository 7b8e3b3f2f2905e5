import type { PluginContext } from '../plugins/plugin';
import type { PluginRoute, RouteAnswer, RouteRequest } from '../plugins/routes';
import { paging, queryBoolean } from '../pagination';
import { audioAccept, generationAnswer, withVoiceHeaders } from './answers';
import { claimIdempotency } from './idempotency';
import { dataBody, presentGeneration, presentVoice, serviceHeaders } from './presenters';
import { audioQuery, parseOr400, voiceListQuery, voiceRequestSchema } from './schemas';
import { VoiceService } from './voice-service';
import { VoiceStreamService } from './stream-service';
import { isScriptBody } from './script/script-text';
import { VoiceScriptService } from './script/script-service';

const principalOf = (req: RouteRequest) => req.principal!;

/** POST /voice: estimate, speak or script (with `Idempotency-Key` replays). */
async function generate(service: VoiceService, scripts: VoiceScriptService, req: RouteRequest, ctx: PluginContext) {
  const principal = principalOf(req);
  const idemKey = req.headers['idempotency-key'];
  const replayedFlag = idemKey === undefined ? undefined : false;
  return withVoiceHeaders(service, principal, replayedFlag, async () => {
    const body = parseOr400(voiceRequestSchema, req.body);
    if (body.mode === 'estimate') {
      const estimate = isScriptBody(body) ? await scripts.estimate(principal, body) : await service.estimate(principal, body);
      return { body: dataBody(estimate), headers: await estimateHeaders(service, principal, estimate.credits) };
    }
    const accept = audioAccept(req.headers.accept);
    const formatOverride = body.format ? undefined : (accept?.format ?? undefined);
    const answer = (g: Parameters<typeof generationAnswer>[2], charged: number, balance: number, replayed?: boolean) =>
      generationAnswer(service, principal, g, { baseUrl: req.baseUrl, audio: !!accept, charged, balance, replayed });
    const make = () => (body.mode === 'script' ? scripts.generate(principal, body, { formatOverride }) : service.speak(principal, body, { formatOverride }));
    if (idemKey === undefined) {
      const made = await make();
      return answer(made.generation, made.generation.credits_charged, made.balance);
    }
    const claim = await claimIdempotency(ctx.ports.storage, ctx.ports.clock, principal, idemKey, 'speak', req.body);
    if (claim.kind === 'replay') {
      const g = await service.get(principal, claim.result.generation_id);
      return answer(g, 0, await service.billing.balance(principal.user_id), true);
    }
    try {
      const made = await make();
      await claim.complete({ generation_id: made.generation.id });
      return answer(made.generation, made.generation.credits_charged, made.balance, false);
    } catch (e) {
      await claim.release(); // nothing was charged: the same request may be retried
      throw e;
    }
  });
}

async function estimateHeaders(service: VoiceService, principal: { user_id: string }, credits: number) {
  return serviceHeaders({ estimated: credits, charged: 0, remaining: await service.billing.balance(principal.user_id) });
}

/** POST /voice/stream: chunked audio; with `Idempotency-Key`, a replay answers the generation as JSON. */
async function stream(service: VoiceService, streams: VoiceStreamService, req: RouteRequest, ctx: PluginContext): Promise<RouteAnswer> {
  const principal = principalOf(req);
  const idemKey = req.headers['idempotency-key'];
  return withVoiceHeaders(service, principal, idemKey === undefined ? undefined : false, async () => {
    const claim = idemKey === undefined ? null : await claimIdempotency(ctx.ports.storage, ctx.ports.clock, principal, idemKey, 'stream', req.body);
    if (claim?.kind === 'replay') {
      const g = await service.get(principal, claim.result.generation_id);
      const balance = await service.billing.balance(principal.user_id);
      return generationAnswer(service, principal, g, { baseUrl: req.baseUrl, audio: false, charged: 0, balance, replayed: true });
    }
    try {
      const started = await streams.start(principal, req.body);
      await claim?.complete({ generation_id: started.generation.id });
      const g = started.generation;
      const headers = {
        ...serviceHeaders({ generationId: g.id, estimated: g.credits_estimated, charged: g.credits_charged, remaining: started.balance, replayed: claim ? false : undefined }),
        'Service-Audio-Format': started.output.format,
        'Service-Audio-Encoding': started.output.encoding,
        'Service-Audio-Sample-Rate': String(started.output.sampleRate),
        'Service-Audio-Channels': String(started.output.channels),
        'X-Accel-Buffering': 'no',
      };
      return { contentType: 'application/octet-stream', stream: started.stream, headers };
    } catch (e) {
      await claim?.release();
      throw e;
    }
  });
}

/** The voice area's endpoints (docs/voice.md); all take `voice` keys. */
export function voiceRoutes(ctx: PluginContext): PluginRoute[] {
  const service = () => ctx.service(VoiceService);
  const tags = ['Voice'];
  return [
    {
      method: 'post',
      path: '/voice',
      scope: 'voice',
      summary: 'Generate speech in one voice (speak) or several (script), or quote its cost (estimate)',
      tags,
      errors: [400, 401, 402, 403, 409, 429],
      handler: (req) => generate(service(), ctx.service(VoiceScriptService), req, ctx),
    },
    {
      method: 'post',
      path: '/voice/stream',
      scope: 'voice',
      summary: 'Stream speech while it is generated (chunked audio)',
      tags,
      errors: [400, 401, 402, 403, 409, 413],
      handler: (req) => stream(service(), ctx.service(VoiceStreamService), req, ctx),
    },
    {
      method: 'get',
      path: '/voice/voices',
      scope: 'voice',
      summary: 'List voices (free)',
      tags,
      query: voiceListQuery,
      errors: [400, 401, 403],
      handler: async (req) => {
        const q = req.query as { source?: 'all' | 'stock' | 'mine'; language?: string; gender?: string; q?: string; featured?: string };
        const featured = queryBoolean(q.featured);
        const voices = await service().catalog.list({ ...q, featured: featured instanceof Error ? undefined : featured });
        return { body: { data: voices.map(presentVoice) } };
      },
    },
    {
      method: 'get',
      path: '/voice/generations',
      scope: 'voice',
      summary: "The caller's library of generations, newest first",
      tags,
      errors: [401, 403],
      handler: async (req) => {
        const { page, per_page, offset } = paging(req.query, 20);
        const principal = principalOf(req);
        const { items, total } = await service().list(principal, { limit: per_page, offset });
        const balance = await service().billing.balance(principal.user_id);
        return { body: { data: items.map((g) => presentGeneration(g, balance, req.baseUrl)), meta: { total, page, per_page } } };
      },
    },
    {
      method: 'get',
      path: '/voice/generations/:id',
      scope: 'voice',
      summary: 'A generation',
      tags,
      errors: [401, 403, 404],
      handler: async (req) => {
        const principal = principalOf(req);
        const g = await service().get(principal, req.params.id!);
        const balance = await service().billing.balance(principal.user_id);
        return generationAnswer(service(), principal, g, { baseUrl: req.baseUrl, audio: false, charged: 0, balance });
      },
    },
    {
      method: 'get',
      path: '/voice/generations/:id/audio',
      scope: 'voice',
      summary: "A generation's audio in any format (default: the one it was made in)",
      tags,
      query: audioQuery,
      errors: [400, 401, 403, 404],
      handler: async (req) => {
        const format = (req.query as { format?: string }).format;
        const audio = await service().audioOf(principalOf(req), req.params.id!, format === 'ulaw_8000' ? 'mulaw_8k' : format);
        return {
          contentType: audio.contentType,
          stream: audio.body,
          attachment: audio.fileName,
          headers: { 'Service-Generation-Id': audio.generation.id, 'Content-Length': String(audio.size) },
        };
      },
    },
    {
      method: 'delete',
      path: '/voice/generations/:id',
      scope: 'voice',
      summary: 'Delete a generation and its audio',
      tags,
      errors: [401, 403, 404],
      handler: async (req) => {
        await service().delete(principalOf(req), req.params.id!);
        return { body: { data: { id: req.params.id, object: 'voice.generation', deleted: true } } };
      },
    },
  ];
}
