'use strict';
// Formloom instances of one deployment for the scale-out family: each a self-hosted app started by its
// launcher (as bench/lib/apps.js starts the single instance), on the same PostgreSQL database with the same
// secret key and public URL, a data directory and port of its own (docs/scaling.md, "What each setting must
// be"). The first instance's CLI makes the user and key every instance then accepts.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { freePort, startProcess, waitForHttp, runJsonCommand } = require('./process');

const ROOT = path.resolve(__dirname, '..', '..');
const APP_MAIN = path.join(ROOT, 'examples/self-hosted/dist/src/main.js');
const APP_LAUNCHER = path.join(ROOT, 'examples/self-hosted/bin/formloom-server');
const CLI_BIN = path.join(ROOT, 'packages/cli/bin/formloom.js');

// The limits stay on (their shared counters are part of the database work measured) but far above what a run
// sends from its one address and key, as in the rest of the bench.
const BENCH_LIMIT = '100000000';
const RATE_LIMITS = Object.fromEntries(
  ['PER_KEY', 'FAILED_AUTH', 'SUBMISSIONS', 'PARTIAL_UPDATES', 'UPLOADS', 'PUBLIC_READS', 'VOICE', 'VOICE_ESTIMATES'].map((n) => [`FORMLOOM_RATE_LIMIT_${n}`, BENCH_LIMIT]),
);

/**
 * A deployment's shared settings: { databaseUrl, secretKey, dataDir (each instance gets a folder in it),
 * publicUrl, appEnv, echo }. `start(name, { databaseUrl })` starts one more instance (on another address of the
 * same database when given: the bench's counting relay); `cli(...args)` runs the CLI on the database.
 */
function deployment({ databaseUrl, dataDir, publicUrl = null, appEnv = {}, echo = false }) {
  if (!fs.existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: run \`npm run build\` first`);
  const secretKey = crypto.randomBytes(32).toString('hex');
  const shared = { FORMLOOM_DATABASE_URL: databaseUrl, FORMLOOM_SECRET_KEY: secretKey, ...(publicUrl ? { FORMLOOM_PUBLIC_URL: publicUrl } : {}) };
  const cliDir = path.join(dataDir, 'cli');
  fs.mkdirSync(cliDir, { recursive: true });
  return {
    async start(name, { databaseUrl: via = databaseUrl } = {}) {
      const dir = path.join(dataDir, name);
      fs.mkdirSync(dir, { recursive: true });
      const port = await freePort();
      const proc = startProcess({
        name,
        cmd: APP_LAUNCHER,
        args: [],
        env: {
          ...shared,
          FORMLOOM_DATABASE_URL: via,
          FORMLOOM_DATA_DIR: dir,
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH || ''}`,
          PORT: String(port),
          NODE_ENV: 'production',
          // The bench's webhook receivers listen on 127.0.0.1, which the delivery guard refuses by default.
          FORMLOOM_WEBHOOK_ALLOW_PRIVATE: '1',
          ...RATE_LIMITS,
          ...appEnv,
        },
        cwd: dir,
        echo,
      });
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/readyz`, { proc, timeoutMs: 120000 });
      return { name, proc, url };
    },
    cli: (...args) => runJsonCommand([CLI_BIN, ...args], { env: { ...shared, FORMLOOM_DATA_DIR: cliDir }, cwd: cliDir }),
  };
}

/** Makes a user of `plan` and an API key for it; resolves with the key. */
async function userWithKey(cli, email, plan = 'pro') {
  await cli('user', 'create', '--email', email, '--plan', plan);
  const { api_key: apiKey } = await cli('key', 'create', '--user', email);
  if (!apiKey) throw new Error(`formloom key create printed no api_key for ${email}`);
  return apiKey;
}

module.exports = { deployment, userWithKey };
