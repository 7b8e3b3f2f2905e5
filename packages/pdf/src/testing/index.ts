/**
 * `@formloom/pdf/testing`: a timestamp authority on loopback for tests of PAdES B-T and up (no network needed).
 * Not imported by the package itself.
 */
export { startTestTsa, type TestTsa } from './test-tsa';
export { derFromContents } from './der';
