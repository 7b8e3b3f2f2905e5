import { createHash, randomInt } from 'node:crypto';
import type * as AltchaModule from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import type * as AltchaShaModule from 'altcha-lib/algorithms/sha';
import { badRequest, type Formloom } from '@formloom/core';

/*
 * Spam protection without a third party (docs/respondents.md "Spam protection", docs/security.md): per form,
 * `spam_protection.honeypot` (a field people never see must come back empty) and
 * `spam_protection.proof_of_work` (an ALTCHA challenge: the page finds the counter whose SHA-256 with the
 * challenge's salt and nonce starts with the signed prefix, then sends it with the response). Challenges are
 * signed with a key derived from the instance's secret, bound to one form, expire, and are spent on first
 * use (an atomic counter shared by every instance), so a solution cannot be replayed. A bot that posts
 * straight to the submit endpoint has neither and is refused: 400 with reason `spam_suspected`.
 */

/**
 * The counter the page must find is drawn from this range: about 16,000 SHA-256 hashes on average, a few
 * tens of milliseconds on a desktop and well under a second on a phone (bench/renderer.js times it with the
 * CPU slowed 4x, as Lighthouse's mobile profile does).
 */
export const POW_COUNTER_RANGE: [number, number] = [2_000, 30_000];
/** A challenge lasts this long: a respondent may take their time over a long form. */
const CHALLENGE_SECONDS = 3 * 60 * 60;

/**
 * altcha-lib loads at the first challenge or proof of work, not at start: most forms never turn proof of work
 * on, and a server at rest keeps only what it uses (docs/operations.md, "Memory"). A synchronous `require`:
 * CommonJS loads it in place the first time and answers from its cache after.
 */
const loadAltcha = () => ({ lib: require('altcha-lib') as typeof AltchaModule, sha: require('altcha-lib/algorithms/sha') as typeof AltchaShaModule });

const refuse = (why: string) => badRequest(`This submission looks automated (${why}): answer through the form's page`, { reason: 'spam_suspected' });

interface SpamSettings {
  honeypot?: boolean;
  proof_of_work?: boolean;
}

export class SpamGuard {
  private readonly secret: string;
  private readonly keySecret: string;

  constructor(private readonly formloom: Formloom) {
    const secret = formloom.config.secretKey;
    this.secret = createHash('sha256').update(`formloom-altcha:${secret}`).digest('hex');
    this.keySecret = createHash('sha256').update(`formloom-altcha-key:${secret}`).digest('hex');
  }

  /** A new challenge for the form `formId`: deterministic (the server knows the answer's key, signed). */
  challenge(formId: string): Promise<Challenge> {
    const { lib, sha } = loadAltcha();
    return lib.createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(POW_COUNTER_RANGE[0], POW_COUNTER_RANGE[1]),
      deriveKey: sha.deriveKey,
      data: { form: formId },
      expiresAt: new Date(this.formloom.clock.now().getTime() + CHALLENGE_SECONDS * 1000),
      hmacSignatureSecret: this.secret,
      hmacKeySignatureSecret: this.keySecret,
    });
  }

  /** The submission service's `screen`: throws `spam_suspected` unless the body passes the form's checks. */
  screen = async (snapshot: Record<string, unknown>, formId: string, spamCheck: unknown): Promise<void> => {
    const settings = (snapshot.spam_protection ?? null) as SpamSettings | null;
    if (!settings || (!settings.honeypot && !settings.proof_of_work)) return;
    const given = (spamCheck ?? {}) as { honeypot?: string; proof?: string };
    if (settings.honeypot && given.honeypot !== '') throw refuse(given.honeypot === undefined ? 'no honeypot' : 'honeypot filled');
    if (settings.proof_of_work) await this.verify(formId, given.proof);
  };

  private async verify(formId: string, proof: string | undefined): Promise<void> {
    if (!proof) throw refuse('no proof of work');
    let payload: { challenge?: Challenge; solution?: { counter?: unknown; derivedKey?: unknown } };
    try {
      payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
    } catch {
      throw refuse('unreadable proof of work');
    }
    const challenge = payload?.challenge;
    const solution = payload?.solution;
    if (!challenge?.parameters || typeof challenge.signature !== 'string' || typeof solution?.counter !== 'number' || typeof solution.derivedKey !== 'string') {
      throw refuse('unreadable proof of work');
    }
    let ok = false;
    try {
      const { lib, sha } = loadAltcha();
      const r = await lib.verifySolution({
        challenge,
        solution: { counter: solution.counter, derivedKey: solution.derivedKey },
        deriveKey: sha.deriveKey,
        hmacSignatureSecret: this.secret,
        hmacKeySignatureSecret: this.keySecret,
      });
      ok = r.verified && !r.expired;
    } catch {
      ok = false;
    }
    // The form is in the signed parameters: a solution for one form is no use on another.
    if (!ok || challenge.parameters.data?.form !== formId) throw refuse('proof of work not valid for this form');
    const expires = new Date((challenge.parameters.expiresAt ?? 0) * 1000).toISOString();
    const spent = await this.formloom.storage.rateLimits.hit(`altcha:${challenge.parameters.nonce}`, this.formloom.clock.now().toISOString(), expires);
    if (spent.hits > 1) throw refuse('proof of work already used');
  }
}
