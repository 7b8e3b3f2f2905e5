// The one function of pg-copy-streams used here (the package ships no types).
declare module 'pg-copy-streams' {
  import type { Readable } from 'node:stream';
  /** A query for `client.query(...)` that streams the bytes of `COPY ... TO STDOUT`. */
  export function to(text: string, options?: { highWaterMark?: number }): Readable;
}
