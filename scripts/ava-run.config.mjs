/*
 * The ava configuration `npm test` runs with (scripts/test.mjs passes it as `--config`): package.json's "ava",
 * plus the order of the files, longest first by the wall time each took in an earlier run. Three files run at a
 * time on two cores: a long file that starts last holds the run open after every other file ended; started
 * first, it runs beside the short ones (docs/testing.md, "Order"). `npx ava <file>` keeps package.json's
 * configuration as it is.
 *
 * The times come from the last full run on this checkout (node_modules/.cache/formloom/test-durations.json,
 * written by scripts/test.mjs) and else from scripts/test-durations.json (committed, refreshed by copying the
 * former). A file in neither counts as the median of the known ones.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LOCAL_DURATIONS = join(root, 'node_modules/.cache/formloom/test-durations.json');
export const COMMITTED_DURATIONS = join(root, 'scripts/test-durations.json');

function read(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).files ?? {} : {};
  } catch {
    return {}; // A broken file orders nothing: the run is the same, only its order is not.
  }
}

const durations = { ...read(COMMITTED_DURATIONS), ...read(LOCAL_DURATIONS) };
const known = Object.values(durations).sort((a, b) => a - b);
const median = known.length ? known[Math.floor(known.length / 2)] : 0;
const weight = (file) => durations[relative(root, file)] ?? median;

export default {
  ...JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).ava,
  sortTestFiles: (a, b) => weight(b) - weight(a) || a.localeCompare(b),
};
