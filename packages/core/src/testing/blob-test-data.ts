import type { ExecutionContext } from 'ava';
import type { BlobStore } from '../ports/blob-store';

/** One conformance test: its body gets the store and a folder of keys of its own (`t/<random>/`). */
export type BlobTest = (title: string, body: (t: ExecutionContext, store: BlobStore, folder: string) => Promise<void>) => void;

/** `n` bytes of every value 0x00-0xff, differing by `seed`. */
export const bytes = (n: number, seed = 0) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
/** Whether `a` holds exactly the bytes of `b`. */
export const same = (a: Uint8Array | undefined, b: Uint8Array) => !!a && a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

