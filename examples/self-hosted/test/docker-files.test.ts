import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import test from 'ava';

/**
 * The Docker image cannot be built here (no daemon: docs/docker.md). What can be checked is checked: the
 * Dockerfile's order and health check, and that the runtime files it keeps (.docker/runtime-files.mjs)
 * hold no sources or test builds and are enough to run the app.
 */

const ROOT = resolve(__dirname, '../../../..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

test('the Dockerfile installs from the manifests before it copies the sources, and checks /readyz', (t) => {
  const lines = dockerfile.split('\n');
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  const install = at(/^RUN npm ci$/);
  const sources = at(/^COPY \. \.$/);
  t.true(install > 0 && sources > install, 'npm ci runs before the sources are copied');
  const { workspaces, scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[]; scripts: Record<string, string> };
  // Dependencies run as published: nothing rewrites them after npm ci (docs/decisions.md, "Operations").
  t.notRegex(dockerfile, /patches\//);
  t.false('postinstall' in scripts);
  for (const ws of workspaces) {
    const copy = at(new RegExp(`^COPY ${ws}/package\\.json ${ws}/$`));
    t.true(copy > 0 && copy < install, `${ws}/package.json is copied before npm ci`);
  }
  t.true(at(/^COPY package\.json package-lock\.json \.prebuild-installrc \.\/$/) < install);
  t.regex(dockerfile, /HEALTHCHECK[^\n]*\n[^\n]*\/readyz/);
  t.notRegex(dockerfile, /\/healthz/);
  // The runtime stage takes the staged files only.
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  t.deepEqual(runtime.match(/^COPY .*$/gm), ['COPY --from=build /runtime ./']);
});

/** Packages only the tests, the build or the type checks use: none may reach the runtime image. */
const NOT_FOR_RUNTIME = ['playwright-core', 'ava', 'axe-core', 's3rver', '@apidevtools/swagger-parser', 'openapi-typescript', 'typescript', 'esbuild', '@changesets/cli'];

test('npm prune as the Dockerfile runs it keeps no test package (by the lock file\'s flags, as npm reads them)', (t) => {
  const prune = /^RUN npm prune ((?:--omit=\w+ ?)+) && node \.docker\/runtime-files\.mjs \/runtime$/m.exec(dockerfile);
  t.truthy(prune, 'the build stage prunes, then stages the runtime files');
  const omit = new Set([...prune![1]!.matchAll(/--omit=(\w+)/g)].map((m) => m[1]));
  type Entry = { dev?: boolean; optional?: boolean; devOptional?: boolean; link?: boolean };
  const { packages } = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Entry> };
  // npm removes what is flagged with an omitted type; devOptional (reached by dev and by optional edges
  // only) goes when both are omitted.
  const removed = (e: Entry) => (omit.has('dev') && e.dev) || (omit.has('optional') && e.optional) || (omit.has('dev') && omit.has('optional') && e.devOptional);
  const kept = Object.keys(packages).filter((path) => path.startsWith('node_modules/') && !removed(packages[path]!));
  const name = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  t.deepEqual(kept.filter((path) => NOT_FOR_RUNTIME.includes(name(path))), []);
  // What runs stays: the drivers, the web framework, the PDF and audio stacks.
  for (const needed of ['sqlite3', 'pg', 'express', 'typeorm', 'pdfkit']) t.true(kept.includes(`node_modules/${needed}`), needed);
});

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

test('the runtime files hold no sources or test builds, and the app runs from them', async (t) => {
  t.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-runtime-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'app');
  execFileSync(process.execPath, ['.docker/runtime-files.mjs', out, '--link-node-modules'], { cwd: ROOT });
  const kept = files(out).map((f) => relative(out, f));
  // Compiled JavaScript only: no TypeScript sources, no tests or their builds, no build configuration.
  t.deepEqual(kept.filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || /(^|\/)test\//.test(f) || f.endsWith('.tsbuildinfo') || f.endsWith('tsconfig.json')), []);
  t.deepEqual(kept.filter((f) => /^(packages|examples)\/[^/]+\/src\//.test(f)), []);
  t.true(kept.includes('examples/self-hosted/dist/src/main.js'));
  t.true(kept.includes('examples/self-hosted/bin/formloom-server'));
  t.true(kept.includes('packages/renderer/assets/formloom.css'));
  t.true(kept.includes('packages/cli/bin/formloom.js'));
  // npm keeps every workspace through the prune: the tests' browser launcher is left out with its link.
  t.deepEqual(kept.filter((f) => f.startsWith('packages/test-browser/')), []);
  t.false(existsSync(join(out, 'node_modules/@formloom/test-browser')));
  t.true(existsSync(join(out, 'node_modules/@formloom/core/package.json')));

  const data = join(dir, 'data');
  // As the image's CMD runs it: the launcher, which execs node (PATH as in the image).
  const env: Record<string, string | undefined> = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, PORT: '0', FORMLOOM_DATA_DIR: data, FORMLOOM_DATABASE_URL: `sqlite:${join(data, 'f.sqlite')}` };
  delete env.MALLOC_ARENA_MAX;
  const child = spawn('examples/self-hosted/bin/formloom-server', [], {
    cwd: out,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  const url = await new Promise<string>((ok, fail) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const m = /Formloom listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${text}`)));
  });
  t.deepEqual(await (await fetch(`${url}/readyz`)).json(), { status: 'ready' });
  // The launcher replaced itself with node (one process, which gets the signals) and set malloc's arenas.
  t.regex(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8'), /node\0.*examples\/self-hosted\/bin\/\.\.\/dist\/src\/main\.js/);
  t.true(readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0').includes('MALLOC_ARENA_MAX=2'));
  t.is((await fetch(`${url}/formloom/assets/formloom.css`)).status, 200);
  child.kill('SIGTERM');
  t.is(await new Promise((r) => child.once('exit', r)), 0);
});
