import test from 'ava';
import { googleChatMessageId, slackPlugin } from '../src';
import { fakeChats, type Service } from './helpers/fake-chats';
import { startPluginHost, until, type TestInstance } from '@formloom/self-hosted/dist/src/testing';

/*
 * The chat integrations end to end (docs/integrations.md): configured through the API, each completed
 * response delivered through the outbox to a local stand-in of each service's incoming webhook, in its
 * format; a service that fails and comes back gets every message once. SQLite only: the plugin adds no
 * storage or routes (the framework's tests run on both databases).
 */

const TYPES: Array<[string, Service]> = [['slack', 'slack'], ['discord', 'discord'], ['microsoft-teams', 'teams'], ['google-chat', 'gchat']];

let inst: TestInstance;
let chats: Awaited<ReturnType<typeof fakeChats>>;
test.before(async () => {
  [inst, chats] = await Promise.all([startPluginHost([slackPlugin()], 'sqlite'), fakeChats()]);
});
test.after.always(async () => {
  await inst?.close();
  await chats?.close();
});

async function formWithChats(key: string, title: string) {
  const form = (await inst.call('POST', '/api/v1/forms', {
    title,
    published: true,
    questions: [
      { type: 'short_text', title: 'Name' },
      { type: 'dropdown', title: 'City', properties: { choices: [{ label: 'Berlin' }, { label: 'Lima' }] } },
      { type: 'yes_no', title: 'Gift wrap?' },
      { type: 'short_text', title: 'Private note' },
    ],
  }, key)).body;
  const [name, city, wrap] = form.questions;
  const integrations: Record<string, any> = {};
  for (const [type, service] of TYPES) {
    const r = await inst.call('POST', `/api/v1/forms/${form.id}/integrations`, {
      type,
      config: { webhook_url: chats.url(service) },
      fields: [{ question_id: city.id, name: 'Where' }, { question_id: name.id }, { question_id: wrap.id }],
    }, key);
    if (r.status !== 201) throw new Error(r.text);
    integrations[service] = r.body;
  }
  return { form, integrations };
}

const submit = (form: any, name: string) =>
  inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, {
    answers: [
      { question_id: form.questions[0].id, value: name },
      { question_id: form.questions[1].id, value: 'Berlin' },
      { question_id: form.questions[2].id, value: true },
      { question_id: form.questions[3].id, value: 'do not share' },
    ],
  }, null);

test.serial('each service gets a message in its own format with the chosen answers; Send test shows its answer', async (t) => {
  const u = await inst.user();
  const types = (await inst.call('GET', '/api/v1/integrations/types', undefined, u.key)).body.types;
  t.deepEqual(types.map((x: any) => x.type).sort(), ['discord', 'google-chat', 'microsoft-teams', 'slack']);
  t.like(types.find((x: any) => x.type === 'slack').fields[0], { key: 'webhook_url', secret: true, required: true });

  const { form, integrations } = await formWithChats(u.key, 'Orders');
  const tests = await Promise.all(TYPES.map(([, s]) => inst.call('POST', `/api/v1/forms/${form.id}/integrations/${integrations[s].id}/test`, undefined, u.key)));
  t.deepEqual(tests.map((r) => [r.body.ok, r.body.response_code]), [[true, 200], [true, 200], [true, 202], [true, 200]]);
  t.is(tests[0]!.body.response_excerpt, 'ok');
  t.regex(tests[1]!.body.response_excerpt, /"channel_id":"1"/);
  for (const s of ['slack', 'discord', 'teams', 'gchat'] as Service[]) chats.received[s].length = 0;

  const sub = await submit(form, 'Ada <@here>');
  t.is(sub.status, 201);
  await until(() => TYPES.every(([, s]) => chats.received[s].length === 1));
  const link = `/forms/${form.id}/results/${sub.body.id}`;

  const slack = chats.received.slack[0];
  t.is(slack.text, 'New response to Orders');
  t.deepEqual(slack.blocks.filter((b: any) => b.type === 'section').map((b: any) => b.text.text), ['*Where*\nBerlin', '*Name*\nAda &lt;@here&gt;', '*Gift wrap?*\nYes']);
  t.true(slack.blocks.at(-1).elements[0].url.endsWith(link));

  const embed = chats.received.discord[0].embeds[0];
  t.deepEqual(embed.fields, [{ name: 'Where', value: 'Berlin', inline: false }, { name: 'Name', value: 'Ada <@here>', inline: false }, { name: 'Gift wrap?', value: 'Yes', inline: false }]);
  t.deepEqual(chats.received.discord[0].allowed_mentions, { parse: [] }, 'an answer cannot ping the channel');
  t.true(embed.url.endsWith(link));

  const card = chats.received.teams[0].attachments[0].content;
  t.deepEqual(card.body[1].facts, [{ title: 'Where', value: 'Berlin' }, { title: 'Name', value: 'Ada <@here>' }, { title: 'Gift wrap?', value: 'Yes' }]);
  t.true(card.actions[0].url.endsWith(link));

  const gchat = chats.received.gchat[0].cardsV2[0].card;
  t.deepEqual(gchat.sections[0].widgets.map((w: any) => [w.decoratedText.topLabel, w.decoratedText.text]), [['Where', 'Berlin'], ['Name', 'Ada &lt;@here&gt;'], ['Gift wrap?', 'Yes']]);
  t.true(gchat.sections[1].widgets[0].buttonList.buttons[0].onClick.openLink.url.endsWith(link));

  const all = JSON.stringify(chats.received);
  t.false(all.includes('do not share'), 'unmapped answers stay home');
});

test.serial('services that fail and come back get every message once', async (t) => {
  const u = await inst.user();
  const { form, integrations } = await formWithChats(u.key, 'Rooms');
  const before = Object.fromEntries(TYPES.map(([, s]) => [s, chats.received[s].length])) as Record<Service, number>;
  chats.fail('slack', [503, 503]);
  chats.fail('discord', [429]);
  chats.fail('teams', [500]);
  chats.fail('gchat', [503, 429]);
  const names = ['Zoe Quist', 'Yann Vex', 'Xia Wu'];
  for (const n of names) t.is((await submit(form, n)).status, 201);
  await until(async () => {
    await inst.dueNow();
    return TYPES.every(([, s]) => chats.received[s].length - before[s] >= names.length);
  });
  await inst.settled();
  const named = (s: Service) =>
    chats.received[s].slice(before[s]).map((m) => {
      const text = JSON.stringify(m);
      return names.find((n) => text.includes(`${n}`)) ?? '?';
    });
  for (const [, s] of TYPES) t.deepEqual(named(s).sort(), [...names].sort(), `${s}: none lost, none twice`);
  const log = (await inst.call('GET', `/api/v1/forms/${form.id}/integrations/${integrations.slack.id}/deliveries`, undefined, u.key)).body.deliveries;
  t.is(log.length, 3);
  t.true(log.every((d: any) => d.status === 'delivered'));
  t.is(log.reduce((n: number, d: any) => n + d.attempts, 0), 5, 'two failed attempts, each retried');
  t.true(log.some((d: any) => d.attempts > 1 && d.response_excerpt === 'ok'));
});

test.serial('a message the service refuses is final and says why', async (t) => {
  const u = await inst.user();
  const form = (await inst.call('POST', '/api/v1/forms', { title: 'Mixed up', published: true, questions: [{ type: 'short_text', title: 'Name' }] }, u.key)).body;
  // A Discord integration given a Slack URL: Slack refuses the embed (no text, no blocks).
  const i = (await inst.call('POST', `/api/v1/forms/${form.id}/integrations`, { type: 'discord', config: { webhook_url: chats.url('slack') } }, u.key)).body;
  await inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] }, null);
  const failed = await until(async () => (await inst.call('GET', `/api/v1/forms/${form.id}/integrations/${i.id}/deliveries`, undefined, u.key)).body.deliveries.find((d: any) => d.status === 'failed'));
  t.like(failed, { attempts: 1, response_code: 400, error: 'HTTP 400: no_text', next_attempt_at: null });
});

test.serial('a retry after a restart that may follow a message already posted: Google Chat refuses the repeat by its id, the others post again', async (t) => {
  const types = slackPlugin().integrations!;
  const ctx = { http: { postJson: (url: string, value: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) }).then(async (r) => ({ status: r.status, headers: {}, body: await r.text() })) } } as never;
  const delivery = (service: Service, maybeDelivered: boolean) =>
    ({
      id: 'ind_AbC_123', event: 'response.submitted', attempt: maybeDelivered ? 2 : 1, maybeDelivered,
      integration: { id: 'int_1', type: service, name: service, form_id: 'frm_1' }, config: {}, secrets: { webhook_url: chats.url(service) },
      form: { id: 'frm_1', title: 'Crash' }, answers: [{ question_id: 'q1', name: 'Name', title: 'Name', type: 'short_text', value: 'Crash Ada', text: 'Crash Ada' }],
      payload: { response_id: 'rsp_crash', submitted_at: '2026-12-06T07:30:00.000Z', response_url: 'https://forms.example/r' },
    }) as never;
  const gchat = types.find((i) => i.type === 'google-chat')!;
  t.true(gchat.deduplicates);
  t.is(googleChatMessageId('ind_AbC_123'), googleChatMessageId('ind_AbC_123'));
  t.regex(googleChatMessageId('ind_AbC_123'), /^client-[0-9a-f]{56}$/, "within Google's 63 characters");
  const posted = () => chats.received.gchat.filter((m) => JSON.stringify(m).includes('Crash Ada')).length;
  // The first attempt reached the space; the instance stopped before it recorded that.
  t.like(await gchat.deliver(delivery('gchat', false), ctx), { ok: undefined, status: 200 });
  const retried = await gchat.deliver(delivery('gchat', true), ctx);
  t.like(retried, { ok: true, status: 409 });
  t.regex(retried.body ?? '', /ALREADY_EXISTS/);
  t.is(posted(), 1, 'one message in the space');
  // Slack's incoming webhooks take no key: the retry posts again (the log says it may appear twice).
  const slack = types.find((i) => i.type === 'slack')!;
  t.falsy(slack.deduplicates);
});
