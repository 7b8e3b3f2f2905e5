import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';

/** How long requests in flight get to finish at shutdown before their connections are closed. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 5000;

export interface GracefulShutdownOptions {
  /** The instance whose outbox worker is stopped once the requests are done (it finishes its items under way). */
  formloom?: { worker: { stop(): Promise<void> } };
  /** Closed last, after the server and the worker: `storage.close()`, or whatever else the host opened. */
  close?: () => Promise<void>;
  /** The drain's limit when `close()` is given none (default `DEFAULT_DRAIN_TIMEOUT_MS`, 5 s). */
  timeoutMs?: number;
  /**
   * Why the host cannot serve now, or `null` when it can (e.g. `() => storage.notReadyReason()` of
   * `openMigratedStorage`): the readiness handler answers 503 with it. Absent: ready until `close()`.
   */
  notReadyReason?: () => Promise<string | null>;
}

export interface GracefulShutdown {
  /**
   * A readiness probe to mount (`app.get('/readyz', shutdown.readiness)`): 200 `{status: 'ready'}`, or 503
   * `{status: 'not_ready', reason}` once `close()` was called (`shutting down`) or while `notReadyReason`
   * gives a reason. A load balancer stops sending new requests; liveness is another matter.
   */
  readonly readiness: RequestHandler;
  /** Whether `close()` was called. */
  readonly closing: boolean;
  /**
   * Stops accepting connections and ends the idle ones, lets the requests in flight finish for at most
   * `timeoutMs`, then ends the connections left (upgraded ones, such as WebSockets, included), stops the outbox
   * worker and runs `close`. Called again, it returns the same promise.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * The bounded drain the self-hosted app runs at SIGTERM, for a host's own server (docs/embedding.md). Create
 * it before the server takes requests: it counts those in flight from its `request` events. Without a bound,
 * one slow client (an upload trickling in, a long export) holds a stopping process up to the server's
 * `requestTimeout`.
 */
export function gracefulShutdown(server: Server, options: GracefulShutdownOptions = {}): GracefulShutdown {
  let inFlight = 0;
  let idle: (() => void) | null = null;
  // Every socket, not only those Node's HTTP server tracks: an upgraded one (a WebSocket) leaves its list, so
  // `closeAllConnections()` never ends it and the server's 'close', which waits for every socket, never came.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (_req, res) => {
    inFlight += 1;
    // 'close' comes once per response, whether it finished or the client went away.
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    });
  });
  const drained = (ms: number) =>
    new Promise<void>((resolve) => {
      if (inFlight === 0) return resolve();
      const timer = setTimeout(resolve, ms);
      idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let closing: Promise<void> | undefined;
  const readiness: RequestHandler = async (_req, res, next) => {
    try {
      const reason = closing ? 'shutting down' : ((await options.notReadyReason?.()) ?? null);
      if (reason === null) res.json({ status: 'ready' });
      else res.status(503).json({ status: 'not_ready', reason });
    } catch (err) {
      next(err);
    }
  };
  return {
    readiness,
    get closing() {
      return closing !== undefined;
    },
    close: (closeOptions = {}) =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await drained(closeOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
        // A request still running past the limit loses its connection, and so does an upgraded one: the process
        // must stop.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        await closed;
        await options.formloom?.worker.stop();
        await options.close?.();
      })()),
  };
}
