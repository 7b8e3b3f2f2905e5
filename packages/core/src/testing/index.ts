/// <reference types="node" preserve="true" />
// Its declarations use Buffer and node: streams: a plugin project compiles them with node's types (a dependency).
export * from './storage-conformance';
export {
  at,
  insertResponses,
  makeApiKey,
  makeAttempt,
  makeAuditEvent,
  makeBranding,
  makeDelivery,
  makeForm,
  makeInvitation,
  makeMember,
  makeOutboxItem,
  makeQuestion,
  makeResponse,
  makeTeam,
  makeUser,
  makeVersion,
  uid,
} from './storage/fixtures';
export { makeGeneration } from './storage/credits-ledger';
export * from './mailer-conformance';
export * from './blob-store-conformance';
export * from './webhook-transport-conformance';
export * from './payment-processor-conformance';
export * from './calendar-conformance';
export * from './telephony-conformance';
export * from './plans-conformance';
export * from './speech-engine-conformance';
export * from './wait-for';
export * from './same-bytes';
export * from './translator-conformance';
export * from './bounded-test';
