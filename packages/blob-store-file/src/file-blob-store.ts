import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, rmdir, writeFile, readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { BlobReadStream, BlobStore } from '@formloom/core';

/**
 * File systems refuse names over 255 bytes, and a key segment (an upload's file name) can be longer in
 * UTF-8: such a segment is stored under its SHA-256 instead, leaving room for the `.type` and `.tmp`
 * suffixes. The mapping is fixed, so reads find what writes stored.
 */
const MAX_SEGMENT_BYTES = 200;
const onDisk = (segment: string) =>
  Buffer.byteLength(segment) > MAX_SEGMENT_BYTES ? `~${createHash('sha256').update(segment).digest('hex')}` : segment;

/** Pieces of a streamed read. */
const READ_PIECE_BYTES = 256 * 1024;

/** What a read of a key that cannot exist on disk fails with: the blob is simply not there. */
const ABSENT = new Set(['ENOENT', 'ENAMETOOLONG', 'ENOTDIR', 'EISDIR']);

/**
 * Blobs as files under `root` (the self-hosted default: `$FORMLOOM_DATA_DIR/blobs`). Each blob has a
 * `.type` sidecar with its content type; writes go to a temporary name first, so a reader never sees
 * half a file. Declares `streams`: a streamed read keeps its open file, so a blob replaced while it is read
 * still comes whole.
 */
export function createFileBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const segments = key.split('/');
    if (!key || segments.some((s) => !s || s === '.' || s === '..' || s.includes('\u0000'))) throw new Error(`Invalid blob key: ${key}`);
    const p = resolve(base, ...segments.map(onDisk));
    if (!p.startsWith(base + sep)) throw new Error(`Invalid blob key: ${key}`);
    return p;
  };
  const countFiles = async (dir: string): Promise<number> => {
    let n = 0;
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) n += await countFiles(join(dir, e.name));
      else if (!e.name.endsWith('.type')) n += 1;
    }
    return n;
  };
  /** Where a write goes before its rename: a reader never sees half a file. */
  const prepare = async (key: string) => {
    const p = pathOf(key);
    // Owner-only: respondents' files are nobody else's business on a shared machine (docs/security.md).
    await mkdir(dirname(p), { recursive: true, mode: 0o700 });
    return { p, tmp: `${p}.${randomBytes(6).toString('hex')}.tmp` };
  };
  /** Folders from `dir` up that a failed write left empty (it made them): nothing of it stays behind. */
  const removeEmptyFolders = async (dir: string) => {
    for (let d = dir; d.startsWith(base + sep); d = dirname(d)) {
      // Fails (and stops) at the first folder that holds something, such as another write's folder.
      if (!(await rmdir(d).then(() => true, () => false))) return;
    }
  };
  const writeType = (p: string, contentType: string) => writeFile(`${p}.type`, contentType, { mode: 0o600 });
  return {
    streams: {
      async putStream(key, source, contentType) {
        const { p, tmp } = await prepare(key);
        let size = 0;
        const counted = (async function* () {
          for await (const piece of source) {
            size += piece.byteLength;
            yield piece;
          }
        })();
        try {
          // pipeline pulls the next piece only when the file has taken the last one (back-pressure).
          await pipeline(Readable.from(counted), createWriteStream(tmp, { mode: 0o600 }));
          // The type only once the bytes are all there: a failed source leaves the previous blob as it was.
          await writeType(p, contentType);
          await rename(tmp, p);
        } catch (e) {
          await rm(tmp, { force: true });
          await removeEmptyFolders(dirname(p));
          throw e;
        }
        return { size };
      },
      async getStream(key): Promise<BlobReadStream | null> {
        const p = pathOf(key);
        let handle;
        try {
          // The open file keeps its bytes even when a put renames a new file over it.
          handle = await open(p, 'r');
        } catch (e) {
          if (ABSENT.has((e as NodeJS.ErrnoException).code ?? '')) return null;
          throw e;
        }
        const fh = handle;
        try {
          const [{ size }, contentType] = await Promise.all([fh.stat(), readFile(`${p}.type`, 'utf8').catch(() => 'application/octet-stream')]);
          const body = (async function* () {
            try {
              yield* fh.createReadStream({ highWaterMark: READ_PIECE_BYTES, autoClose: false });
            } finally {
              await fh.close();
            }
          })();
          return { size, contentType, body };
        } catch (e) {
          await fh.close();
          throw e;
        }
      },
    },
    async put(key, data, contentType) {
      const { p, tmp } = await prepare(key);
      await writeType(p, contentType);
      await writeFile(tmp, data, { mode: 0o600 });
      await rename(tmp, p);
    },
    async get(key) {
      const p = pathOf(key);
      try {
        const [data, type] = await Promise.all([readFile(p), readFile(`${p}.type`, 'utf8').catch(() => 'application/octet-stream')]);
        return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), contentType: type };
      } catch (e) {
        if (ABSENT.has((e as NodeJS.ErrnoException).code ?? '')) return null;
        throw e;
      }
    },
    async deletePrefix(prefix) {
      const trimmed = prefix.replace(/\/+$/, '');
      const p = pathOf(trimmed);
      const n = await countFiles(p);
      // A write into the folder while it is removed makes rmdir fail (ENOTEMPTY): Node retries that.
      await rm(p, { recursive: true, force: true, maxRetries: 5 });
      return n;
    },
  };
}
