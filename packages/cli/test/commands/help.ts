import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { COMMANDS, describeDatabase, HELP_ENTRIES, runCli } from '../../src';

// A URL nothing listens on: help and version must not open a database at all.
const env = { FORMLOOM_DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none' };

test('--version prints the version of the package', async (t) => {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-v']) {
    t.deepEqual(await runCli([flag], env), { code: 0, stdout: `${version}\n`, stderr: '' });
  }
});

test('--help lists every command, with the database variable', async (t) => {
  for (const argv of [['--help'], ['-h'], ['help']]) {
    const r = await runCli(argv, env);
    t.is(r.code, 0);
    t.is(r.stderr, '');
    for (const c of HELP_ENTRIES) t.regex(r.stdout, new RegExp(`^  ${c.name} +${c.summary.replace(/[{}()[\]"|.*+?^$\\]/g, '\\$&')}$`, 'm'));
    t.regex(r.stdout, /FORMLOOM_DATABASE_URL/);
    t.regex(r.stdout, /FORMLOOM_DATA_DIR +the data directory/);
  }
});

test('--help lists signing verify among the commands, and it has its own help', async (t) => {
  t.true(HELP_ENTRIES.some((c) => c.name === 'signing verify'));
  t.regex((await runCli(['--help'], env)).stdout, /^  signing verify +check that this instance sealed a signed PDF/m);
  for (const argv of [['signing', '--help'], ['signing', 'verify', '--help'], ['help', 'signing', 'verify']]) {
    const r = await runCli(argv, env);
    t.is(r.code, 0, argv.join(' '));
    t.regex(r.stdout, argv.length === 2 && argv[1] === '--help' ? /^usage: formloom signing <verify>/ : /^usage: formloom signing verify <file\.pdf>\n/);
  }
  t.regex((await runCli(['signing', 'verify', '--help'], env)).stdout, /FORMLOOM_SIGNING_P12/);
});

test('every command has its help: usage, summary and each flag', async (t) => {
  for (const c of HELP_ENTRIES) {
    for (const argv of [[...c.name.split(' '), '--help'], ['help', ...c.name.split(' ')], [...c.name.split(' '), '--email', 'x@example.com', '-h']]) {
      const r = await runCli(argv, env);
      t.is(r.code, 0, argv.join(' '));
      t.is(r.stderr, '');
      t.true(r.stdout.startsWith(`usage: formloom ${c.usage}\n`), argv.join(' '));
      // Every flag the command parses (COMMANDS' options) has its line; signing verify takes none.
      const parsed = COMMANDS.find((x) => x.name === c.name)?.options ?? {};
      for (const flag of Object.keys({ ...parsed, ...c.flags })) t.regex(r.stdout, new RegExp(`^  --${flag} +\\S`, 'm'), `${c.name} --${flag}`);
    }
  }
});

test('every group of commands has its help', async (t) => {
  const groups = new Set(HELP_ENTRIES.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]!));
  t.true(groups.size >= 4);
  for (const group of groups) {
    const r = await runCli([group, '--help'], env);
    t.is(r.code, 0);
    t.regex(r.stdout, new RegExp(`^usage: formloom ${group} <`));
    for (const c of HELP_ENTRIES.filter((x) => x.name.startsWith(`${group} `))) t.true(r.stdout.includes(`  ${c.name} `), c.name);
  }
});

test('help for an unknown command exits 2 with one line', async (t) => {
  t.deepEqual(await runCli(['frobnicate', '--help'], env), {
    code: 2,
    stdout: '',
    stderr: 'formloom: unknown command: frobnicate (try: formloom --help)\n',
  });
});

test('describeDatabase hides PostgreSQL passwords and keeps the rest', (t) => {
  t.is(describeDatabase('sqlite:/srv/data/formloom.sqlite'), 'sqlite:/srv/data/formloom.sqlite');
  t.is(describeDatabase('postgres://app:hunter2@db:5432/forms'), 'postgres://app:***@db:5432/forms');
  t.is(describeDatabase('postgres://app@db/forms?password=hunter2&sslmode=require'), 'postgres://app@db/forms?password=***&sslmode=require');
  t.is(describeDatabase('postgresql://db/forms?options=-c%20search_path%3Dtenant'), 'postgresql://db/forms?options=-c search_path=tenant');
});
