/*
 * What the workspace serves, without a browser: the router's single page and hashed files, the API types the data
 * layer is built on, and the words of the bundles. One test file, one process, for what were three. Each part
 * declares its tests with the bounded `test` of helpers/bounded-test.ts as it is imported; the router takes the
 * entry's one app (helpers/shared.ts; docs/testing.md, "Merged test files").
 */
import './served-files/router';
import './served-files/api-types';
import './served-files/plain-words';
