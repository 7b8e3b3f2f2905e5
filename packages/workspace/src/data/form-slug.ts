import { ApiError, type Api } from './client';
import type { Form } from './forms';

/*
 * The form's address (PUT /forms/:id/slug, docs/decisions.md "The form's address"). The rules mirror the
 * server's (core forms/form-slug.ts) so a person sees what is wrong while typing; the server still decides.
 */
const MIN = 3;
const MAX = 64;
const PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const RESERVED = new Set([
  'admin', 'api', 'app', 'assets', 'auth', 'dashboard', 'embed', 'f', 'form', 'forms', 'help', 'login',
  'logout', 'new', 'null', 'official', 'openapi', 'public', 's', 'settings', 'signin', 'signout', 'signup',
  'static', 'support', 'system', 'teams', 'undefined', 'workspace', 'www',
]);

/** What is wrong with `slug` as an address, in plain words, or '' when it may be sent. */
export function slugProblem(slug: string): string {
  if (slug.length < MIN) return `Use at least ${MIN} characters.`;
  if (slug.length > MAX) return `Use at most ${MAX} characters.`;
  if (!PATTERN.test(slug)) return 'Use lower-case letters, digits and single hyphens between words, e.g. customer-feedback.';
  if (RESERVED.has(slug)) return 'This word is kept for the service itself: choose another.';
  return '';
}

/** A typed title or text made into an address suggestion (`Customer Feedback!` -> `customer-feedback`). */
export function suggestSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX)
    .replace(/-+$/, '');
}

/** Saves the address; the answer is the form and its new ETag (the address is part of it). */
export async function changeSlug(api: Api, id: string, slug: string): Promise<{ form: Form; etag: string | null }> {
  let r;
  try {
    r = await api.client.PUT('/forms/{id}/slug', { params: { path: { id } }, body: { slug } });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  if (!r.response.ok || !r.data) throw ApiError.from(r.response.status, r.error);
  return { form: r.data as Form, etag: r.response.headers.get('ETag') };
}
