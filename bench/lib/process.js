'use strict';
// Child processes of a bench run: servers we start and stop, and one-shot commands whose JSON we read.
const { spawn, execFile } = require('node:child_process');
const net = require('node:net');

/** A free TCP port on localhost (asked of the system, then released). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <args>` (or `cmd` if given) as a server. Output is kept (last 64 KiB) for error reports
 * and echoed with a `[name]` prefix when `echo` is true. `stop()` sends SIGTERM, then SIGKILL after `graceMs`.
 */
function startProcess({ name, args, cmd = process.execPath, env = {}, cwd, echo = false, graceMs = 8000 }) {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65536);
    if (echo) for (const line of String(chunk).split('\n')) if (line) process.stderr.write(`[${name}] ${line}\n`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exitInfo = null;
  exited.then((info) => (exitInfo = info));
  return {
    name,
    child,
    pid: child.pid,
    exited,
    get exitInfo() {
      return exitInfo;
    },
    output: () => output,
    async stop() {
      if (exitInfo) return exitInfo;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const info = await exited;
      clearTimeout(timer);
      return info;
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers 2xx; fails early if `proc` exits, or after `timeoutMs`. */
async function waitForHttp(url, { proc, timeoutMs = 30000, intervalMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc && proc.exitInfo) {
      throw new Error(`${proc.name} exited (${JSON.stringify(proc.exitInfo)}) before ${url} answered:\n${proc.output()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} did not answer within ${timeoutMs} ms${proc ? `; ${proc.name} output:\n${proc.output()}` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/** Runs `node <args>` to completion and parses the last JSON object it printed on stdout. */
function runJsonCommand(args, { env = {}, cwd, timeoutMs = 60000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`node ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      const start = stdout.indexOf('{');
      try {
        resolve(JSON.parse(stdout.slice(start)));
      } catch {
        reject(new Error(`node ${args.join(' ')} printed no JSON object:\n${stdout}\n${stderr}`));
      }
    });
  });
}

module.exports = { freePort, startProcess, waitForHttp, runJsonCommand, sleep };
