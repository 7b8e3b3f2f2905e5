import type { ExecutionContext, TestFn } from 'ava';
import type { PlanName } from '../domain/types';
import type { PlanFeatures, Plans } from '../ports/plans';

export interface PlansHarnessInstance {
  plans: Plans;
  /** Makes a new user on `plan` the way the host records plans (the CLI's `plan set`, a billing system...). */
  userOnPlan(plan: PlanName): Promise<string>;
  /** Moves an existing user to another plan, the same way. */
  setPlan(userId: string, plan: PlanName): Promise<void>;
  close(): Promise<void>;
}

export interface PlansHarness {
  /** Prefix of every test title. */
  name: string;
  /** The plan table the provider was configured with (the defaults: `DEFAULT_PLAN_FEATURES`). */
  table: Record<PlanName, PlanFeatures>;
  create(): Promise<PlansHarnessInstance>;
}

type PlansTest = (title: string, body: (t: ExecutionContext, instance: PlansHarnessInstance) => Promise<void>) => void;

const PLANS: PlanName[] = ['free', 'pro', 'business', 'enterprise'];
const FLAGS = ['webhooks', 'contracts', 'booking', 'data_nodes', 'payment_connect', 'auto_translate', 'audit_logs'] as const;

/** Registers the Plans port's conformance tests on `test` (ava). Every plans provider runs them. */
export function runPlansConformance(test: TestFn<any>, harness: PlansHarness): void {
  let instance: PlansHarnessInstance | undefined;
  test.before(async () => {
    instance = await harness.create();
  });
  test.after.always(async () => {
    await instance?.close();
  });
  const plansTest: PlansTest = (title, body) =>
    test(`${harness.name}: ${title}`, async (t) => {
      if (!instance) throw new Error(`The ${harness.name} plans harness was not created`);
      await body(t, instance);
    });

  plansTest('each plan gives its features from the table, complete and well-formed', async (t, { plans, userOnPlan }) => {
    for (const plan of PLANS) {
      const features = await plans.featuresFor(await userOnPlan(plan));
      t.deepEqual(features, harness.table[plan], plan);
      t.is(features.plan, plan);
      for (const flag of FLAGS) t.is(typeof features[flag], 'boolean', `${plan}.${flag}`);
      t.true(features.seats === null || (Number.isInteger(features.seats) && features.seats > 0), `${plan}.seats`);
    }
  });

  plansTest('a plan change shows on the next call', async (t, { plans, userOnPlan, setPlan }) => {
    const user = await userOnPlan('free');
    t.is((await plans.featuresFor(user)).plan, 'free');
    await setPlan(user, 'enterprise');
    t.deepEqual(await plans.featuresFor(user), harness.table.enterprise);
    await setPlan(user, 'pro');
    t.deepEqual(await plans.featuresFor(user), harness.table.pro);
  });

  plansTest('an unknown user gets the free plan, no error', async (t, { plans }) => {
    t.deepEqual(await plans.featuresFor(`usr_unknown_${Date.now().toString(36)}`), harness.table.free);
  });

  plansTest('concurrent calls for many users each get their own plan', async (t, { plans, userOnPlan }) => {
    const users = await Promise.all(Array.from({ length: 20 }, (_, i) => userOnPlan(PLANS[i % PLANS.length]!)));
    const got = await Promise.all(users.map((u) => plans.featuresFor(u)));
    t.deepEqual(
      got.map((f) => f.plan),
      users.map((_, i) => PLANS[i % PLANS.length]),
    );
  });
}
