import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { configurationProblems, ConfigurationError, startSelfHosted } from '../../src';

const MAIN = resolve(__dirname, '../../src/main.js');

/** Nine bad variables of every kind the app reads, one of them holding a password. */
const BAD = {
  PORT: 'http',
  FORMLOOM_LOG_LEVEL: 'loud',
  FORMLOOM_SMTP_URL: 'http://mailer:s3cret-pw@x',
  FORMLOOM_RATE_LIMIT_PER_KEY: '-1',
  FORMLOOM_RATE_LIMIT_UPLOADS: 'lots',
  FORMLOOM_SIGNUP: 'maybe',
  FORMLOOM_SIGNING_PADES_LEVEL: 'B-X',
  FORMLOOM_WEBHOOK_ALLOW_PRIVATE: 'yes please',
  FORMLOOM_TRUST_PROXY: 'not-an-address',
};

test('every bad variable is reported at once, one line each naming it; a password in a URL is not repeated', (t) => {
  const problems = configurationProblems(BAD, tmpdir());
  for (const name of Object.keys(BAD)) t.is(problems.filter((l) => l.startsWith(name)).length, 1, `one line for ${name}: ${problems.join(' | ')}`);
  t.is(problems.length, Object.keys(BAD).length);
  t.true(problems.includes('FORMLOOM_SMTP_URL: starts with http:// (expected smtp://[user:password@]host[:port] or smtps://...)'));
  t.false(problems.join('\n').includes('s3cret-pw'));
  t.deepEqual(configurationProblems({ FORMLOOM_SMTP_URL: 'smtps://u:p@mail.example.com', FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1', FORMLOOM_TRUST_PROXY: 'loopback, 10.0.0.0/8' }, tmpdir()), []);
  t.deepEqual(configurationProblems({ FORMLOOM_SMTP_URL: 'not a url', FORMLOOM_SIGNING_P12: '/nowhere/seal.p12' }, tmpdir()), [
    'FORMLOOM_SMTP_URL: not a URL (expected smtp://[user:password@]host[:port] or smtps://...)',
    'FORMLOOM_SIGNING_P12: no such file: /nowhere/seal.p12',
  ]);
});

test('startSelfHosted refuses them all before it opens anything', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-check-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const e = await t.throwsAsync(startSelfHosted({ ...BAD, PORT: '0', FORMLOOM_DATA_DIR: dataDir }), { instanceOf: ConfigurationError });
  t.is(e!.message.split('\n').length, Object.keys(BAD).length - 1, 'every bad one but the good PORT');
  t.false(existsSync(dataDir), 'no data dir, no database');
});

test('the process prints one line per bad variable, naming it, and exits non-zero', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'formloom-check-main-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const env: Record<string, string | undefined> = { ...process.env, ...BAD };
  delete env.FORMLOOM_DATABASE_URL;
  delete env.FORMLOOM_DATA_DIR;
  const child = spawn(process.execPath, [MAIN], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
  t.not(code, 0);
  const lines = stderr.trim().split('\n');
  t.is(lines.length, Object.keys(BAD).length, stderr);
  t.true(lines[0]!.startsWith('Formloom could not start: '));
  lines[0] = lines[0]!.slice('Formloom could not start: '.length);
  for (const name of Object.keys(BAD)) t.is(lines.filter((l) => l.startsWith(name)).length, 1, `${name}: ${stderr}`);
  t.false(stderr.includes('s3cret-pw'));
  t.false(existsSync(join(cwd, 'data')), 'nothing was made');
});

test('the Twilio variables: all three or none, the SID and the number checked, the token never repeated (docs/booking.md)', (t) => {
  const sid = `AC${'0'.repeat(32)}`;
  t.deepEqual(configurationProblems({ FORMLOOM_TWILIO_ACCOUNT_SID: sid, FORMLOOM_TWILIO_AUTH_TOKEN: 'tok-secret', FORMLOOM_TWILIO_FROM: '+15017122661' }, tmpdir()), []);
  const problems = configurationProblems({ FORMLOOM_TWILIO_ACCOUNT_SID: 'nope', FORMLOOM_TWILIO_AUTH_TOKEN: 'tok-secret', FORMLOOM_TWILIO_FROM: '0612' }, tmpdir());
  t.deepEqual(problems.map((l) => l.split(':')[0]), ['FORMLOOM_TWILIO_ACCOUNT_SID', 'FORMLOOM_TWILIO_FROM']);
  t.false(problems.join('\n').includes('tok-secret'));
  t.deepEqual(configurationProblems({ FORMLOOM_TWILIO_FROM: '+15017122661' }, tmpdir()).map((l) => l.split(':')[0]), ['FORMLOOM_TWILIO_ACCOUNT_SID', 'FORMLOOM_TWILIO_AUTH_TOKEN']);
});
