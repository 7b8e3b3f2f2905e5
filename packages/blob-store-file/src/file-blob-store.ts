import { mkdir, readFile, rename, rm, writeFile, readdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BlobStore } from '@formloom/core';

/**
 * Blobs as files under `root` (the self-hosted default: `$FORMLOOM_DATA_DIR/blobs`). Each blob has a
 * `.type` sidecar with its content type; writes go to a temporary name first, so a reader never sees
 * half a file.
 */
export function createFileBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const segments = key.split('/');
    if (!key || segments.some((s) => !s || s === '.' || s === '..' || s.includes('\u0000'))) throw new Error(`Invalid blob key: ${key}`);
    const p = resolve(base, ...segments);
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
  return {
    async put(key, data, contentType) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      const tmp = `${p}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(`${p}.type`, contentType);
      await writeFile(tmp, data);
      await rename(tmp, p);
    },
    async get(key) {
      const p = pathOf(key);
      try {
        const [data, type] = await Promise.all([readFile(p), readFile(`${p}.type`, 'utf8').catch(() => 'application/octet-stream')]);
        return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), contentType: type };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async deletePrefix(prefix) {
      const trimmed = prefix.replace(/\/+$/, '');
      const p = pathOf(trimmed);
      const n = await countFiles(p);
      await rm(p, { recursive: true, force: true });
      return n;
    },
  };
}
