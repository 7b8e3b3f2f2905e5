import type { Principal } from '../domain/types';
import type { PluginContext } from '../plugins/plugin';
import type { HeaderParam, PluginRoute, RouteAnswer, RouteRequest } from '../plugins/routes';
import { paging, queryBoolean } from '../pagination';
import { audioAccept, generationAnswer, withVoiceHeaders } from './answers';
import { claimIdempotency } from './idempotency';
import { dataBody, presentCreditEntry, presentGeneration, presentVoice, serviceHeaders, voiceMeta } from './presenters';
import { audioQuery, creditsQuery, libraryQuery, parseOr400, streamRequestSchema, voiceListQuery, voiceRequestSchema } from './schemas';
import { AUDIO_MEDIA_TYPES, creditsOut, generationBodyOut, generationDeletedOut, generationListOut, voiceAnswerOut, voiceListOut } from './output-schemas';
import { VoiceService } from './voice-service';
import { VoiceStreamService } from './stream-service';
import { type GenerationOutcome, VoiceGenerationFlow } from './generation-flow';
import { countVoiceRequest } from './request-limits';
import { retakesRemaining } from './retakes';
import { voicePreviewRoute } from './preview-route';

const principalOf = (req: RouteRequest) => req.principal!;

/** The per-key voice request rate headers of every `POST /voice` and `/voice/stream` answer (docs/voice.md, "Rate limits"). */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': "This key's generation (or estimate) requests allowed a minute",
  'X-RateLimit-Remaining': 'Requests left in the current minute',
  'X-RateLimit-Reset': 'When the current minute ends (ISO 8601)',
};

/** Replays of one request answer its first result (docs/voice.md, "Idempotency"; idempotency.ts). */
const IDEMPOTENCY: HeaderParam[] = [
  { name: 'Idempotency-Key', description: 'Any 1 to 255 characters; remembered 24 hours per API key: a retry with the same key and body answers the first result', schema: { type: 'string', minLength: 1, maxLength: 255 } },
];

/** POST /voice: estimate, speak or script (reuse, retakes, 202 past the sync budget, `Idempotency-Key` replays). */
async function generate(service: VoiceService, req: RouteRequest, ctx: PluginContext) {
  const principal = principalOf(req);
  const idemKey = req.headers['idempotency-key'];
  const replayedFlag = idemKey === undefined ? undefined : false;
  const flow = ctx.service(VoiceGenerationFlow);
  const kind = (req.body as { mode?: unknown } | undefined)?.mode === 'estimate' ? 'estimate' : 'generation';
  const rate = await countVoiceRequest(ctx.ports.storage, ctx.ports.clock, ctx.config, principal, kind);
  const answered = await withVoiceHeaders(service, principal, replayedFlag, async () => {
    if (rate.refusal) throw rate.refusal;
    const body = parseOr400(voiceRequestSchema, req.body);
    if (body.mode === 'estimate') {
      const estimate = await flow.estimate(principal, body);
      return { body: dataBody(estimate), headers: await estimateHeaders(service, principal, estimate.credits) };
    }
    const accept = audioAccept(req.headers.accept);
    const formatOverride = body.format ? undefined : (accept?.format ?? undefined);
    const answer = (made: GenerationOutcome, replayed?: boolean) =>
      generationAnswer(service, principal, made.generation, {
        baseUrl: req.baseUrl, audio: !!accept, charged: made.charged, balance: made.balance, replayed, reused: made.reused,
        ...(made.rendering ? { status: 202, location: true } : {}),
      });
    if (idemKey === undefined) return answer(await flow.generate(principal, body, { formatOverride }));
    const claim = await claimIdempotency(ctx.ports.storage, ctx.ports.clock, principal, idemKey, 'speak', req.body);
    if (claim.kind === 'replay') {
      const g = await service.get(principal, claim.result.generation_id);
      return generationAnswer(service, principal, g, { baseUrl: req.baseUrl, audio: !!accept, charged: 0, balance: await service.billing.balance(principal.user_id), replayed: true });
    }
    try {
      const made = await flow.generate(principal, body, { formatOverride });
      await claim.complete({ generation_id: made.generation.id });
      return answer(made, false);
    } catch (e) {
      await claim.release(); // nothing was charged: the same request may be retried
      throw e;
    }
  });
  return { ...answered, headers: { ...answered.headers, ...rate.headers } };
}

async function estimateHeaders(service: VoiceService, principal: { user_id: string }, credits: number) {
  return serviceHeaders({ estimated: credits, charged: 0, remaining: await service.billing.balance(principal.user_id) });
}

/** POST /voice/stream: chunked audio; with `Idempotency-Key`, a replay answers the generation as JSON. */
async function stream(service: VoiceService, streams: VoiceStreamService, req: RouteRequest, ctx: PluginContext): Promise<RouteAnswer> {
  const principal = principalOf(req);
  const idemKey = req.headers['idempotency-key'];
  const rate = await countVoiceRequest(ctx.ports.storage, ctx.ports.clock, ctx.config, principal, 'generation');
  const answered = await withVoiceHeaders(service, principal, idemKey === undefined ? undefined : false, async () => {
    if (rate.refusal) throw rate.refusal;
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
  return { ...answered, headers: { ...answered.headers, ...rate.headers } };
}

/** The voice area's endpoints (docs/voice.md); all take `voice` keys. */
export function voiceRoutes(ctx: PluginContext): PluginRoute[] {
  const service = () => ctx.service(VoiceService);
  const tags = ['Voice'];
  /** Reads of the account's voice data: answers and errors carry the `Service-*` headers (balance, rate card). */
  const withAccountHeaders = (req: RouteRequest, build: (principal: Principal) => Promise<RouteAnswer>) => {
    const principal = principalOf(req);
    return withVoiceHeaders(service(), principal, undefined, async () => {
      const answer = await build(principal);
      const remaining = await service().billing.balance(principal.user_id);
      return { ...answer, headers: { ...serviceHeaders({ remaining }), ...answer.headers } } as RouteAnswer;
    });
  };
  return [
    {
      method: 'post',
      path: '/voice',
      operationId: 'generateSpeech',
      headers: IDEMPOTENCY,
      scope: 'voice',
      summary: 'Generate speech in one voice (speak) or several (script), or quote its cost (estimate)',
      tags,
      accepts: { 'application/json': voiceRequestSchema },
      success: {
        status: 200,
        description: 'The generation (speak, script) or the quote (estimate) as JSON; the audio itself when `Accept` asks for audio',
        schema: voiceAnswerOut,
        media: AUDIO_MEDIA_TYPES.filter((t) => t.startsWith('audio/')),
        headers: RATE_LIMIT_HEADERS,
        others: [
          {
            status: 202,
            description: 'Charged, but the audio was not ready within the sync budget: the generation (`rendering`, JSON even when `Accept` asks for audio); fetch it from `Location`',
            schema: generationBodyOut,
            headers: { Location: 'The generation (`GET /voice/generations/{id}`)', ...RATE_LIMIT_HEADERS },
          },
        ],
      },
      errors: [400, 401, 402, 403, 404, 409, 429, 500, 503],
      handler: (req) => generate(service(), req, ctx),
    },
    {
      method: 'post',
      path: '/voice/stream',
      operationId: 'streamSpeech',
      headers: IDEMPOTENCY,
      scope: 'voice',
      summary: 'Stream speech while it is generated (chunked audio)',
      tags,
      accepts: { 'application/json': streamRequestSchema },
      success: {
        status: 200,
        description: 'The audio as it is made (format in `Service-Audio-Format`); a replayed `Idempotency-Key` answers the generation as JSON',
        schema: generationBodyOut,
        media: ['application/octet-stream'],
        headers: RATE_LIMIT_HEADERS,
      },
      errors: [400, 401, 402, 403, 409, 413, 429, 500, 503],
      handler: (req) => stream(service(), ctx.service(VoiceStreamService), req, ctx),
    },
    {
      method: 'get',
      path: '/voice/voices',
      operationId: 'listVoices',
      scope: 'voice',
      summary: 'List voices (free)',
      tags,
      success: { status: 200, description: 'The voices', schema: voiceListOut },
      query: voiceListQuery,
      errors: [400, 401, 403],
      handler: (req) =>
        withAccountHeaders(req, async () => {
          const q = req.query as { source?: 'all' | 'stock' | 'mine'; language?: string; gender?: string; q?: string; featured?: string };
          const featured = queryBoolean(q.featured);
          const voices = await service().catalog.list({ ...q, featured: featured instanceof Error ? undefined : featured });
          return { body: { data: voices.map((v) => presentVoice(v, req.baseUrl)), meta: voiceMeta() } };
        }),
    },
    voicePreviewRoute(ctx, withAccountHeaders),
    {
      method: 'get',
      path: '/voice/generations',
      operationId: 'listVoiceGenerations',
      scope: 'voice',
      summary: "The caller's library of generations, newest first",
      tags,
      success: { status: 200, description: 'A page of generations', schema: generationListOut },
      query: libraryQuery,
      errors: [401, 403],
      handler: (req) =>
        withAccountHeaders(req, async (principal) => {
          const { page, per_page, offset } = paging(req.query, 20);
          const search = (req.query as { search?: string }).search?.trim() || undefined;
          const { items, total } = await service().list(principal, { limit: per_page, offset }, { search });
          const balance = await service().billing.balance(principal.user_id);
          const now = service().clock.now();
          const data = items.map((g) => presentGeneration(g, balance, req.baseUrl, { retakesRemaining: retakesRemaining(g, now) }));
          // The API's generic list wrapper, with the rate card (docs/voice.md, the library).
          return { body: { data, meta: voiceMeta({ page, per_page, total, total_pages: Math.ceil(total / per_page) }) } };
        }),
    },
    {
      method: 'get',
      path: '/voice/credits',
      operationId: 'getVoiceCredits',
      scope: 'voice',
      summary: "The caller's credit balance and a page of its ledger (purchases, spends, credit-backs), newest first",
      tags,
      success: { status: 200, description: 'The balance and a page of ledger entries', schema: creditsOut },
      query: creditsQuery,
      errors: [401, 403],
      handler: (req) =>
        withAccountHeaders(req, async (principal) => {
          const { page, per_page, offset } = paging(req.query, 20);
          const { items, total } = await service().billing.ledger(principal.user_id, { limit: per_page, offset });
          const balance = await service().billing.balance(principal.user_id);
          return { body: { data: { object: 'voice.credits', balance, entries: items.map(presentCreditEntry) }, meta: voiceMeta({ page, per_page, total, total_pages: Math.ceil(total / per_page) }) } };
        }),
    },
    {
      method: 'get',
      path: '/voice/generations/:id',
      operationId: 'getVoiceGeneration',
      scope: 'voice',
      summary: 'A generation',
      tags,
      success: { status: 200, description: 'The generation', schema: generationBodyOut },
      errors: [401, 403, 404],
      handler: (req) =>
        withAccountHeaders(req, async (principal) => {
          const g = await service().get(principal, req.params.id!);
          const balance = await service().billing.balance(principal.user_id);
          return generationAnswer(service(), principal, g, { baseUrl: req.baseUrl, audio: false, charged: 0, balance, read: true });
        }),
    },
    {
      method: 'get',
      path: '/voice/generations/:id/audio',
      operationId: 'downloadVoiceAudio',
      scope: 'voice',
      summary: "A generation's audio in any format (default: the one it was made in)",
      tags,
      success: { status: 200, description: 'The audio, as an attachment', media: AUDIO_MEDIA_TYPES },
      query: audioQuery,
      errors: [400, 401, 403, 404],
      handler: (req) =>
        withAccountHeaders(req, async (principal) => {
          const format = (req.query as { format?: string }).format;
          const audio = await service().audioOf(principal, req.params.id!, format === 'ulaw_8000' ? 'mulaw_8k' : format);
          const g = audio.generation;
          const headers = serviceHeaders({ generationId: g.id, estimated: g.credits_estimated, remaining: 0, durationSeconds: g.duration_seconds, retakesRemaining: retakesRemaining(g, service().clock.now()) });
          delete headers['Service-Credits-Remaining']; // the balance is added by withAccountHeaders
          return { contentType: audio.contentType, stream: audio.body, attachment: audio.fileName, headers: { ...headers, 'Content-Length': String(audio.size) } };
        }),
    },
    {
      method: 'delete',
      path: '/voice/generations/:id',
      operationId: 'deleteVoiceGeneration',
      scope: 'voice',
      summary: 'Delete a generation and its audio',
      tags,
      success: { status: 200, description: 'The deleted generation', schema: generationDeletedOut },
      errors: [401, 403, 404, 409],
      handler: (req) =>
        withAccountHeaders(req, async (principal) => {
          await service().delete(principal, req.params.id!);
          return { body: { data: { id: req.params.id, object: 'voice.generation', deleted: true }, meta: voiceMeta() }, headers: { 'Service-Generation-Id': req.params.id! } };
        }),
    },
  ];
}
