import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';

/*
 * V8's memory flags are given once, at process start, by the launcher (docs/operations.md, "Memory"); the
 * server changes none at run time (Node documents flags changed after start as able to crash or corrupt).
 */

const ROOT = resolve(__dirname, '../../../../..');
const LAUNCHER = join(ROOT, 'examples/self-hosted/bin/formloom-server');

/** Starts the launcher with `args` and `env`, waits until the server listens; resolves with node's command line. */
async function commandLineOf(t: import('ava').ExecutionContext, args: string[], extraEnv: Record<string, string> = {}): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-launcher-'));
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'f.sqlite')}`, ...extraEnv };
  if (!extraEnv.NODE_OPTIONS) delete env.NODE_OPTIONS;
  const child = spawn(LAUNCHER, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"msg":"Formloom listening on')) ok();
    });
    child.once('exit', () => fail(new Error(`the server exited early: ${out}`)));
  });
  // The launcher replaced itself with node: this pid is the server's.
  const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  child.kill('SIGTERM');
  t.is(await exited, 0, out);
  return argv;
}

test('the launcher gives V8 its memory flags on the command line, before the operator\'s own', async (t) => {
  const [plain, operator, nodeOptions] = await Promise.all([
    commandLineOf(t, []),
    commandLineOf(t, ['--max-semi-space-size=8']),
    commandLineOf(t, [], { NODE_OPTIONS: '--max-semi-space-size=8' }),
  ]);
  t.deepEqual(plain.slice(1, 3), ['--max-semi-space-size=4', '--heap-growing-percent=20']);
  t.regex(plain.at(-1)!, /examples\/self-hosted\/bin\/\.\.\/dist\/src\/main\.js$/);
  // V8 takes the last value of a flag: the operator's argument comes after the launcher's.
  t.true(operator.indexOf('--max-semi-space-size=8') > operator.indexOf('--max-semi-space-size=4'));
  // NODE_OPTIONS is read before the command line, which would win over it: the launcher leaves its own out.
  t.false(nodeOptions.includes('--max-semi-space-size=4'));
  t.true(nodeOptions.includes('--heap-growing-percent=20'));
});

/** The TypeScript sources of the published code: packages' and examples' `src`, without `testing` helpers. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'test') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

test('no server code changes V8 flags at run time', (t) => {
  const files = ['packages', 'examples'].flatMap((top) =>
    readdirSync(join(ROOT, top)).flatMap((ws) => {
      const src = join(ROOT, top, ws, 'src');
      try {
        return sources(src);
      } catch {
        return [];
      }
    }),
  );
  t.true(files.length > 100, `found ${files.length} source files`);
  // Comments may name the function (to say why it is not used); code may not call or import it.
  const uses = files.filter((f) => /\bsetFlagsFromString\b/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')));
  t.deepEqual(uses, []);
});
