import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/* The self-hosted app as its own process, for tests that kill it (-9) and start it again on the same data. */

const MAIN = resolve(__dirname, '../../src/main.js');

/** Starts `main.js` with `env`; resolves once it says where it listens. */
export function startAppProcess(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((ok, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Formloom listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) ok({ child, url: m[1]! });
    });
    child.once('exit', () => fail(new Error(`exited early: ${out}`)));
  });
}

/** A port nobody listens on now (one that refuses connections, or that a server can take later). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/**
 * A server that is down: it holds its port and cuts every connection at once. A test that needs a destination to
 * fail for seconds uses it rather than a port found free: another test process took such a port meanwhile once, and
 * its server answered what was meant to fail.
 */
export function downServer(): Promise<{ port: number; close(): void }> {
  return new Promise((ok, fail) => {
    const s = createServer((socket) => socket.destroy());
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => ok({ port: (s.address() as { port: number }).port, close: () => s.close() }));
  });
}
