import { FormloomError } from '../errors';
import type { Principal } from '../domain/types';
import type { RouteAnswer } from '../plugins/routes';
import type { VoiceGeneration } from '../ports/storage/voice-generations';
import { dataBody, presentGeneration, serviceHeaders } from './presenters';
import { retakesRemaining } from './retakes';
import { VoiceFailure, type VoiceService } from './voice-service';

/** Accept types that ask for the audio itself, and the format each names (`audio/*`: the body's format). */
const AUDIO_ACCEPT: Record<string, string | null> = {
  'audio/*': null,
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/ogg': 'ogg_opus',
  'audio/basic': 'mulaw_8k',
};

/** Whether `accept` asks for audio, and which format it names (null: the request's own). */
export function audioAccept(accept: string | undefined): { format: string | null } | null {
  for (const part of (accept ?? '').toLowerCase().split(',')) {
    const [type, ...params] = part.split(';').map((p) => p.trim());
    // `q=0` means "not acceptable" (RFC 9110): such an audio type does not ask for audio.
    if (params.some((p) => /^q\s*=\s*0(\.0{0,3})?$/.test(p))) continue;
    if (type! in AUDIO_ACCEPT) return { format: AUDIO_ACCEPT[type!]! };
  }
  return null;
}

/** A generation answered as JSON or, when the client accepts audio, as the audio itself. */
export async function generationAnswer(
  service: VoiceService,
  principal: Principal,
  g: VoiceGeneration,
  opts: { baseUrl: string; audio: boolean; format?: string; charged: number; balance: number; replayed?: boolean; status?: number; reused?: boolean; location?: boolean; read?: boolean },
): Promise<RouteAnswer> {
  const retakes = retakesRemaining(g, service.clock.now());
  const headers = serviceHeaders({
    generationId: g.id,
    estimated: g.credits_estimated,
    charged: opts.charged,
    remaining: opts.balance,
    durationSeconds: g.duration_seconds,
    replayed: opts.replayed,
    retakesRemaining: retakes,
  });
  if (opts.location) headers.Location = `${opts.baseUrl}/voice/generations/${g.id}`;
  if (opts.audio && (g.status === 'ready' || g.status === 'partial') && !opts.location) {
    const audio = await service.audioOf(principal, g.id, opts.format ?? g.format);
    return { status: opts.status ?? 200, contentType: audio.contentType, stream: audio.body, headers: { ...headers, 'Content-Length': String(audio.size) } };
  }
  // A request's answer says what that request charged, as its header does (a free retake, a reused clip and a
  // replay: 0); a read of a stored generation (`read`) shows what making it was charged (docs/voice.md).
  const view = { charged: opts.read ? undefined : opts.charged, reused: opts.reused, retakesRemaining: retakes };
  return { status: opts.status ?? 200, body: dataBody(presentGeneration(g, opts.balance, opts.baseUrl, view)), headers };
}

/**
 * Runs a voice operation; a `FormloomError` (or a `VoiceFailure`) becomes its error answer carrying the
 * `Service-*` headers, with 0 charged and the balance as it stands.
 */
export async function withVoiceHeaders(
  service: VoiceService,
  principal: Principal,
  replayed: boolean | undefined,
  work: () => Promise<RouteAnswer>,
): Promise<RouteAnswer> {
  try {
    return await work();
  } catch (e) {
    const failure = e instanceof VoiceFailure ? e : e instanceof FormloomError ? new VoiceFailure(e) : null;
    if (!failure) throw e;
    const remaining = await service.billing.balance(principal.user_id);
    const headers = serviceHeaders({ generationId: failure.generationId, estimated: failure.estimated, charged: 0, remaining, replayed });
    const retryAfter = failure.error.details.retry_after;
    if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
    return { status: failure.error.status, body: failure.error.toBody(), headers };
  }
}
