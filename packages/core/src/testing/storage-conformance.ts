import type { TestFn } from 'ava';
import { accountTests } from './storage/accounts';
import { analyticsRollupTests } from './storage/analytics-rollup';
import { questionValueTests } from './storage/question-values';
import { creditLedgerTests } from './storage/credits-ledger';
import type { StorageHarness, StorageHarnessInstance, StorageTest } from './storage/fixtures';
import { formTests } from './storage/forms';
import { rateLimitTests } from './storage/rate-limits';
import { responseTests } from './storage/responses';
import { responseExportTests } from './storage/response-export';
import { teamAdminTests } from './storage/team-admin';
import { teamAndOutboxTests } from './storage/teams-outbox';
import { outboxOperatorTests } from './storage/outbox-operator';
import { transactionTests } from './storage/transactions';
import { uploadTests } from './storage/uploads';
import { respondentDataTests } from './storage/respondent-data';
import { webhookTests } from './storage/webhooks';
import { batchedWriteTests } from './storage/batched-writes';
import { signingTests } from './storage/signing';
import { voiceLibraryTests } from './storage/voice-library';
import { signInTests } from './storage/sign-in';
import { cacheRevisionTests } from './storage/cache-revision';
import { formListDepthTests } from './storage/form-list-depth';
import { integrationTests } from './storage/integrations';
import { paymentTests } from './storage/payments';
import { bookingTests } from './storage/bookings';
import { bookingCallTests } from './storage/booking-calls';

export type { StorageHarness, StorageHarnessInstance } from './storage/fixtures';
export type { Probe, StorageProbes, StoredRow } from './storage/probes';

/**
 * Registers the storage port's conformance tests on `test` (ava). Every adapter runs them.
 *
 * The harness is created once for the test file; tests run concurrently and each makes its own rows
 * (unique ids, emails, outbox kinds), so they never depend on one another. Besides the port's own
 * reads, the tests check what was stored through the probes the adapter supplies (`StorageProbes`: reads
 * that bypass its repositories), in the manner of Auth.js's adapter tests; they assume no table names.
 */
export function runStorageConformance(test: TestFn<any>, harness: StorageHarness): void {
  let instance: StorageHarnessInstance | undefined;
  test.before(async () => {
    instance = await harness.create();
  });
  test.after.always(async () => {
    await instance?.close();
  });
  const storageTest: StorageTest = (title, body) =>
    test(`${harness.name}: ${title}`, async (t) => {
      if (!instance) throw new Error(`The ${harness.name} storage harness was not created`);
      await body(t, instance);
    });
  accountTests(storageTest);
  creditLedgerTests(storageTest);
  formTests(storageTest);
  teamAndOutboxTests(storageTest);
  outboxOperatorTests(storageTest);
  teamAdminTests(storageTest);
  uploadTests(storageTest);
  respondentDataTests(storageTest);
  responseTests(storageTest);
  responseExportTests(storageTest);
  analyticsRollupTests(storageTest);
  questionValueTests(storageTest);
  webhookTests(storageTest);
  batchedWriteTests(storageTest);
  transactionTests(storageTest);
  rateLimitTests(storageTest);
  signingTests(storageTest);
  voiceLibraryTests(storageTest);
  signInTests(storageTest);
  cacheRevisionTests(storageTest);
  formListDepthTests(storageTest);
  integrationTests(storageTest);
  paymentTests(storageTest);
  bookingTests(storageTest);
  bookingCallTests(storageTest);
}
