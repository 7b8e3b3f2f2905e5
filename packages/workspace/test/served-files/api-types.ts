import test from '../helpers/bounded-test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The workspace's data layer is typed by src/data/api-types.d.ts, generated from the served OpenAPI document
 * (docs/decisions.md, Workspace). When a route or schema changes, this fails until the file is
 * regenerated: `npm run generate:api -w @formloom/workspace`.
 */
// Alone: generating the types holds the process for seconds, and the router's requests on kept-alive sockets
// would meet the server's keep-alive timeout (ECONNRESET).
test.serial('src/data/api-types.d.ts is what the served OpenAPI document generates', async (t) => {
  t.timeout(120_000);
  const root = join(__dirname, '..', '..', '..');
  const { generateApiTypes } = (await import(join(root, 'scripts', 'api-types-source.mjs'))) as { generateApiTypes(): Promise<string> };
  const committed = readFileSync(join(root, 'src', 'data', 'api-types.d.ts'), 'utf8');
  t.true((await generateApiTypes()) === committed, 'regenerate with `npm run generate:api -w @formloom/workspace`');
});
