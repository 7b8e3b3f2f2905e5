import { runWebhookTransportConformance } from '@formloom/core/testing';
import test from 'ava';
import { createFetchTransport, createHttpWebhookTransport } from '../src';

runWebhookTransportConformance(test, {
  name: 'node http transport',
  create: ({ allowPrivate }) => createHttpWebhookTransport({ allowPrivate }),
});

test('createFetchTransport, the deprecated name, is the same transport', (t) => {
  t.is(createFetchTransport, createHttpWebhookTransport);
});
