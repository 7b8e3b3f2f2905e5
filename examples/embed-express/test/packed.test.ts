import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { closure, installApp, pack, packWrites, ROOT } from './packed-host';

const guide = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');

/** The install line of docs/embedding.md: `npm install express pg ./formloom-....tgz ...`. */
function installFromGuide(): string[] {
  const line = /^\$ npm install (express .*\.tgz)$/m.exec(guide)?.[1];
  if (!line) throw new Error('docs/embedding.md: no "$ npm install express ... .tgz" line');
  return line.split(/\s+/);
}

/** The smallest host of docs/embedding.md, as written there, listening on a free port instead of 4000. */
function hostFromGuide(): string {
  const block = /## The smallest host[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/embedding.md: no js block under "The smallest host"');
  const listen = "app.listen(4000, () => console.log('host on http://localhost:4000'))";
  if (!block.includes(listen)) throw new Error(`docs/embedding.md: the host no longer calls ${listen}`);
  return block.replace(listen, "app.listen(0, () => console.log('host on http://localhost:' + server.address().port))");
}

/** One GET on its own connection (no pooled connection the host may have closed meanwhile). */
function httpGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolveGet, reject) => {
    get(url, { headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolveGet({ status: res.statusCode!, text }));
    }).on('error', reject);
  });
}

/** node-postgres, untyped here (no @types/pg): only what the test uses. */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
const { Client } = require('pg') as { Client: new (options: { connectionString: string }) => PgClient };

const PG = process.env.FORMLOOM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

test('npm pack leaves no file in the checkout; npm install of the tarballs the guide names makes an app that runs the smallest host on PostgreSQL, and npx formloom', async (t) => {
  t.timeout(600_000);
  const args = installFromGuide();
  const named = args.filter((a) => a.endsWith('.tgz')).map((a) => a.replace(/^\.\//, ''));
  const { dir, packed, before, after } = await pack(closure(['@formloom/express', '@formloom/storage-typeorm', '@formloom/cli']), packWrites);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The prepack of each package copies the root LICENSE into it for the tarball, the postpack removes it: the copy
  // is git-ignored, so only a look at the folders finds one left behind (by this pack or an earlier one).
  t.deepEqual(after, before, 'npm pack leaves the checkout as it was');
  t.deepEqual(before!.filter((f) => /^packages\/[^/]+\/LICENSE$/.test(f)), [], 'no LICENSE copy was left by an earlier pack either');
  // The guide names every tarball the packages need, and only those.
  t.deepEqual([...named].sort(), packed.map((p) => p.filename).sort());
  for (const p of packed) {
    const files = p.files.map((f) => f.path);
    for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/src/index.js', 'dist/src/index.d.ts']) t.true(files.includes(f), `${p.name}: ${f}`);
    t.deepEqual(files.filter((f) => f.startsWith('src/') || f.includes('/test/') || f.endsWith('.tsbuildinfo')), [], p.name);
  }
  // READMEs are read on a registry's page, away from the repository: their links are absolute.
  for (const folder of readdirSync(join(ROOT, 'packages'))) {
    const readme = readFileSync(join(ROOT, 'packages', folder, 'README.md'), 'utf8');
    const relative = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)]+)\)/g)].map((m) => m[1]);
    t.deepEqual(relative, [], `packages/${folder}/README.md links by absolute URL`);
  }

  const app = await installApp(dir, named, args);
  const installed = (name: string) => existsSync(join(app, 'node_modules', name, 'package.json'));
  t.true(['@formloom/core', '@formloom/express', 'zod', 'typeorm', 'express', 'pg'].every(installed));
  t.false(installed('@formloom/pdf') || installed('pdfkit'), 'the admin CLI does not pull the PDF stack');
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@formloom/express/package.json'), 'utf8'));
  t.is(manifest.dependencies.express, undefined, "express is the host app's, not a second copy");

  // A schema of its own on the test database, as the guide advises.
  const schema = `fl_packed_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  t.teardown(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  writeFileSync(join(app, 'host.js'), hostFromGuide());
  const env = { ...process.env, DATABASE_URL: PG, FORMLOOM_SCHEMA: schema, FORMLOOM_SECRET_KEY: randomBytes(32).toString('hex') };
  const child = spawn(process.execPath, ['host.js'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const base = await new Promise<string>((resolveBase, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /host on (http:\/\/localhost:\d+)/.exec(out);
      if (m) resolveBase(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`host exited ${code}: ${stderr}`)));
  });

  t.is((await httpGet(`${base}/`)).text, 'my own home page');
  const refused = await httpGet(`${base}/api/v1/forms`);
  t.is(refused.status, 401);
  t.like(JSON.parse(refused.text), { error: { code: 'UNAUTHORIZED', status: 401 } });

  // `npx formloom`, as the guide says, on the host's database and schema.
  const cli = (...cmd: string[]) => {
    const r = spawnSync('npx', ['--no-install', 'formloom', ...cmd], {
      cwd: app,
      env: { ...process.env, FORMLOOM_DATABASE_URL: `${PG}?options=-c%20search_path%3D${schema}` },
      encoding: 'utf8',
    });
    t.is(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  cli('user', 'create', '--email', 'ada@example.com');
  const { api_key } = cli('key', 'create', '--user', 'ada@example.com');
  const listed = await httpGet(`${base}/api/v1/forms`, { Authorization: `Bearer ${api_key}` });
  t.is(listed.status, 200);
  t.like(JSON.parse(listed.text), { forms: [], total: 0 });

  child.kill('SIGTERM'); // the guide's shutdown: close the server, stop the worker, close the storage
  t.is(await exited, 0, stderr);

  // A plugin project in the same app compiles against the installed declarations with TypeScript's defaults
  // (no `types`, no skipLibCheck): core brings node's types for its Buffer and streams.
  writeFileSync(join(app, 'plugin.ts'), PLUGIN);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', target: 'es2022' }, files: ['plugin.ts'] }));
  const tscBin = join(dirname(require.resolve('typescript/package.json', { paths: [ROOT] })), 'bin', 'tsc');
  const tsc = await promisify(execFile)(process.execPath, [tscBin, '-p', app], { cwd: app, encoding: 'utf8' }).then(
    () => '',
    (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}` || String(e),
  );
  t.is(tsc, '', 'the plugin compiles');
});

const PLUGIN = `
import { z } from 'zod';
import { definePlugin, defineRoute, type OutboxItem } from '@formloom/core';

export const plugin = definePlugin({
  name: 'typed',
  version: '1.0.0',
  inTransaction: {
    'response.submitted': async ({ form_id }, tx, ctx) => ctx.enqueue('typed.job', { form_id }, tx),
  },
  outboxHandlers: (ctx) => [{ kind: 'typed.job', handle: async (item: OutboxItem) => {
    const form = await ctx.ports.storage.forms.findById(String(item.payload.form_id));
    const questions = form ? await ctx.ports.storage.questions.listByForm(form.id) : [];
    ctx.logger.info('job', { title: form?.title, questions: questions.map((q) => q.type) });
    return { status: 'delivered' as const };
  } }],
  routes: () => [
    defineRoute({
      method: 'post', path: '/typed/:id', scope: 'forms', summary: 'Typed', tags: ['Typed'],
      body: z.object({ count: z.number() }),
      handler: async (req) => ({ body: { doubled: req.body.count * 2, by: req.principal.user_id } }),
    }),
  ],
});
`;
