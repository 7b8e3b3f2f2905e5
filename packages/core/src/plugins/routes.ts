import type { z } from 'zod';
import type { KeyScope, Principal } from '../domain/types';

/**
 * What a framework-neutral route handler receives. `params`, `query` and `headers` are strings as the
 * client sent them (header names in lower case); `body` is the parsed JSON body, already checked against
 * the route's `body` schema when it has one. `signal` aborts when the client goes away, so a long answer
 * can stop early. `principal` is `null` on public routes.
 */
export interface RouteRequest<F = unknown, B = unknown, Q = Record<string, unknown>, P extends Principal | null = Principal | null> {
  params: Record<string, string>;
  /** The query string, parsed by the route's `query` schema when it has one (typed by it with `defineRoute`). */
  query: Q;
  /** The body, parsed by the route's `body` schema when it has one (typed by it with `defineRoute`). */
  body: B;
  headers: Record<string, string | undefined>;
  /** The caller: never `null` on a route with a key scope, always `null` on a public one. */
  principal: P;
  ip: string | null;
  /**
   * The request's bytes exactly as sent, on a route that declares `rawBody` (to verify a signature over them);
   * undefined elsewhere, and when a host's own body parser consumed the request first (docs/embedding.md).
   */
  rawBody?: Uint8Array;
  /** Base URL of the mounted API (e.g. `/api/v1`), for links in answers. */
  baseUrl: string;
  signal: AbortSignal;
  /** The instance serving the request. */
  formloom: F;
}

/** A JSON answer: `body` serialised as JSON with `status` (200 by default). */
export interface JsonAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * `body` already serialized: exactly `JSON.stringify(body)` in UTF-8. The server writes these bytes rather
   * than serializing `body` again (a hot read whose JSON is kept between requests); `body` stays the answer.
   */
  serialized?: Uint8Array;
}

/**
 * A streamed answer (CSV exports, files, and later PDFs and audio): `contentType` plus the bytes as an
 * async iterable (a Node `Readable` is one) or a plain iterable. The server writes chunks as the client
 * reads them (back-pressure: the next chunk is pulled only when the previous one was taken) and stops
 * pulling, releasing the source, when the client goes away.
 */
export interface StreamAnswer {
  status?: number;
  contentType: string;
  stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  /** Offers the answer as a download under this file name (`Content-Disposition: attachment`). */
  attachment?: string;
  headers?: Record<string, string>;
}

export type RouteAnswer = JsonAnswer | StreamAnswer;

export const isStreamAnswer = (a: RouteAnswer): a is StreamAnswer => 'stream' in a && 'contentType' in a;

/**
 * How a success is documented: its status, a description, and its body: `schema` for a JSON body (a zod
 * schema of what the handler answers, rendered into the OpenAPI document), `media` for the content types
 * of a streamed answer (`text/csv`, `application/pdf`, ...). A route may have both (JSON or audio).
 */
export interface RouteSuccess {
  status: number;
  description: string;
  schema?: z.ZodType;
  media?: string[];
  /** Response headers worth documenting, by name, with what each says (`Location`, `X-RateLimit-Limit`, ...). */
  headers?: Record<string, string>;
  /** Other success answers of the route, each with its own status (e.g. 202 while the work goes on). */
  others?: Array<Omit<RouteSuccess, 'others'>>;
}

/** A request header an operation reads, documented as a header parameter of the operation. */
export interface HeaderParam {
  name: string;
  description: string;
  /** Whether a request without it is refused (default false). */
  required?: boolean;
  /** JSON Schema of the value (default `{type: 'string'}`). */
  schema?: Record<string, unknown>;
}

/**
 * One HTTP endpoint contributed by a plugin, independent of any web framework: `@formloom/express` serves
 * it and documents it in `GET /api/v1/openapi.json` exactly like the built-in endpoints.
 */
export interface PluginRoute<F = unknown, B = unknown, Q = Record<string, unknown>, S extends KeyScope | 'public' = KeyScope | 'public'> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path relative to the API mount point with `:name` parameters, e.g. `/notify/status`. */
  path: string;
  /** `public` for routes without a key; else the key scope the route needs (`forms` or `voice`). */
  scope: S;
  summary: string;
  /** OpenAPI tags (the first one groups the route in the document). */
  tags: string[];
  /** Validates the JSON body (a 400 in the documented error shape otherwise) and documents it. */
  body?: z.ZodType<B>;
  /**
   * Validates the query string (a zod object; values arrive as strings, so use `z.coerce.number()` and the
   * like) and documents each of its keys as a query parameter. The handler gets the parsed values.
   */
  query?: z.ZodType<Q>;
  /**
   * Bodies the handler reads and checks itself, by content type (documented only, not validated by the
   * router): e.g. `{'application/pdf': z.file()}` or a JSON schema the handler parses with its own messages.
   */
  accepts?: Record<string, z.ZodType>;
  /** Request headers the handler reads (`Idempotency-Key`, ...), documented as header parameters. */
  headers?: HeaderParam[];
  /**
   * The handler reads the body's bytes as sent (`req.rawBody`, at most 1 MB), whatever their type, and parses
   * them itself (a signed webhook from a payment processor); document their type with `accepts`.
   */
  rawBody?: boolean;
  /** A readable, unique name of the operation in the OpenAPI document (default: from method and path). */
  operationId?: string;
  /** Status of a success and its body (default 200, "OK", any JSON). */
  success?: RouteSuccess;
  /** Error statuses the route may answer, documented with the error shape. */
  errors?: number[];
  /** Error statuses whose body is not the error shape, with their schema. */
  errorBodies?: Record<number, z.ZodType>;
  handler(req: RouteRequest<F, B, Q, S extends 'public' ? null : Principal>): Promise<RouteAnswer>;
}
