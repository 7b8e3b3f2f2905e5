import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
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
 * A destination that is down until `up()`: it holds its port from the start and cuts every connection at once, then
 * answers with `handler` (none: it stays down). A test that needs a destination to fail for seconds uses it rather than
 * a port found free: another test process took such a port meanwhile once, and its server answered what was meant to
 * fail. Cut before any byte, the connection fails the same way for HTTP and SMTP clients.
 */
export function downServer(handler?: RequestListener): Promise<{ port: number; up(): void; close(): void }> {
  let down = true;
  const s = createHttpServer(handler);
  s.on('connection', (socket) => {
    if (down || !handler) socket.destroy();
  });
  return new Promise((ok, fail) => {
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () =>
      ok({ port: (s.address() as { port: number }).port, up: () => void (down = false), close: () => void s.close() }),
    );
  });
}
