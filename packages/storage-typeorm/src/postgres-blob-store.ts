import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { checkBlobKey, type BlobReadStream, type BlobStore } from '@formloom/core';
import { dialectOf } from './sql/dialect';

export interface PostgresBlobStoreOptions {
  /** Size of the stored pieces (default 256 KiB): a streamed read or write holds about one in memory. */
  chunkBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 256 * 1024;
/** First key of the per-key advisory locks of puts (`pg_advisory_xact_lock(int, int)`): "flbl". */
const LOCK_SPACE = 0x666c626c;

/** A view of `data` that the pg driver sends as bytea (it sends Buffers so, not other Uint8Arrays). */
const asBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

async function* once(data: Uint8Array) {
  yield data;
}

/** `LIKE` pattern matching the keys that start with `prefix`. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Blobs in the PostgreSQL database itself (the self-hosted default on PostgreSQL, docs/scaling.md): every
 * instance on the database sees every blob, with nothing else to run. `blobs` maps a key to its current blob,
 * `blob_chunks` holds the bytes in pieces of `chunkBytes`, written in one transaction with the key's switch
 * to the new blob, so a blob is whole or absent and a crash mid-write leaves nothing behind. Declares `streams`:
 * a streamed write inserts piece by piece, pulling the next only when the last is stored; a streamed read
 * fetches piece by piece as the consumer pulls, holding no connection between pieces (a blob replaced or
 * deleted part-way fails the rest of that read). Needs the migrations of this package (table `blobs`).
 * @throws when `dataSource` is not a PostgreSQL one.
 */
export function createPostgresBlobStore(dataSource: DataSource, options: PostgresBlobStoreOptions = {}): BlobStore {
  const dialect = dialectOf(dataSource);
  if (dialect.kind !== 'postgres') throw new Error('createPostgresBlobStore needs a PostgreSQL data source (on SQLite, use @formloom/blob-store-file)');
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new Error(`chunkBytes: expected a positive integer, got ${chunkBytes}`);
  const blobs = dialect.table('blobs');
  const chunks = dialect.table('blob_chunks');
  const query = <T>(sql: string, params: unknown[]): Promise<T[]> => dataSource.query(sql, params);

  /** Runs `work` in a transaction on a connection of its own. */
  const inTransaction = async <T>(work: (qr: QueryRunner) => Promise<T>): Promise<T> => {
    const qr = dataSource.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
      try {
        const result = await work(qr);
        await qr.commitTransaction();
        return result;
      } catch (e) {
        if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => undefined);
        throw e;
      }
    } finally {
      await qr.release();
    }
  };

  const putStream = async (key: string, source: AsyncIterable<Uint8Array>, contentType: string) => {
    checkBlobKey(key);
    const blobId = randomUUID();
    return inTransaction(async (qr) => {
      let seq = 0;
      let size = 0;
      const insert = async (piece: Uint8Array) => {
        await qr.query(`INSERT INTO ${chunks} (blob_id, seq, data) VALUES ($1, $2, $3)`, [blobId, seq++, asBuffer(piece)]);
      };
      // Small pieces of the source are gathered up to one chunk; big ones are cut into chunks (views, no copy).
      let held: Uint8Array[] = [];
      let heldBytes = 0;
      for await (const piece of source) {
        size += piece.byteLength;
        let rest = piece;
        while (heldBytes + rest.byteLength >= chunkBytes) {
          const take = chunkBytes - heldBytes;
          const full = heldBytes === 0 ? rest.subarray(0, take) : Buffer.concat([...held, rest.subarray(0, take)]);
          await insert(full);
          held = [];
          heldBytes = 0;
          rest = rest.subarray(take);
        }
        if (rest.byteLength > 0) {
          held.push(Buffer.from(rest)); // a copy: the source may reuse its buffer once it resumes
          heldBytes += rest.byteLength;
        }
      }
      if (heldBytes > 0) await insert(Buffer.concat(held));
      // Puts of one key take turns from here to their commit, so each deletes the pieces the last one stored.
      await qr.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, key]);
      const old = (await qr.query(`SELECT blob_id FROM ${blobs} WHERE key = $1`, [key])) as Array<{ blob_id: string }>;
      await qr.query(
        `INSERT INTO ${blobs} (key, blob_id, content_type, size, pieces, stored_at) VALUES ($1, $2, $3, $4, $5, now()) ` +
          `ON CONFLICT (key) DO UPDATE SET blob_id = EXCLUDED.blob_id, content_type = EXCLUDED.content_type, ` +
          `size = EXCLUDED.size, pieces = EXCLUDED.pieces, stored_at = EXCLUDED.stored_at`,
        [key, blobId, contentType, size, seq],
      );
      if (old[0]) await qr.query(`DELETE FROM ${chunks} WHERE blob_id = $1`, [old[0].blob_id]);
      return { size };
    });
  };

  const getStream = async (key: string): Promise<BlobReadStream | null> => {
    checkBlobKey(key);
    const rows = await query<{ blob_id: string; content_type: string; size: string; pieces: number }>(
      `SELECT blob_id, content_type, size, pieces FROM ${blobs} WHERE key = $1`,
      [key],
    );
    const head = rows[0];
    if (!head) return null;
    const piece = async (seq: number): Promise<Uint8Array> => {
      const found = await query<{ data: Buffer }>(`SELECT data FROM ${chunks} WHERE blob_id = $1 AND seq = $2`, [head.blob_id, seq]);
      if (!found[0]) throw new Error(`The blob ${JSON.stringify(key)} was replaced or deleted while it was read`);
      return found[0].data;
    };
    const body = (async function* () {
      // One piece fetched ahead while the consumer takes the last one, no more.
      let next: Promise<Uint8Array> | null = head.pieces > 0 ? piece(0) : null;
      try {
        for (let seq = 0; next; seq++) {
          const current = await next;
          next = seq + 1 < head.pieces ? piece(seq + 1) : null;
          yield current;
        }
      } finally {
        // Left early: the fetch ahead has nobody to report its failure to.
        next?.catch(() => undefined);
      }
    })();
    return { contentType: head.content_type, size: Number(head.size), body };
  };

  return {
    streams: { putStream, getStream },
    async put(key, data, contentType) {
      await putStream(key, once(data), contentType);
    },
    async get(key) {
      checkBlobKey(key);
      // One statement, one snapshot: the pieces of the blob the key names at that moment, all of them.
      const rows = await query<{ content_type: string; data: Buffer | null }>(
        `SELECT b.content_type, c.data FROM ${blobs} b LEFT JOIN ${chunks} c ON c.blob_id = b.blob_id WHERE b.key = $1 ORDER BY c.seq`,
        [key],
      );
      if (rows.length === 0) return null;
      const data = Buffer.concat(rows.flatMap((r) => (r.data ? [r.data] : [])));
      return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), contentType: rows[0]!.content_type };
    },
    async deletePrefix(prefix) {
      checkBlobKey(prefix, { prefix: true });
      return inTransaction(async (qr) => {
        const gone = (await qr.query(`DELETE FROM ${blobs} WHERE key LIKE $1 ESCAPE '\\' RETURNING blob_id`, [startsWith(prefix)], true)) as {
          records: Array<{ blob_id: string }>;
        };
        const ids = gone.records.map((r) => r.blob_id);
        // A statement of its own, so it also sees the pieces of a put that committed while the first waited.
        if (ids.length > 0) await qr.query(`DELETE FROM ${chunks} WHERE blob_id = ANY($1)`, [ids]);
        return ids.length;
      });
    },
  };
}
