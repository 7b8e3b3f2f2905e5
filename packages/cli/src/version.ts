import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version of @formloom/cli, read from its package.json (two levels above dist/src in the package). */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
