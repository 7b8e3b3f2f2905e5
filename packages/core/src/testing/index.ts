export * from './storage-conformance';
export { at, makeApiKey, makeForm, makeMember, makeOutboxItem, makeQuestion, makeTeam, makeUser, makeVersion, uid } from './storage/fixtures';
