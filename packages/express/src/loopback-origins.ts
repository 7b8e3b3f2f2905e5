/** Host names of this machine's loopback interface, as a browser writes them in an origin. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins that stand for the public URL's `origin` in the sign-in and CSRF `Origin` check: that origin,
 * and when its host is a loopback address (the default public URL `http://127.0.0.1:3000`), the other
 * loopback names of the same scheme and port. A newcomer who opens `http://localhost:3000` reaches the same
 * server on the same machine; no other site is served from these origins, so accepting them lets no
 * cross-site request through (docs/security.md, "Sessions").
 */
export function acceptedOrigins(origin: string): ReadonlySet<string> {
  const accepted = new Set([origin]);
  const url = new URL(origin);
  if (LOOPBACK_HOSTS.includes(url.hostname)) {
    for (const host of LOOPBACK_HOSTS) accepted.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
  }
  return accepted;
}
