import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { FakeStripe } from '@formloom/payments-stripe/testing';
import { startAppProcess } from './helpers/app-process';

/*
 * Voice credits bought through Checkout survive kill -9 (docs/payments.md, "Webhooks"): the app, configured with
 * FORMLOOM_STRIPE_* and pointed at FakeStripe (a local server speaking Stripe's API), is killed with SIGKILL while
 * Stripe's signed checkout.session.completed is being delivered, at whatever point that falls (before the event's
 * transaction, inside it, or after its commit), then restarted; Stripe's retries of the same event add the credits
 * exactly once.
 */
test('kill -9 while checkout.session.completed is delivered, then Stripe retries: the credits are added once', async (t) => {
  t.timeout(180_000);
  const fake = await FakeStripe.start();
  const dir = mkdtempSync(join(tmpdir(), 'formloom-pay-crash-'));
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
  const cli = async (...argv: string[]) => JSON.parse((await runCli(argv, env)).stdout);
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
