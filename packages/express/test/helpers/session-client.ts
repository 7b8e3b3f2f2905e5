import type { MailMessage, Mailer } from '@formloom/core';
import type { ApiResponse, TestApp } from './app';
import { waitFor } from '@formloom/core/testing';

/** A mailer that keeps what it is given: the mail server is the boundary these tests stand at. */
export function mailbox(): Mailer & { messages: MailMessage[]; linkTo(to: string, page: string): Promise<string> } {
  const messages: MailMessage[] = [];
  return {
    messages,
    async send(message) {
      messages.push(message);
      return { id: `m${messages.length}` };
    },
    /** The token of the newest link to `<public>/<page>#token=` mailed to `to`, once the outbox worker sent it. */
    async linkTo(to, page) {
      const re = new RegExp(`/${page}#token=([A-Za-z0-9_-]+)`);
      let token: string | undefined;
      await until(() => {
        const mail = messages.filter((m) => m.to === to && re.test(m.text ?? '')).at(-1);
        token = mail ? re.exec(mail.text ?? '')![1] : undefined;
        return !!token;
      });
      return token!;
    },
  };
}

/** Waits until `fn` holds (the shared `waitFor`); throws after `ms`. */
export async function until(fn: () => boolean | Promise<boolean>, ms = 20_000) {
  await waitFor(fn, { timeoutMs: ms });
}

/**
 * A browser as the API sees it: keeps the `formloom_session` cookie it is given and the last `csrf_token`,
 * and sends `Origin` (the app's URL) and `X-Formloom-CSRF` as the workspace does, unless told not to.
 */
export class Browser {
  cookie: string | null = null;
  csrf: string | null = null;
  constructor(private readonly app: TestApp) {}

  async call(
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; key?: string; csrf?: boolean; origin?: string | null } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = `formloom_session=${this.cookie}`;
    const origin = opts.origin === undefined ? this.app.url : opts.origin;
    if (origin) headers.origin = origin;
    if (this.csrf && opts.csrf !== false) headers['x-formloom-csrf'] = this.csrf;
    const res = await this.app.api(method, path, { body: opts.body, key: opts.key, headers: { ...headers, ...opts.headers } });
    const set = res.headers.get('set-cookie');
    const m = set && /formloom_session=([^;]*)/.exec(set);
    if (m) this.cookie = m[1] || null;
    if (typeof res.body?.csrf_token === 'string') this.csrf = res.body.csrf_token;
    return res;
  }
}

let seq = 0;
export const newEmail = (label = 'person') => `${label}${process.pid}_${Date.now()}_${++seq}@example.com`;
export const PASSWORD = 'correct horse battery';

/**
 * An open-mode sign-up as a person makes it: `POST /auth/signup` answers 202, the mailed link's token and
 * the password make the account (`POST /auth/signup/finish`). Returns the finish's answer (201 and the
 * session in `b`); the first account of an empty instance and invitation sign-ups answer 201 at once.
 */
export async function signUpByMail(app: TestApp, mails: ReturnType<typeof mailbox>, b: Browser, body: { email: string; password?: string; [k: string]: unknown }): Promise<ApiResponse> {
  const password = body.password ?? PASSWORD;
  const seen = mails.messages.length;
  const first = await b.call('POST', '/auth/signup', { body: { ...body, password } });
  if (first.status !== 202) return first;
  // The default poll (500 ms): the sign-up's mail wakes the worker as it is queued (outbox.enqueued), and a
  // worker polling every 50 ms for the rest of the file cost more CPU than the tests' own requests.
  app.formloom.worker.start();
  // This sign-up's own link: one mailed after the request, not an earlier sign-up's for the same address.
  const to = body.email.trim().toLowerCase();
  const re = /\/auth\/finish#token=([A-Za-z0-9_-]+)/;
  let token = '';
  await until(() => {
    const mail = mails.messages.slice(seen).find((m) => m.to === to && re.test(m.text ?? ''));
    token = mail ? re.exec(mail.text ?? '')![1]! : '';
    return !!token;
  }, 60_000);
  return b.call('POST', '/auth/signup/finish', { body: { token, password } });
}
