import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Request, Response, NextFunction } from 'express';
import Negotiator from 'negotiator';

const ENCODINGS = ['br', 'gzip', 'identity'];
const COPY_SUFFIX = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof COPY_SUFFIX;

/**
 * The bundle's files in brotli or gzip, from the copies scripts/bundle.mjs writes beside each of them: the
 * workspace's 550 kB of scripts cross the network in 170 kB of brotli. A request for a file with
 * copies, from a client that accepts either encoding, is answered from memory (each copy read once, at its
 * first request); anything else falls through to the static files, as they are. Brotli wins a tie, as
 * browsers weigh `gzip, deflate, br` alike (docs/workspace.md, "How it is served").
 */
export function compressedAssets(dir: string, files: readonly string[], cacheControl: string) {
  const withCopies = new Set(files.filter((f) => existsSync(join(dir, f + COPY_SUFFIX.br)) && existsSync(join(dir, f + COPY_SUFFIX.gzip))));
  const kept = new Map<string, Buffer>();
  const copy = (file: string, encoding: Encoding) => {
    const key = file + COPY_SUFFIX[encoding];
    let bytes = kept.get(key);
    if (!bytes) kept.set(key, (bytes = readFileSync(join(dir, key))));
    return bytes;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let file: string;
    try {
      file = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      return next(); // Malformed escapes: the static files answer them (400).
    }
    if (!withCopies.has(file)) return next();
    res.setHeader('Vary', 'Accept-Encoding');
    const chosen = new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS });
    if (chosen !== 'br' && chosen !== 'gzip') return next();
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Content-Encoding', chosen);
    res.type(extname(file));
    res.send(copy(file, chosen));
  };
}
