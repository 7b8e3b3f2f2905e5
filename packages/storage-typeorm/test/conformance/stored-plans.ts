import { DEFAULT_PLAN_FEATURES, storedPlans } from '@formloom/core';
import { makeUser, runPlansConformance } from '@formloom/core/testing';
import test from 'ava';
import { createTestDatabase } from '../../src/testing';

// The default plans provider reads the plan stored on the user, so it runs the suite over real storage.
runPlansConformance(test, {
  name: 'stored plans (sqlite)',
  table: DEFAULT_PLAN_FEATURES,
  async create() {
    const db = await createTestDatabase('sqlite');
    return {
      plans: storedPlans(db.storage),
      async userOnPlan(plan) {
        const user = makeUser({ plan });
        await db.storage.users.insert(user);
        return user.id;
      },
      async setPlan(userId, plan) {
        await db.storage.users.update(userId, { plan });
      },
      close: () => db.close(),
    };
  },
});
