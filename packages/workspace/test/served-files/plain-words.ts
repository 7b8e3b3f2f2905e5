import test from '../helpers/bounded-test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * Owner screens speak plainly (issue 36, "plain words"): no help text points to the repository's files or
 * tells people to call the API. Checked on the built browser bundles, which hold every text the workspace
 * can show and none of the source's comments.
 */
const BUNDLES = join(__dirname, '..', '..', 'browser');

function bundles(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.js')) out.push({ name: e.name, text: readFileSync(join(dir, e.name), 'utf8') });
    }
  };
  walk(BUNDLES);
  return out;
}

const DEVELOPER_WORDS: Array<[string, RegExp]> = [
  ['a documentation file of the repository', /\bdocs\/[a-z0-9-]+\.md\b/],
  ['a package folder of the repository', /(?<![\w./-])packages\/[a-z0-9-]+\//],
  ['an API call to make by hand', /\b(?:POST|PUT|GET|DELETE) \/api\//],
  ['an API key to paste', /with your API key/i],
];

test('no text of the workspace points to repository files or asks people to call the API', (t) => {
  const all = bundles();
  t.true(all.length > 3, 'the bundles are built (npm run bundle -w @formloom/workspace)');
  for (const { name, text } of all) {
    for (const [what, re] of DEVELOPER_WORDS) {
      const m = re.exec(text);
      t.is(m, null, `${name} shows ${what}: …${m ? text.slice(Math.max(0, m.index - 80), m.index + 40) : ''}…`);
    }
  }
});
