import { z } from 'zod';

/*
 * The one email-address rule of the API (docs/decisions.md "Email addresses"): what OpenAPI's
 * `format: email` means for a mailbox that can receive mail (RFC 5321 section 4.1.2 and 4.5.3.1, RFC 5322
 * dot-atom), and nothing looser. Every field that takes an address (invitations, signers, notify_emails,
 * send-code, user creation, email answers) uses it, so the document and the server agree.
 */

/** Longest address (RFC 5321's 256-octet path less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART = 64;

// atext of RFC 5322, in dot-separated atoms (no leading, trailing or doubled dot); no quoted strings.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// A host name label: letters, digits and inner hyphens, 1 to 63 characters.
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// The top-level label is not all digits, so `a@1.2.3.4` (an address literal in disguise) is refused.
const TOP_LABEL = /[A-Za-z]/;

/**
 * True when `s` is a deliverable address: a dot-atom local part of at most 64 characters, `@`, and a
 * domain of two or more labels of at most 63 characters each (no leading or trailing `-`), 254 characters
 * in all. Quoted local parts and address literals (`[192.0.2.1]`) are refused.
 */
export function isEmailAddress(s: string): boolean {
  if (s.length > MAX_EMAIL_LENGTH) return false;
  const at = s.lastIndexOf('@');
  if (at < 1) return false;
  const local = s.slice(0, at);
  const labels = s.slice(at + 1).split('.');
  if (local.length > MAX_LOCAL_PART || !LOCAL_PART.test(local)) return false;
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  return TOP_LABEL.test(labels[labels.length - 1]!);
}

const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LABEL_SOURCE = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * `isEmailAddress` as one ECMA-262 regular expression, for the OpenAPI document's `pattern` (a client or a
 * fuzzer cannot run our function): white space around the address (the request schema trims it), the
 * 64-character local part as a lookahead, the top label with a letter as another. With `maxLength` (254,
 * counted on the string as sent) it accepts exactly what the request schema accepts; the tests hold the two
 * to the same verdicts. Valid with and without the `u` flag.
 */
export const EMAIL_ADDRESS_PATTERN =
  `^\\s*(?=[^@]{1,${MAX_LOCAL_PART}}@)[${ATEXT}]+(?:\\.[${ATEXT}]+)*@(?:${LABEL_SOURCE}\\.)+(?=[A-Za-z0-9-]*[A-Za-z])${LABEL_SOURCE}\\s*$`;

/**
 * The request-body schema of an email address: at most 254 characters as sent, trimmed, checked by
 * `isEmailAddress`; `format: email` and `EMAIL_ADDRESS_PATTERN` in OpenAPI.
 */
export const emailAddress = () =>
  z
    .string()
    // Counted before trimming, so that the document's maxLength is the whole rule on length.
    .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
    .trim()
    .refine(isEmailAddress, 'must be a valid email address')
    .meta({
      format: 'email',
      pattern: EMAIL_ADDRESS_PATTERN,
      description:
        'A mailbox: a dot-atom local part of at most 64 characters (letters, digits and !#$%&\'*+/=?^_`{|}~- in dot-separated runs; no quoted strings), `@`, a host name of two or more labels (letters, digits, inner hyphens, at most 63 characters each; the last one not all digits; no address literals); white space around it is dropped',
    });
