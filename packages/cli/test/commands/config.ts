import test from 'ava';
import { readConfig } from '../../src';

test('defaults: SQLite and the data dir under the current directory', (t) => {
  t.deepEqual(readConfig({}, '/srv/app'), { databaseUrl: 'sqlite:/srv/app/data/formloom.sqlite', dataDir: '/srv/app/data' });
});

test('relative SQLite paths resolve against the current directory; PostgreSQL URLs pass through', (t) => {
  t.is(readConfig({ FORMLOOM_DATABASE_URL: 'sqlite:db/x.sqlite' }, '/srv').databaseUrl, 'sqlite:/srv/db/x.sqlite');
  t.is(readConfig({ FORMLOOM_DATABASE_URL: 'sqlite:/abs/x.sqlite' }, '/srv').databaseUrl, 'sqlite:/abs/x.sqlite');
  t.is(readConfig({ FORMLOOM_DATABASE_URL: 'postgres://u@h:5432/d' }, '/srv').databaseUrl, 'postgres://u@h:5432/d');
  t.is(readConfig({ FORMLOOM_DATA_DIR: 'var' }, '/srv').dataDir, '/srv/var');
});

test('an unsupported database URL is refused', (t) => {
  t.throws(() => readConfig({ FORMLOOM_DATABASE_URL: 'mysql://h/d' }), { message: /FORMLOOM_DATABASE_URL/ });
});
