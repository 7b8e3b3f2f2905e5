/**
 * The window a respondent's `started_at` must fall in (docs/decisions.md "Responses and uploads"): it feeds
 * `average_completion_time_seconds`, so a made-up start years back would swamp the average.
 */
export const STARTED_AT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Clock skew tolerated between a respondent's device and the server. */
export const STARTED_AT_MAX_SKEW_MS = 5 * 60 * 1000;

/** Why `startedAt` is out of the window relative to `now`, or null when it is inside. */
export function startedAtProblem(startedAt: Date, now: Date): string | null {
  const t = startedAt.getTime();
  if (Number.isNaN(t)) return 'must be an ISO 8601 date-time';
  if (t > now.getTime() + STARTED_AT_MAX_SKEW_MS) return 'must not be after the submission (5 minutes of clock skew allowed)';
  if (t < now.getTime() - STARTED_AT_MAX_AGE_MS) return 'must be at most 30 days before the submission';
  return null;
}

/** Where an upload's answer URL points: `<publicUrl>/<mount>/public/uploads/<formId>/<32 hex>/<name>`. */
const UPLOAD_PATH = /\/public\/uploads\/([^/]+)\/[0-9a-f]{32}\/[^/]+$/;

/** True when `url` is the URL the upload endpoint gave for a file of form `formId` on this instance. */
export function isUploadUrlOf(publicUrl: string, formId: string, url: string): boolean {
  const base = publicUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/`) || url.length > 2048) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.search || u.hash || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
  const m = UPLOAD_PATH.exec(u.pathname);
  return !!m && m[1] === encodeURIComponent(formId);
}
