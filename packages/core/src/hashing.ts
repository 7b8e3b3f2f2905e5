import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256: how keys, resume tokens and invitation tokens are stored and looked up. */
export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
