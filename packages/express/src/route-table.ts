import type { Request } from 'express';
import type { z } from 'zod';
import type { Formloom, HeaderParam, JsonAnswer, KeyScope, Principal, RouteSuccess, StreamAnswer } from '@formloom/core';

/**
 * What a handler receives: the request (to read, never to answer), the instance, the caller when the route
 * is authenticated, and a signal that aborts when the client goes away.
 */
export interface RouteContext {
  req: Request;
  formloom: Formloom;
  /** The caller; null on public routes, and on `anonymous` routes called without credentials. */
  principal: Principal;
  signal: AbortSignal;
}

/**
 * A handler's answer: a JSON body with a status (200 by default), or a streamed answer (a content type
 * plus an async iterable or readable stream) that the router writes with back-pressure. Handlers never
 * write the response themselves.
 */
export type RouteResult = JsonAnswer | StreamAnswer;

export interface QueryParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  /** Whether a request without it is refused (default false). */
  required?: boolean;
}

/**
 * One endpoint: how it is served and how it is documented. The same `body` schema that the service
 * validates with is rendered into the OpenAPI document.
 */
export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express 5 path relative to the mount point, e.g. `/forms/:id`. */
  path: string;
  /** A readable, unique name of the operation (default: from method and path). */
  operationId?: string;
  summary: string;
  tag: string;
  /** All OpenAPI tags when there are several (default `[tag]`). */
  tags?: string[];
  /** `null` for public routes; else the key scope the route needs. */
  scope: KeyScope | null;
  /** Only a signed-in session may call it, not a key (docs/accounts.md); documented with the cookie scheme alone. */
  sessionOnly?: boolean;
  /**
   * With a `scope`: a request without credentials is served too, with a null `principal`, and the handler
   * proves access another way (a signed link); this sentence says how, in the OpenAPI document. Credentials
   * that are sent are checked as on any authenticated route (a bad key is still a 401).
   */
  anonymous?: string;
  body?: z.ZodType;
  /** Bodies the handler reads itself, by content type (documented only), e.g. a multipart upload. */
  accepts?: Record<string, z.ZodType>;
  /** The body is read as bytes, unparsed, whatever its type (`req.body` is a Buffer): a signed webhook. */
  rawBody?: boolean;
  query?: QueryParam[];
  /** Request headers the handler reads, documented as header parameters. */
  headers?: HeaderParam[];
  /** Status of a success and its body: a zod schema of the JSON answer, or the media types of a stream. */
  success: RouteSuccess;
  errors?: number[];
  /** Error statuses whose body is not the error shape, with their schema. */
  errorBodies?: Record<number, z.ZodType>;
  handler(ctx: RouteContext): Promise<RouteResult>;
}

export const json = (body: unknown, status = 200): RouteResult => ({ status, body });

/** A path parameter of the request as a string. */
export const param = (ctx: Pick<RouteContext, 'req'>, name: string) => String(ctx.req.params[name]);
