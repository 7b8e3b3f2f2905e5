export * from './storage-conformance';
export {
  at,
  makeApiKey,
  makeAttempt,
  makeDelivery,
  makeForm,
  makeMember,
  makeOutboxItem,
  makeQuestion,
  makeResponse,
  makeTeam,
  makeUser,
  makeVersion,
  uid,
} from './storage/fixtures';
export * from './mailer-conformance';
