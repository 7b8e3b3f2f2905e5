/**
 * The instance setting for apps whose tests make and check passwords but not the hash's cost: scrypt at its
 * least cost (N = 2) instead of the default N = 16,384, about 30 ms of CPU a hash, which sign-ups, sign-ins,
 * resets and signing-session passwords paid some 250 times in the auth, accounts, rate-limits and signing
 * files. The default cost stays tested by auth/password-cost.ts (and every app made without this setting).
 */
export const CHEAP_PASSWORDS = { passwordHashCost: 1 } as const;
