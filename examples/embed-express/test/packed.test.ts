import { spawn, spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT, makePackedHost } from './packed-host';

/** The smallest host of docs/embedding.md, as written there, listening on a free port instead of 4000. */
function hostFromGuide(): string {
  const guide = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const block = /## The smallest host[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/embedding.md: no js block under "The smallest host"');
  const listen = "app.listen(4000, () => console.log('host on http://localhost:4000'))";
  if (!block.includes(listen)) throw new Error(`docs/embedding.md: the host no longer calls ${listen}`);
  return block.replace(listen, "app.listen(0, () => console.log('host on http://localhost:' + server.address().port))");
}

/**
 * One GET on its own connection: the host keeps idle connections 5 s, about what the CLI runs in between
 * take, and a pooled connection closed by the server as it is reused fails the request.
 */
function httpGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolveGet, reject) => {
    get(url, { headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolveGet({ status: res.statusCode!, text }));
    }).on('error', reject);
  });
}

test('the packed packages install into a fresh host that runs the embedding guide', async (t) => {
  const { dir, packed } = makePackedHost(['@formloom/express', '@formloom/storage-typeorm', '@formloom/cli'], ['express', 'sqlite3']);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const host = join(dir, 'host');

  for (const p of packed) {
    const files = p.files.map((f) => f.path);
    for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/src/index.js', 'dist/src/index.d.ts']) t.true(files.includes(f), `${p.name}: ${f}`);
    t.deepEqual(files.filter((f) => f.startsWith('src/') || f.includes('/test/') || f.endsWith('.tsbuildinfo')), [], p.name);
  }
  const manifest = JSON.parse(readFileSync(join(host, 'node_modules/@formloom/express/package.json'), 'utf8'));
  t.is(manifest.dependencies.express, undefined, 'express is the host app\'s, not a second copy');

  writeFileSync(join(host, 'host.js'), hostFromGuide());
  const child = spawn(process.execPath, ['host.js'], { cwd: host, stdio: ['ignore', 'pipe', 'pipe'] });
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

  // The packed `formloom` command on the host's database (the guide's ./data/host.sqlite).
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(host, 'node_modules/@formloom/cli/bin/formloom.js'), ...args], {
      cwd: host,
      env: { ...process.env, FORMLOOM_DATABASE_URL: 'sqlite:./data/host.sqlite' },
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

  child.kill('SIGINT'); // the guide's shutdown: close the server, then the storage; the process then ends
  t.is(await exited, 0);
});
