import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

/*
 * The stored form of every password an instance keeps (accounts' passwords, signing sessions' passwords):
 * scrypt with r = 8, p = 1 and N = 2^cost. The default cost, 14 (Node's default N of 16,384), keeps the form
 * stored hashes have always had, `scrypt$<salt hex>$<hash hex>`; any other cost is named in the hash,
 * `scrypt$ln=<cost>$<salt hex>$<hash hex>`, so a check reads the cost from the hash and never from the
 * instance: instances of different costs check each other's hashes.
 */

/** log2 of scrypt's N unless the instance says otherwise (`config.passwordHashCost`). */
export const DEFAULT_PASSWORD_HASH_COST = 14;
/** Past 14, scrypt needs more memory (128 × N × r bytes) than Node allows it by default (32 MiB). */
const MAX_COST = 14;

const isCost = (cost: number) => Number.isInteger(cost) && cost >= 1 && cost <= MAX_COST;

/** Refuses a `passwordHashCost` no hash could be made at, when the instance is made rather than at its first sign-up. */
export function checkPasswordHashCost(cost: number | undefined): void {
  if (cost !== undefined && !isCost(cost)) throw new Error(`passwordHashCost must be an integer from 1 to ${MAX_COST}, not ${cost}`);
}

function scrypt(password: string, salt: Buffer, keylen: number, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, { N: 2 ** cost, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))));
}

/** The stored form of `password`, with a new random salt, at `cost`. */
export async function hashPasswordAt(password: string, cost = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  checkPasswordHashCost(cost);
  const salt = randomBytes(16);
  const hash = (await scrypt(password, salt, 32, cost)).toString('hex');
  return cost === DEFAULT_PASSWORD_HASH_COST ? `scrypt$${salt.toString('hex')}$${hash}` : `scrypt$ln=${cost}$${salt.toString('hex')}$${hash}`;
}

/** Constant-time check of `password` against a stored hash; false for anything that is not one of ours. */
export async function checkPasswordHash(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return false;
  let cost = DEFAULT_PASSWORD_HASH_COST;
  if (parts.length === 4) {
    const named = /^ln=(\d{1,2})$/.exec(parts[1]!);
    if (!named) return false;
    cost = Number(named[1]);
    parts.splice(1, 1);
  }
  const [, salt, hash] = parts;
  if (parts.length !== 3 || !isCost(cost) || !salt || !hash) return false;
  const want = Buffer.from(hash, 'hex');
  if (!want.length) return false;
  const got = await scrypt(password, Buffer.from(salt, 'hex'), want.length, cost);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A hash of no password at `cost`: what a check of an unknown account runs against, to take as long. */
export const decoyPasswordHash = (cost = DEFAULT_PASSWORD_HASH_COST) =>
  cost === DEFAULT_PASSWORD_HASH_COST ? `scrypt$${'00'.repeat(16)}$${'00'.repeat(32)}` : `scrypt$ln=${cost}$${'00'.repeat(16)}$${'00'.repeat(32)}`;
