import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Request and response classes for `http.createServer` whose instances are born with an Express app's
 * prototypes (docs/embedding.md, "Serving an Express app fast"; figures in docs/benchmarks.md, "The cached read").
 *
 * Why: Express gives every request and response the app's prototypes with `Object.setPrototypeOf` as it
 * starts handling them. Measured on Node 20 (`--trace-gc-nvp`): with that call a quarter to half of what
 * each request allocates survives its young-generation collection and is promoted to the old generation,
 * where only a full collection frees it; a bare Express "hello" app peaks at 115 MB and answers 40% as many
 * requests as the same app served this way (69 MB). When the prototype is already the app's,
 * Express's call changes nothing, and what a request allocates dies young.
 */
export interface ExpressServerClasses {
  /** For `createServer({ IncomingMessage })`: an `http.IncomingMessage` with the app's request prototype. */
  readonly IncomingMessage: typeof IncomingMessage;
  /** For `createServer({ ServerResponse })`: an `http.ServerResponse` with the app's response prototype. */
  readonly ServerResponse: typeof ServerResponse;
  /**
   * Makes `app.request` and `app.response` these classes' prototypes (their own properties, such as `app`,
   * are carried over). Call once, before the server hands the app its first request; the server may be
   * created (and listen) before the app exists.
   */
  attach(app: Express): void;
}

type Prototypes = { request: object; response: object };

/** Moves `from`'s own properties onto `to`, then puts `to` in `from`'s place in the prototype chain. */
function adopt(to: object, from: object) {
  Object.setPrototypeOf(to, Object.getPrototypeOf(from));
  for (const key of Reflect.ownKeys(from)) Object.defineProperty(to, key, Object.getOwnPropertyDescriptor(from, key)!);
}

/** Fresh classes for one server and one app (each app has its own prototypes). */
export function expressServerClasses(): ExpressServerClasses {
  class FormloomIncomingMessage extends IncomingMessage {}
  class FormloomServerResponse<Req extends IncomingMessage = IncomingMessage> extends ServerResponse<Req> {}
  let attached: Express | null = null;
  return {
    IncomingMessage: FormloomIncomingMessage,
    ServerResponse: FormloomServerResponse,
    attach(app) {
      if (attached === app) return;
      if (attached) throw new Error('expressServerClasses(): these classes are already attached to another app');
      const own = app as unknown as Prototypes;
      adopt(FormloomIncomingMessage.prototype, own.request);
      adopt(FormloomServerResponse.prototype, own.response);
      own.request = FormloomIncomingMessage.prototype;
      own.response = FormloomServerResponse.prototype;
      attached = app;
    },
  };
}
