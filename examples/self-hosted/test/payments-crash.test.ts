import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runCli } from '@formloom/cli';
import { migratedSqliteFile } from '@formloom/storage-typeorm/testing';
import { waitFor } from '@formloom/core/testing';
import { FakeStripe } from '@formloom/payments-stripe/testing';
import { startAppProcess } from './helpers/app-process';

/** A data folder and the environment of an app process paid through FakeStripe, both removed after the test. */
async function stripeInstance(t: ExecutionContext, prefix: string) {
  const fake = await FakeStripe.start();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = {
    ...process.env,
    PORT: '0',
    FORMLOOM_DATA_DIR: dir,
    FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}`,
    FORMLOOM_STRIPE_SECRET_KEY: fake.secretKey,
    FORMLOOM_STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    FORMLOOM_STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    FORMLOOM_STRIPE_API_URL: fake.apiUrl,
  };
  // The file comes migrated (a copy of the test template): what is checked is the restart, not a new file's migrations.
  await migratedSqliteFile(join(dir, 'formloom.sqlite'));
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
  return { fake, env, cli };
}

/*
 * Voice credits bought through Checkout survive kill -9 (docs/payments.md, "Webhooks"): the app, configured with
 * FORMLOOM_STRIPE_* and pointed at FakeStripe (a local server speaking Stripe's API), is killed with SIGKILL while
 * Stripe's signed checkout.session.completed is being delivered, at whatever point that falls (before the event's
 * transaction, inside it, or after its commit), then restarted; Stripe's retries of the same event add the credits
 * exactly once.
 */
test('kill -9 while checkout.session.completed is delivered, then Stripe retries: the credits are added once', async (t) => {
  t.timeout(180_000);
  const { fake, env, cli } = await stripeInstance(t, 'formloom-pay-crash-');
  await cli('user', 'create', '--email', 'buyer@example.com', '--verified');
  const { api_key } = await cli('key', 'create', '--user', 'buyer@example.com', '--scope', 'voice');

  let app = await startAppProcess(env);
  t.teardown(() => void app.child.kill('SIGKILL'));
  const opened = await fetch(`${app.url}/api/v1/voice/credits/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 2000 }),
  }).then((r) => r.json() as Promise<any>);
  const event = fake.event('checkout.session.completed', fake.completeCheckout(opened.data.id));
  const deliver = (url: string) =>
    fetch(`${url}/api/v1/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, body: event.body });

  // The delivery is on its way (several at once, as Stripe's retries may overlap) when the process dies.
  const inFlight = Array.from({ length: 3 }, () => deliver(app.url).then((r) => r.status, () => 0));
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  await Promise.all(inFlight);

  app = await startAppProcess(env);
  for (let i = 0; i < 3; i++) t.is((await deliver(app.url)).status, 200, 'a retry after the restart is answered 200');
  const credits = await fetch(`${app.url}/api/v1/voice/credits`, { headers: { authorization: `Bearer ${api_key}` } }).then((r) => r.json() as Promise<any>);
  t.is(credits.data.balance, 2000);
  t.deepEqual(credits.data.entries.map((e: any) => [e.kind, e.amount]), [['purchase', 2000]]);
});

/*
 * A refund survives kill -9 (docs/payments.md, "Refunds"): refunds of one amount with one Idempotency-Key are on
 * their way, and the app dies once Stripe was asked for the refund (the key claimed, before or after the app
 * recorded Stripe's answer); the owner's retry after the restart, with the same key, answers the refund made, and
 * Stripe refunded once.
 */
test('kill -9 while a refund with an Idempotency-Key is made, then the retry: refunded once', async (t) => {
  t.timeout(180_000);
  const { fake, env, cli } = await stripeInstance(t, 'formloom-refund-crash-');
  await cli('user', 'create', '--email', 'shop@example.com', '--verified');
  const { api_key } = await cli('key', 'create', '--user', 'shop@example.com');
  let app = await startAppProcess(env);
  t.teardown(() => void app.child.kill('SIGKILL'));
  const call = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/v1${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const owner = { authorization: `Bearer ${api_key}` };
  const form = await call('POST', '/forms', { title: 'Deposit', published: true, questions: [{ type: 'short_text', title: 'Name', required: true }, { type: 'payment', title: 'Deposit', properties: { amount: 30, currency: 'EUR' } }] }, owner);
  const [name, deposit] = form.body.questions.map((q: { id: string }) => q.id);
  const partial = await call('POST', `/public/forms/${form.body.slug}/responses`, { answers: [{ question_id: name, value: 'Ada' }], completed: false });
  const resume = { 'x-resume-token': partial.body.resume_token };
  const started = await call('POST', `/public/forms/${form.body.slug}/responses/${partial.body.id}/payment`, { question_id: deposit }, resume);
  const pi = fake.succeed(started.body.client_secret.split('_secret_')[0]);
  t.is((await call('PATCH', `/public/forms/${form.body.slug}/responses/${partial.body.id}`, { completed: true }, resume)).status, 200);
  const refund = () => call('POST', `/forms/${form.body.id}/responses/${partial.body.id}/payments/${started.body.payment_id}/refund`, { amount: 1000 }, { ...owner, 'idempotency-key': 'refund-after-crash' });

  const inFlight = Array.from({ length: 3 }, () => refund().then((r) => r.status, () => 0));
  await waitFor(() => fake.requests.some((r) => r.path === '/v1/refunds'), { what: 'the refund asked of Stripe' });
  app.child.kill('SIGKILL');
  await new Promise((r) => app.child.once('exit', r));
  await Promise.all(inFlight);

  app = await startAppProcess(env);
  for (let i = 0; i < 2; i++) t.like(await refund(), { status: 200, body: { amount_refunded: 1000, status: 'partially_refunded' } }, 'the retry after the restart');
  t.is(fake.charges.get(pi.latest_charge)!.amount_refunded, 1000, 'refunded once at Stripe');
});
