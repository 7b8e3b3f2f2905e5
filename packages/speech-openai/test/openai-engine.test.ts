import test from 'ava';
import { engineWarmingUp, type PcmChunk, type SynthesisRequest } from '@formloom/core';
import { runSpeechEngineConformance } from '@formloom/core/testing';
import { createOpenAiSpeechEngine, OpenAiSpeechError, type OpenAiSpeechOptions } from '../src';
import { FAKE_RATE, fakePcm, startFakeSpeechServer, type FakeSpeechServer } from './helpers/fake-speech-server';
import { waitFor as poll } from '@formloom/core/testing';

const VOICES: OpenAiSpeechOptions['voices'] = [
  { id: 'af_heart', name: 'Heart', language: 'en-US', gender: 'female' },
  { id: 'ff_siwis', name: 'Siwis', language: 'fr-FR', gender: 'female' },
];

runSpeechEngineConformance(test, {
  name: 'OpenAI-compatible (fake server)',
  voice: 'af_heart',
  async create() {
    const server = await startFakeSpeechServer();
    const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES, timeoutMs: 10_000 });
    return { engine, pending: () => server.open(), close: () => server.close() };
  },
});

async function withServer(t: { teardown(fn: () => Promise<void>): void }): Promise<FakeSpeechServer> {
  const server = await startFakeSpeechServer();
  t.teardown(() => server.close());
  return server;
}

async function collect(source: AsyncIterable<PcmChunk>): Promise<PcmChunk[]> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
}

const say = (text: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ text, voice: 'af_heart', speed: 1, ...extra });

test('each sentence is one request with model, voice, input, pcm and speed; audio is decoded exactly', async (t) => {
  const server = await withServer(t);
  const engine = createOpenAiSpeechEngine({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-test-123', model: 'kokoro', voices: VOICES });
  const chunks = await collect(engine.synthesize(say('Hello there. How are you today?', { speed: 1.15 })));
  t.deepEqual(
    server.requests.map((r) => [r.path, r.headers.authorization, r.headers['content-type'], r.body]),
    ['Hello there.', 'How are you today?'].map((input) => [
      '/v1/audio/speech',
      'Bearer sk-test-123',
      'application/json',
      { model: 'kokoro', input, voice: 'af_heart', response_format: 'pcm', speed: 1.15 },
    ]),
  );
  const expected = [...fakePcm('Hello there.', 'af_heart', 1.15), ...fakePcm('How are you today?', 'af_heart', 1.15)];
  t.deepEqual(chunks.flatMap((c) => Array.from(c.samples)), expected);
  t.true(chunks.every((c) => c.sampleRate === FAKE_RATE && c.channels === 1));
  t.deepEqual(
    chunks.flatMap((c) => (c.marker ? [c.marker] : [])),
    [
      { kind: 'sentence', index: 0, text: 'Hello there.' },
      { kind: 'sentence', index: 1, text: 'How are you today?' },
    ],
  );
});

test('without apiKey no Authorization header is sent', async (t) => {
  const server = await withServer(t);
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'piper', voices: VOICES });
  await collect(engine.synthesize(say('Hi.')));
  t.is(server.requests.length, 1);
  t.false('authorization' in (server.requests[0]?.headers ?? {}));
});

for (const [status, code] of [
  [401, 'unauthorized'],
  [403, 'unauthorized'],
  [404, 'not_found'],
  [400, 'bad_request'],
  [429, 'rate_limited'],
  [500, 'server_error'],
  [502, 'server_error'],
  [503, 'warming_up'],
] as const) {
  test(`HTTP ${status} becomes OpenAiSpeechError ${code} quoting the server`, async (t) => {
    const server = await withServer(t);
    server.behave(() => ({ kind: 'status', status, message: `problem number ${status}` }));
    const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES });
    const error = await t.throwsAsync(collect(engine.synthesize(say('Hello.'))), { instanceOf: OpenAiSpeechError });
    t.is(error?.code, code);
    t.is(error?.status, status);
    t.true(error?.message.includes(`answered ${status}: problem number ${status}`), error?.message);
    t.false(error?.message.includes('sk-'), 'no secret in the message');
  });
}

test('HTTP 503 says the server is warming up, with its Retry-After (core engineWarmingUp reads it)', async (t) => {
  const server = await withServer(t);
  server.behave(() => ({ kind: 'status', status: 503, message: 'model loading', headers: { 'retry-after': '12' } }));
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES });
  const error = await t.throwsAsync(collect(engine.synthesize(say('Hello.'))), { instanceOf: OpenAiSpeechError });
  t.true(error?.warmingUp);
  t.is(error?.retryAfterSeconds, 12);
  t.is(engineWarmingUp(error), 12);
  server.behave(() => ({ kind: 'status', status: 503, message: 'model loading' }));
  t.is(engineWarmingUp(await t.throwsAsync(collect(engine.synthesize(say('Hello.'))))), 5, 'default without Retry-After');
  server.behave(() => ({ kind: 'status', status: 500, message: 'boom' }));
  t.is(engineWarmingUp(await t.throwsAsync(collect(engine.synthesize(say('Hello.'))))), null, 'a 500 is no warm-up');
});

test('a failure on a later sentence keeps the audio already yielded', async (t) => {
  const server = await withServer(t);
  server.behave((r) => (r.body.input === 'Second.' ? { kind: 'status', status: 500, message: 'boom' } : { kind: 'pcm' }));
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES });
  const seen: PcmChunk[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const chunk of engine.synthesize(say('First one. Second.'))) seen.push(chunk);
  });
  t.is((error as OpenAiSpeechError).code, 'server_error');
  t.is(seen[0]?.marker?.text, 'First one.');
  t.false(seen.some((c) => c.marker?.index === 1));
});

test('a server that does not answer in time gives a timeout error and the request is closed', async (t) => {
  const server = await withServer(t);
  server.behave(() => ({ kind: 'hang' }));
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES, timeoutMs: 150 });
  const error = await t.throwsAsync(collect(engine.synthesize(say('Hello.'))), { instanceOf: OpenAiSpeechError });
  t.is(error?.code, 'timeout');
  t.regex(error?.message ?? '', /did not answer within 150 ms/);
  await waitFor(() => server.open() === 0);
  t.is(server.open(), 0);
});

test('a body that stops arriving times out after the audio already received', async (t) => {
  const server = await withServer(t);
  server.behave(() => ({ kind: 'stall' }));
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES, timeoutMs: 1000 });
  const seen: PcmChunk[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const chunk of engine.synthesize(say('Hello.'))) seen.push(chunk);
  });
  t.is((error as OpenAiSpeechError).code, 'timeout');
  t.is(seen.reduce((n, c) => n + c.samples.length, 0), 2400, 'the 0.1 s that arrived was passed on');
  await waitFor(() => server.open() === 0);
  t.is(server.open(), 0);
});

test('a consumer slower than timeoutMs is not a time-out: only waiting for the server counts', async (t) => {
  const server = await withServer(t);
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES, timeoutMs: 1000 });
  let samples = 0;
  for await (const chunk of engine.synthesize(say('Hi there. Bye now.'))) {
    samples += chunk.samples.length;
    await new Promise((resolve) => setTimeout(resolve, 1300)); // while the next sentence's answer waits
  }
  t.is(samples, fakePcm('Hi there.', 'af_heart', 1).length + fakePcm('Bye now.', 'af_heart', 1).length);
});

test('an unreachable server and a non-PCM answer give clear errors', async (t) => {
  const server = await startFakeSpeechServer();
  const baseUrl = server.baseUrl;
  await server.close();
  const gone = createOpenAiSpeechEngine({ baseUrl, model: 'kokoro', voices: VOICES });
  const unreachable = await t.throwsAsync(collect(gone.synthesize(say('Hello.'))), { instanceOf: OpenAiSpeechError });
  t.is(unreachable?.code, 'unreachable');
  t.regex(unreachable?.message ?? '', /cannot be reached: .*ECONNREFUSED/);

  const jsonServer = await withServer(t);
  jsonServer.behave(() => ({ kind: 'json' }));
  const json = createOpenAiSpeechEngine({ baseUrl: jsonServer.baseUrl, model: 'kokoro', voices: VOICES });
  const bad = await t.throwsAsync(collect(json.synthesize(say('Hello.'))), { instanceOf: OpenAiSpeechError });
  t.is(bad?.code, 'bad_response');
});

test('aborting while the server is silent rejects with the reason and closes the request', async (t) => {
  const server = await withServer(t);
  server.behave(() => ({ kind: 'hang' }));
  const engine = createOpenAiSpeechEngine({ baseUrl: server.baseUrl, model: 'kokoro', voices: VOICES });
  const controller = new AbortController();
  const iterator = engine.synthesize(say('Hello.', { signal: controller.signal }))[Symbol.asyncIterator]();
  const next = iterator.next();
  await waitFor(() => server.open() === 1);
  const reason = new Error('caller left');
  controller.abort(reason);
  t.is(await next.catch((error: unknown) => error), reason);
  await waitFor(() => server.open() === 0);
  t.is(server.open(), 0);
});

test('options are checked when the engine is made', (t) => {
  const base = { baseUrl: 'http://127.0.0.1:1/v1', model: 'kokoro', voices: VOICES };
  t.throws(() => createOpenAiSpeechEngine({ ...base, baseUrl: 'ftp://x/v1' }), { instanceOf: RangeError });
  t.throws(() => createOpenAiSpeechEngine({ ...base, voices: [] }), { instanceOf: RangeError });
  t.throws(() => createOpenAiSpeechEngine({ ...base, voices: [{ id: 'x', name: 'X', language: 'not a tag!' }] }), {
    instanceOf: RangeError,
  });
  t.throws(() => createOpenAiSpeechEngine({ ...base, timeoutMs: 0 }), { instanceOf: RangeError });
  t.is(createOpenAiSpeechEngine({ ...base, id: 'kokoro' }).id, 'kokoro');
});

async function waitFor(condition: () => boolean): Promise<void> {
  await poll(condition, { intervalMs: 10 });
}
