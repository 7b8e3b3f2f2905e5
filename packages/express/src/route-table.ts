import type { Request } from 'express';
import type { z } from 'zod';
import type { Formloom, JsonAnswer, KeyScope, Principal, StreamAnswer } from '@formloom/core';

/**
 * What a handler receives: the request (to read, never to answer), the instance, the caller when the route
 * is authenticated, and a signal that aborts when the client goes away.
 */
export interface RouteContext {
  req: Request;
  formloom: Formloom;
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
}

/**
 * One endpoint: how it is served and how it is documented. The same `body` schema that the service
 * validates with is rendered into the OpenAPI document.
 */
export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express 5 path relative to the mount point, e.g. `/forms/:id`. */
  path: string;
  summary: string;
  tag: string;
  /** All OpenAPI tags when there are several (default `[tag]`). */
  tags?: string[];
  /** `null` for public routes; else the key scope the route needs. */
  scope: KeyScope | null;
  body?: z.ZodType;
  query?: QueryParam[];
  /** Status of a success and a description of its body (`contentType` when not JSON: a binary file). */
  success: { status: number; description: string; contentType?: string };
  errors?: number[];
  /** Of `errors`, those answered with the plain `{error: "<message>"}` shape. */
  plainErrors?: number[];
  /** Default: made from the method and path. */
  operationId?: string;
  /** A body the handler reads itself, by media type (a zod schema for JSON, none for binary). */
  accepts?: { contentType: string; schema?: z.ZodType }[];
  handler(ctx: RouteContext): Promise<RouteResult>;
}

export const json = (body: unknown, status = 200): RouteResult => ({ status, body });

/** A path parameter of the request as a string. */
export const param = (ctx: Pick<RouteContext, 'req'>, name: string) => String(ctx.req.params[name]);
